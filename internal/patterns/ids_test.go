package patterns

import (
	"fmt"
	"testing"

	"github.com/memdir/memdir/internal/diary"
)

// threeLessons is seven diaries, three lessons.
func threeLessons() []Doc {
	return docsOf(diary.Patterns,
		"Run make migrate before the integration tests", "The integration tests need make migrate first",
		"Set TZ=UTC in CI for the date tests", "CI date tests need TZ=UTC",
		"Pin the node version in the CI image", "The CI image must pin node", "Node version pinned in the image for CI")
}

// TestIDsStayUnique: a group that loses a recorded id to another, or
// whose own id is another lesson's record, takes an id of its lines: no
// two patterns share an id, whatever the order of the groups.
func TestIDsStayUnique(t *testing.T) {
	docs := threeLessons()
	lines, keys := Lines(docs), keysOf(docs)
	ownB := patternID(lines, []int{2, 3})
	known := []Known{{ID: "pxxxxxx", Lines: []string{keys[0], keys[1], keys[2], keys[3]}}, {ID: ownB, Lines: []string{keys[2], keys[4], keys[5], keys[6]}}}
	for _, gs := range [][]Group{
		{{Lines: []int{4, 5, 6}, Opposes: -1}, {Lines: []int{0, 1}, Opposes: -1}, {Lines: []int{2, 3}, Opposes: -1}},
		{{Lines: []int{0, 1}, Opposes: -1}, {Lines: []int{2, 3}, Opposes: -1}, {Lines: []int{4, 5, 6}, Opposes: -1}}} {
		res := FromGroups(docs, gs, Options{MinTasks: 2, Known: known})
		seen := map[string]bool{}
		for _, p := range res.Patterns {
			if seen[p.ID] {
				t.Errorf("two patterns share id %s", p.ID)
			}
			seen[p.ID] = true
		}
	}
}

// TestDroppedGroupClaimsNoID: a one-task group the model formed does not
// take the recorded id from the pattern that still has its lines.
func TestDroppedGroupClaimsNoID(t *testing.T) {
	docs := threeLessons()
	keys := keysOf(docs)
	known := []Known{{ID: "pxxxxxx", Lines: []string{keys[0], keys[1]}}}
	res := FromGroups(docs, []Group{{Lines: []int{0}, Opposes: -1}, {Lines: []int{1, 2}, Opposes: -1}}, Options{MinTasks: 2, Known: known})
	_, flags := Reconcile([]Record{{ID: "pxxxxxx", Lines: known[0].Lines, Applied: []Applied{{Kind: KindRule, At: "2026-01-01T00:00:00Z"}}}}, res, "2026-01-09", Scope{})
	if res.Patterns[0].ID != "pxxxxxx" {
		t.Errorf("pattern %s, flags %+v", res.Patterns[0].ID, flags)
	}
}

// TestRecurringCountsTasks: a redraft of one session's task dated after
// the apply is not a second task seen again.
func TestRecurringCountsTasks(t *testing.T) {
	var docs []Doc
	for i := 0; i < 4; i++ {
		e := diary.Entry{Task: fmt.Sprintf("task %d", i), Session: fmt.Sprintf("s%d", i), Date: fmt.Sprintf("2026-02-%02d", i+1)}
		if i == 3 {
			e.Task, e.Session = "task 2", "s2"
		}
		e.Add(diary.Mistakes, "Forgot to run make migrate before the integration tests, missing table")
		docs = append(docs, Doc{ID: fmt.Sprintf("2026-02-%02d-t", i+1), Entry: e})
	}
	res := Find(docs, Options{})
	p := res.Patterns[0]
	_, flags := Reconcile([]Record{{ID: p.ID, Lines: p.Lines, Applied: []Applied{{Kind: KindRule, At: "2026-02-02T10:00:00Z"}}}}, res, "2026-02-05", Scope{})
	if len(flags) > 0 {
		t.Errorf("tasks=%v but flagged: %+v", p.Tasks, flags)
	}
}
