package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Defects a third read-only review (2026-11-30) demonstrated in b181b6d,
// each failing on that commit.

// r5pair plans an older and a newer project memory, with their usage,
// among unrelated ones.
func r5pair(old, new Item, ou, nu Usage, fillers ...string) Plan {
	old.File, old.Type, old.Created, old.Usage = "old.md", "project", date("2026-03-12"), ou
	new.File, new.Type, new.Created, new.Usage = "new.md", "project", date("2026-09-08"), nu
	return Heuristic(Input{Now: now, Items: amongFillers([]Item{old, new}, "reference", append(slices.Clone(fillerBodies), fillers...)...)})
}

// r5u is usage with h helpful and w wrong marks.
func r5u(h, w int) Usage {
	return Usage{Since: date("2026-01-05"), Injected: 20, Helpful: h, Wrong: w, LastInjected: date("2026-10-01")}
}

// (1) wrongJaccard ignores twoThings: the local Postgres memory is "superseded" by the local Redis one.
func TestHeuristic_Review5WrongSupersedesOtherThing(t *testing.T) {
	pg := Item{Name: "Local Postgres", Description: "The local Postgres listens on 5432 in docker compose", Body: "Start it with docker compose up db; the local Postgres listens on 5432."}
	rd := Item{Name: "Local Redis", Description: "The local Redis listens on 6379 in docker compose", Body: "Start it with docker compose up cache; the local Redis listens on 6379."}
	if p := r5pair(pg, rd, r5u(4, 1), r5u(5, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("helpful 4, wrong 1: Postgres retired by Redis: %v", reasons(p))
	}
	if p := r5pair(pg, rd, r5u(1, 2), r5u(5, 0)); !slices.Contains(ids(p), "prune:old.md") {
		t.Errorf("wrong 2: Redis named its replacement instead of a prune: %v", reasons(p))
	}
}

// (3) rePastClause: "were/kept/switched/took/now" anywhere in the clause hides a forward end.
func TestHeuristic_Review5PastClauseHidesEnd(t *testing.T) {
	for _, d := range []string{"The 96 extra vCPUs were approved through September.", "The v1 endpoint is kept until June for the old mobile apps.",
		"Now that Kwame is on leave, Ana covers on-call until June.", "Billing is switched to manual invoices until June.", "Hana took over the pager until June."} {
		if p := r3plan(r4it("2026-04-01", d, "Ask Luca.")); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: not expired: %v", d, reasons(p))
		}
	}
}

// (4) reQuarterBudget on the name: a lesson named for the quarter it happened in expires.
func TestHeuristic_Review5QuarterInNameExpiresLesson(t *testing.T) {
	it := Item{File: "m.md", Name: "Q1 GPU spend overrun", Type: "project", Created: date("2026-03-20"),
		Description: "GPU node pools need a TTL", Body: "Always set a TTL on GPU node pools; the cleanup job checks it."}
	if p := Heuristic(Input{Now: now, Items: amongFillers([]Item{it}, "reference", "Use one PR per change.", "Dashboards live in Grafana.")}); slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("a standing lesson expired: %v", reasons(p))
	}
}

// (5) reWeeksOwn in every memory, reNextOfEach in weekly ones: one-off "next week" lost.
func TestHeuristic_Review5NextWeekOneOff(t *testing.T) {
	for _, d := range []string{"Next week's release is skipped for the audit", "Priya covers next week's on-call while Kwame is out"} {
		if p := r3plan(r4it("2026-10-01", d, "Ask Priya.")); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: not expired: %v", d, reasons(p))
		}
	}
	p := r3plan(r4it("2026-10-01", "Releases ship every Tuesday", "No release next week: the audit freezes prod."))
	if !slices.Contains(ids(p), "expire:m.md") && !slices.Contains(ids(p), "date:m.md") {
		t.Errorf("a one-off freeze next week neither dated nor expired: %v", reasons(p))
	}
}

// (7) maskMonthlyDays masks every "the Nth" of the text, not of the rate's sentence.
func TestHeuristic_Review5MonthlyMaskWholeText(t *testing.T) {
	if e := r4edits(r3plan(r4it("2026-03-03", "Exports", "Customers get 3 free exports per month. From the 14th, exports go through the new queue."))); !strings.Contains(e, "2026-03-14") {
		t.Errorf("a one-off start not dated: %q", e)
	}
	if p := r3plan(r4it("2026-03-01", "SMS pilot", "The pilot gives us 200 messages per month. The pilot ends on the 30th.")); len(p.Ops) == 0 {
		t.Error("a pilot ending on the 30th neither dated nor expired")
	}
}

// (7) maskMonthlyDays runs only in the non-weekly project branch: "resets on the 1st" still dated elsewhere.
func TestHeuristic_Review5MonthlyMaskMissing(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-11-18", "CI quota", "Deploys go out on Tuesdays. CI is capped at 3,000 minutes per month; the quota resets on the 1st."),
		{Type: "reference", Created: date("2026-11-18"), Description: "CI quota", Body: "CI is capped at 3,000 minutes per month; the quota resets on the 1st."},
	} {
		if e := r4edits(r3plan(it)); strings.Contains(e, "2026-12-01") {
			t.Errorf("%s: each month's 1st dated: %q", it.Type, e)
		}
	}
}

// (6) maskRoutineWeekdays numbers its marks from 0 inside maskYearDays' marks: the text is swapped.
func TestHeuristic_Review5MaskMarkCollision(t *testing.T) {
	it := Item{Type: "reference", Created: date("2026-11-18"), Description: "Clock changes",
		Body: "Clocks change twice a year, on the last Sunday of March and of October; the rota swaps every Monday. The new rota tool goes live next Friday."}
	if e := r4edits(r3plan(it)); !strings.Contains(e, "on the last Sunday of March") || !strings.Contains(e, "every Monday") {
		t.Errorf("text corrupted: %q", e)
	}
}

// (2) reNotAnyMore takes the one word after "the": "the old Jenkins box" is "old"; no supersede.
func TestHeuristic_Review5NotAnyMoreAdjective(t *testing.T) {
	old := Item{Name: "Jenkins box", Description: "Release builds run on the old Jenkins box (jenkins-01)", Body: "Trigger the release job by hand after tagging."}
	new := Item{Name: "Release builds", Description: "Release builds run in GitHub Actions on tag push", Body: "Nobody uses the old Jenkins box any more."}
	p := r5pair(old, new, r5u(3, 0), r5u(3, 0), "Old invoices are archived after a year.", "The old admin is read-only.",
		"Old feature flags are removed monthly.", "Delete old preview apps.", "Old logs go to cold storage.")
	if !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("no supersede (moves: %v): %v", moves("Nobody uses the old Jenkins box any more."), reasons(p))
	}
}
