package extract

import (
	"strings"
	"testing"
	"time"
)

// holding is the first of cs whose body holds every one of words (any
// case), and whether there is one.
func holding(cs []Candidate, words ...string) (Candidate, bool) {
	for _, c := range cs {
		b := strings.ToLower(c.Body)
		all := true
		for _, w := range words {
			all = all && strings.Contains(b, strings.ToLower(w))
		}
		if all {
			return c, true
		}
	}
	return Candidate{}, false
}

// TestDictated cuts a sentence said without stops where its speaker
// paused, and leaves alone a sentence with its own stops or a short one.
func TestDictated(t *testing.T) {
	long := "no not moment we ripped it out it's huge use date-fns um and also please always test on the small Android profile the Pixel 4a emulator because like half our users are on cheap Android phones"
	got := dictated(long)
	if len(got) != 2 || !strings.HasSuffix(got[0], "use date-fns") || !strings.HasPrefix(got[1], "and also please") {
		t.Errorf("dictated(%q) = %q, want two pieces cut at the dropped um", long, got)
	}
	for _, s := range []string{
		"um I think the tests are flaky",
		"we use postgres, um, for everything, and honestly the replicas, the backups, the restores, the failovers, the vacuum, the bloat and the indexes are all things i handle myself every week, so ask me first",
	} {
		if got := dictated(s); len(got) != 1 {
			t.Errorf("dictated(%q) = %q, want it whole", s, got)
		}
	}
}

// TestHeuristic_SaidInPassing holds the readings of 2026-11-30's
// extraction pass on fresh14 and fresh16: run-ons, rules said of things,
// redirects with their reason first, people by role, places by kind.
func TestHeuristic_SaidInPassing(t *testing.T) {
	localUTC(t)
	for _, tc := range []struct {
		text  string
		typ   string
		holds []string // one memory of typ holds them all
		not   []string // and none of these
	}{
		// a run-on cut where the speaker paused: two rules, the second not the first's reason
		{"no not moment we ripped it out it's huge use date-fns um and also please always test on the small Android profile the Pixel 4a emulator because like half our users are on cheap Android phones", "feedback", []string{"Pixel 4a"}, []string{"date-fns"}},
		// a person's clause, not the clause "and" joined before it
		{"I already rebased on the expo-52 branch and when it's merged ping Yusuf he cuts the release builds on EAS", "project", []string{"Yusuf", "release builds"}, []string{"rebased"}},
		// "before that" points at the clause that holds the day, not the debugging before it
		{"the thing is the workout timer drifts in the background on Android it's off by 40 seconds and the app store submission for 2.0 is on friday so it has to be fixed before that", "project", []string{"app store submission", "2026-03-06"}, []string{"40 seconds"}},
		// a label that scopes what follows to all the work
		{"two things for everything you write: every resource gets cost-center and data-classification tags, Ines from finops runs a report monthly", "feedback", []string{"cost-center", "data-classification"}, nil},
		{"and run terraform fmt + tflint before you hand anything to me", "feedback", []string{"tflint"}, nil},
		// an order with its "never" inside, after a place
		{"terragrunt, modules come from the infra-modules repo, pin module versions by git tag never by branch", "feedback", []string{"git tag", "never by branch"}, []string{"infra-modules"}},
		{"managed policies only, no inline. inline ones dont show up in the access review", "feedback", []string{"managed policies only, no inline"}, nil},
		{"when you change a template check the printable version too, theres a print.css", "feedback", []string{"printable version"}, nil},
		// a redirect whose order comes after what it follows from
		{"mm no, the tables are small, 200 thousand rows, keep table materialization.", "feedback", []string{"keep table materialization", "**Why:** The tables are small"}, nil},
		{"extensions per module, not default-extensions in the cabal file, reviewers need to see them at the top of each file.", "feedback", []string{"extensions per module", "default-extensions"}, nil},
		{"benchmarks only on lambda3 in the dept cluster, laptops give garbage numbers", "feedback", []string{"only on lambda3"}, nil},
		{"names always snake_case with prefix gf_, like gf_daily_reward_claimed.", "feedback", []string{"snake_case", "gf_"}, nil},
		{"yep reuse it, and emails always as queued Mailables, never sent inline in a request.", "feedback", []string{"queued Mailables", "never sent inline"}, nil},
		{"my partner works nights so NO automations that make noise between 8am and 4pm, thats when she sleeps", "feedback", []string{"automations that make noise"}, nil},
		{"we're on vue 3 composition api + pinia, NOT vuex.", "feedback", []string{"pinia", "vuex"}, nil},
		{"nice!! the level designer is Camila, she keeps all the balance in the google sheet 'Gemfall Levels v3'.", "project", []string{"level designer is Camila"}, nil},
		{"translators work in the Lokalise project peoplepath-web.", "reference", []string{"peoplepath-web"}, nil},
		{"the CDR format spec is on sharepoint, Billing/Specs/CDR v7.pdf, and the on-call board is grafana 'billing-rating'.", "reference", []string{"billing-rating"}, []string{"CDR"}},
		{"staging urls are always clientname.pixelpine-staging.com, creds are in 1password vault 'Clients'.", "reference", []string{"1password vault 'Clients'"}, []string{"staging urls"}},
		// a quantified subject with its verb left out takes the clause before's
		{"one job per request ok. but it has to go through the LeavePolicy gate, every approval action must, no exceptions.", "feedback", []string{"every approval action must go through the LeavePolicy gate"}, nil},
		{"we use cabal only, never stack, my advisor Prof. Adeyemi insists because stack snapshots lag behind ghc.", "project", []string{"Prof. Adeyemi"}, nil},
		{"Contact on Siemens side is Frau Petrović, she answers only emails, not Teams.", "project", []string{"Petrović"}, nil},
		{"mehdi from QA is out til the 20th so it can't go through QA before that.", "project", []string{"2026-03-20"}, nil},
		{"cutover slipped so the freeze got extended, it now runs until march 6th.", "project", []string{"2026-03-06", "**Why:** Cutover slipped"}, nil},
		// places named by kind and a quoted or coded name
		{"the bench is booked by the team in the \"Bench calendar\" in outlook.", "reference", []string{"Bench calendar"}, nil},
		{"the risk register is not anymore in polarion, we migrated to Jama in march, project is still VX300-RISK", "reference", []string{"VX300-RISK"}, nil},
		{"rates come from the ECB table in the FX_RATES share from our treasury vendor", "reference", []string{"FX_RATES"}, nil},
		{"central IT has to approve any new contrib module, it goes through their ServiceNow form 'Drupal module request' and takes about two weeks.", "reference", []string{"Drupal module request"}, nil},
		{"And the firm's Python style guide is the Word document 'WP Python Standards v2' on the intranet.", "reference", []string{"WP Python Standards v2"}, nil},
		{"IT migrated the S: drive to SharePoint, it's now the 'Client Data' library on SharePoint, same folder structure.", "reference", []string{"Client Data"}, nil},
		// a task's sentence, and where its document lives
		{"task: driver for the new sensor over SPI, the datasheet is on our sharepoint in Hardware/Datasheets/Sensata_P1J.pdf", "reference", []string{"Hardware/Datasheets/Sensata_P1J.pdf"}, []string{"driver"}},
		// who is who
		{"the backend sends a lockerId instead of an address for those, Kasia is our contact on the backend team for that.", "project", []string{"Kasia is our contact"}, nil},
		{"Wiktor is ops lead, talk to him for windows.", "project", []string{"Wiktor is ops lead"}, nil},
		{"Stefano is the CCB chair and he is very strict.", "project", []string{"Stefano is the CCB chair"}, nil},
		{"Hannah from brand approves anything visual before it goes live.", "project", []string{"Hannah from brand approves"}, nil},
	} {
		got := reviewRun(t, tc.text)
		var of []Candidate
		for _, c := range got {
			if c.Type == tc.typ {
				of = append(of, c)
			}
		}
		c, ok := holding(of, tc.holds...)
		if !ok {
			t.Errorf("%q: want a %s memory holding %q, got %q", tc.text, tc.typ, tc.holds, got)
			continue
		}
		for _, n := range tc.not {
			if strings.Contains(strings.ToLower(c.Body), strings.ToLower(n)) {
				t.Errorf("%q: the %s memory holds %q: %q", tc.text, tc.typ, n, c.Body)
			}
		}
	}
}

// TestHeuristic_SaidInPassingNot holds what the same readings must leave
// alone: what some things did, a task's step, a taken-back pointer, what
// a system always does.
func TestHeuristic_SaidInPassingNot(t *testing.T) {
	localUTC(t)
	for _, s := range []string{
		"no users that signed up got the email, weird",
		"tests always fail on CI when the cache is cold",
		"for everything you wrote yesterday: thanks a lot, really good work",
		"the builds only on fridays are slow",
	} {
		for _, c := range reviewRun(t, s) {
			if c.Type == "feedback" {
				t.Errorf("%q: want no rule, got %q", s, c.Body)
			}
		}
	}
	// A redirect's last order that points back is no rule alone.
	for _, c := range reviewRun(t, "no, governance is out of scope, dont even open it.") {
		if strings.Contains(c.Body, "open it") && !strings.Contains(c.Body, "overnance") {
			t.Errorf("a pointer without what it points at was saved: %q", c.Body)
		}
	}
}

// TestHeuristic_LaterReason gives a rule the reason said for it in a later
// message, by its topic; a rule of another topic keeps none.
func TestHeuristic_LaterReason(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	got, _ := Heuristic([]Message{
		{Role: "user", Time: at, Text: "no jquery in any of our themes, ever. and tabs in php files."},
		{Role: "assistant", Time: at, Text: "Noted."},
		{Role: "user", Time: at, Text: "right. the jquery thing btw is because of our perf budget, every site has to score 90+ on mobile."},
	}, "s")
	c, ok := holding(got, "no jquery")
	if !ok || !strings.Contains(c.Body, "**Why:** Our perf budget") {
		t.Errorf("want the jquery rule with its later reason, got %q", got)
	}
	if c, ok := holding(got, "tabs in php"); ok && strings.Contains(c.Body, "perf budget") {
		t.Errorf("another rule took the reason: %q", c.Body)
	}
}

// TestDictated_DoubledIt cuts between "it it", one thought's object and
// the next one's subject.
func TestDictated_DoubledIt(t *testing.T) {
	s := "so the session timeout goes to five minutes of inactivity and Femi our product owner signed off on it it has to ship in 4.14 which goes to app review this Thursday for sure"
	got := dictated(s)
	if len(got) != 2 || !strings.HasSuffix(got[0], "signed off on it") || !strings.HasPrefix(got[1], "it has to ship") {
		t.Errorf("dictated(%q) = %q", s, got)
	}
}

// TestAbsoluteDates_WeekdayBeforeADay counts "the friday before" from the
// day written right after it, and leaves "before the demo" alone.
func TestAbsoluteDates_WeekdayBeforeADay(t *testing.T) {
	at := time.Date(2026, 5, 18, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ in, want string }{
		{"card freeze has to be in a TestFlight build by the Friday before 2026-06-08", "2026-06-05"},
		{"the firmware freeze is the friday before the lab test on march 16", "2027-03-12"},
		{"ship it friday before the demo. then on 2026-06-08 we see", "friday 2026-05-22 before the demo"},
	} {
		if got, _ := AbsoluteDates(tc.in, at); !strings.Contains(got, tc.want) {
			t.Errorf("AbsoluteDates(%q) = %q, want it to hold %q", tc.in, got, tc.want)
		}
	}
}
