package extract

import (
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
		"deploy the hotfix tmrw morning":                  "2026-05-28",
		"tmr we pair on the flaky tests":                  "2026-05-28",
		"the keys arrive the day after tomorrow":          "2026-05-29",
		"three weeks from now the cluster goes away":      "2026-06-17",
		"the patch window is in a fortnight":              "2026-06-10",
		"the cutover is in a week":                        "2026-06-03",
		"need the rfc comments addressed by EOD":          "by 2026-05-27",
		"need the plan signed off by eow":                 "by 2026-05-29",
		"close the epics by EOQ or they roll over":        "by 2026-06-30",
		"finish the split by the end of the year":         "by 2026-12-31",
		"the reindex runs this weekend":                   "the weekend of 2026-05-30",
		"dns moves this wknd":                             "the weekend of 2026-05-30",
		"the office move is next weekend":                 "the weekend of 2026-06-06",
		"the gift cards go live before christmas":         "before christmas 2026-12-25",
		"the cert renewal lands on new year's eve":        "new year's eve 2026-12-31",
		"accredited by July 1, 2027 at the latest":        "by 2027-07-01 at",
		"the 30th is our last day on the old vendor":      "2026-05-30 is",
		"freeze is from wednesday 2026-06-03 to the 14th": "to 2026-06-14",
		"the friday after next is code freeze":            "friday 2026-06-05",
		"the vendor call got pushed to tues 2pm":          "tuesday 2026-06-02 2pm",
		"the retro moved to weds":                         "wednesday 2026-05-27",
		"the review moved to fri afternoon":               "friday 2026-05-29 afternoon",
		"the migration is set for sat night":              "saturday 2026-05-30 night",
		"rollout starts thurs at 10%":                     "thursday 2026-05-28 at 10%",
		"the run moved to 03:00 utc starting monday":      "monday 2026-06-01",
		"the updated schema ships on friday":              "friday 2026-05-29",
		"the build broke yesterday, retry on thursday":    "thursday 2026-05-28",
		"the freeze we announced starts on monday":        "monday 2026-06-01",
		"the launch got moved, it's now on thursday":      "thursday 2026-05-28",
	} {
		if got, ok := AbsoluteDates(in, wed); !ok || !strings.Contains(got, want) {
			t.Errorf("%q → %q (%v), want it to hold %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"infra sync is weekly on tuesday at 11",
		"the invoice cron runs on the 1st of every month",
		"the report goes out monthly on the 15th",
		"we shipped the new onboarding on monday and churn went down",
		"remember the auth bug from tuesday? it was clock skew",
		"we fixed it over the weekend",
		"our cto calls it the bug that ate christmas",
		"it should land in a day or two",
		"ping me when u get a sec, wed is fine i guess",
		"we went up to the 3rd place in the ranking",
		"the year-end close needs the ledger reconciled",
	} {
		if got, _ := AbsoluteDates(in, wed); got != in {
			t.Errorf("%q became %q", in, got)
		}
	}
}
