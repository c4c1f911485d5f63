package extract

import (
	"slices"
	"testing"
	"time"
)

// TestSplitDated: a sentence that puts two things on the calendar is two
// facts, each with its own day; one thing and its day is not cut. A fact
// said to follow from the other ("…, so …") keeps it as its why.
func TestSplitDated(t *testing.T) {
	at := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC) // a Tuesday
	for _, tc := range []struct {
		in   string
		want []datedPart
	}{
		{"the spring sale launches on the 20th and storefront deploys are frozen from the 18th through the 23rd",
			[]datedPart{{"the spring sale launches on 2026-03-20", ""}, {"Storefront deploys are frozen from 2026-03-18 through 2026-03-23", ""}}},
		{"the onsite assessment is on the 25th and before that there's a change freeze on the payments cluster starting monday",
			[]datedPart{{"the onsite assessment is on 2026-03-25", ""}, {"There's a change freeze on the payments cluster starting monday 2026-03-16", ""}}},
		{"the play store release is 6 july and feature freeze is three days before",
			[]datedPart{{"the play store release is 2026-07-06", ""}, {"Feature freeze is 2026-07-03 (three days before)", ""}}},
		{"churn results go to the exec review on the 18th, so feature freeze is this wednesday",
			[]datedPart{{"churn results go to the exec review on 2026-03-18", ""}, {"Feature freeze is wednesday 2026-03-11", "churn results go to the exec review on 2026-03-18"}}},
		{"the resubmission is due on the 23rd, so from the 20th on, solver changes are frozen",
			[]datedPart{{"the resubmission is due on 2026-03-23", ""}, {"Solver changes are frozen from 2026-03-20 on", "the resubmission is due on 2026-03-23"}}},
		{"the upgrade goes out on the 12th, and after that billing deploys are frozen till the 20th",
			[]datedPart{{"the upgrade goes out on 2026-03-12", ""}, {"Billing deploys are frozen till 2026-03-20", ""}}},
		// One thing, one day: nothing to cut.
		{"the migration starts on the 20th and runs until the 23rd", nil},
		{"the demo is on the 20th and before that we should clean up the flags", nil}, // no day of its own after "before that"
		{"the demo is on the 20th, so from now on no new flags", nil},
	} {
		if got := splitDated(tc.in, at); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got  %q\n want %q", tc.in, got, tc.want)
		}
	}
}
