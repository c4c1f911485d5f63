package extract

import (
	"strings"
	"testing"
	"time"
)

// TestHeuristic_Review1130f holds the defects a read-only review found in
// the readings of b6bf432 (run-ons, rules said of things, redirects, people
// by role, places by kind), each as the reviewer demonstrated it.
func TestHeuristic_Review1130f(t *testing.T) {
	localUTC(t)
	nothing := []string{
		// 1 a label scoped to today, this PR or this branch is no rule label
		"two things for everything you do today: use the staging db and don't push",
		"for everything you change in this PR: keep the old function names and add a deprecation note",
		"for anything you touch in this branch: rebase on develop first",
		// 2 what a request covers, said "X only, no Y"
		"review only, no edits, I just want your opinion on the approach",
		"answer only, no code",
		"fix the failing test only, not the warnings",
		"typos only, no rewording",
		"look at the diff only, no commits please",
		// 3 words with a hyphen after project, vault, workspace
		"the workspace set-up took me two hours yesterday",
		"the project is read-only for contractors",
		"the project is on-hold until the funding comes through",
		"the vault re-seal happens automatically after a restart",
		// 4 what a board shows, quoted
		"the dashboard is showing 'No data' since the deploy",
		`the page is returning "500 internal error" again`,
		"the sheet is missing 'Q3' now",
		// 5 a redirect that fixes this task
		"hmm no, the token is expired, generate a new one",
		"no no, the query is slow, add an index on user_id",
		"no, the api returns 404 for deleted users, return an empty list instead",
		// 6 findings and where the work is now
		"duplicates via the webhook, not the cron job, the timestamps match",
		"orders via the mobile app, not the website, that's where the bug is",
		"we're on the release branch, not main",
		"we're on page 3 not page 2 of the docs",
		// 7 symptoms said with "only"
		"tests only in the auth package are failing",
		"crashes only on android 14",
		"users only on the free plan see the banner",
		// 8 facts said with "no"
		"no rows in the orders table have a null customer id, I checked",
		"no users on the free tier can export pdfs",
		// 12 tools named like people
		"the tester is Playwright and the runner is GitHub Actions",
		"the developer is Apple on the app store listing",
		"the owner is Unknown in the CODEOWNERS file, fix that",
	}
	for _, s := range nothing {
		for _, c := range reviewRun(t, s) {
			if c.Type == "feedback" || c.Type == "reference" || c.Type == "project" && strings.Contains(s, " is ") {
				t.Errorf("%q: want no %s, got %q", s, c.Type, c.Body)
			}
		}
	}
	// 3 the rule beside a hyphenated word stays, with no place
	if got := reviewRun(t, "our project is open-source so never commit customer data"); reviewCount(got, "reference") != 0 {
		t.Errorf("3: a hyphenated word read as a place: %q", got)
	}
	// 9 "by the way" and "and also" said as words keep a rule whole
	for _, tc := range []struct{ s, holds string }{
		{"always order the rows in the export by the way they were entered in the source system and never alphabetically because the accountants reconcile the export line by line against the paper ledger every month", "never alphabetically"},
		{"never log the full request body in the payment service and also not the headers because they contain card data and session tokens and the PCI auditors check our logs every quarter for exactly this kind of leak", "not the headers"},
	} {
		if _, ok := holding(reviewRun(t, tc.s), tc.holds); !ok {
			t.Errorf("9 %q: want a memory holding %q", tc.s, tc.holds)
		}
	}
	// 10 a dictated piece does not end on "and" or "so"
	for _, p := range dictated("please always write tests for new endpoints and check coverage too um and also never commit directly to main and honestly I hate when the build breaks every single morning") {
		if l := strings.ToLower(p); strings.HasSuffix(l, " and") || strings.HasSuffix(l, " so") {
			t.Errorf("10: a piece ends on its conjunction: %q", p)
		}
	}
	// 11 the person's clause keeps its subject
	for _, tc := range []struct{ s, holds string }{
		{"for anything about refunds and chargebacks ask Hannah (finance controller)", "refunds and chargebacks"},
		{"questions about the billing code and the invoice templates go to Ravi, our billing lead", "billing code"},
	} {
		if _, ok := holding(reviewRun(t, tc.s), tc.holds, "Ravi"); !ok && strings.Contains(tc.s, "Ravi") {
			t.Errorf("11 %q: want the whole clause", tc.s)
		}
		if _, ok := holding(reviewRun(t, tc.s), tc.holds); !ok {
			t.Errorf("11 %q: want a memory holding %q", tc.s, tc.holds)
		}
	}
	// 14 mm, the unit
	for _, s := range []string{"mm everywhere in the CAD exports, never inches", "mm for all dimensions, never cm, the machinists hate conversions"} {
		if _, ok := holding(reviewRun(t, s), "mm "); !ok {
			t.Errorf("14 %q: the unit was read as a hum", s)
		}
	}
}

// TestHeuristic_NotMemories holds what fresh19's read showed saved that a
// colleague would not keep: talk ("dont be surprised"), what went by, a
// rule for this week, a pasted benchmark line, "this is" once its reason
// is cut out, a thing left as it is, a person's past, where one's skills
// come from, a task step after a place.
func TestHeuristic_NotMemories(t *testing.T) {
	localUTC(t)
	for _, tc := range []struct{ s, not string }{
		{"ok. use staging, the staging db is refreshed every sunday night, so monday morning the data looks different, dont be surprised.", "surprised"},
		{"month end close for april is on may 5th not the 3rd. dont ask me why finance does it like this", "ask me why"},
		{"yo. the release on the 21st went out fine. now poland.", "went out fine"},
		{"and dont commit on friday afternoon this week, the wallet team has a release and the CI is full", "this week"},
		{"snapshot_read/1000_levels  time: [3.812 us 3.901 us 4.004 us]\n  change: [-98.41% -98.37% -98.33%] (p = 0.00 < 0.05)\nvery nice.", "98.41%"},
		{"every engine PR needs two approvals. this is because of the incident on the 22nd when a config flag took the ETH markets down.", "This is."},
		{"ugh marketing wants confetti when a courier finishes 100 deliveries, I hate it but ok, not now tho.", "confetti"},
		{"I come from java, so please explain python-specific things when they are not obvious.", ""},
		{"grafana for the transcoders is grafana.halcyon.media/d/transcode-fleet, check the spot eviction panel after this goes in.", ""},
		{"task: FB_Filler goes in fault when the capper stops, it should go in 'wait' state instead.", "wait"},
		{"the project is long-running, the workspace is self-hosted", "long-running"},
		{"Erik the cluster admin gets angry when gpu-long is full of small jobs", "Erik"},
	} {
		for _, c := range reviewRun(t, tc.s) {
			if tc.not != "" && strings.Contains(c.Body, tc.not) {
				t.Errorf("%q: saved %q", tc.s, c.Body)
			}
			if tc.not == "" && c.Type == "reference" && !strings.Contains(c.Body, "grafana.halcyon") {
				t.Errorf("%q: a place of %q", tc.s, c.Body)
			}
		}
	}
	// A redirect that leaves this task's thing as it is keeps the rule after it.
	at := reviewRun(t, "no, gateway is ok. in the engine crate no unwrap or expect, never.")
	if _, ok := holding(at, "gateway is ok"); ok {
		t.Errorf("a thing left as it is was saved: %q", at)
	}
	if _, ok := holding(at, "no unwrap"); !ok {
		t.Errorf("the rule after it was lost: %q", at)
	}
	// "(dont ask why)" said as an aside leaves the rule around it.
	if _, ok := holding(reviewRun(t, "oh and pls write commit msgs in plain english from now on, the board treasurer reads the github history (dont ask why) and gets confused by 'chore:'."), "plain english"); !ok {
		t.Error("an aside's 'dont ask why' took the rule with it")
	}
}

// TestHeuristic_Review1130g holds the defects a second read-only review
// found in the readings of 901efa2 and 255d12f, each as demonstrated.
func TestHeuristic_Review1130g(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	wants := []struct{ s, holds string }{
		// 1 a clause of dots or signs alone panicked
		{"you must rebase first, ...", "rebase first"},
		{"you must rebase first, !!!", "rebase first"},
		{"you must rebase first; ...", "rebase first"},
		// 2 facts about the future, said beside a past word
		{"yesterday we decided the launch moves to april 10.", "2026-04-10"},
		{"the migration to postgres 16 is scheduled for march 20 because the last attempt failed.", "2026-03-20"},
		{"the retry of the failed migration is scheduled for saturday 2026-03-07.", "2026-03-07"},
		// 3 "don't worry about X" is a rule
		{"don't worry about IE11, we dropped support.", "IE11"},
		// 4 two days in a sentence are talk, not pasted output
		{"RC is 2026-03-25, GA is 2026-04-01.", "2026-03-25"},
		{"my on-call weeks are 2026-03-09 and 2026-04-06.", "2026-03-09"},
		// 6 a practice allowed
		{"actually, using any in tests is fine.", "any in tests"},
		{"no, raw SQL is fine.", "raw SQL"},
		// 9 conventions said with "always" or about comments and answers
		{"errors always as RFC 7807 problem+json.", "RFC 7807"},
		{"builds only on the ci box that has the gpu.", "ci box"},
		{"English comments only, no German.", "English comments"},
		{"short answers only, no essays.", "short answers"},
		// 10 a rule label scoped to a language
		{"for everything you write in python: type hints and a docstring on every public function.", "type hints"},
		// 13 a redirect's standing preference
		{"no, the tables are small, 200 thousand rows, prefer full refresh.", "prefer full refresh"},
	}
	for _, tc := range wants {
		if _, ok := holding(reviewRun(t, tc.s), tc.holds); !ok {
			t.Errorf("%q: want a memory holding %q", tc.s, tc.holds)
		}
	}
	// 5 two rules in one breath stay two
	if got := reviewRun(t, "ok so we use pnpm not npm for everything in this monorepo and also never bump the major version of react without asking me first because the design system pins it to eighteen"); reviewCount(got, "feedback") != 2 {
		t.Errorf("5: want two rules, got %q", got)
	}
	// 7 a later reason needs the rule's own word, and is no fault
	for _, pair := range [][2]string{
		{"always use explicit imports, never wildcard ones.", "the ci thing is because the runner image is outdated"},
		{"never use the legacy build script.", "the build thing is because the cache got corrupted yesterday"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: pair[0]}, {Role: "assistant", Time: at, Text: "ok"}, {Role: "user", Time: at, Text: pair[1]}}, "s")
		for _, c := range got {
			if c.Type == "feedback" && strings.Contains(c.Body, "**Why:**") {
				t.Errorf("7 %q: took a Why: %q", pair, c.Body)
			}
		}
	}
	// 8 "restart it it drops": one reason, not two thoughts
	if c, ok := holding(reviewRun(t, "never restart the ingest worker during business hours because when you restart it it drops all the in flight messages and the finance team has to reconcile them by hand which takes them a whole day"), "ingest worker"); !ok || !strings.Contains(c.Body, "in flight messages") {
		t.Errorf("8: the reason was cut: %q", c.Body)
	}
	// 11 a date or a status is no place
	for _, s := range []string{"the project go-live is in june.", "the board is still 'In Review' for that ticket."} {
		if got := reviewRun(t, s); reviewCount(got, "reference") != 0 {
			t.Errorf("11 %q: a place of %q", s, got)
		}
	}
	// 14 the clause a rule took its verb from is not its reason
	if c, ok := holding(reviewRun(t, "it has to go through the LeavePolicy gate, every approval action must."), "every approval action must go through"); !ok || strings.Contains(c.Body, "**Why:**") {
		t.Errorf("14: want the rule without a Why, got %q", c.Body)
	}
	// 15 log lines pasted without a fence
	for _, s := range []string{
		"build fails:\nnpm ERR! code ERESOLVE\nnpm ERR! Could not resolve dependency: peer react@\"^17.0.0\" from react-beautiful-dnd@13.1.1",
		"the log says: 2026-03-02 09:58:11 WARN  [pool-3] HikariPool-1 - Connection is not available, request timed out after 30000ms.",
	} {
		if got := reviewRun(t, s); len(got) != 0 {
			t.Errorf("15 %q: saved %q", s, got)
		}
	}
}

// TestHeuristic_Venting: venting about a thing is no rule; a dislike of
// how the agent works, or one followed by what to do instead, is.
func TestHeuristic_Venting(t *testing.T) {
	localUTC(t)
	for _, s := range []string{"ugh I hate Google Fit so much", "i hate jira so much"} {
		if got := reviewRun(t, s); len(got) != 0 {
			t.Errorf("%q: saved %q", s, got)
		}
	}
	for _, s := range []string{"also fwiw I hate long explanations after each change, just tell me what changed in a line or two", "I hate when you add comments to every line"} {
		if got := reviewRun(t, s); reviewCount(got, "feedback") != 1 {
			t.Errorf("%q: want the rule, got %q", s, got)
		}
	}
}
