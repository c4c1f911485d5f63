package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// TestHeuristic_ReadOnly: the user's global memories, read only in a
// project's dream. Every plan the heuristic makes over them passes
// Validate; a copy merges into one only as its text stands (not as a date
// rewrite would have it); a disagreement with one, older or newer, is
// left for a person or a model; and nothing of theirs is dated, expired,
// pruned or shortened.
func TestHeuristic_ReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items []Item
		want  []string // op IDs
		left  []string // files of a candidate left for a model
	}{
		{"a copy merges into the global memory",
			[]Item{
				{File: "global/terse.md", Name: "Prefers terse answers", Type: "user", Body: "The user wants short answers: no preamble, no closing summary.", Created: date("2026-09-01"), ReadOnly: true},
				{File: "terse-copy.md", Name: "Terse answers", Type: "user", Body: "The user wants short answers, no preamble.", Created: date("2026-10-03")},
			},
			[]string{"merge:global/terse.md+terse-copy.md"}, nil},
		{"a copy already dated, of a global memory that is not",
			[]Item{
				{File: "global/freeze.md", Name: "Billing deploy freeze", Type: "feedback", Body: "The billing deploy freeze starts next Monday.", Created: date("2026-03-02"), ReadOnly: true},
				{File: "freeze.md", Name: "Billing deploy freeze", Type: "feedback", Body: "The billing deploy freeze starts Monday 2026-03-09.", Created: date("2026-03-03")},
			},
			nil, []string{"freeze.md", "global/freeze.md"}},
		{"a newer global memory against a project's",
			[]Item{
				{File: "scripts.md", Name: "Scripts are zsh", Type: "user", Body: "The user writes shell scripts in zsh.", Created: date("2026-06-01")},
				{File: "global/shell.md", Name: "Shell is fish", Type: "user", Body: "The user moved from zsh to fish for shell scripts.", Created: date("2026-11-01"), ReadOnly: true},
			},
			nil, []string{"global/shell.md", "scripts.md"}},
		{"an older global memory against a project's",
			[]Item{
				{File: "global/shell.md", Name: "Shell is zsh", Type: "user", Body: "The user writes shell scripts in zsh.", Created: date("2026-06-01"), ReadOnly: true},
				{File: "fish.md", Name: "Shell is fish", Type: "user", Body: "The user moved from zsh to fish for shell scripts.", Created: date("2026-11-01")},
			},
			nil, []string{"fish.md", "global/shell.md"}},
		{"nothing global is dated, expired, pruned or shortened",
			[]Item{
				{File: "global/rust.md", Name: "Learning Rust", Type: "user", Description: strings.Repeat("learning Rust, new to the borrow checker ", 5), Body: "The user started learning Rust yesterday.", Created: date("2026-11-10"), ReadOnly: true, Usage: Usage{Wrong: 3, Since: date("2026-01-01")}},
				{File: "global/freeze.md", Name: "Freeze", Type: "project", Body: "Deploy freeze until 2026-10-01.", Created: date("2026-09-01"), ReadOnly: true},
			},
			nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Items: tc.items, Now: now}
			p := Heuristic(in)
			if err := Validate(in, p); err != nil {
				t.Fatalf("the heuristic's own plan: %v", err)
			}
			if got := ids(p); !slices.Equal(got, tc.want) {
				t.Errorf("ops %v, want %v", got, tc.want)
			}
			var left []string
			for _, c := range p.LeftForModel {
				if c.Kind != Merge || tc.left != nil {
					left = append(left, c.Files...)
				}
			}
			slices.Sort(left)
			left = slices.Compact(left)
			if tc.left != nil && !slices.Equal(left, tc.left) {
				t.Errorf("left for a model %v, want %v", left, tc.left)
			}
		})
	}
}
