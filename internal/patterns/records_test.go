package patterns

import (
	"strings"
	"testing"
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
	recs, flags := Reconcile(nil, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-01-10")
	if len(recs) != 1 || recs[0].Support != 3 || len(flags) != 0 {
		t.Fatalf("first run: %+v %+v", recs, flags)
	}
	// Absent now: flagged stale, record kept.
	recs2, flags := Reconcile(recs, Result{}, "2026-01-11")
	if len(recs2) != 1 || len(flags) != 1 || flags[0].Kind != FlagStale || !strings.Contains(flags[0].Reason, "not found") {
		t.Fatalf("absent: %+v", flags)
	}
	// Seen, but last 90+ days ago: stale.
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-04-03")
	if len(flags) != 1 || flags[0].Kind != FlagStale {
		t.Fatalf("90 days: %+v", flags)
	}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-02", "2026-01-03")}}, "2026-04-01")
	if len(flags) != 0 {
		t.Fatalf("88 days: %+v", flags)
	}
	// Applied on the 5th, seen in two tasks after: recurring. One is not.
	recs[0].Applied = []Applied{{Kind: KindRule, At: "2026-01-05T10:00:00Z"}}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06", "2026-01-07")}}, "2026-01-08")
	if len(flags) != 1 || flags[0].Kind != FlagRecurring {
		t.Fatalf("recurring: %+v", flags)
	}
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06")}}, "2026-01-08")
	if len(flags) != 0 {
		t.Fatalf("one task after: %+v", flags)
	}
	// Reverted: no longer flagged.
	recs[0].Applied[0].RevertedAt = "2026-01-06T00:00:00Z"
	_, flags = Reconcile(recs, Result{Patterns: []Pattern{pat("p000001", "2026-01-01", "2026-01-05", "2026-01-06", "2026-01-07")}}, "2026-01-08")
	if len(flags) != 0 {
		t.Fatalf("reverted: %+v", flags)
	}
}
