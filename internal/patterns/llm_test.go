package patterns

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/diary"
	"go.yaml.in/yaml/v4"
)

// oracleAnswer is the answer a model that grouped every labelled lesson
// right would give, in the wire format, with each group's rule.
func oracleAnswer(t *testing.T, docs []Doc, key Labels) string {
	t.Helper()
	lines := Lines(docs)
	type group struct {
		Lines   []string `json:"lines"`
		Rule    string   `json:"rule"`
		Opposes int      `json:"opposes,omitempty"`
	}
	var gs []group
	num := map[string]int{}
	for _, ls := range [][]Labelled{key.Patterns, key.Coincidences, key.OneOffs} {
		for _, l := range ls {
			g := group{Rule: l.Lesson}
			for _, q := range l.Support {
				for i, ln := range lines {
					if ln.Diary == q.Diary && strings.Contains(ln.Text, q.Quote) {
						g.Lines = append(g.Lines, fmt.Sprintf("L%d", i+1))
						break
					}
				}
			}
			gs = append(gs, g)
			num[l.ID] = len(gs)
		}
	}
	for _, c := range key.Conflicts {
		gs[num[c[1]]-1].Opposes = num[c[0]]
	}
	b, err := json.Marshal(map[string]any{"groups": gs})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestModelGroupsCounted: given a grouping by meaning, memdir counts the
// tasks itself: every planted pattern is found with its tasks, no
// coincidence (two tasks) and no one-off is proposed, conflicts are
// reported, and the model's rule words the proposals.
func TestModelGroupsCounted(t *testing.T) {
	for _, half := range []string{"tune", "heldout"} {
		docs, key := loadSet(t, filepath.Join("testdata", half))
		lines := Lines(docs)
		ans := oracleAnswer(t, docs, key)
		groups, err := ParseGroups("Here you go:\n"+ans, 0, len(lines))
		if err != nil {
			t.Fatal(err)
		}
		res := FromGroups(docs, groups, Options{})
		s := Evaluate(res, key)
		if s.Found != s.Planted || s.Coincidences != 0 || s.OneOffs != 0 || s.Spurious != 0 {
			t.Errorf("%s: %+v", half, s)
		}
		if len(res.Conflicts) == 0 {
			t.Errorf("%s: the planted conflict is not reported", half)
		}
		for _, p := range res.Patterns {
			if p.Conflict != "" {
				if len(p.Proposals) != 0 {
					t.Errorf("%s: %s is in a conflict yet has proposals", half, p.ID)
				}
				continue
			}
			if r := p.Proposals[0]; r.Kind != KindRule || !strings.Contains(strings.ToLower(lessons(key)), strings.ToLower(strings.TrimSuffix(r.Title, "."))) {
				t.Errorf("%s: %s's rule %q is not the model's", half, p.ID, r.Title)
			}
		}
	}
}

func lessons(k Labels) string {
	var b strings.Builder
	for _, l := range k.Patterns {
		b.WriteString(l.Lesson + "\n")
	}
	return b.String()
}

func TestParseGroupsRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"no json":      "I think they are all the same",
		"no groups":    `{"patterns": []}`,
		"unknown line": `{"groups": [{"lines": ["L1", "L99"], "rule": "x"}]}`,
		"bad id":       `{"groups": [{"lines": ["l1"], "rule": "x"}]}`,
		"twice":        `{"groups": [{"lines": ["L1"], "rule": "x"}, {"lines": ["L1"], "rule": "y"}]}`,
		"long rule":    `{"groups": [{"lines": ["L1"], "rule": "` + strings.Repeat("x", 201) + `"}]}`,
		"two lines":    `{"groups": [{"lines": ["L1"], "rule": "a\nb"}]}`,
		"extra field":  `{"groups": [{"lines": ["L1"], "rule": "x", "note": 1}]}`,
		"self oppose":  `{"groups": [{"lines": ["L1"], "rule": "x", "opposes": 1}]}`,
		"oppose none":  `{"groups": [{"lines": ["L1"], "rule": "x", "opposes": 7}]}`,
	} {
		if _, err := ParseGroups(in, 0, 5); !errors.Is(err, ErrInvalidAnswer) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// A line left out of the request cannot be grouped.
	if _, err := ParseGroups(`{"groups": [{"lines": ["L2", "L4"], "rule": "x"}]}`, 2, 5); !errors.Is(err, ErrInvalidAnswer) {
		t.Errorf("an omitted line was accepted: %v", err)
	}
	for name, in := range map[string]string{} {
		if _, err := ParseGroups(in, 0, 5); !errors.Is(err, ErrInvalidAnswer) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// TestCommandFrontmatterIsYAML: a rule with ": " and backticks stays a
// string in the command file's frontmatter.
func TestCommandFrontmatterIsYAML(t *testing.T) {
	p := Pattern{ID: "pabcdef", Title: "Run `make migrate` before the integration tests: the tables must exist", Tasks: []string{"a", "b", "c"},
		Signatures: []string{"cmd:make migrate"}}
	for _, pr := range ProposeWith(p, "") {
		if pr.Kind != KindCommand {
			continue
		}
		front, _, ok := strings.Cut(strings.TrimPrefix(pr.Content, "---\n"), "\n---\n")
		var m map[string]string
		if !ok || yaml.Unmarshal([]byte(front), &m) != nil || !strings.HasPrefix(m["description"], "Run `make migrate`") {
			t.Errorf("frontmatter %q: %v", front, m)
		}
		return
	}
	t.Fatal("no command proposal")
}

// TestRedactionPlaceholdersAreNoPattern: three diaries that each had a
// secret redacted share only the placeholder, which is no lesson.
func TestRedactionPlaceholdersAreNoPattern(t *testing.T) {
	var docs []Doc
	for i, l := range []string{"Token [REDACTED:github-token] leaked in the log", "Pasted [REDACTED:github-token] into chat", "Commit held [REDACTED:github-token] by mistake"} {
		e := diary.Entry{Task: "t", Date: fmt.Sprintf("2026-01-0%d", i+1)}
		e.Add(diary.Mistakes, l)
		docs = append(docs, Doc{ID: fmt.Sprintf("d%d", i), Entry: e})
	}
	if res := Find(docs, Options{}); len(res.Patterns) != 0 {
		t.Errorf("patterns: %+v", res.Patterns)
	}
}

// TestOneSessionIsOneTask: the same task's diary written three times in
// one session (a draft made again) is one task, not a pattern.
func TestOneSessionIsOneTask(t *testing.T) {
	var docs []Doc
	for i := range 3 {
		e := diary.Entry{Task: "Fix the store test", Session: "s-1", Date: fmt.Sprintf("2026-01-0%d", i+1)}
		e.Add(diary.Mistakes, "Forgot to run `make migrate` before the integration tests, the table was missing")
		docs = append(docs, Doc{ID: fmt.Sprintf("2026-01-0%d-fix", i+1), Entry: e})
	}
	if res := Find(docs, Options{}); len(res.Patterns) != 0 {
		t.Errorf("one session's task made a pattern: %+v", res.Patterns[0].Tasks)
	}
	docs[2].Entry.Task = "Another task"
	docs[1].Entry.Session = "s-2"
	if res := Find(docs, Options{}); len(res.Patterns) != 1 || len(res.Patterns[0].Tasks) != 3 {
		t.Errorf("three tasks: %+v", res.Patterns)
	}
}

// TestGroupRequest_OneSessionIsOneTask: a model is told the tasks as
// memdir counts them: the same task's diary written twice in one session
// is one T, another task another.
func TestGroupRequest_OneSessionIsOneTask(t *testing.T) {
	var docs []Doc
	for i, task := range []string{"Fix the store test", "Fix the store test", "Add the export"} {
		e := diary.Entry{Task: task, Session: "s-1", Date: fmt.Sprintf("2026-01-0%d", i+1)}
		e.Add(diary.Mistakes, fmt.Sprintf("Lesson line %d about the integration tests and make migrate", i+1))
		docs = append(docs, Doc{ID: fmt.Sprintf("2026-01-0%d-fix", i+1), Entry: e})
	}
	msg, _ := GroupRequest(Lines(docs), Result{})
	for _, want := range []string{"L1 [T1,", "L2 [T1,", "L3 [T2,"} {
		if !strings.Contains(msg, want) {
			t.Errorf("request lacks %q:\n%s", want, msg)
		}
	}
}

// TestCommandProposalPrefersTheStep: a lesson's command is the step
// before the check, not the check.
func TestCommandProposalPrefersTheStep(t *testing.T) {
	p := Pattern{ID: "pabcdef", Title: "Ran `make migrate-up` before `go test ./...`", Tasks: []string{"a", "b", "c"},
		Signatures: []string{"cmd:go test", "cmd:make migrate-up"}}
	for _, pr := range ProposeWith(p, "") {
		if pr.Kind == KindCommand && pr.Name != "make-migrate-up" {
			t.Errorf("command %q", pr.Name)
		}
	}
}
