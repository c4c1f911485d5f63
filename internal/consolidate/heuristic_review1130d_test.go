package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Defects a second read-only review (2026-11-30) demonstrated in the rules
// of 4d95840, each failing on that commit.

// r4edits joins the descriptions and bodies a plan's edits write.
func r4edits(p Plan) string {
	var b strings.Builder
	for _, op := range p.Ops {
		if op.Edit != nil {
			b.WriteString(op.Edit.Description + "\n" + op.Edit.Body + "\n")
		}
	}
	return b.String()
}

// r4it is a memory written on created.
func r4it(created, desc, body string) Item {
	return Item{Created: date(created), Description: desc, Body: body}
}

// reEnd's "returns DATE" / "is back DATE" read an API's value or a return to service as an end.
func TestHeuristic_Review4ReturnsIsNoEnd(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-03-10", "The orders API returns 0001-01-01 for an unset shipped_at (Go's zero time); treat it as null.", "Ask Kwame."),
		r4it("2026-03-10", "Legacy billing API quirks", "The billing API returns 1900-01-01 when the start date is unknown; treat it as null."),
		r4it("2026-10-01", "Staging rebuilt", "Staging is back 2026-10-05 after the rebuild; QA runs there again."),
	} {
		if p := r3plan(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: expired: %v", it.Description, reasons(p))
		}
	}
}

// reSpanAfter anchors "two weeks after release" (a standing policy) on the memory's one unrelated date.
func TestHeuristic_Review4SpanAfterUnrelatedDate(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-04-02", "Feature flag cleanup", "Agreed with security on 2026-04-02: feature flags are removed two weeks after release."),
		r4it("2026-04-02", "Old images are kept in the registry for a month after release, then the cleanup job deletes them.", "Policy agreed 2026-04-02 with security."),
	} {
		if p := r3plan(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: a policy expired: %v", it.Body, reasons(p))
		}
	}
}

// "per month" / "per year" in reRecurs: a rate makes the whole memory recur, so ended periods never expire.
func TestHeuristic_Review4RateHidesEnd(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-03-01", "Azure sponsorship gives us $5,000 in credits per month.", "The sponsorship ends 2026-06-30; after that we pay list price."),
		r4it("2026-03-01", "SMS pilot: 200 messages per month", "The pilot runs until 2026-08-31. Hana owns it."),
		r4it("2026-03-01", "Datadog contract: $60k per year", "The contract ends 2026-06-30 and we move to Grafana Cloud."),
		r4it("2026-11-16", "Vendor demo is on Thursday", "The pilot licence is $300 per month."),
	} {
		if p := r3plan(it); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: not expired: %v", it.Description, reasons(p))
		}
	}
}

// throughMonths: "Nov. 3" read as November's end (text mangled, expiry lost).
func TestHeuristic_Review4AbbreviatedMonthDay(t *testing.T) {
	p := r3plan(r4it("2026-10-20", "The promo price holds until Nov. 3.", "Ask Priya."))
	if !slices.Contains(ids(p), "expire:m.md") || strings.Contains(r4edits(p), "2026-11-30") {
		t.Errorf("until Nov. 3: %v %q", reasons(p), r4edits(p))
	}
}

// throughMonths feeds reEnd months that bound data or history, not a period of the memory.
func TestHeuristic_Review4ThroughMonthNotAnEnd(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-04-10", "Orders from January through March were imported with the wrong tax code", "Reports for those months need the correction factor 1.02."),
		r4it("2026-07-20", "Hosting: we were on Heroku until June; everything runs on Render now.", "Ask Kwame."),
	} {
		if p := r3plan(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: expired: %v", it.Description, reasons(p))
		}
	}
}

// A month past >60 days when written is dated next year: history moved into the future.
func TestHeuristic_Review4PastMonthNextYear(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-04-10", "Hosting moved to Render", "We were on Heroku until January; Render hosts everything."),
		r4it("2026-09-10", "Image storage", "The S3 bucket was emptied (end of June) and deleted; images are on R2."),
	} {
		if e := r4edits(r3plan(it)); strings.Contains(e, "2027-") {
			t.Errorf("history dated next year: %q", e)
		}
	}
}

// A season that comes back every year gets this year's end written into it.
func TestHeuristic_Review4SeasonDated(t *testing.T) {
	p := r3plan(r4it("2026-03-20", "Hydrant flushing season runs April through October", "Every year the historian tags flushing events; keep the tag filter on."))
	if strings.Contains(r4edits(p), "2026-10-31") {
		t.Errorf("an annual season dated: %q", r4edits(p))
	}
}

// weekdaysRecur for every type: one recurrence word hides a reference's one-off weekday.
func TestHeuristic_Review4ReferenceOneOffWeekday(t *testing.T) {
	p := r3plan(Item{Type: "reference", Created: date("2026-11-18"), Description: "The bucket moves to the EU region on Friday", Body: "Nightly backups land in s3://bk."})
	if !strings.Contains(r4edits(p), "2026-11-20") {
		t.Errorf("Friday not dated: %v", reasons(p))
	}
}

// defaultBeside: any name opening with "Default" blocks a duplicate's merge, and the left reason claims an exception.
func TestHeuristic_Review4DefaultNameBlocksMerge(t *testing.T) {
	for _, tc := range []struct{ old, new Item }{
		{Item{Name: "Default exports are banned", Description: "Never use default exports in the web app", Body: "Every module uses named exports; lint enforces it."},
			Item{Name: "Named exports only", Description: "Never use default exports in the web app", Body: "Every module uses named exports; the lint rule enforces it."}},
		{Item{Name: "Default branch", Description: "The default branch is main; PRs target main", Body: "Release branches are cut from main."},
			Item{Name: "PRs target main", Description: "PRs target main, the default branch", Body: "Release branches are cut from main."}},
	} {
		tc.old.Type, tc.new.Type = "project", "project"
		if p := reviewPair(tc.old, tc.new); !slices.Contains(ids(p), "merge:new.md+old.md") {
			t.Errorf("%s: duplicates not merged: %v", tc.old.Name, p.LeftForModel)
		}
	}
}

// oneSlugApart: one runner pool spelled as two slugs is "two things"; the 4 → 8 change is lost.
func TestHeuristic_Review4OneSlugApartBlocksChange(t *testing.T) {
	p := reviewPair(Item{Name: "gh-runner pool size", Type: "project", Description: "The self-hosted runner pool has 4 runners", Body: "Scale it in the runners repo."},
		Item{Name: "github-actions-runner pool size", Type: "project", Description: "The self-hosted runner pool has 8 runners now", Body: "Scale it in the runners repo."})
	if !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("no supersede: %v", p.LeftForModel)
	}
}

// (Review fix #6, not a new rule) namedRoutine stops at "and": "the Tuesday and Thursday standups" dated, expired.
func TestHeuristic_Review4WeekdayAndWeekdayRoutine(t *testing.T) {
	if p := r3plan(r4it("2026-11-16", "Kwame runs the Tuesday and Thursday standups", "Ask him for the agenda.")); slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("a routine expired: %v", reasons(p))
	}
}
