package extract

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestAbsoluteDates_Chat: dates as people type them to an agent (issue
// 17), each rewritten as the day it names, counted from a Wednesday; and
// what names no single day ahead — a duration, a day every week or month,
// the past, a word that only looks like a date — left as said.
func TestAbsoluteDates_Chat(t *testing.T) {
	wed := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"deploy the hotfix tmrw morning":                     "2026-05-28",
		"tmr we pair on the flaky tests":                     "2026-05-28",
		"the keys arrive the day after tomorrow":             "2026-05-29",
		"three weeks from now the cluster goes away":         "2026-06-17",
		"the patch window is in a fortnight":                 "2026-06-10",
		"the dues API goes v2 in ten days":                   "2026-06-06",
		"need the rfc comments addressed by EOD":             "by 2026-05-27",
		"need the plan signed off by eow":                    "by 2026-05-29",
		"close the epics by EOQ or they roll over":           "by 2026-06-30",
		"finish the split by the end of the year":            "by 2026-12-31",
		"the reindex runs this weekend":                      "the weekend of 2026-05-30",
		"dns moves this wknd":                                "the weekend of 2026-05-30",
		"the office move is next weekend":                    "the weekend of 2026-06-06",
		"the gift cards go live before christmas":            "before christmas 2026-12-25",
		"the cert renewal lands on new year's eve":           "new year's eve 2026-12-31",
		"accredited by July 1, 2027 at the latest":           "by 2027-07-01 at",
		"the quarterly report is due the 30th":               "due 2026-05-30",
		"4.13 is cut on the first of next month":             "on 2026-06-01",
		"price change starts the second of next month":       "starts 2026-06-02",
		"the full draft moved to the 18th":                   "moved to 2026-06-18",
		"the go-live slipped to the 3rd":                     "slipped to 2026-06-03",
		"before the old one gets decommissioned on the 21st": "decommissioned on 2026-06-21",
		"the cluster has maintenance from 6 to 8 June":       "from 2026-06-06 to 2026-06-08",
		"anke is in vacation from 16. to 27. jun":            "from 2026-06-16 to 2026-06-27",
		"the release is on 2. July":                          "on 2026-07-02",
		"the old feed gets switched off end of Q2":           "off 2026-06-30",
		"the grant ends at the end of q4":                    "the grant ends at 2026-12-31",
		// A weekday counted from another day the sentence names.
		"the audit is on june 19 and the docs are due the friday before":                 "friday 2026-06-12 before",
		"the launch is june 10, code freeze the monday before it":                        "monday 2026-06-08 before it",
		"the offsite is june 4, deploys resume the tuesday after":                        "tuesday 2026-06-09 after",
		"the demo is on june 4, we need a dry run the day before":                        "2026-06-03 (the day before)",
		"the release goes out thursday the week of the 15th":                             "thursday 2026-06-18 the week of 2026-06-15",
		"the relaunch is june 21, keep the cms frozen the week before":                   "frozen the week before", // a week, not a day
		"the sale runs from black friday to cyber monday":                                "black friday 2026-11-27 to cyber monday 2026-11-30",
		"there's a capacity review on tuesdays, i need the lag numbers for the next one": "the next one (tuesday 2026-06-02)",
		"the infra sync is every wednesday, add it to the agenda for the next one":       "the next one (wednesday 2026-06-03)", // not today's
		"the cab i need is june 16, so code complete by that thursday, ok":               "by that thursday, ok",                // the thursday said before, not the coming one
		// A rough span, then the day itself: the day said wins.
		"the onsite is in four weeks (wednesday the 24th)": "is on 2026-06-24",
		"the audit is in 2 weeks (the 10th)":               "is on 2026-06-10",
		"the pen test is in a fortnight (the 24th)":        "by 2026-06-10 (the 24th)", // two weeks apart: left as said
		"the 30th is our last day on the old vendor":       "2026-05-30 is",
		"freeze is from wednesday 2026-06-03 to the 14th":  "to 2026-06-14",
		"the friday after next is code freeze":             "friday 2026-06-05",
		"the vendor call got pushed to tues 2pm":           "tuesday 2026-06-02 2pm",
		"the retro moved to weds":                          "wednesday 2026-05-27",
		"the review moved to fri afternoon":                "friday 2026-05-29 afternoon",
		"the migration is set for sat night":               "saturday 2026-05-30 night",
		"rollout starts thurs at 10%":                      "thursday 2026-05-28 at 10%",
		"the run moved to 03:00 utc starting monday":       "monday 2026-06-01",
		"the updated schema ships on friday":               "friday 2026-05-29",
		"the build broke yesterday, retry on thursday":     "thursday 2026-05-28",
		"the freeze we announced starts on monday":         "monday 2026-06-01",
		"the launch got moved, it's now on thursday":       "thursday 2026-05-28",
		// A weekday counted in a month, from a weekday, or from a holiday.
		"the spring sale launches the 2nd monday of june":               "launches 2026-06-08",
		"the code freeze is the last friday of this month":              "is 2026-05-29",
		"it goes live 3 weeks from this coming monday":                  "live 2026-06-22",
		"the batch has to be through by the friday before thanksgiving": "friday 2026-11-20 before thanksgiving 2026-11-26",
		// Days counted back from an event dated after it.
		"the bundle is filed 10 days before the hearing, hearing's 2027-01-14":   "filed 2027-01-04 (10 days before) the hearing",
		"docs freeze two weeks before the launch on 2026-07-20":                  "freeze 2026-07-06 (two weeks before) the launch",
		"the notes go out a week after the release, the release is 2026-08-03":   "out 2026-08-10 (a week after) the release",
		"code freeze is 3 days before the release, the sync is 2026-07-12":       "is 3 days before the release",
		"prices are kept for 30 days after the launch, the launch is 2026-07-12": "for 30 days after the launch",
		"we must publish the tram line before the fallas finish (the 19th)":      "finish (2026-06-19)",
		"i'm away from friday 29 to sunday for a workshop":                       "from 2026-05-29 to",
		"the demo is friday 10:30, bring the slides":                             "friday 2026-05-29 10:30",
		"the kickoff is monday 2026-06-01 of june, the second week after that":   "monday 2026-06-01 of june",
	} {
		got, ok := AbsoluteDates(in, wed)
		if !ok || !strings.Contains(got, want) {
			t.Errorf("%q → %q (%v), want it to hold %q", in, got, ok, want)
		}
		if reGarbled.MatchString(got) {
			t.Errorf("%q → %q: a date written into another", in, got)
		}
	}
	for _, in := range []string{
		"the month end close runs on the last business day",
		"finance closes the books at month end",
		"infra sync is weekly on tuesday at 11",
		"the invoice cron runs on the 1st of every month",
		"the report goes out monthly on the 15th",
		"we shipped the new onboarding on monday and churn went down",
		"so we went live on the 8th, no drama except one retry storm",
		"remember the auth bug from tuesday? it was clock skew",
		"we fixed it over the weekend",
		"our cto calls it the bug that ate christmas",
		"it should land in a day or two",
		"we deploy 10 times in a week, so keep PRs small",
		"ping me when u get a sec, wed is fine i guess",
		"we went up to the 3rd place in the ranking",
		"nothing goes to prod on a friday, nobody is on call",
		"any friday works for the retro",
		"the office moved to the 3rd floor",
		"the standup changed to the 2nd slot",
		"the year-end close needs the ledger reconciled",
		"the office is closed good friday, so no deploys", // a day's name, not the coming friday
		"we patch on patch tuesday like everyone",
	} {
		if got, _ := AbsoluteDates(in, wed); got != in {
			t.Errorf("%q became %q", in, got)
		}
	}
}

// reGarbled is a date written into another's digits.
var reGarbled = regexp.MustCompile(`\d{4}-\d\d-\d{4}|\d-\d{4}-\d\d`)

// TestAbsoluteDates_Review: what a review found wrong (issue 17), said on
// Tuesday 2026-04-14 unless another day is given.
// TestAnchoredOn: a day counted from the day the sentence before named,
// and not one counted from something else.
func TestAnchoredOn(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ s, before, want string }{
		{"docs due the friday before.", "the audit is on december 18.", "docs due the friday 2026-12-11 before."},
		{"freeze three days after.", "the launch is december 1.", "freeze 2026-12-04 (three days after)."},
		{"docs due the friday before the kickoff.", "the audit is on december 18.", "docs due the friday before the kickoff."},
		{"docs due the friday before.", "the audit went well.", "docs due the friday before."},
	} {
		if got := anchoredOn(tc.s, tc.before, at); got != tc.want {
			t.Errorf("%q after %q: got %q, want %q", tc.s, tc.before, got, tc.want)
		}
	}
}

// TestAbsoluteDates_QuarterAhead: a quarter's end long past this year is
// next year's.
func TestAbsoluteDates_QuarterAhead(t *testing.T) {
	if got, _ := AbsoluteDates("the grant ends at the end of Q1", time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)); got != "the grant ends at 2027-03-31" {
		t.Errorf("got %q", got)
	}
	// A weekday and a day that fit a month just past and one ahead: the
	// one ahead.
	if got, _ := AbsoluteDates("the security review is monday the 16th", time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)); got != "the security review is 2026-03-16" {
		t.Errorf("got %q", got)
	}
}

func TestAbsoluteDates_Review(t *testing.T) {
	tue := time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC)
	on := func(d string) time.Time {
		t, _ := time.Parse(time.DateOnly, d)
		return t.Add(10 * time.Hour)
	}
	for _, tc := range []struct {
		in   string
		at   time.Time
		want string // the whole rewrite
	}{
		{"need this by friday EOD", tue, "need this by friday 2026-04-17 EOD"},
		{"the lab test starts monday 27 april now", tue, "the lab test starts 2026-04-27 now"},
		{"go-live is Thursday, 30 April", tue, "go-live is 2026-04-30"},
		{"the audit opens Mon, May 4th", tue, "the audit opens 2026-05-04"},
		{"we ship on sun 03:00 utc", tue, "we ship on sun 03:00 utc"},
		{"restores run on sunday nights", tue, "restores run on sunday nights"},
		{"the campaign starts on the first of may, the build is live a week before that because review is slow", tue, "the campaign starts on 2026-05-01, the build is live 2026-04-24 (a week before that) because review is slow"},
		{"give it a second of thought", tue, "give it a second of thought"},
		{"the first may be fine, the tenth of may is the cutoff", tue, "the first may be fine, 2026-05-10 is the cutoff"},
		{"the demo is on friday afternoon", tue, "the demo is on friday 2026-04-17 afternoon"},
		{"tomorrow EOD please", tue, "2026-04-15 EOD please"},
		{"need the rfc comments by EOD", tue, "need the rfc comments by 2026-04-14"},
		{"at the end of the day, readability beats cleverness", tue, "at the end of the day, readability beats cleverness"},
		{"the end of day job runs at 6", tue, "the end of day job runs at 6"},
		{"never touch the cob module, it's legacy", tue, "never touch the cob module, it's legacy"},
		{"always run scripts/eod.sh before you leave", tue, "always run scripts/eod.sh before you leave"},
		{"never push to the eod-report branch directly", tue, "never push to the eod-report branch directly"},
		{"always use the `tmrw` alias, deploy tmrw", tue, "always use the `tmrw` alias, deploy 2026-04-15"},
		{"see https://example.com/eod/report by friday", tue, "see https://example.com/eod/report by friday 2026-04-17"},
		{"merry christmas everyone", tue, "merry christmas everyone"},
		{"the christmas event banner ships on the 20th", tue, "the christmas event banner ships on 2026-04-20"},
		{"nyet, not that", tue, "nyet, not that"},
		{"by christmas 2026-12-25", tue, "by christmas 2026-12-25"},
		{"by christmas 2027 we need v2", tue, "by christmas 2027-12-25 we need v2"},
		{"prod went down on christmas day", on("2026-12-27"), "prod went down on christmas day"},
		{"over christmas the pager went off", on("2026-12-26"), "over christmas the pager went off"},
		{"we shipped the billing rewrite this weekend", on("2026-04-20"), "we shipped the billing rewrite this weekend"},
		{"we migrated everything at the end of the year", on("2026-01-05"), "we migrated everything at the end of the year"},
		{"I'll upgrade it over the weekend, the old cluster died over the weekend", tue, "I'll upgrade it the weekend of 2026-04-18, the old cluster died over the weekend"},
		{"freeze is from wednesday to the 14th, only hotfixes", tue, "freeze is from wednesday 2026-04-15 to 2026-05-14, only hotfixes"},
		{"from mon to fri", tue, "from monday 2026-04-20 to friday 2026-04-24"},
		{"remember to rotate the certs on friday", tue, "remember to rotate the certs on friday 2026-04-17"},
		{"we onboard three hundred new hires on monday", tue, "we onboard three hundred new hires on monday 2026-04-20"},
		{"we have limited capacity on friday", tue, "we have limited capacity on friday 2026-04-17"},
		{"I told the client we launch on friday", tue, "I told the client we launch on friday 2026-04-17"},
		{"in 99999999999999999999 days", tue, "in 99999999999999999999 days"},
		{"the law passed on July 1, 1999", tue, "the law passed on 1999-07-01"},
		{"ship it by Jul 4, '27", tue, "ship it by 2027-07-04"},
		{"we sat at 5 with the client and decided on postgres", tue, "we sat at 5 with the client and decided on postgres"},
		{"c'mon at 5", tue, "c'mon at 5"},
		{"they plan to wed next spring", tue, "they plan to wed next spring"},
		{"he weds her in may", tue, "he weds her in may"},
		{"the 2nd is flaky, fix it", tue, "the 2nd is flaky, fix it"},
		{"the 30th is our last day on the old vendor", tue, "2026-04-30 is our last day on the old vendor"},
		{"tomorrow, drop it to the 2nd position in the list", tue, "2026-04-15, drop it to the 2nd position in the list"},
		{"invoices go out on the 1st of the month", tue, "invoices go out on the 1st of the month"},
		{"we rotate keys every month on the 15th", tue, "we rotate keys every month on the 15th"},
		{"it processes 1M rows in a day", tue, "it processes 1M rows in a day"},
	} {
		if got, _ := AbsoluteDates(tc.in, tc.at); got != tc.want {
			t.Errorf("%q said %s:\n got  %q\n want %q", tc.in, tc.at.Format(time.DateOnly), got, tc.want)
		}
	}
}

// TestAbsoluteDates_RangeEnd: a range's end, read on its own as a day just
// past, comes after its start.
func TestAbsoluteDates_RangeEnd(t *testing.T) {
	at := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"i'm offline dec 20 through jan 3":     "2026-12-20 through 2027-01-03",
		"we're closed 24 dec - 2 jan":          "2026-12-24 - 2027-01-02",
		"the freeze ran jan 5 and ends feb 20": "2026-01-05 and ends 2026-02-20",
	} {
		if got, _ := AbsoluteDates(in, at); !strings.Contains(got, want) {
			t.Errorf("%q: got %q, want it to hold %q", in, got, want)
		}
	}
}

// TestAbsoluteDates_Coarse: a month, quarter or year counted from now is
// written as the one it is, with no day (and the text is not dated for
// it); a span, a rate and the past are left as said, and a day of next
// month is still a day.
func TestAbsoluteDates_Coarse(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"Quarterly planning is next month.":             "Quarterly planning is in December 2026.",
		"The audit is due by next month":                "The audit is due by December 2026",
		"We ship next year":                             "We ship in 2027",
		"next year's budget is frozen":                  "2027's budget is frozen",
		"The migration lands next quarter.":             "The migration lands in Q1 2027.",
		"It happens in two months.":                     "It happens in January 2027.",
		"over the next month we will migrate":           "over the next month we will migrate",
		"once a month we rotate keys":                   "once a month we rotate keys",
		"we moved it last month":                        "we moved it last month",
		"the upgrade is the first monday of next month": "the upgrade is 2026-12-07",
		"in 30 months":                                  "in 30 months",
	} {
		got, _ := AbsoluteDates(in, at)
		if got != want && !(strings.Contains(want, "2026-12-07") && strings.Contains(got, "2026-12-07")) {
			t.Errorf("AbsoluteDates(%q) = %q, want %q", in, got, want)
		}
	}
	if _, dated := AbsoluteDates("do not use cloud-only APIs till next year", at); dated {
		t.Error("a rule that holds till next year is dated: it names no day")
	}
}
