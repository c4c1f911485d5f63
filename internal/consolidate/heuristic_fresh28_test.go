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
			if got := pairIDs(planAmongFillers(tc.old, tc.new)); len(got) > 0 {
				t.Errorf("%s / %s: %v", tc.old.Name, tc.new.Name, got)
			}
		}
	})
	t.Run("DefaultExportsNameNoDefault", func(t *testing.T) {
		a := Item{Name: "Named exports only", Description: "Use named exports, never default exports", Body: "Every module uses named exports."}
		b := Item{Name: "Stop using default exports", Description: "No default exports: use named exports", Body: "Named exports in every module."}
		if !defaultBeside(item{Item: Item{Name: "Import free time: default"}}, item{Item: Item{Name: "Acme free time"}}) || defaultBeside(item{Item: a}, item{Item: b}) {
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
		if p := planAmongFillers(it); slices.Contains(ids(p), "expire:m.md") {
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
			if p := planAmongFillers(it); !slices.Contains(ids(p), "expire:m.md") {
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
			p := planAmongFillers(it)
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
		p := planAmongFillers(it)
		i := slices.IndexFunc(p.Ops, func(op Op) bool { return op.ID == "date:m.md" })
		if i < 0 || !strings.Contains(p.Ops[i].Edit.Body, "2026-11-30") {
			t.Errorf("next sprint undated: %v", reasons(p))
		}
	})
	t.Run("AWeeklyRefreshInAReference", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Staging Postgres", Type: "reference", Created: date("2026-02-12"),
			Description: "Staging DB is RDS db-staging, straight on 5432",
			Body:        "It's refreshed from a scrubbed prod snapshot every Sunday night, so anything you create there is gone on Monday."}
		if p := planAmongFillers(it); slices.Contains(ids(p), "date:m.md") {
			t.Errorf("a weekly routine dated: %v", p.Ops)
		}
	})
}

// Wordings of two more read folders (fresh32, fresh33), new memories in
// the same words.
func TestHeuristic_Fresh32(t *testing.T) {
	wrong := func(helpful, wrong int) Usage {
		return Usage{Since: date("2026-01-05"), Injected: 20, Helpful: helpful, Wrong: wrong, LastInjected: date("2026-10-01")}
	}

	t.Run("FoundWrongAndReplaced", func(t *testing.T) {
		// The older was marked wrong, and a newer memory on its topic
		// gives another value: "10h" against "10h30", "Temurin 17" against
		// "Temurin 21", with no word of a change.
		for _, tc := range []struct{ old, new Item }{
			{Item{Name: "Solver caps duty span at 10h", Description: "Roster solver hard constraint: a duty from sign-on to sign-off may not exceed 10 hours", Body: "Hard constraint in `DutySpanRule`: a duty from sign-on to sign-off may not exceed 10h00."},
				Item{Name: "Duty span hard limit", Description: "DutySpanRule: maximum 10h30 from sign-on to sign-off, per the 2026 company agreement", Body: "`DutySpanRule.maxSpan = 10.5.hours`, set by the company agreement."}},
			{Item{Name: "Build agent JDK", Description: "Jenkins agents for the Scala builds use Temurin JDK 17", Body: "All Jenkins agents that build Scala run Temurin 17; sbt picks it up from JAVA_HOME."},
				Item{Name: "Temurin 21 on the build agents", Description: "Scala build agents run Temurin 21 (jenkins_agent role)", Body: "The Scala build agents were rebuilt from the `jenkins_agent` role with Temurin 21."}},
		} {
			tc.old.File, tc.old.Type, tc.old.Created, tc.old.Usage = "old.md", "project", date("2026-03-12"), wrong(8, 2)
			tc.new.File, tc.new.Type, tc.new.Created, tc.new.Usage = "new.md", "project", date("2026-09-08"), wrong(6, 0)
			if p := planAmongFillers(tc.old, tc.new); !slices.Contains(ids(p), "supersede:new.md+old.md") {
				t.Errorf("%s: no supersede: %v", tc.new.Name, reasons(p))
			}
			tc.old.Usage = wrong(8, 0) // not marked wrong: two things alike stay two
			if p := planAmongFillers(tc.old, tc.new); slices.Contains(ids(p), "supersede:new.md+old.md") {
				t.Errorf("%s: superseded though never marked wrong: %v", tc.new.Name, reasons(p))
			}
		}
	})
	t.Run("NobodyRunsTheThingAnyMore", func(t *testing.T) {
		old := Item{File: "old.md", Type: "project", Created: date("2026-02-27"), Name: "Friday roster export", Description: "Every Friday by noon, mail the roster as Excel to the depot managers",
			Body: "Depot managers get the roster as .xlsx every Friday: run the xlsx export, then mail the three files."}
		new := Item{File: "new.md", Type: "project", Created: date("2026-08-14"), Name: "Depot managers use the admin", Description: "Depot managers read the admin's Depot view; the Excel export is no longer done",
			Body: "Depot managers read the roster in the Depot view. Nobody runs the xlsx export any more."}
		if p := planAmongFillers(old, new); !slices.Contains(ids(p), "supersede:new.md+old.md") {
			t.Errorf("no supersede: %v", reasons(p))
		}
	})
	t.Run("UntilAMonthAsHistory", func(t *testing.T) {
		it := Item{File: "m.md", Type: "project", Created: date("2026-04-01"), Name: "Why there is Amq in the code",
			Description: "Until March 2026 events came over ActiveMQ, replaced by Kafka; Amq* = leftovers",
			Body:        "History: until March 2026 delay events came over ActiveMQ. We replaced it with Kafka; there is no ActiveMQ any more."}
		if p := planAmongFillers(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("history expired: %v", reasons(p))
		}
	})
	t.Run("AQuotaForOneQuarter", func(t *testing.T) {
		it := Item{File: "m.md", Type: "project", Created: date("2026-07-01"), Name: "Extra vCPU quota for Q3",
			Description: "96 extra vCPUs on the prod project, approved for Q3 only, for the solver re-runs", Body: "Give them back after the quarter."}
		if p := planAmongFillers(it); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("not expired: %v", reasons(p))
		}
	})
	t.Run("EachWeeksNext", func(t *testing.T) {
		for _, it := range []Item{
			{Name: "Weekly roster publication", Created: date("2026-02-13"), Description: "Published every Thursday at 18:00 for the week starting the next Monday",
				Body: "The weekly roster run publishes every Thursday at 18:00 for the week starting the next Monday."},
			{Name: "Depot view", Created: date("2026-08-14"), Description: "Depot managers read next week's roster in the admin", Body: "Filter by depot."},
		} {
			it.File, it.Type = "m.md", "project"
			if p := planAmongFillers(it); slices.Contains(ids(p), "date:m.md") || slices.Contains(ids(p), "expire:m.md") {
				t.Errorf("%s: dated: %v", it.Name, reasons(p))
			}
		}
	})
}

// Wordings of two more read folders (fresh36, fresh37).
func TestHeuristic_Fresh36(t *testing.T) {

	t.Run("AnOverrideWithItsValue", func(t *testing.T) {
		if !narrowsOf(Item{Description: "The Oak Ridge store overrides the delivery fee to $2.99 (a town council deal)"}) {
			t.Error("an override with its value is no exception")
		}
		if narrowsOf(Item{Description: "The Oak Ridge store has its own delivery fee"}) {
			t.Error("no override read as one")
		}
	})
	t.Run("WeekdaysOfARoutine", func(t *testing.T) {
		for _, it := range []Item{
			{Name: "Mobile builds ship from CI", Created: date("2026-09-22"), Description: "The manual Thursday fastlane run is retired: a tag starts the release build",
				Body: "Push a mobile-v* tag and the trigger builds both apps."},
			{Name: "Sales refresh", Created: date("2026-05-04"), Description: "The sales view refreshes each night",
				Body: "It fails if a column was renamed, and the store managers' Monday email goes out empty."},
		} {
			it.File, it.Type = "m.md", "project"
			if p := planAmongFillers(it); slices.Contains(ids(p), "date:m.md") || slices.Contains(ids(p), "expire:m.md") {
				t.Errorf("%s: a routine's weekday dated: %v", it.Name, reasons(p))
			}
		}
		if namedRoutine("the next Thursday release") || !namedRoutine("the manual Thursday fastlane run") {
			t.Error("namedRoutine reads 'next' as a routine's adjective, or misses 'manual'")
		}
	})
	t.Run("HowLongItTook", func(t *testing.T) {
		it := Item{File: "m.md", Type: "project", Created: date("2026-04-17"), Name: "Permit set", Description: "Rev C permit set was issued from the portal on 2026-04-17",
			Body: "First full issue through the portal: 84 sheets, all signed within two days. Useful as the reference case."}
		if p := planAmongFillers(it); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("history expired: %v", reasons(p))
		}
		if !pastWithin("all signed within two days") || pastWithin("Legacy SQL is disabled within six weeks") {
			t.Error("pastWithin")
		}
	})
}
