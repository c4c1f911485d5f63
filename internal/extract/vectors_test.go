package extract

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/testenv"
)

// TestVectors runs the extraction decisions over the conversations in
// testdata/vectors, one subtest per file, named by the outcome it expects.
// A vector is a txtar archive:
//
//	-- messages --   one message a line, "role: text"; role is user,
//	                 assistant, tool or meta (harness text); "assistant
//	                 wrote PATH: text" wrote PATH (/mem is the memory folder)
//	-- existing --   the live memories recall proposes, best first,
//	                 "type file: description"
//	-- answer --     optional: a model engine's answer (else the heuristic
//	                 engine proposes)
//	-- plan --       the expected plan, one action a line with its reason in
//	                 parentheses; "none: why" when the gates do not run, and
//	                 "refused: why" for a refused answer
//
// A memory created or superseding another joins the proposals for the next
// action as "new-N.md", as the apply step makes it visible to recall.
func TestVectors(t *testing.T) {
	testenv.Vectors(t, "testdata/vectors/*.txt", func(t *testing.T, sections map[string]string, _ string) {
		if _, ok := sections["plan"]; !ok {
			t.Fatal("no plan section")
		}
		got := vectorPlan(t, sections)
		if want := strings.TrimSpace(sections["plan"]); got != want {
			t.Errorf("plan:\n%s\nwant:\n%s", got, want)
		}
	})
}

func vectorPlan(t *testing.T, sections map[string]string) string {
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	var msgs []Message
	for i, line := range lines(sections["messages"]) {
		role, text, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("message %q: want role: text", line)
		}
		m := Message{Role: role, Text: text, Time: at.Add(time.Duration(i) * time.Minute), ID: fmt.Sprintf("u%d", i+1)}
		if r, path, ok := strings.Cut(role, " wrote "); ok {
			m.Role, m.Wrote = r, []string{path}
		}
		if m.Role == "meta" {
			m.Role, m.Meta = "user", true
		}
		msgs = append(msgs, m)
	}
	var existing []Existing
	for _, line := range lines(sections["existing"]) {
		head, desc, _ := strings.Cut(line, ": ")
		typ, file, _ := strings.Cut(head, " ")
		existing = append(existing, Existing{File: file, Type: typ, Description: desc})
	}
	d := Decide(msgs, "/mem", 0, 1, false)
	if !d.Run {
		return "none: " + d.Why
	}
	var proposed []Action
	if answer, ok := sections["answer"]; ok {
		var files []string
		for _, e := range existing {
			files = append(files, e.File)
		}
		ops, err := ParseOps(answer, files)
		if err != nil {
			return "refused: " + err.Error()
		}
		proposed = FromOps(ops, "v", "test")
	} else {
		cands, _ := Heuristic(msgs, "v")
		proposed = FromCandidates(cands)
	}
	var out []string
	for i, a := range proposed {
		a = Reconcile(a, existing)
		out = append(out, a.String()+" ("+a.Reason+")")
		if a.Op == Create || a.Op == Supersede {
			live := []Existing{{File: fmt.Sprintf("new-%d.md", i+1), Type: a.Memory.Type, Description: a.Memory.Description}}
			for _, e := range existing {
				if a.Op != Supersede || e.File != a.Target {
					live = append(live, e)
				}
			}
			existing = live
		}
	}
	if len(out) == 0 {
		return "(nothing)"
	}
	return strings.Join(out, "\n")
}

func lines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestContradicts: a reversed choice is a contradiction, as a negation is;
// a restatement is not.
func TestContradicts(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     bool
	}{
		{"I prefer pnpm over npm", "Actually, I prefer npm over pnpm now", true},
		{"Use tabs instead of spaces", "Use spaces instead of tabs", true},
		{"Prefer table tests rather than subtests", "Prefer subtests rather than table tests", true},
		{"I prefer pnpm over npm", "I really prefer pnpm over npm", false},
		{"Always run the linters before pushing", "Never run the linters before pushing", true},
		{"Always run the linters before pushing", "Run the linters before every push", false},
	} {
		if got := Contradicts(tc.old, tc.new); got != tc.want {
			t.Errorf("Contradicts(%q, %q) = %v, want %v (%s)", tc.old, tc.new, got, tc.want, Contradiction(tc.old, tc.new))
		}
	}
}
