package workspace_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
)

// learnClock is when the learning tests recall (local time: daily
// summaries are named by local dates).
var learnClock = time.Date(2026, 11, 25, 14, 0, 0, 0, time.Local)

const projectLongTerm = `# proj

## Pinned

## Error Patterns to Avoid
- **Migrations lock the orders table** [proj/error] (2026-11-18): Running the schema migration at noon locked the orders table for minutes
  - Lesson: Run orders migrations with lock_timeout set, outside business hours

## Best Practices

## Data Quirks
- **Legacy customer ids** [proj/data-quirk] (2026-11-10): Customer ids below 1000 are test accounts
  - Lesson: Filter customer_id >= 1000 in revenue reports

## Key Decisions

## Useful Commands

---
*Last updated: 2026-11-20*
`

const globalLongTerm = `# Global Long-Term Memory

## About Me
- Prefers terse answers

## Current Projects

## Technical Environment

## Patterns & Preferences

## Pinned

## Key Learnings

## Error Patterns to Avoid
- **Permission glob syntax** [global/error] (2026-11-20): Used a colon star instead of a slash star in a permission glob
  - Lesson: Use slash for path separators in permission globs

## Best Practices

---
*Last synthesized: 2026-11-20*
`

// daily is a daily summary of date for projects, with one learning.
func daily(date, projects, learning string) string {
	return "# " + date + "\n\n<!-- projects: " + projects + " -->\n\n## Sessions Summary\nWorked on the release.\n\n## Topics\n- Release\n\n" +
		"## Key Points\n- The flaky checkout test fails because the payment sandbox rate-limits parallel runs\n\n## Learnings\n" + learning + "\n"
}

// synthesisFiles writes files (relative to the synthesis folder) for ws.
func synthesisFiles(t *testing.T, ws *workspace.Workspace, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(ws.Layout.SynthesisDir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func learningsWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws := recallWorkspace(t, [3]string{"feedback", "Integration tests hit a real database", "Never mock PostgreSQL in integration tests"})
	synthesisFiles(t, ws, map[string]string{
		"project-memory/proj-long-term-memory.md": projectLongTerm,
		"global-long-term-memory.md":              globalLongTerm,
		"daily/2026-11-24.md": daily("2026-11-24", "proj", "- **Docker compose healthcheck** [proj/best-practice] (2026-11-24): The api container started before postgres accepted connections\n"+
			"  - Lesson: Add a healthcheck to the postgres service and depends_on condition service_healthy"),
		// Too old for ContextDays (7): never read.
		"daily/2026-11-01.md": daily("2026-11-01", "proj", "- **Ancient kubernetes quota** [proj/error] (2026-11-01): The kubernetes namespace quota rejected the deploy\n  - Lesson: Raise the namespace quota first"),
		// Another project's day: its learnings of that project are not this one's.
		"daily/2026-11-23.md": daily("2026-11-23", "other", "- **Other grafana dashboards** [other/decision] (2026-11-23): The grafana dashboards moved to the other repo\n  - Lesson: Edit grafana dashboards in the other repo"),
	})
	return ws
}

func recallAt(t *testing.T, ws *workspace.Workspace, query string, p recall.Policy) workspace.Recalled {
	t.Helper()
	rec, err := ws.Recall(t.Context(), workspace.Query{Text: query, Policy: p, Now: learnClock})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range rec.Warnings {
		t.Errorf("warning: %s", w)
	}
	return rec
}

func TestRecall_Learnings(t *testing.T) {
	ws := learningsWorkspace(t)
	for _, tc := range []struct {
		query string
		want  []string // substrings of the injected text; nil: nothing injected
		not   []string
	}{
		{query: "the orders migration locked the table again, how do we run it?",
			want: []string{"<memdir-learnings>", "**Migrations lock the orders table** [proj/error] (2026-11-18, project-memory/proj-long-term-memory.md)", "Lesson: Run orders migrations with lock_timeout"}},
		{query: "api container starts before postgres accepts connections in docker compose",
			want: []string{"**Docker compose healthcheck** [proj/best-practice] (2026-11-24, daily/2026-11-24.md)", "service_healthy"}},
		{query: "the checkout test is flaky: payment sandbox rate limits?",
			want: []string{"[key point] (2026-11-24, daily/2026-11-24.md): The flaky checkout test fails"}},
		{query: "permission glob syntax for path separators",
			want: []string{"[global/error] (2026-11-20, global-long-term-memory.md)"}},
		{query: "the kubernetes namespace quota rejected the deploy", not: []string{"Ancient kubernetes quota"}},
		{query: "where are the grafana dashboards edited", not: []string{"grafana"}},
		{query: "write a haiku about autumn leaves falling on a quiet pond"},
		{query: "rename the variable in this function to something clearer"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := recallAt(t, ws, tc.query, recall.DefaultPolicy)
			if tc.want == nil && tc.not == nil && rec.Text != "" {
				t.Fatalf("an unrelated prompt injected:\n%s", rec.Text)
			}
			for _, w := range tc.want {
				if !strings.Contains(rec.Text, w) {
					t.Errorf("text lacks %q:\n%s", w, rec.Text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(rec.Text, n) {
					t.Errorf("text has %q:\n%s", n, rec.Text)
				}
			}
			if kept := rec.KeptLearnings(); len(kept) > workspace.LearningK || len(kept) == 0 && strings.Contains(rec.Text, "<memdir-learnings>") {
				t.Errorf("kept %v", kept)
			}
		})
	}
}

// TestRecall_LearningsWithMemories: memories and learnings answer one
// prompt together, the memories first; the report lists both; a session
// that was given a learning is not given it again; NoLearnings leaves
// them out.
func TestRecall_LearningsWithMemories(t *testing.T) {
	ws := learningsWorkspace(t)
	q := "integration tests: mock postgresql or add a docker compose healthcheck?"
	rec := recallAt(t, ws, q, recall.DefaultPolicy)
	mem, learn := strings.Index(rec.Text, "Integration tests hit a real database"), strings.Index(rec.Text, "Docker compose healthcheck")
	if mem < 0 || learn < mem {
		t.Fatalf("want the memory, then the learning:\n%s", rec.Text)
	}
	kept := rec.KeptLearnings()
	if !slices.Contains(kept, "daily/2026-11-24.md#Docker compose healthcheck") {
		t.Errorf("KeptLearnings()=%v", kept)
	}
	if len(rec.Kept()) != 1 {
		t.Errorf("Kept()=%v, want the memory only", rec.Kept())
	}
	rep := rec.Report(q, true)
	if len(rep.Learnings) == 0 || !rep.Learnings[0].Kept || rep.Learnings[0].Date != "2026-11-24" {
		t.Errorf("report's learnings: %+v", rep.Learnings)
	}
	if !slices.ContainsFunc(rep.Candidates, func(c workspace.RecallCandidate) bool { return c.File == kept[0] && c.Kept }) {
		t.Errorf("report's candidates lack %s: %+v", kept[0], rep.Candidates)
	}

	p := recall.DefaultPolicy
	p.Exclude = append(rec.Kept(), kept...)
	again := recallAt(t, ws, q, p)
	if strings.Contains(again.Text, "Docker compose healthcheck") {
		t.Errorf("a learning given in the session came again:\n%s", again.Text)
	}

	none, err := ws.Recall(t.Context(), workspace.Query{Text: q, Policy: recall.DefaultPolicy, Now: learnClock, NoLearnings: true})
	if err != nil || strings.Contains(none.Text, "memdir-learnings") || none.Learnings != nil {
		t.Errorf("NoLearnings: %v\n%s", err, none.Text)
	}
}

// TestRecall_LearningsBudget: the learnings take what the memories left
// of the budget, and never more than LearningBudget.
func TestRecall_LearningsBudget(t *testing.T) {
	ws := learningsWorkspace(t)
	q := "docker compose postgres healthcheck, orders migration lock timeout, permission glob path separators"
	for _, budget := range []int{recall.MinBudget() - 1, recall.MinBudget() + 30, 3000} {
		p := recall.DefaultPolicy
		p.Budget = budget
		rec := recallAt(t, ws, q, p)
		if got := recall.Tokens(rec.Text); got > budget {
			t.Errorf("budget %d: %d tokens:\n%s", budget, got, rec.Text)
		}
		if budget == 3000 {
			_, section, _ := strings.Cut(rec.Text, "<memdir-learnings>")
			if section == "" || recall.Tokens(section) > workspace.LearningBudget {
				t.Errorf("budget %d: learnings section of %d tokens:\n%s", budget, recall.Tokens(section), rec.Text)
			}
		}
	}
}

// TestRecallSynthesis: a project without memories still recalls what
// synthesis wrote; a malformed file is a warning and is left out.
func TestRecallSynthesis(t *testing.T) {
	ws := learningsWorkspace(t)
	synthesisFiles(t, ws, map[string]string{"global-long-term-memory.md": "# Global\n\n## Error Patterns to Avoid\n- **Broken** [global/nonsense] (2026-11-20): not a type\n"})
	rec := workspace.RecallSynthesis(ws.Env, ws.Layout, workspace.Query{Text: "the orders migration locked the table", Policy: recall.DefaultPolicy, Now: learnClock})
	if !strings.Contains(rec.Text, "Migrations lock the orders table") {
		t.Errorf("text:\n%s", rec.Text)
	}
	if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "global-long-term-memory.md") {
		t.Errorf("warnings: %q", rec.Warnings)
	}
}

// BenchmarkRecall_Learnings is the prompt hook's recall (KeptOnly) on a
// project of 200 memories, without any synthesis file and with a global
// file, a project file and 7 daily summaries.
func BenchmarkRecall_Learnings(b *testing.B) {
	for _, tc := range []struct {
		name            string
		files, learning bool
	}{
		{name: "memories only (NoLearnings)"},
		{name: "no synthesis files", learning: true},
		{name: "global, project and 7 days", files: true, learning: true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			ws := benchWorkspace(b, tc.files)
			q := workspace.Query{Text: "the orders migration locked the table again, how do we run it?", Policy: recall.DefaultPolicy, KeptOnly: true, Now: learnClock, NoLearnings: !tc.learning}
			for b.Loop() {
				if _, err := ws.Recall(b.Context(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRecallLearnings is the part of a prompt's recall that ranks
// what synthesis wrote, alone: what it adds to every prompt.
func BenchmarkRecallLearnings(b *testing.B) {
	for _, files := range []bool{false, true} {
		name := "no synthesis files"
		if files {
			name = "global, project and 7 days"
		}
		b.Run(name, func(b *testing.B) {
			ws := benchWorkspace(b, files)
			for b.Loop() {
				workspace.RecallLearnings(ws.Env, ws.Layout, "the orders migration locked the table again, how do we run it?", recall.DefaultPolicy, "", learnClock)
			}
		})
	}
}

func benchWorkspace(b *testing.B, withFiles bool) *workspace.Workspace {
	b.Helper()
	root := b.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o700)
	vars := map[string]string{"HOME": root}
	ws, err := workspace.Open(workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: proj, Holder: "bench"}, true)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		name := "memory " + strings.Repeat("x", i%7) + " " + time.Duration(i).String()
		if _, err := ws.Save(b.Context(), workspace.SaveRequest{Type: "project", Name: name, Description: "a note about deploys and tests number " + name, Body: "Body of the note."}); err != nil {
			b.Fatal(err)
		}
	}
	// The synthesis folder exists in every home the hooks ran in.
	os.MkdirAll(filepath.Join(ws.Layout.SynthesisDir, "logs"), 0o700)
	if withFiles {
		files := map[string]string{"project-memory/proj-long-term-memory.md": projectLongTerm, "global-long-term-memory.md": globalLongTerm}
		for d := range 7 {
			date := learnClock.AddDate(0, 0, -d).Format(time.DateOnly)
			files["daily/"+date+".md"] = daily(date, "proj", "- **Docker compose healthcheck "+date+"** [proj/best-practice] ("+date+"): The api container started before postgres\n  - Lesson: Add a healthcheck")
		}
		for rel, text := range files {
			p := filepath.Join(ws.Layout.SynthesisDir, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(p), 0o700)
			if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	return ws
}
