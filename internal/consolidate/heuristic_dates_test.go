package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Dates as the fresh8 and fresh9 labellers wrote them: weekdays of the
// past, a week's routine, days of one month, the next sprint, a rate.
func TestAbsolute_SaidOfThePast(t *testing.T) {
	for _, tc := range []struct{ in, created, want string }{
		// "since Monday" written on Wednesday 2026-10-14 is that week's Monday.
		{"Since Monday FhirBridge uses the prod endpoint.", "2026-10-14", "Since Monday 2026-10-12 FhirBridge uses the prod endpoint."},
		{"Since last Tuesday ingest writes v2.", "2026-10-09", "Since last Tuesday 2026-10-06 ingest writes v2."},
		{"It broke last Friday.", "2026-10-09", "It broke last Friday 2026-10-02."}, // said on a Friday: a week ago
		{"Since Friday it is green.", "2026-10-09", "Since Friday 2026-10-09 it is green."},
		// A day of a period, not the one before the writing.
		{"Notes are due on the sprint's last Tuesday.", "2026-10-09", "Notes are due on the sprint's last Tuesday."},
		// Days of one month, with the year of the writing.
		{"The pen test runs Sept 14–18.", "2026-08-31", "The pen test runs 2026-09-14 to 2026-09-18."},
		{"Offsite Jan 5-7, then planning.", "2026-12-01", "Offsite 2027-01-05 to 2027-01-07, then planning."},
		// A count of events in so many days is a rate, not a day.
		{"Three late cancels or no-shows in 90 days and booking is disabled.", "2026-05-04", "Three late cancels or no-shows in 90 days and booking is disabled."},
		// The next sprint, when the memory says how long sprints are and
		// when this one began.
		{"Pulled into next sprint. We run two-week sprints and this one started on 2026-11-16.", "2026-11-20",
			"Pulled into next sprint (starting 2026-11-30). We run two-week sprints and this one started on 2026-11-16."},
		{"Pushed to next sprint.", "2026-11-20", "Pushed to next sprint."}, // its length unknown
	} {
		it := Item{Type: "project", Created: date(tc.created), Body: tc.in}
		if got := absoluteIn(tc.in, it); got != tc.want {
			t.Errorf("absoluteIn(%q, created %s) = %q, want %q", tc.in, tc.created, got, tc.want)
		}
	}
	if got := absoluteIn("Payroll runs on the last Friday of the month.", Item{Type: "project", Created: date("2026-10-09")}); strings.Contains(got, "2026-10-02") {
		t.Errorf("the last Friday of a month read as the one before: %q", got)
	}
	// A project memory that tells a week's routine: each weekday is any such day.
	routine := Item{Type: "project", Created: date("2026-04-27"), Description: "Prod releases go out on Tuesdays"}
	for _, s := range []string{"Cut the release branch on Monday afternoon; it goes to prod on Tuesday."} {
		routine.Body = s
		if got := absoluteIn(s, routine); got != s {
			t.Errorf("a routine got dates: %q", got)
		}
	}
	// Each rewrite passes Validate.
	for _, body := range []string{
		"Since last Tuesday ingest writes v2.",
		"The pen test runs Dec 14–18.",
		"Pulled into next sprint. We run two-week sprints and this one started on Monday the 16th.",
	} {
		in := Input{Now: now, Items: []Item{{File: "d.md", Name: "d", Type: "project", Body: body, Created: date("2026-11-20")}}}
		p := Heuristic(in)
		if err := Validate(in, p); err != nil || !slices.Contains(ids(p), "date:d.md") {
			t.Errorf("%q: ops %v, Validate %v", body, ids(p), err)
		}
	}
}

func TestHeuristic_ExpireRangesAndHolds(t *testing.T) {
	for _, tc := range []struct {
		name, desc, body, created string
		want                      bool
	}{
		{"Pen test on staging", "Pen test on staging Sept 14-18: no deploys", "Calder runs the pen test against staging Sept 14–18.", "2026-08-31", true},
		{"Pen test on staging", "Pen test on staging Dec 14-18: no deploys", "Calder runs the pen test against staging Dec 14–18.", "2026-11-20", false}, // still ahead
		{"EKS 1.31 node group", "Prod node group rotation: Tuesday 2026-10-27, 02:00-05:00 UTC, no deploys", "Kenji drives it.", "2026-10-20", true},
		// A span counted from each customer's own event is a policy.
		{"Plus trial", "Plus starts with a 30-day free trial counted from the first successful dispatch", "We bill after it.", "2026-05-20", false},
		{"SMS add-on trial", "New clinics get a 14-day trial of the SMS add-on, counted from their first reminder", "After it, SMS flips off.", "2026-06-29", false},
		// A period that says it ended is history, not a period to expire.
		{"Timescale cutover", "Prod DB is Timescale Cloud", "Cutover finished over the weekend: production is Timescale Cloud.", "2026-09-28", false},
	} {
		it := Item{File: "m.md", Name: tc.name, Description: tc.desc, Type: "project", Body: tc.body, Created: date(tc.created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != tc.want {
			t.Errorf("%q: expired %v, want %v (ops %v)", tc.desc, got, tc.want, ids(p))
		}
	}
}

// Cases a read-only review of the rules above found wrong (2026-11-30).
func TestAbsolute_Review(t *testing.T) {
	for _, tc := range []struct{ in, created, want string }{
		{"Since Friday 2026-02-20 the cache is off.", "2026-03-10", "Since Friday 2026-02-20 the cache is off."}, // dated already
		{"It broke last Friday (2026-10-02).", "2026-10-09", "It broke last Friday (2026-10-02)."},
		{"The pen test ran Sept 14–18.", "2026-11-20", "The pen test ran 2026-09-14 to 2026-09-18."}, // the nearest year: the September just gone
		{"Sept 14–18 2026.", "2026-08-20", "2026-09-14 to 2026-09-18."},                              // its own year, once
		{"Sept 14–18, 2027.", "2026-08-20", "2027-09-14 to 2027-09-18."},
		{"More than 5 failed logins in a day lock the account.", "2026-03-02", "More than 5 failed logins in a day lock the account."},
		// A weekday that names a routine, and a day of every month, are no day.
		{"Freeze from 2026-12-18 to 2027-01-04: the Monday deploy train is skipped.", "2026-11-09", "Freeze from 2026-12-18 to 2027-01-04: the Monday deploy train is skipped."},
		{"On the 1st of each month a Lambda archives old parquet.", "2026-07-06", "On the 1st of each month a Lambda archives old parquet."},
		{"We ship the Monday after launch.", "2026-11-04", "We ship the Monday 2026-11-09 after launch."},
		// A day gone by, named by its month and day, is history that says
		// its day; one still ahead is dated.
		{"On 7 April an AKS node drain restarted both API pods.", "2026-04-09", "On 7 April an AKS node drain restarted both API pods."},
		{"User correction, Sept 30.", "2026-09-30", "User correction, Sept 30."},
		{"The submission must pass conformance testing by 31 July.", "2026-06-10", "The submission must pass conformance testing by 2026-07-31."},
		// A day of every year.
		{"Twice a year, on the last Sunday of March and the last Sunday of October, the hour 01:00-02:00 repeats.", "2026-04-01", "Twice a year, on the last Sunday of March and the last Sunday of October, the hour 01:00-02:00 repeats."},
		{"The crash reached all users in one day.", "2026-03-02", "The crash reached all users in one day."},
		{"Pushed to next sprint (starting 2026-11-30). We run two-week sprints and this one started on 2026-11-16.", "2026-11-20",
			"Pushed to next sprint (starting 2026-11-30). We run two-week sprints and this one started on 2026-11-16."}, // a second run adds nothing
		{"Moved to next sprint. Two-week sprints; the last sprint started 2026-11-02.", "2026-11-20", "Moved to next sprint. Two-week sprints; the last sprint started 2026-11-02."},
	} {
		if got := absoluteIn(tc.in, Item{Type: "project", Created: date(tc.created), Body: tc.in}); got != tc.want {
			t.Errorf("absoluteIn(%q, created %s) = %q, want %q", tc.in, tc.created, got, tc.want)
		}
	}
	// A number before "in two weeks" is no rate by itself.
	for _, in := range []string{"Release 5.2 ships in two weeks.", "All 40 clinics move in two weeks."} {
		if got := absoluteIn(in, Item{Type: "project", Created: date("2026-03-02"), Body: in}); !strings.Contains(got, "2026-03-16") {
			t.Errorf("absoluteIn(%q) = %q, want it dated", in, got)
		}
	}
}

func TestHeuristic_ExpireReview(t *testing.T) {
	for _, tc := range []struct {
		body, created string
		want          bool
	}{
		{"Metrics 2026-03-02 to 2026-03-09 are gone for good.", "2026-03-20", false},
		{"Orders 2026-01-01 to 2026-03-31 were reprocessed with the new tax table.", "2026-04-10", false},
		{"Legal hold placed 2026-05-04: never delete Acme data.", "2026-05-04", false},
		{"Our 30-day Datadog trial runs from the 2026-06-01 kickoff.", "2026-05-20", true},
		{"Deploy freeze 2026-10-12 to 2026-10-16 until the cutover is finished.", "2026-10-01", true},
	} {
		it := Item{File: "m.md", Name: "m", Type: "project", Body: tc.body, Created: date(tc.created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != tc.want {
			t.Errorf("%q: expired %v, want %v (%v)", tc.body, got, tc.want, reasons(p))
		}
	}
}

// Dates and periods as the fresh12 labeller wrote them.
func TestHeuristic_ExpireAsWrittenMore(t *testing.T) {
	for _, tc := range []struct {
		desc, body, created string
		want                bool
	}{
		// A recurrence word naming a kind of thing recurs nothing.
		{"Engineering's SOC 2 evidence is due Friday the 25th", "Engineering owes the quarterly access review export and the alert history. Deadline: Friday the 25th.", "2026-09-01", true},
		{"The dependency audit", "Dependency audit happens every three months; the next one is due by 2026-04-01.", "2026-01-10", false},
		// A routine until a day ends on that day.
		{"Until the cron fix ships, run it by hand Mondays", "The cron entry didn't make it into the worker's schedule. Until the fix ships at the end of this sprint (Oct 16), I run `CALL partman.run_maintenance_proc();` on the database every Monday morning.", "2026-10-07", true},
		// Which data a date bounds is no end.
		{"Heroku Postgres add-on deleted next Friday; S3 dump after", "Tomás deletes the Heroku Postgres add-on next Friday. After that the only copy of pre-cutover data (anything before Sep 27) is the final dump in S3.", "2026-11-23", false},
		// A cutover told of the past.
		{"Prod is on Render", "We moved production off Heroku at the Sep 26–27 cutover. Merging to main auto-deploys.", "2026-09-29", false},
	} {
		it := Item{File: "m.md", Name: "m", Description: tc.desc, Type: "project", Body: tc.body, Created: date(tc.created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != tc.want {
			t.Errorf("%q: expired %v, want %v (%v)", tc.body, got, tc.want, reasons(p))
		}
	}
	// "the current one began" is this sprint's start.
	in := "Sprints are two weeks; the current one began 2026-11-16. The upgrade is in next sprint."
	if got := absoluteIn(in, Item{Type: "project", Created: date("2026-11-18"), Body: in}); !strings.Contains(got, "next sprint (starting 2026-11-30)") {
		t.Errorf("absoluteIn(%q) = %q", in, got)
	}
}

// Periods as the fresh16 labeller wrote them.
func TestHeuristic_ExpireFresh16(t *testing.T) {
	for _, tc := range []struct {
		desc, body, created string
		want                bool
	}{
		{"don't merge to main this Thursday and Friday, VetExpo live demo", "Hannah demos the prod tenant at VetExpo on Thursday and Friday, so hold merges both days.", "2026-10-20", true},
		{"Prod and staging DBs moved to Managed Postgres", "Cutover done on the weekend of 22 August. We no longer run quokka-db ourselves.", "2026-08-24", false},
	} {
		it := Item{File: "m.md", Name: "m", Description: tc.desc, Type: "project", Body: tc.body, Created: date(tc.created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != tc.want {
			t.Errorf("%q: expired %v, want %v (%v)", tc.desc, got, tc.want, reasons(p))
		}
	}
}

// Dates and periods a second read-only review found wrong (2026-11-30).
func TestHeuristic_ExpireReview2(t *testing.T) {
	for _, tc := range []struct {
		body, created string
		want          bool
	}{
		{"The payments cutover was planned for 2026-11-10. We moved the cutover to 2026-12-08 after the load test.", "2026-11-05", false},
		{"Deploy freeze until 2026-11-20. We extended the freeze to 2026-12-15 for the audit.", "2026-11-05", false},
		{"The maintenance window on 2026-11-10 was aborted halfway. We need a second maintenance window on 2026-12-08.", "2026-11-12", false},
		{"Branch is cut every Tuesday. Holiday freeze: no releases until 2026-01-05.", "2025-12-10", false},
		{"Nightly builds are kept until they are 30 days old (policy since 2025-03-01).", "2025-03-02", false},
		// A deadline said as the end of a month, with no "the".
		{"The board's compliance packet is due end of September. Dana assembles it.", "2026-09-02", true},
		{"The board's compliance packet is due end of December. Dana assembles it.", "2026-11-02", false},
		// A routine with weekdays ("each prod release"), and a deadline
		// for something that runs daily.
		{"Each prod release needs a change ticket raised by Wednesday noon for the Thursday evening window.", "2026-03-31", false},
		{"The daily occupancy submission to the regulator must pass conformance testing by 31 July.", "2026-06-10", true},
		// Sprints of unknown length: over once four-week ones would be.
		{"Autoscaling on the worker is off for the next two sprints while we chase the queue bug.", "2026-09-14", true},
		{"Autoscaling on the worker is off for the next two sprints while we chase the queue bug.", "2026-10-14", false},
	} {
		it := Item{File: "m.md", Name: "m", Type: "project", Body: tc.body, Created: date(tc.created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != tc.want {
			t.Errorf("%q: expired %v, want %v (%v)", tc.body, got, tc.want, reasons(p))
		}
	}
	// A weekly event on a weekday recurs: no date.
	in := "Our weekly sync is on Monday at 10:00."
	if got := absoluteIn(in, Item{Type: "project", Created: date("2026-06-03"), Body: in}); got != in {
		t.Errorf("absoluteIn(%q) = %q", in, got)
	}
}

// A moment the description names relative to its writing, ahead then and
// passed now, ends the memory; an event told the day after is history.
func TestHeuristic_ExpireMomentPassed(t *testing.T) {
	checkExpiresAlone := func(desc, body, created string, want bool) {
		t.Helper()
		it := Item{File: "m.md", Name: "m", Description: desc, Type: "project", Body: body, Created: date(created)}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "expire:m.md"); got != want {
			t.Errorf("%q: expired %v, want %v (%v)", desc, got, want, reasons(p))
		}
	}
	checkExpiresAlone("I'm on call for Dana this Thursday and Friday; the PagerDuty override is set", "Dana is at RailsConf EU, so I'm covering her shift.", "2026-11-09", true)
	checkExpiresAlone("ESA review demo next Thursday, from the demo branch", "Ines presents; feed it replayed passes.", "2026-10-06", true)
	checkExpiresAlone("Heroku Postgres add-on deleted next Friday", "Tomás deletes the add-on once the last export is verified.", "2026-11-23", false)                                            // still ahead
	checkExpiresAlone("Starting next Monday, PRs need two reviews", "Both reviewers from the owning team.", "2026-03-02", false)                                                                  // a start
	checkExpiresAlone("No prod deploys after 14:00 UTC on Fridays — stations are unstaffed over the weekend", "Standing rule: no prod deploys after 14:00 UTC on a Friday.", "2026-05-15", false) // a routine
	checkExpiresAlone("Consul flapped leadership yesterday", "Yesterday's outage: after the switch firmware update, Consul servers flapped for 40 minutes.", "2026-10-14", false)
}

// The nth weekday of a month is dated: its ordinal is a date word the
// rewrite may drop ("the first Monday of next month" → 2026-12-07).
func TestHeuristic_DatesNthWeekday(t *testing.T) {
	it := Item{File: "pg.md", Type: "project", Created: date("2026-11-12"), Name: "Postgres 16 upgrade",
		Description: "The Postgres 14 to 16 upgrade happens in the maintenance window on the first Monday of next month",
		Body:        "The main instance goes from Postgres 14 to 16 in the maintenance window on the first Monday of next month (02:00-04:00 UTC)."}
	plan := Heuristic(Input{Now: date("2026-11-25"), Items: []Item{it}})
	for _, op := range plan.Ops {
		if op.Kind == Date && op.Edit != nil && strings.Contains(op.Edit.Body, "2026-12-07") && strings.Contains(op.Edit.Description, "2026-12-07") {
			return
		}
	}
	t.Errorf("no date op writing 2026-12-07: ops %v, left %v", ids(plan), plan.LeftForModel)
}
