package extract

import (
	"strings"
	"testing"
)

// TestTitle_PhraseEnds: a name is a short title that stops where a phrase
// stops, never a sentence cut at its sixth word ("Anything touching the
// rules engine needs", "Explain layout changes when you make").
func TestTitle_PhraseEnds(t *testing.T) {
	for _, tc := range []struct{ typ, rule, want string }{
		// articles and filler go before words are cut
		{"feedback", "anything touching the rules engine needs a ticket before merge", "Anything touching rules engine needs ticket"},
		{"feedback", "never put a token in a .env that's tracked", "Never put token in .env"},
		{"user", "I'm really bad at css grid", "About me: bad at css grid"},
		{"feedback", "the PDP has to stay a server component", "PDP must stay server component"},
		// not into a clause it cannot finish
		{"feedback", "explain layout changes when you make them", "Explain layout changes"},
		{"feedback", "use a multi-stage build so the compiler toolchain doesn't ship in the image", "Use multi-stage build"},
		// a subject is a title; its verb left alone is not
		{"project", "the perf audit by the security team starts on the 14th, so anything touching auth needs a ticket", "Perf audit by security team"},
		{"project", "tournament mode goes to closed beta the tuesday right after the studio offsite", "Tournament mode goes to closed beta"},
		{"project", "we release operators on the first tuesday of every month", "We release operators"},
		{"feedback", "always run on the 1% sample first", "Always run on 1% sample first"},
		{"project", "the billing cutover for eu customers lands on 2026-06-03, no merges that week", "Billing cutover for eu customers"},
		{"feedback", "The api layer must never import ortools directly, all solver code lives in the planner package only", "Api layer must never import ortools"},
		{"feedback", "always real(wp) from the module par_kind, the compiler on the cluster make problems", "Always real(wp) from the module par_kind"},
		// not cut before a contrast's noun is named, nor before a clause's
		// object: a verb left alone is a sentence cut off
		{"project", "we stick with hermite 4th order not leapfrog", "We stick with hermite 4th order"},
		{"project", "Lucia maintains it so if you add a pub_ table tell me and I ask her", "Lucia maintains it"},
		{"feedback", "don't run it, anything against the ops db i run myself", "Don't run it"},
		// a label that announces without naming is no title; a topic is
		{"project", "the big one: the line gets the new labeller from Krones in the summer shutdown", "Line gets new labeller from Krones"},
		{"project", "news just in: go-live slipped a week to 2026-06-20", "Go-live slipped a week to 2026-06-20"},
		{"project", "deadline wise: the spring match campaign starts 2026-03-16", "Spring match campaign starts 2026-03-16"},
		{"reference", "actually one more: pipeline failures alert in #ingest-alerts on slack", "Pipeline failures alert in #ingest-alerts"},
		{"project", "holiday freeze: no deploys from 2026-12-19 till 2027-01-04", "Holiday freeze"},
		{"reference", "crash reports: ios is in sentry project mobile-ios-prod", "Crash reports"},
		// a condition or scope first: the name is what follows it
		{"feedback", "for the schema change, add session_source as a new optional field with a default", "Add session_source as new optional field"},
		{"reference", "if we need more gpu hours, allocation requests go through the hpc-alloc board in jira", "Allocation requests go through hpc-alloc board"},
		{"feedback", "if you add alerts, route them to the pagerduty service 'monolith-api', thats what on-call watches", "If you add alerts"},
		{"feedback", "for tests use the database WMS_TEST, not the dev one", "For tests use the database WMS_TEST"},
		{"feedback", "if you need it for a test, but don't write it in any file", "If you need it for test"},
		{"reference", "when done post results in #bench, marta and the EE folks watch", "When done post results in #bench"},
		{"feedback", "if the nightly job fails, restart it from the airflow ui", "If the nightly job fails"},
		// "any" goes when the rest then fits; a participle after a noun opens a phrase
		{"feedback", "any grpc api change has to be announced in #api-changes on slack", "Grpc api change must be announced"},
		{"reference", "if you ever need more runner capacity, requests go through the google form pinned in #dev-productivity", "Requests go through google form"},
		{"feedback", "add a CHANGELOG entry under Unreleased for both changes", "Add CHANGELOG entry under Unreleased"},
		// a polite word at the end is no part of a title
		{"feedback", "before changing more than one file, ask me first please", "Ask me first"},
		{"feedback", "no force-push after review, thx", "No force-push after review"},
		{"project", "the orders service is getting deprecated in Q1 anyway, billing-v2 replaces it", "Orders service is getting deprecated"},
		// a name or a date said after a noun stands apart from it
		{"project", "the index rebuild is scheduled for tuesday 2026-12-01 so reads will be slow", "Index rebuild is scheduled for tuesday"},
		{"feedback", "keep all secrets in the 1password vault 'platform-dev' and never in .env files", "Keep all secrets in 1password vault"},
		// what the speaker would rather the agent did is the rule
		{"feedback", "I'd rather you sketch it as bullet points first", "Sketch it as bullet points first"},
		{"feedback", "I'd prefer you not run anything against the staging db", "Don't run anything against staging db"},
		{"feedback", "in this codebase we never use `gen_server:call` with an infinity timeout", "Never use gen_server:call with infinity timeout"},
		// a URL is no part of a title: the thing it locates is
		{"reference", "the crashloop runbook is https://wiki.corp.lan/ops/crashloop", "Crashloop runbook location"},
		{"reference", "no need, the p99 numbers from the last load test are in the shared google sheet 'orders api p99'", "P99 numbers from last load test"},
	} {
		if got := title(learningTitle(tc.typ, tc.rule)); got != tc.want {
			t.Errorf("%s %q:\n got  %q\n want %q", tc.typ, tc.rule, got, tc.want)
		}
	}
}

// TestHeadline_Quotes: a cut never falls inside a quoted name.
func TestHeadline_Quotes(t *testing.T) {
	words := strings.Fields("Follow 'last two go releases' support policy for all modules")
	if got := strings.Join(headline(words, 6, 2), " "); strings.HasSuffix(got, "'last two") {
		t.Errorf("headline cut inside the quote: %q", got)
	}
	if !inQuote(strings.Fields("Follow 'last two")) || inQuote(strings.Fields("Follow 'last two go releases'")) || inQuote(strings.Fields("vault 'platform-dev',")) {
		t.Error("inQuote misreads where a quoted name ends")
	}
}
