package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
)

// undatedGlobal is a global long-term file from before decay: no Pinned
// section, no dates. Migrate pins "Force push wipes history" by itself
// (safety-critical); the three others are the model's to judge.
const undatedGlobal = `# Global Long-Term Memory

## About Me
- I am a backend developer.

## Key Learnings
- **Heap scans on Dataiku** [global/data-quirk]: Dataiku tables have no indexes
  - Lesson: Plan queries by row counts

## Error Patterns to Avoid
- **Force push wipes history** [global/error]: A force push to main wiped a colleague's commits
  - Lesson: Never force push shared branches
- **Pin pandas 2.1.3** [global/error]: pandas 2.2 broke read_csv dtypes
  - Lesson: Pin pandas==2.1.3 until the fix ships

## Best Practices
- **PreToolUse hooks for subagents** [global/best-practice]: Subagents don't inherit permissions
  - Lesson: Use PreToolUse hooks with permissionDecision allow
`

// candidates are the learnings the model is shown for undatedGlobal.
func candidates(t *testing.T) []learning.Candidate {
	t.Helper()
	g, err := learning.ParseFile(learning.GlobalFile, learning.GlobalFileName, "", undatedGlobal)
	if err != nil {
		t.Fatal(err)
	}
	m := &learning.Memory{Global: g}
	learning.Migrate(m, "2026-11-25")
	cs := learning.Pinnable(m)
	if len(cs) != 3 {
		t.Fatalf("candidates %+v", cs)
	}
	return cs
}

func TestModelPins_Request(t *testing.T) {
	t.Parallel()
	c := answering(`{"pin": [{"index": 3, "reason": "Hard-won lesson, applies across all projects using subagents"}]}`)
	pin, why, usage, err := modelPins(context.Background(), c, candidates(t))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pin, []int{2}) || why[2] != "Hard-won lesson, applies across all projects using subagents" || len(why) != 1 {
		t.Fatalf("pin %v, why %v", pin, why)
	}
	if usage != (llm.Usage{InputTokens: 100, OutputTokens: 10}) {
		t.Fatalf("usage %+v", usage)
	}
	reqs := c.Requests()
	if len(reqs) != 1 || !reqs[0].JSON || reqs[0].System != pinSystem || len(reqs[0].Messages) != 1 {
		t.Fatalf("requests %+v", reqs)
	}
	prompt := reqs[0].Messages[0].Content
	for _, want := range []string{
		// The criteria.
		"Safety-critical information (error patterns that could cause data loss, security issues)",
		"Patterns that apply across multiple projects",
		"Version-specific fixes (likely to become outdated)",
		"Recently discovered patterns (let them prove value over time before pinning)",
		"when in doubt, do not pin",
		// The learnings, numbered, with file, section, tag, date and lesson.
		"[1] global-long-term-memory.md, ## Key Learnings\n- **Heap scans on Dataiku** [global/data-quirk] (2026-11-25): Dataiku tables have no indexes\n  - Lesson: Plan queries by row counts\n",
		"[2] global-long-term-memory.md, ## Error Patterns to Avoid\n- **Pin pandas 2.1.3** [global/error] (2026-11-25)",
		"[3] global-long-term-memory.md, ## Best Practices\n- **PreToolUse hooks for subagents**",
		`{"pin": [{"index": N, "reason":`, "(1 to 3)",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "Force push") {
		t.Errorf("the prompt shows a learning Migrate pinned already:\n%s", prompt)
	}
}

func TestModelPins_None(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]string{
		"Empty":  `{"pin": []}`,
		"Fenced": "```json\n{\"pin\": []}\n```",
	} {
		t.Run(name, func(t *testing.T) {
			pin, why, _, err := modelPins(context.Background(), answering(answer), candidates(t))
			if err != nil || len(pin) != 0 || len(why) != 0 {
				t.Fatalf("pin %v, why %v, err %v", pin, why, err)
			}
		})
	}
	c := answering(`{"pin": []}`)
	if _, _, _, err := modelPins(context.Background(), c, nil); err != nil || len(c.Requests()) != 0 {
		t.Fatalf("no learnings: err %v, %d requests", err, len(c.Requests()))
	}
}

func TestModelPins_Refused(t *testing.T) {
	t.Parallel()
	const good = `{"pin": [{"index": 1, "reason": "Applies to every Dataiku query"}]}`
	for name, tc := range map[string]struct{ answer, problem string }{
		"IndexZero":     {`{"pin": [{"index": 0, "reason": "x"}]}`, "index 0 is out of range (1 to 3)"},
		"IndexPast":     {`{"pin": [{"index": 4, "reason": "x"}]}`, "index 4 is out of range (1 to 3)"},
		"Duplicate":     {`{"pin": [{"index": 2, "reason": "x"}, {"index": 2, "reason": "y"}]}`, "pin 2: index 2 is given twice"},
		"EmptyReason":   {`{"pin": [{"index": 2, "reason": "  "}]}`, "the reason is empty"},
		"NoReason":      {`{"pin": [{"index": 2}]}`, `"index" and "reason" are required`},
		"NoIndex":       {`{"pin": [{"reason": "x"}]}`, `"index" and "reason" are required`},
		"TwoLines":      {`{"pin": [{"index": 2, "reason": "one\ntwo"}]}`, "the reason is not one line"},
		"LongReason":    {`{"pin": [{"index": 2, "reason": "` + strings.Repeat("é", 201) + `"}]}`, "the reason is 201 characters (at most 200)"},
		"NotJSON":       {"I would pin the hooks one.", "not the expected JSON object"},
		"NoList":        {`{"pins": []}`, "not the expected JSON object"},
		"NullList":      {`{"pin": null}`, `no "pin" list`},
		"FloatIndex":    {`{"pin": [{"index": 1.5, "reason": "x"}]}`, "not the expected JSON object"},
		"TwoValues":     {`{"pin": []} {"pin": []}`, "more than one JSON value"},
		"UnknownField":  {`{"pin": [{"index": 1, "reason": "x", "file": "a"}]}`, "not the expected JSON object"},
		"StringIndex":   {`{"pin": [{"index": "1", "reason": "x"}]}`, "not the expected JSON object"},
		"ReasonControl": {`{"pin": [{"index": 1, "reason": "a\tb"}]}`, "the reason is not one line"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cs := candidates(t)
			// Refused once, then accepted: the retry states the problem.
			c := answering(tc.answer, good)
			pin, why, usage, err := modelPins(context.Background(), c, cs)
			if err != nil || !slices.Equal(pin, []int{0}) || why[0] != "Applies to every Dataiku query" {
				t.Fatalf("after a retry: pin %v, why %v, err %v", pin, why, err)
			}
			if usage.InputTokens != 200 {
				t.Errorf("usage %+v, want both calls'", usage)
			}
			reqs := c.Requests()
			if len(reqs) != 2 || len(reqs[1].Messages) != 3 || reqs[1].Messages[1].Content != tc.answer ||
				!strings.Contains(reqs[1].Messages[2].Content, tc.problem) || !reqs[1].JSON {
				t.Fatalf("the retry does not state %q: %+v", tc.problem, reqs[len(reqs)-1].Messages)
			}
			// Refused twice: an error naming the problem, no third call.
			c = answering(tc.answer)
			pin, _, usage, err = modelPins(context.Background(), c, cs)
			if err == nil || !strings.Contains(err.Error(), "refused twice") || !strings.Contains(err.Error(), tc.problem) || pin != nil {
				t.Fatalf("refused twice: pin %v, err %v", pin, err)
			}
			if n := len(c.Requests()); n != 2 || usage.OutputTokens != 20 {
				t.Fatalf("%d requests, usage %+v", n, usage)
			}
		})
	}
}

func TestModelPins_EngineFails(t *testing.T) {
	t.Parallel()
	c := &llmtest.Client{CompleteFunc: func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, fmt.Errorf("429 too many requests")
	}}
	if _, _, _, err := modelPins(context.Background(), c, candidates(t)); err == nil || !strings.Contains(err.Error(), "429") || len(c.Requests()) != 1 {
		t.Fatalf("err %v after %d requests", err, len(c.Requests()))
	}
}

func TestModelPins_Capped(t *testing.T) {
	t.Parallel()
	cs := make([]learning.Candidate, pinListMax+50)
	for i := range cs {
		cs[i] = learning.Candidate{File: learning.GlobalFileName, Section: learning.KeyLearnings,
			Learning: learning.Learning{Title: fmt.Sprintf("Learning %d", i+1), Scope: learning.Global, Type: learning.Command, Date: "2026-11-25", Description: "x"}}
	}
	if n := pinShown(cs); n != pinListMax {
		t.Fatalf("pinShown = %d, want %d", n, pinListMax)
	}
	// A learning past the list may not be pinned.
	c := answering(fmt.Sprintf(`{"pin": [{"index": %d, "reason": "x"}]}`, pinListMax+1), `{"pin": [{"index": 400, "reason": "the last shown"}]}`)
	pin, _, _, err := modelPins(context.Background(), c, cs)
	if err != nil || !slices.Equal(pin, []int{pinListMax - 1}) {
		t.Fatalf("pin %v, err %v", pin, err)
	}
	prompt := c.Requests()[0].Messages[0].Content
	if !strings.Contains(prompt, "[400] ") || strings.Contains(prompt, "[401] ") || !strings.Contains(prompt, "(50 more learnings are not shown: they are not pinned.)") {
		t.Fatalf("the prompt's list is not cut at %d", pinListMax)
	}
	// The character budget cuts too: long texts are shortened, and the
	// list stops within pinBudget.
	long := strings.Repeat("word ", 200)
	for i := range cs {
		cs[i].Learning.Description, cs[i].Learning.Lesson = long, long
	}
	n := pinShown(cs)
	if n >= pinListMax || n < 100 {
		t.Fatalf("pinShown with long learnings = %d", n)
	}
	if p := pinPrompt(cs, n); len(p) > pinBudget+10_000 || strings.Contains(p, long) {
		t.Fatalf("the prompt is %d bytes, or holds an uncut text", len(p))
	}
}

// migrationHome is a temp agent home whose global long-term file is
// undatedGlobal, not migrated yet.
func migrationHome(t *testing.T) (Transcripts, string) {
	t.Helper()
	tr := dueHome(t)
	if err := os.MkdirAll(filepath.Join(tr.Layout.Home, "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := tr.Folder.WriteFile(learning.GlobalFileName, []byte(undatedGlobal)); err != nil {
		t.Fatal(err)
	}
	p, err := tr.Folder.Path(learning.GlobalFileName)
	if err != nil {
		t.Fatal(err)
	}
	return tr, p
}

// synthesizeWith runs Synthesize with the anthropic engine played by c,
// and returns the result and the warnings.
func synthesizeWith(t *testing.T, tr Transcripts, c llm.Client, dryRun bool) (SynthesisResult, []string) {
	t.Helper()
	var warnings []string
	o := SynthesizeOptions{Engine: "anthropic", DryRun: dryRun, Now: dueClock,
		Models: Models{Chat: func(string, time.Duration) (llm.Client, error) { return c, nil }}}
	res, err := tr.Synthesize(context.Background(), Env{}, o, Report{Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	return res, warnings
}

// pinnedOf returns the Pinned learnings of the global file at p, each as
// "title | notes".
func pinnedOf(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	g, err := learning.ParseFile(learning.GlobalFile, learning.GlobalFileName, "", string(b))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range g.Learnings(learning.Pinned) {
		out = append(out, l.Title+" | "+strings.Join(l.Notes, "; "))
	}
	return out
}

func TestSynthesize_ModelMigrationPins(t *testing.T) {
	t.Parallel()
	tr, p := migrationHome(t)
	c := answering(`{"pin": [{"index": 3, "reason": "Hard-won lesson, applies across all projects using subagents"}, {"index": 1, "reason": "Applies to every Dataiku query"}]}`)
	res, warnings := synthesizeWith(t, tr, c, false)
	if !res.Migrated || !tr.Folder.Migrated() || len(warnings) != 0 {
		t.Fatalf("migrated %v, marker %v, warnings %q", res.Migrated, tr.Folder.Migrated(), warnings)
	}
	if n := len(c.Requests()); n != 1 {
		t.Fatalf("%d requests, want the one pinning request", n)
	}
	want := []string{
		"Heap scans on Dataiku | *Pinned: Applies to every Dataiku query*",
		"PreToolUse hooks for subagents | *Pinned: Hard-won lesson, applies across all projects using subagents*",
		"Force push wipes history | *Pinned: safety-critical (migration 2026-11-25)*",
	}
	if got := pinnedOf(t, p); !slices.Equal(got, want) {
		t.Fatalf("Pinned:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.ContainsFunc(res.Plan, func(op learning.Op) bool {
		return op.Kind == "pin" && op.Learning.Title == "PreToolUse hooks for subagents" &&
			op.Reason == "Hard-won lesson, applies across all projects using subagents; moved from ## Best Practices"
	}) {
		t.Errorf("the plan lacks the model's pin: %+v", res.Plan)
	}
	if res.Tokens.InputTokens != 100 || res.Tokens.OutputTokens != 10 {
		t.Errorf("tokens %+v, want the pinning call's", res.Tokens)
	}
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "]: ") {
		t.Errorf("an undated learning is left:\n%s", b)
	}

	// The second run migrates nothing and asks nothing.
	res, warnings = synthesizeWith(t, tr, c, false)
	after, _ := os.ReadFile(p)
	if res.Migrated || len(c.Requests()) != 1 || string(after) != string(b) || len(warnings) != 0 {
		t.Fatalf("second run: migrated %v, %d requests, warnings %q, file changed %v", res.Migrated, len(c.Requests()), warnings, string(after) != string(b))
	}
}

func TestSynthesize_ModelMigrationPinsRefused(t *testing.T) {
	t.Parallel()
	tr, p := migrationHome(t)
	c := answering(`{"pin": [{"index": 7, "reason": "x"}]}`, `{"pin": [{"index": 1, "reason": "a"}, {"index": 1, "reason": "b"}]}`)
	res, warnings := synthesizeWith(t, tr, c, false)
	if !res.Migrated || !tr.Folder.Migrated() {
		t.Fatalf("a model failure failed the migration: migrated %v, marker %v", res.Migrated, tr.Folder.Migrated())
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "heuristic criteria only") || !strings.Contains(warnings[0], "index 1 is given twice") {
		t.Fatalf("warnings %q", warnings)
	}
	if got := pinnedOf(t, p); !slices.Equal(got, []string{"Force push wipes history | *Pinned: safety-critical (migration 2026-11-25)*"}) {
		t.Fatalf("Pinned %q, want the heuristic pin alone", got)
	}
	if len(c.Requests()) != 2 || res.Tokens.InputTokens != 200 {
		t.Fatalf("%d requests, tokens %+v", len(c.Requests()), res.Tokens)
	}
	if _, warnings = synthesizeWith(t, tr, c, false); len(c.Requests()) != 2 || len(warnings) != 0 {
		t.Fatalf("the second run asked again (%d requests) or warned %q", len(c.Requests()), warnings)
	}
}

func TestSynthesize_ModelMigrationPinsDryRun(t *testing.T) {
	t.Parallel()
	tr, p := migrationHome(t)
	c := answering(`{"pin": [{"index": 1, "reason": "Applies to every Dataiku query"}]}`)
	res, _ := synthesizeWith(t, tr, c, true)
	if !slices.ContainsFunc(res.Plan, func(op learning.Op) bool {
		return op.Kind == "pin" && op.Learning.Title == "Heap scans on Dataiku" && strings.HasPrefix(op.Reason, "Applies to every Dataiku query")
	}) {
		t.Fatalf("the dry run's plan lacks the model's pin: %+v", res.Plan)
	}
	if b, _ := os.ReadFile(p); string(b) != undatedGlobal || tr.Folder.Migrated() {
		t.Fatalf("the dry run wrote: marker %v, file\n%s", tr.Folder.Migrated(), b)
	}
}

func TestApplyPicks_ChangedMeanwhile(t *testing.T) {
	t.Parallel()
	cs := candidates(t) // chosen on the files as they were
	// Another writer edits a lesson before the lock is taken.
	g, err := learning.ParseFile(learning.GlobalFile, learning.GlobalFileName, "",
		strings.Replace(undatedGlobal, "Plan queries by row counts", "Plan queries by row estimates", 1))
	if err != nil {
		t.Fatal(err)
	}
	m := &learning.Memory{Global: g}
	learning.Migrate(m, "2026-11-25")
	var warnings []string
	y := &synthesizer{today: "2026-11-25", r: Report{Warn: func(s string) { warnings = append(warnings, s) }}}
	ops := y.applyPicks(m, []pinPick{{cs[0], "Applies to every Dataiku query"}, {cs[2], "Hard-won"}})
	if len(ops) != 1 || ops[0].Learning.Title != "PreToolUse hooks for subagents" {
		t.Fatalf("ops %+v, want the unchanged pick's alone", ops)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `"Heap scans on Dataiku" in global-long-term-memory.md changed`) {
		t.Fatalf("warnings %q", warnings)
	}
	if ls := g.Learnings(learning.KeyLearnings); len(ls) != 1 || ls[0].Title != "Heap scans on Dataiku" {
		t.Fatalf("## Key Learnings %+v: the changed learning moved", ls)
	}
}
