package patterns

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/diary"
)

func pat(id string, dates ...string) Pattern {
	p := Pattern{ID: id, Title: "t"}
	for i, d := range dates {
		diary := d + "-task-" + string(rune('a'+i))
		p.Tasks = append(p.Tasks, diary)
		p.Support = append(p.Support, Line{Diary: diary, Date: d, Text: "x"})
		if p.FirstSeen == "" || d < p.FirstSeen {
			p.FirstSeen = d
		}
		if d > p.LastSeen {
			p.LastSeen = d
		}
	}
	return p
}

func TestReconcile(t *testing.T) {
	// A new pattern gets a record; a second run keeps it and unions tasks.
	recs, flags := Reconcile(nil, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-01-10", Scope{})
	if len(recs) != 1 || recs[0].Support != 3 || len(flags) != 0 {
		t.Fatalf("first run: %+v %+v", recs, flags)
	}
	// Absent now: nothing applied from it, nothing to review; applied:
	// flagged stale, record kept.
	if _, flags := Reconcile(recs, Result{}, "2026-01-11", Scope{}); len(flags) != 0 {
		t.Fatalf("absent, nothing applied: %+v", flags)
	}
	applied := slices.Clone(recs)
	applied[0].Applied = []Applied{{Kind: KindRule, At: "2026-01-10T10:00:00Z"}}
	recs2, flags := Reconcile(applied, Result{}, "2026-01-11", Scope{})
	if len(recs2) != 1 || len(flags) != 1 || flags[0].Kind != FlagStale || !strings.Contains(flags[0].Reason, "not found") {
		t.Fatalf("absent: %+v", flags)
	}
	// Seen, but last 90+ days ago: stale.
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-04-03", Scope{})
	if len(flags) != 1 || flags[0].Kind != FlagStale {
		t.Fatalf("90 days: %+v", flags)
	}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-04-01", Scope{})
	if len(flags) != 0 {
		t.Fatalf("88 days: %+v", flags)
	}
	// Applied on the 5th, seen in two tasks after: recurring. One is not.
	recs[0].Applied = []Applied{{Kind: KindRule, At: "2026-01-05T10:00:00Z"}}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06", "2026-01-07")}}, "2026-01-08", Scope{})
	if len(flags) != 1 || flags[0].Kind != FlagRecurring {
		t.Fatalf("recurring: %+v", flags)
	}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06")}}, "2026-01-08", Scope{})
	if len(flags) != 0 {
		t.Fatalf("one task after: %+v", flags)
	}
	// Reverted: no longer flagged.
	recs[0].Applied[0].RevertedAt = "2026-01-06T00:00:00Z"
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06", "2026-01-07")}}, "2026-01-08", Scope{})
	if len(flags) != 0 {
		t.Fatalf("reverted: %+v", flags)
	}
}

// TestReconcileScope: a run over other projects, or over part of the
// diaries (--since), does not flag a record it could not see.
func TestReconcileScope(t *testing.T) {
	p := pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")
	p.Projects = []string{"api"}
	recs, _ := Reconcile(nil, Result{Patterns: []Pattern{p}}, "2026-01-10", Scope{})
	if len(recs) != 1 || len(recs[0].Projects) != 1 {
		t.Fatalf("records %+v", recs)
	}
	recs[0].Applied = []Applied{{Kind: KindRule, At: "2026-01-10T10:00:00Z"}}
	for name, sc := range map[string]Scope{"other project": {Projects: []string{"web"}}, "since": {Partial: true}} {
		if _, flags := Reconcile(recs, Result{}, "2026-01-11", sc); len(flags) != 0 {
			t.Errorf("%s: flags %+v", name, flags)
		}
	}
	for name, sc := range map[string]Scope{"its project": {Projects: []string{"api"}}, "all": {}} {
		if _, flags := Reconcile(recs, Result{}, "2026-01-11", sc); len(flags) != 1 || flags[0].Kind != FlagStale {
			t.Errorf("%s: flags %+v", name, flags)
		}
	}
}

// TestKnownIDs: a pattern keeps its recorded id when its earliest line
// changes (a run with --since leaves the first diary out).
func TestKnownIDs(t *testing.T) {
	docs := func(from int) []Doc {
		var out []Doc
		for i, l := range []string{
			"Forgot to run `make migrate` before the integration tests, they failed with a missing table",
			"The integration tests failed again because I did not run `make migrate` first",
			"Run `make migrate` before running the integration tests or the tables are missing",
			"Missing table errors in integration tests: `make migrate` had not been run",
		}[from:] {
			e := diary.Entry{Task: "t", Date: fmt.Sprintf("2026-01-0%d", i+from+1)}
			e.Add(diary.Mistakes, l)
			out = append(out, Doc{ID: fmt.Sprintf("2026-01-0%d-t", i+from+1), Entry: e})
		}
		return out
	}
	all := Find(docs(0), Options{})
	if len(all.Patterns) != 1 {
		t.Fatalf("patterns: %+v", all.Patterns)
	}
	recs, _ := Reconcile(nil, all, "2026-01-10", Scope{})
	later := Find(docs(1), Options{})
	if len(later.Patterns) != 1 || later.Patterns[0].ID == all.Patterns[0].ID {
		t.Fatalf("without records the id should move with the earliest line: %+v", later.Patterns)
	}
	known := Find(docs(1), Options{Known: KnownOf(recs)})
	if len(known.Patterns) != 1 || known.Patterns[0].ID != all.Patterns[0].ID {
		t.Errorf("with records the id is kept: %s, want %s", known.Patterns[0].ID, all.Patterns[0].ID)
	}
	if !strings.Contains(known.Patterns[0].Proposals[0].Content, all.Patterns[0].ID) {
		t.Errorf("the rule line names another id: %s", known.Patterns[0].Proposals[0].Content)
	}
}
