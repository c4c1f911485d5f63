package consolidate

import (
	"strings"
	"testing"
	"time"
)

// TestReview1201b_ValidateRefusesYearRateToYear: "year", "years" and "a"
// became words a date rewrite may drop, and any year 2000-2099 one it may
// add, so a model's date rewrite that turns a rate or a span into a year
// ("every year" → "every 2027", "for a year" → "for 2027") passes the
// plan's checks. Both change what the memory says.
func TestReview1201b_ValidateRefusesYearRateToYear(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ before, after string }{
		{"Rotate the signing key every year.", "Rotate the signing key every 2027."},
		{"Keep the audit logs for a year.", "Keep the audit logs for 2027."},
		{"Keep the audit logs for two years.", "Keep the audit logs for 2028."},
	} {
		in := Input{Now: at, Items: []Item{{File: "k.md", Name: "keys", Type: "project", Body: tc.before, Created: at}}}
		p := Plan{Ops: []Op{{ID: "date:k.md", Kind: Date, Files: []string{"k.md"}, Keep: "k.md", Edit: &Edit{Body: tc.after}}}}
		if err := Validate(in, p); err == nil {
			t.Errorf("a date rewrite %q → %q passes Validate", tc.before, tc.after)
		}
	}
}

// TestReview1201b_HeuristicDateOfNextYearReadsWell: the heuristic engine's
// date operation writes "next year" as "in 2027" after any word but a
// few, so "Q2 of next year" becomes "Q2 of in 2027", "the start of next
// month" "the start of in December 2026", "in a month or two" "in
// December 2026 or two"; and Validate passes each.
func TestReview1201b_HeuristicDateOfNextYearReadsWell(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	items := []Item{
		{File: "launch.md", Name: "Launch", Description: "The app launch date", Body: "The mobile app launches in Q2 of next year.", Type: "project", Created: at},
		{File: "offsite.md", Name: "Offsite", Description: "Where the offsite is", Body: "The offsite in Porto is at the start of next month.", Type: "project", Created: at},
		{File: "budget.md", Name: "Budget", Description: "When budgets are set", Body: "Cloud budgets are set in a month or two.", Type: "project", Created: at},
	}
	in := Input{Now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Items: items}
	p := Heuristic(in)
	for _, op := range p.Ops {
		if op.Edit == nil {
			continue
		}
		for _, bad := range []string{"of in ", "December 2026 or two"} {
			if strings.Contains(op.Edit.Body, bad) {
				t.Errorf("%s rewrites %s as %q (Validate: %v)", op.ID, op.Keep, op.Edit.Body, Validate(in, Plan{Ops: []Op{op}}))
			}
		}
	}
}

// TestReview1201b_DreamKeepsARateRule: dream's date operation rewrites a
// standing fact's "in a month" (a quota per month) as one month, December
// 2026, and the plan's checks pass it.
func TestReview1201b_DreamKeepsARateRule(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	in := Input{Now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Items: []Item{
		{File: "quota.md", Name: "Vendor API quota", Description: "Vendor API billing past the free quota", Body: "The vendor API tier allows 1000 calls in a month; past that each call is billed.", Type: "project", Created: at},
	}}
	p := Heuristic(in)
	for _, op := range p.Ops {
		if op.Edit != nil && (strings.Contains(op.Edit.Body, "2026") || strings.Contains(op.Edit.Description, "2026")) {
			t.Errorf("%s rewrites a standing rule: %q / %q (Validate: %v)", op.ID, op.Edit.Description, op.Edit.Body, Validate(in, Plan{Ops: []Op{op}}))
		}
	}
}
