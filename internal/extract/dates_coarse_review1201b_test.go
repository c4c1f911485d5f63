package extract

import (
	"strings"
	"testing"
	"time"
)

// TestReview1201b_CoarseDatesReadAsSaid: coarseDates writes "in <when>"
// whenever none of its prepositions precedes, so after "of" or "than", and
// before "or two", "'s time" or "from now", the text says something else,
// or nothing.
func TestReview1201b_CoarseDatesReadAsSaid(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for in, bad := range map[string]string{
		"The mobile app launches in Q2 of next year.":    "of in 2027",
		"The offsite is at the start of next month.":     "of in December",
		"The demo is the first week of next month.":      "of in December",
		"Ship no later than next month.":                 "than in December",
		"Budgets are set in a month or two.":             "December 2026 or two",
		"In two months' time we migrate to Postgres 17.": "2027' time",
		"The price goes up in 2 months from now.":        "2027 from now",
	} {
		if got, _ := AbsoluteDates(in, at); strings.Contains(got, bad) {
			t.Errorf("AbsoluteDates(%q) = %q", in, got)
		}
	}
}

// TestReview1201b_InAMonthAsARate: "in a month" after a count is a rate
// or a limit ("three migrations in a month"), not the month after this
// one; coarseDates turns a standing rule into one about December 2026.
func TestReview1201b_InAMonthAsARate(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, in := range []string{
		"Never run more than three schema migrations in a month.",
		"The free API tier allows 1000 calls in a month.",
	} {
		if got, _ := AbsoluteDates(in, at); got != in {
			t.Errorf("AbsoluteDates(%q) = %q, want it as said", in, got)
		}
	}
}
