package extract

import (
	"slices"
	"strings"
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

// TestPlaces_LabelledAndBooked: a place said as a label and its address,
// and places written down by verbs of record ("documented in", "booked
// in"), are references; a link to an error, a pull request or a commit
// is not.
func TestPlaces_LabelledAndBooked(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ text, has string }{
		{"PFA the path — model checkpoints: s3://ml-artifacts-prod/ranker/ (lifecycle deletes anything older than 90 days)", "Model checkpoints: s3://ml-artifacts-prod/ranker/"},
		{"the runbook: https://wiki.acme.io/ops/db", "https://wiki.acme.io/ops/db"},
		{"HL7 mapping decisions are documented in the 'Interface Spec v4' PDF on the sharepoint", "Interface Spec v4"},
		{"the change windows are booked in the shared outlook calendar 'Transit Changes'", "Transit Changes"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		if len(got) != 1 || got[0].Type != "reference" || !strings.Contains(got[0].Body, tc.has) {
			t.Errorf("%q: got %+v, want one reference holding %q", tc.text, got, tc.has)
		}
	}
	for _, text := range []string{
		"error: https://sentry.io/acme/issues/123",
		"PR: https://github.com/acme/app/pull/12",
		"fixed in this commit: https://github.com/a/b/commit/abc",
		"here's the link: https://example.com/x",
		"status: done",
	} {
		if got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s"); len(got) != 0 {
			t.Errorf("%q was saved: %+v", text, got)
		}
	}
}

// TestLabelledPlace: what reads as a thing and its address, on its own.
func TestLabelledPlace(t *testing.T) {
	for s, want := range map[string]bool{
		"model checkpoints: s3://ml-artifacts-prod/ranker/": true,
		"PFA the path — model checkpoints: gs://bucket/x":   true,
		"the runbook: https://wiki.acme.io/ops/db":          true,
		"error: https://sentry.io/acme/issues/123":          false,
		"the failing build: https://ci.acme.io/b/991":       false,
		"PR: https://github.com/acme/app/pull/12":           false,
		"the issue: https://github.com/acme/app/issues/7":   false,
		"stack trace: https://gist.github.com/x/1":          false,
		"here: https://example.com/x":                       false,
		"check this: https://example.com/x":                 false,
		"runbook: see the wiki":                             false,
		"bucket: s3://":                                     false,
		"exports in the: s3://x/y":                          false,
		"see docs: https://wiki.acme.io/x":                  false,
		"the diff: https://github.com/a/b/compare/x":        false,
	} {
		if got := labelledPlace(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
