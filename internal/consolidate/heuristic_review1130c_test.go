package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Defects a read-only review of the fresh24 changes (2026-11-30, 2d52396)
// demonstrated, each failing on that commit: rules that over-reached.

// r3plan plans one project memory among five unrelated ones.
func r3plan(it Item) Plan {
	it.File, it.Name = "m.md", "m"
	if it.Type == "" {
		it.Type = "project"
	}
	return planAmongFillers(it)
}

// 1. "at month end" / "at quarter end" with no end word is a routine, not a day.
func TestHeuristic_Review3MonthEndRoutine(t *testing.T) {
	for _, d := range []string{"Finance closes the books at month end; payouts freeze then.", "Access reviews run at quarter end."} {
		if p := r3plan(Item{Description: d, Body: "Ask Marta.", Created: date("2026-03-10")}); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: a routine expired: %v", d, reasons(p))
		}
	}
}

// 2. A routine over a rolling window: recurs() now ignores it, expire() ends it.
func TestHeuristic_Review3RollingWindowForNext(t *testing.T) {
	for _, b := range []string{"The forecast job runs daily and plans capacity for the next two weeks.",
		"Customers can book berths for the next 30 days, and the window rolls forward nightly."} {
		if p := r3plan(Item{Description: "Booking and forecast windows", Body: b, Created: date("2026-03-10")}); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: a rolling window expired: %v", b, reasons(p))
		}
	}
}

// 3. reQuarterBudget drops the year: Q3 2027 ends 2026-09-30.
func TestHeuristic_Review3QuarterBudgetYear(t *testing.T) {
	if p := r3plan(Item{Description: "Q3 2027 GPU budget is $40k, approved early.", Body: "Ask Marta.", Created: date("2026-07-02")}); slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("2027's budget expired in 2026: %v", reasons(p))
	}
}

// 4. "Sprint 24 starts …" is the next sprint, not the current one.
func TestHeuristic_Review3NumberedSprintAhead(t *testing.T) {
	p := r3plan(Item{Description: "The alert cleanup slipped; it's first up next sprint", Created: date("2026-11-20"),
		Body: "Sprint 24 starts 2026-11-30; sprints are two weeks.\nThe cleanup is the first thing next sprint."})
	for _, op := range p.Ops {
		if op.Edit != nil && strings.Contains(op.Edit.Body, "2026-12-14") {
			t.Errorf("next sprint dated a sprint late: %q", op.Edit.Body)
		}
	}
}

// 5. maskYearFramed: a year on one date of a sentence hides the others.
func TestHeuristic_Review3YearOfAnotherClause(t *testing.T) {
	for _, it := range []Item{
		{Description: "Pen test booked.", Body: "Booked on 2 Feb 2026, the pen test runs 9 to 13 March.", Created: date("2026-02-02")},
		{Description: "Contract signed 12 Jan 2026; go-live on 3 March.", Body: "Kwame owns it.", Created: date("2026-01-12")},
	} {
		if p := r3plan(it); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: a passed event not expired: %v", it.Body, reasons(p))
		}
	}
}

// 6. namedRoutine reads three words on: "the Tuesday before the demo" is a day, not a routine.
func TestHeuristic_Review3WeekdayBeforeTheDemo(t *testing.T) {
	p := r3plan(Item{Description: "Acme demo this Thursday; dry run the Tuesday before the demo.", Body: "Kwame owns it.", Created: date("2026-03-02")})
	if !slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("passed demo not expired: %v", reasons(p))
	}
}

// 7. A sprint length and a weekday span in one sentence is not a weekly routine.
func TestHeuristic_Review3SpanInThisSprint(t *testing.T) {
	p := r3plan(Item{Description: "Staging is reserved for QA Monday to Wednesday in this two-week sprint.", Body: "Kwame owns it.", Created: date("2026-11-02")})
	if !slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("passed reservation not expired: %v", reasons(p))
	}
}

// 8. "switched off in prod", "archived nightly": a policy, nothing gone.
func TestHeuristic_Review3SwitchedOffIsNoMove(t *testing.T) {
	for _, tc := range []struct{ old, new Item }{
		{Item{Name: "Debug logging locally", Description: "Turn on debug logging locally with LOG_LEVEL=debug", Body: "It is noisy but shows SQL."},
			Item{Name: "Prod log level", Description: "Debug logging is switched off in prod; prod runs at info", Body: "Set by the helm chart."}},
		{Item{Name: "Support tickets", Description: "Customer support tickets go to the Zendesk queue 'Platform'", Body: "Triage them each morning."},
			Item{Name: "Ticket retention", Description: "Closed support tickets are archived nightly to cold storage", Body: "Ask support to restore one."}},
	} {
		tc.old.Type, tc.new.Type = "project", "project"
		if p := reviewPair(tc.old, tc.new); slices.Contains(ids(p), "supersede:new.md+old.md") {
			t.Errorf("%s: false supersede: %v", tc.new.Name, reasons(p))
		}
	}
}

// 9. reOthersDefault: "The rest is standard" is no exception.
func TestHeuristic_Review3RestIsStandard(t *testing.T) {
	p := reviewPair(Item{Name: "Deploys via Jenkins", Type: "project", Description: "Services deploy through the Jenkins pipeline", Body: "Run the deploy job with the service name."},
		Item{Name: "Deploys via Argo CD", Description: "Services deploy through Argo CD now; Jenkins was retired", Body: "Merge to main and Argo syncs. The rest is standard."})
	if !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("no supersede: %v", reasons(p))
	}
}

// 10. fragment(): a "Key: value" line is two words, and is the value.
func TestHeuristic_Review3KeyValueLine(t *testing.T) {
	p := reviewPair(Item{Name: "Lambda runtime", Description: "Runtime and memory of the API Lambdas", Body: "- Runtime: nodejs18.x\n- Memory: 512 MB"},
		Item{Name: "Lambda runtime now", Description: "Runtime and memory of the API Lambdas", Body: "- Runtime: nodejs22.x\n- Memory: 512 MB"})
	if !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("runtime change not a supersede: %v", reasons(p))
	}
}

// 11-13. Prunes.
func TestHeuristic_Review3Prunes(t *testing.T) {
	never := Usage{Since: date("2026-01-12")}
	stale := Usage{Since: date("2026-01-12"), Injected: 2, LastInjected: date("2026-04-16")}
	for _, tc := range []struct {
		it   Item
		want bool
	}{
		// a lesson that ends "Fixed." is not a passing note
		{Item{Description: "The checkout spec shared a Redis key with the cart spec; namespace Redis keys per test", Body: "Renamed the keys. Fixed.", Usage: stale}, false},
		// reOnlyReport deletes a standing rule with "was" in it
		{Item{Description: "Only the payments service may call Stripe, as was agreed with security.", Body: "Others go through its API.", Usage: never}, false},
		// "after" before "investigating": still under way
		{Item{Description: "After the 4.2 deploy, still investigating why p99 doubled on /search", Body: "Suspect the new analyzer.", Usage: stale}, true},
	} {
		tc.it.Created = date("2026-03-12")
		if p := r3plan(tc.it); slices.Contains(ids(p), "prune:m.md") != tc.want {
			t.Errorf("%q: pruned %v, want %v", tc.it.Description, !tc.want, tc.want)
		}
	}
}
