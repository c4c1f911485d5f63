package consolidate

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Defects a read-only review of de4f128 demonstrated; each fails on that commit.

// 1. forbids: a "never" anywhere in the older rule's sentence hides the reversal
// of its other clause; the two opposite rules are then merged automatically.
func TestReview1201_ForbidsHidesReversal(t *testing.T) {
	old := Item{Name: "Mocks in unit tests", Description: "Mock the payment gateway in unit tests, never call the sandbox", Body: "Mock the payment gateway in unit tests and never call the Stripe sandbox from them."}
	new := Item{Name: "No gateway mocks", Description: "Do not mock the payment gateway", Body: "Do not mock the payment gateway in unit tests; use the recorded fixtures instead."}
	p := reviewPair(old, new)
	if slices.Contains(ids(p), "merge:new.md+old.md") || !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("'mock it' and 'do not mock it' merged, not superseded: %v", reasons(p))
	}
}

// 2. withRelease: "deleted with release branches", "terminated with 30s grace"
// are a policy's condition, not the release something went with.
func TestReview1201_WithReleaseOverreach(t *testing.T) {
	for _, tc := range []struct{ old, new Item }{
		{Item{Name: "Preview environments", Description: "Every PR gets a preview environment on Vercel", Body: "Every PR gets a preview environment on Vercel with a seeded database."},
			Item{Name: "Preview cleanup", Description: "Preview environments are deleted with their release branches", Body: "Preview environments are deleted with release branches, by the cleanup workflow; seeded databases go too."}},
		{Item{Name: "Worker pods", Description: "Queue worker pods autoscale on queue depth", Body: "Queue worker pods autoscale between 2 and 10 replicas on queue depth (KEDA)."},
			Item{Name: "Worker shutdown", Description: "Queue worker pods get a 30s grace period", Body: "Queue worker pods are terminated with 30s grace; jobs must checkpoint within it."}},
	} {
		if p := r5pair(tc.old, tc.new, r5u(3, 0), r5u(3, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
			t.Errorf("%q: a policy read as gone: %v", tc.new.Body, reasons(p))
		}
	}
}

// 3. End-of-life said of a future day is no thing gone.
func TestReview1201_EndOfLifeAhead(t *testing.T) {
	old := Item{Name: "CI runtime", Description: "CI builds run on Node 18", Body: "CI builds and the Lambda functions run on Node 18 (the .nvmrc pins 18.20)."}
	new := Item{Name: "Node 18 end of life", Description: "Node 18 is end-of-life in April 2027; plan the move", Body: "Node 18 is end-of-life in April 2027. The platform team plans the move of CI and the Lambdas to Node 22 for March 2027."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("a future end-of-life retired the current runtime: %v", reasons(p))
	}
}

// 4. subjectOf's file-name rule: "kafka-broker-3.md" whose body says "Broker 3"
// loses its subject, and broker 4's memory retires broker 3's.
func TestReview1201_FileNameNumberIsAName(t *testing.T) {
	old := Item{File: "kafka-broker-3.md", Type: "project", Created: date("2026-03-12"), Usage: r5u(3, 0), Name: "Kafka broker disk cleanup", Description: "Broker 3's log disk fills up every few weeks", Body: "Broker 3's log disk fills up every few weeks; run the retention cleanup on it and restart the broker."}
	new := Item{File: "kafka-broker-4.md", Type: "project", Created: date("2026-09-08"), Usage: r5u(3, 0), Name: "Kafka broker disk cleanup", Description: "Broker 4's log disk fills up every few weeks", Body: "Broker 4's log disk fills up every few weeks; run the retention cleanup on it and restart the broker."}
	p := Heuristic(Input{Now: now, Items: amongFillers([]Item{old, new}, "reference", fillerBodies...)})
	if slices.ContainsFunc(ids(p), func(id string) bool {
		return strings.Contains(id, "kafka-broker-3.md") && !strings.HasPrefix(id, "date")
	}) {
		t.Errorf("broker 3's memory retired by broker 4's: %v", reasons(p))
	}
}

// 5. kindChanged: two compounds of one head are not always one thing's kind
// changed ("client-side" and "server-side" validation both hold; "read-only"
// and "view-only" say the same), and the reason reads "client-sid".
func TestReview1201_KindChangedOverreach(t *testing.T) {
	old := Item{Name: "Form validation", Description: "Signup form fields are validated with zod", Body: "Client-side validation of the signup form uses zod schemas from packages/schemas."}
	new := Item{Name: "Signup validation", Description: "Signup form fields are validated with zod in the API too", Body: "Server-side validation of the signup form uses the same zod schemas from packages/schemas."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("server-side validation retired client-side validation: %v", reasons(p))
	}
	old = Item{Name: "Analyst warehouse access", Description: "Analysts get read-only access to the warehouse", Body: "Analysts get read-only access to the Snowflake warehouse through the ANALYST role; request it in #data-access."}
	new = Item{Name: "Warehouse access for analysts", Description: "Analysts get view-only access to the warehouse", Body: "Analysts get view-only access to the Snowflake warehouse through the ANALYST role; ask in #data-access."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("a synonym read as another kind: %v", reasons(p))
	}
	if c := compounds("Client-side checks"); len(c) == 1 && c[0][1] != "side" {
		t.Errorf("compounds cuts the head: %v", c)
	}
}

// 6. fromEvent dates a day from any sentence that shares the event word's
// first five letters and holds one ISO date: another release's, or the
// launch's old date; the wrong day then expires the memory.
func TestReview1201_FromEventWrongAnchor(t *testing.T) {
	p := r3plan(r4it("2026-11-01", "Release 4.2 plan", "Release notes for 4.1 went out 2026-10-20. QA sign-off is due a week before the release of 4.2."))
	if slices.Contains(ids(p), "expire:m.md") || strings.Contains(r4edits(p), "2026-10-13") {
		t.Errorf("4.2's sign-off dated from 4.1's notes: %v\n%s", reasons(p), r4edits(p))
	}
	p = r3plan(r4it("2026-11-01", "Winter Fest launch plan", "The launch, first planned for 2026-12-03, slipped because of the payment SDK. Code freeze starts two days before the launch."))
	if strings.Contains(r4edits(p), "2026-12-01") {
		t.Errorf("freeze dated from the launch's abandoned day: %s", r4edits(p))
	}
}

// 7. boundedFirst: a rolling window said in the description ("for the next 30
// days", then "nightly") is read as a bounded while and the standing rule expires.
func TestReview1201_RollingWindowInDescriptionExpires(t *testing.T) {
	for _, d := range []string{
		"Customers can book berths for the next 30 days; the window rolls forward nightly",
		"The forecast job plans capacity for the next two weeks and runs daily",
	} {
		if p := r3plan(r4it("2026-03-10", d, "Booking and forecast rules live in PlanningService.")); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: a rolling window expired: %v", d, reasons(p))
		}
	}
}

// 8. The feedback prune: a standing rule that ends "Passes now." / "Works now."
// and names a command is pruned as a one-off fix.
func TestReview1201_FeedbackRuleToldWorkingPruned(t *testing.T) {
	u := Usage{Since: date("2026-01-05")}
	for _, it := range []Item{
		{Type: "feedback", Created: date("2026-02-10"), Usage: u, Description: "Run the Go tests with make test-integration, not plain go test", Body: "Plain `go test ./...` skips the integration build tag and misses the repository tests. Use `make test-integration` instead. Passes now."},
		{Type: "feedback", Created: date("2026-02-10"), Usage: u, Description: "Start the local stack with scripts/dev.sh, not docker compose up", Body: "`scripts/dev.sh` sets the env vars and seeds the database that plain `docker compose up` leaves out. Works now."},
	} {
		if p := r3plan(it); slices.Contains(ids(p), "prune:m.md") {
			t.Errorf("%q: a rule pruned as a fix told done: %v", it.Description, reasons(p))
		}
	}
}

// 9. separate(): "counted separately from guild gifts" anywhere in the newer
// memory makes the pair two things, and the limit's change 5 -> 10 is missed.
func TestReview1201_SeparatelyBlocksChange(t *testing.T) {
	old := Item{Name: "Gift limit", Description: "Players can send at most 5 gifts a day", Body: "Players can send at most 5 gifts a day; the cap is in GiftService."}
	new := Item{Name: "Gift limit raised", Description: "Players can send at most 10 gifts a day", Body: "Players can send at most 10 gifts a day now, counted separately from guild gifts; the cap is in GiftService."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0)); !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("5 -> 10 not read as a change: %v", reasons(p))
	}
}

// 10. staysSo in saidTwoThings: "still runs at 03:00" beside a changed host
// makes the pair two things; the host change ops-1 -> ops-2 is missed.
func TestReview1201_StillBlocksChange(t *testing.T) {
	old := Item{Name: "Billing cron", Description: "The billing cron runs at 03:00 UTC", Body: "The billing cron runs at 03:00 UTC on the ops-1 host."}
	new := Item{Name: "Billing cron schedule", Description: "The billing cron still runs at 03:00 UTC", Body: "The billing cron still runs at 03:00 UTC, now from the ops-2 host."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0)); !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("ops-1 -> ops-2 not read as a change: %v", reasons(p))
	}
}

// 11. The routine/instance cap: one dated event told twice, one copy naming a
// "daily agenda", is a routine and its instance, and the copy is not merged.
func TestReview1201_RoutineCapBlocksDuplicate(t *testing.T) {
	a := Item{File: "offsite.md", Name: "Team offsite", Type: "project", Created: date("2026-09-01"), Description: "Team offsite in Lisbon on 2026-12-09", Body: "The platform team offsite is in Lisbon on 2026-12-09; book flights through Navan by 2026-11-15."}
	b := Item{File: "offsite-lisbon.md", Name: "Lisbon offsite", Type: "project", Created: date("2026-09-20"), Description: "Platform offsite: Lisbon, 2026-12-09", Body: "Platform team offsite in Lisbon on 2026-12-09. Book flights through Navan by 2026-11-15; daily agenda in the offsite doc."}
	p := Heuristic(Input{Now: date("2026-10-01"), Items: amongFillers([]Item{a, b}, "reference", fillerBodies...)})
	if !slices.Contains(ids(p), "merge:offsite-lisbon.md+offsite.md") {
		t.Errorf("one offsite told twice not merged: %v", reasons(p))
	}
}

// 12. fromEvent panics when the event word holds a rune whose lower case is
// shorter (U+212A KELVIN SIGN, which (?i)[a-z] matches).
func TestReview1201_FromEventPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic: %v", r)
		}
	}()
	r3plan(r4it("2026-11-01", "Kick-off prep", "The \u212Aick-off is 2026-12-10. Slides are due two days before the \u212Aick."))
}

// 13. relativeWord: "sun", "sat", "wed", "mon" are words too; a date rewrite
// that drops one (here a person's name) passes validation.
func TestReview1201_ValidateAbbrevDropsAWord(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	in := Input{Now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Items: []Item{
		{File: "c.md", Name: "inverter logs", Type: "project", Body: "Ask Sun Li for the inverter logs next Monday.", Created: at},
	}}
	p := Plan{Ops: []Op{{ID: "date:c.md", Kind: Date, Files: []string{"c.md"}, Keep: "c.md", Edit: &Edit{Body: "Ask Li for the inverter logs Monday 2026-03-09."}}}}
	if err := Validate(in, p); err == nil || !strings.Contains(err.Error(), `drops "sun"`) {
		t.Errorf("a date rewrite dropping a name passed: %v", err)
	}
}

// 15. fromEvent reads a while told before the event ("leave a week before the
// launch for review") as a day, and the date rewrite says something else.
func TestReview1201_FromEventDurationIsNoDay(t *testing.T) {
	p := r3plan(r4it("2026-11-01", "Launch plan", "The app launches 2026-12-10. Leave a week before the launch for App Store review."))
	if e := r4edits(p); strings.Contains(e, "Leave 2026-12-03") {
		t.Errorf("a week of review rewritten as a day: %s", e)
	}
}
