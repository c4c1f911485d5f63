package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Wordings two more labellers' folders (fresh28, fresh29) held that the
// engine planned wrongly after the fresh24 pass; new memories in the same
// words.
func TestHeuristic_Fresh28(t *testing.T) {
	fillers := []string{"Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
		"Dashboards live in Grafana.", "Keep one branch per feature."}
	plan := func(items ...Item) Plan {
		return Heuristic(Input{Now: now, Items: amongFillers(items, "reference", fillers...)})
	}
	pairIDs := func(p Plan) []string {
		return slices.DeleteFunc(ids(p), func(id string) bool { return !strings.Contains(id, "old.md") || !strings.Contains(id, "new.md") })
	}

	t.Run("TwoThingsAlike", func(t *testing.T) {
		for _, tc := range []struct{ old, new Item }{
			{Item{Name: "crew-dispatch queue settings", Description: "crew-dispatch: sessions keyed by crew id, max delivery count 5, 1-minute lock", Body: "`crew-dispatch`: sessions on, max delivery count 5, lock duration 1 minute."},
				Item{Name: "leak-intake queue settings", Description: "leak-intake: no sessions, max delivery count 10, 10-minute duplicate detection", Body: "`leak-intake`: no sessions, max delivery count 10, duplicate detection on."}},
			{Item{Name: "Missing read estimate: default", Description: "A missing read is estimated from average daily use over the last three months", Body: "The estimate is the average daily use over the last 3 months times the days billed."},
				Item{Name: "Estimates: class H", Description: "Class H estimates from the same month last year, not the 3-month average", Body: "Class H accounts estimate a missing read from the same month last year, not the 3-month average."}},
		} {
			tc.old.File, tc.old.Type, tc.old.Created = "old.md", "reference", date("2026-04-08")
			tc.new.File, tc.new.Type, tc.new.Created = "new.md", "reference", date("2026-05-04")
			if got := pairIDs(plan(tc.old, tc.new)); len(got) > 0 {
				t.Errorf("%s / %s: %v", tc.old.Name, tc.new.Name, got)
			}
		}
	})
	t.Run("DefaultExportsNameNoDefault", func(t *testing.T) {
		a := Item{Name: "Named exports only", Description: "Use named exports, never default exports", Body: "Every module uses named exports."}
		b := Item{Name: "Stop using default exports", Description: "No default exports: use named exports", Body: "Named exports in every module."}
		if !defaultBeside(item{Item: Item{Name: "Default import free time"}}, item{Item: Item{Name: "Acme free time"}}) || defaultBeside(item{Item: a}, item{Item: b}) {
			t.Error("defaultBeside reads the word, not the default")
		}
	})
	t.Run("AnAddressNamedTwoWays", func(t *testing.T) {
		// One thing, so a change between them is read, not set aside as a
		// template filled in twice.
		a := item{Item: Item{Name: "Staging front end URL"}, terms: termSet("Staging front end URL web-git-staging.vercel.app")}
		b := item{Item: Item{Name: "Staging front end address"}, terms: termSet("Staging front end address staging.example.news")}
		if parallelNames(a, b) {
			t.Error("URL and address read as two things")
		}
	})
	t.Run("ARatePerMonthIsNoDeadline", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Meter", Type: "project", Created: date("2026-10-19"),
			Description: "Meter is 3 free stories per calendar month, reset on the 1st (UTC)", Body: "The counter's TTL is set to the end of the month."}
		if p := plan(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("a monthly rate expired: %v", reasons(p))
		}
	})

	t.Run("Expires", func(t *testing.T) {
		for _, it := range []Item{
			{Name: "Dispatch v2 hypercare", Created: date("2026-10-09"), Description: "Three weeks after the 10 Oct go-live: Sev2 pages also to Priya",
				Body: "Dispatch v2 goes live Saturday 10 Oct. For three weeks after launch, every Sev2 page also goes to Priya."},
			{Name: "Alerts cover", Created: date("2026-10-13"), Description: "Dev covers the alert rotation while Marisol is on leave",
				Body: "While Marisol is on leave (back 2 Nov), Dev covers the alerts rotation. Page Dev, not Marisol."},
			{Name: "Logger pilot", Created: date("2026-06-29"), Description: "Acoustic logger pilot in zone 4, July through September",
				Body: "The pilot in zone 4 runs July through September. Its tickets go to Hana's queue."},
			{Name: "S3 fallback during the R2 move", Created: date("2026-05-20"), Description: "Image proxy reads legacy S3 on an R2 404 until the copy is done (end of June)",
				Body: "Until the S3 → R2 image copy finishes (target: end of June) the proxy falls back to the old bucket."},
		} {
			it.File, it.Type = "m.md", "project"
			if p := plan(it); !slices.Contains(ids(p), "expire:m.md") {
				t.Errorf("%s: not expired: %v", it.Name, reasons(p))
			}
		}
	})
	t.Run("NotEnds", func(t *testing.T) {
		for _, it := range []Item{
			// history: the rollback is the story, not the end of a period
			{Name: "Search rollback", Created: date("2026-03-10"), Description: "We rolled back on 4 March after the analyzer bug", Body: "The analyzer is fixed in 4.3."},
			// after each release: a routine
			{Name: "Release watch", Created: date("2026-03-10"), Description: "For two weeks after each release, on-call watches the error budget", Body: "Ask Priya."},
			{Name: "Promo", Created: date("2026-03-10"), Description: "The promo runs until May the 3rd", Body: "Ask Priya."},
		} {
			it.File, it.Type = "m.md", "project"
			p := plan(it)
			if slices.Contains(ids(p), "expire:m.md") && it.Name != "Promo" {
				t.Errorf("%s: expired: %v", it.Name, reasons(p))
			}
			for _, op := range p.Ops {
				if op.Edit != nil && strings.Contains(op.Edit.Description, "2026-05-31") {
					t.Errorf("%s: 'May the 3rd' read as May's end: %q", it.Name, op.Edit.Description)
				}
			}
		}
	})

	t.Run("NextSprintThroughAWeeklyStart", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Copy test", Type: "project", Created: date("2026-11-19"),
			Description: "The copy test starts with the next sprint behind a flag",
			Body:        "Sprints are two weeks and start on Mondays; the current one began Monday 16 November. The copy test starts with the next sprint."}
		p := plan(it)
		i := slices.IndexFunc(p.Ops, func(op Op) bool { return op.ID == "date:m.md" })
		if i < 0 || !strings.Contains(p.Ops[i].Edit.Body, "2026-11-30") {
			t.Errorf("next sprint undated: %v", reasons(p))
		}
	})
	t.Run("AWeeklyRefreshInAReference", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Staging Postgres", Type: "reference", Created: date("2026-02-12"),
			Description: "Staging DB is RDS db-staging, straight on 5432",
			Body:        "It's refreshed from a scrubbed prod snapshot every Sunday night, so anything you create there is gone on Monday."}
		if p := plan(it); slices.Contains(ids(p), "date:m.md") {
			t.Errorf("a weekly routine dated: %v", p.Ops)
		}
	})
}
