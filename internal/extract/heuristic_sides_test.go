package extract

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHeuristic_OthersBesideMe: who the others are, said after who the
// speaker is in one sentence, is a project memory of its own; leave and
// who covers it stay one fact.
func TestHeuristic_OthersBesideMe(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: "I'm the backend lead on payments, Farah owns the ledger schema and Tomas handles the bank feeds."}}, "s")
	var user, project *Candidate
	for i := range got {
		switch got[i].Type {
		case "user":
			user = &got[i]
		case "project":
			project = &got[i]
		}
	}
	if user == nil || project == nil || strings.Contains(user.Body, "Farah") || !strings.Contains(project.Body, "Farah owns the ledger schema") {
		t.Errorf("got %+v, want a user memory for the speaker and a project memory for Farah and Tomas", got)
	}
	got, _ = Heuristic([]Message{{Role: "user", Time: at, Text: "I am on vacation from the 9th for a week, Oskar reviews your PRs then."}}, "s")
	if len(got) != 1 || got[0].Type != "project" || !strings.Contains(got[0].Body, "Oskar reviews your PRs") || !strings.Contains(got[0].Body, "2026-03-09") {
		t.Errorf("got %+v, want one dated project memory of the leave and who covers it", got)
	}
}

// TestHeuristic_RuleFromBothSides: a rule that forbids, and the next
// sentence saying what to do instead about the same thing, are one
// memory; two rules about two things, or a third rule, stay apart.
func TestHeuristic_RuleFromBothSides(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		text string
		n    int      // feedback memories
		has  []string // in the first one
	}{
		{"never rotate the signing keys by hand. key rotation goes through the vault-rotate job.", 1, []string{"by hand", "vault-rotate job"}},
		{"use the staging bucket for fixtures. never write fixtures into the prod bucket.", 1, []string{"staging bucket", "prod bucket"}},
		{"never rotate the signing keys by hand. always put screenshots in the pr description.", 2, []string{"by hand"}},
		{"no redis for the session cache. we keep the sessions in a postgres table.", 1, []string{"No redis", "postgres table"}},
		{"no new gems without asking me. we write the service objects by hand, not with a generator.", 2, []string{"new gems"}},
		{"never rotate the signing keys by hand. key rotation goes through the vault-rotate job. always rotate keys older than 90 days first thing on monday.", 2, []string{"vault-rotate job"}},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		var rules []Candidate
		for _, c := range got {
			if c.Type == "feedback" {
				rules = append(rules, c)
			}
		}
		if len(rules) != tc.n {
			t.Errorf("%q: %d rules, want %d: %+v", tc.text, len(rules), tc.n, got)
			continue
		}
		for _, h := range tc.has {
			if !strings.Contains(rules[0].Body, h) {
				t.Errorf("%q: first rule %q lacks %q", tc.text, rules[0].Body, h)
			}
		}
		if tc.n == 1 && strings.Contains(rules[0].Body, "**Why:**") {
			t.Errorf("%q: the other side of the rule is no reason: %q", tc.text, rules[0].Body)
		}
	}
}

// TestHeuristic_PeopleInPassing: who someone is, said in passing beside
// another matter, is a project memory: a role beside a name, a department,
// what they manage, their leave. A product, a day or a question is not.
func TestHeuristic_PeopleInPassing(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ text, name string }{
		{"the payroll export runs nightly and Oskar (our DBA) keeps an eye on it.", "Oskar"},
		{"our release manager Tobias tags the builds on thursdays.", "Tobias"},
		{"the feed box is on the old vlan, Wanjiru from ops has the access.", "Wanjiru"},
		{"since last month Ravi manages the vendor contracts.", "Ravi"},
		{"Hannelore is on parental leave until october.", "Hannelore"},
		{"the technical contact at Brightwave is Suresh Pillai.", "Suresh Pillai"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		found := false
		for _, c := range got {
			found = found || c.Type == "project" && strings.Contains(c.Body, tc.name)
		}
		if !found {
			t.Errorf("%q: no project memory of %s: %+v", tc.text, tc.name, got)
		}
	}
	// A rule under a label that names who gave it: the rule, and who she is.
	got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: "finance rule, from Hannah (finance controller): round on the invoice total, never per line"}}, "s")
	if len(got) != 2 || got[0].Type != "feedback" || !strings.Contains(got[0].Body, "Round on the invoice total, never per line") ||
		got[1].Type != "project" || got[1].Body != "Hannah (finance controller).\n" {
		t.Errorf("got %+v, want the rule and who Hannah is", got)
	}
	for _, text := range []string{
		"The Terraform state lives in S3 and nobody touches it by hand.",
		"we build Postgres from source on the ci box.",
		"Monday (our release day) is always busy.",
		"Is it true that Ravi manages the vendor contracts?",
		"Also from ops: the nightly alerts are too noisy.",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if c.Type == "project" && rePerson.MatchString(c.Body) {
				t.Errorf("%q: a person read where there is none: %+v", text, c)
			}
		}
	}
}

// TestHeuristic_WhoIAmByName: a name and then a role, or the part of the
// work that is the speaker's ("I do the firmware"), say who they are; a
// task they do now does not.
func TestHeuristic_WhoIAmByName(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ text, has string }{
		{"hello, I am Mirela, lecturer in the robotics group of prof. Andersen.", "I am Mirela, lecturer in the robotics group"},
		{"Ciao, I am Marta, postdoc in the plant biology lab of prof. Lindqvist.", "I am Marta, postdoc in the plant biology lab"},
		{"hey, im joao, i do the backend of the ticketing app.", "I do the backend of the ticketing app"},
		{"I run the android side of the banking app, mostly kotlin.", "I run the android side"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		if len(got) != 1 || got[0].Type != "user" || !strings.Contains(got[0].Body, tc.has) {
			t.Errorf("%q: got %+v, want one user memory holding %q", tc.text, got, tc.has)
		}
	}
	for _, text := range []string{"i do the migration now, then the tests.", "I am Mirela, thanks for the help."} {
		for _, c := range func() []Candidate {
			got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
			return got
		}() {
			if c.Type == "user" {
				t.Errorf("%q: a user memory: %+v", text, c)
			}
		}
	}
}

// TestHeuristic_Conventions: a rule said of the things it governs is a
// rule; what a thing always or never does wrong is not.
func TestHeuristic_Conventions(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"branch names always start with the ticket id.",
		"queue names are always <service>-<purpose>, like billing-retry.",
		"feature flags never live longer than two releases.",
		"and secrets never go in the helm values files.",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		if len(got) != 1 || got[0].Type != "feedback" {
			t.Errorf("%q: got %+v, want one rule", text, got)
		}
	}
	for _, text := range []string{
		"the arm build always fails on the first run.",
		"the nightly job never finishes before 6.",
		"we always had trouble with that vendor.",
		"do branch names always start with the ticket id?",
		"the deploys were always slow last year.",
	} {
		if got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s"); len(got) != 0 {
			t.Errorf("%q: got %+v, want nothing", text, got)
		}
	}
}

// TestConvention holds the reader itself to what it must and must not
// take for a rule said of things.
func TestConvention(t *testing.T) {
	for s, want := range map[string]bool{
		"branch names always start with the ticket id":       true,
		"queue names are always <service>-<purpose>":         true,
		"and secrets never go in the helm values files":      true,
		"the arm build always fails on the first run":        false,
		"the nightly job never finishes before 6":            false,
		"the staging deploy always takes twenty minutes":     false,
		"we always pin versions":                             false, // said by the team: reFeedback's
		"if it breaks, the pager always goes to the on-call": false,
		"do branch names always start with the ticket id?":   false,
	} {
		if got := convention(s); got != want {
			t.Errorf("convention(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestHeuristic_ReasonsAsSaid: what happens otherwise ("or we get
// fined"), "that's when …", "so other teams can …" and a purpose said last
// ("…, for traceability") are the reason of the rule or fact before them.
func TestHeuristic_ReasonsAsSaid(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 1, 20, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ text, rule, why string }{
		{"the VAT filing has to be with the accountant by the 10th or we pay a late fee.", "VAT filing has to be with the accountant by 2026-02-10", "or we pay a late fee"},
		{"schema changes always go out on sunday nights, thats when nobody is ordering.", "schema changes always go out on sunday nights", "thats when nobody is ordering"},
		{"always keep the docker images public-read, so other teams can pull them in their CI.", "keep the docker images public-read", "so other teams can pull them"},
		{"every deploy gets a signed tag, for traceability.", "every deploy gets a signed tag", "for traceability"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		if len(got) != 1 {
			t.Errorf("%q: got %+v, want one memory", tc.text, got)
			continue
		}
		rule, why, _ := strings.Cut(strings.ToLower(got[0].Body), "**why:**")
		if !strings.Contains(rule, strings.ToLower(tc.rule)) || !strings.Contains(why, tc.why) || strings.Contains(rule, tc.why) {
			t.Errorf("%q: body %q, want the rule %q and the reason %q apart", tc.text, got[0].Body, tc.rule, tc.why)
		}
	}
	for _, text := range []string{"fix the parser or the lexer, whichever is simpler.", "ship it with the release, for now."} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if strings.Contains(c.Body, "**Why:**") {
				t.Errorf("%q: a made-up reason: %q", text, c.Body)
			}
		}
	}
}

// TestHeuristic_InsteadAfterBan: what to use instead, said right after a
// rule that forbids in a few words that are no rule on their own, is part
// of that rule; the rule keeps its reason.
func TestHeuristic_InsteadAfterBan(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		text string
		has  []string
	}{
		{"no Process.sleep in tests please, they are flaky on the CI runner. use assert_receive with a timeout", []string{"Process.sleep", "assert_receive", "**Why:** They are flaky"}},
		{"no exceptions anywhere in engine or tools, we build with exceptions off for console parity. return std::expected. also ignore CMakePresets.json", []string{"No exceptions", "Return std::expected", "**Why:** We build with exceptions off"}},
		// The way everything of the kind goes, said as a place: the rule
		// takes it, and the place stays a reference of its own.
		{"no rake task, we dont run rake in prod, the prod containers have no shell at all. anything one-off goes through the admin ops console as a button, the runbook for adding those is ops.internal/runbooks/ops-console.", []string{"No rake task", "admin ops console", "**Why:** The prod containers"}},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		got = slices.DeleteFunc(got, func(c Candidate) bool {
			return c.Type == "reference" && strings.Contains(c.Body, "ops.internal/runbooks")
		})
		if len(got) != 1 || got[0].Type != "feedback" {
			t.Errorf("%q: got %+v, want one rule", tc.text, got)
			continue
		}
		for _, h := range tc.has {
			if !strings.Contains(got[0].Body, h) {
				t.Errorf("%q: rule %q lacks %q", tc.text, got[0].Body, h)
			}
		}
	}
	// A step of this task after a ban is no part of it, nor is the
	// reason said after it (the rule's Why, not more of its rule).
	for _, tc := range []struct{ text, not string }{
		{"no mocks in the repository tests, they hid a broken migration last year. use the fixture file I sent you yesterday for this one.", "fixture file"},
		{"no raw SQL in the controllers. use the query I pasted above", "pasted"},
		{"don't add new npm dependencies without asking. use lodash for this one", "lodash"},
		{"don't run DDL by hand on prod. all dashboards live in grafana, see https://grafana.example.com", "dashboards"},
		{"don't push directly to main. use conventional commits", "conventional"}, // an act forbidden, then another rule
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		for _, c := range got {
			if c.Type == "feedback" && strings.Contains(c.Body, tc.not) {
				t.Errorf("%q: the rule took in %q: %q", tc.text, tc.not, c.Body)
			}
		}
	}
	got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: "don't touch the CI config. the CI config is a mess honestly"}}, "s")
	if len(got) != 1 || strings.Count(got[0].Body, "mess honestly") != 1 || whyOfBody(got[0].Body) == "" {
		t.Errorf("got %+v, want the rule with the reason said after it as its Why, once", got)
	}
}

// TestHeuristic_TopicOfBareEvent: a dated project fact that names no
// thing ("launch is end of april", "we have to demo it") keeps what the
// message said the work is, so that it stands alone months later; a rule
// or a thing that happened is no topic.
func TestHeuristic_TopicOfBareEvent(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		text     string
		has, not []string // in the project memory's body
	}{
		{"back. new thing: we're launching a german version of the site, /de routes. launch is end of april.", []string{"german version", "2026-04-30"}, []string{"New thing"}},
		{"building a site for a bakery client, Crumb & Co. we never use page builders, block theme only. launch is the 26th, client wants to see staging before that", []string{"Crumb & Co", "launch is 2026-03-26"}, []string{"page builders"}},
		{"the nordic export went live fine, thanks :) new thing: HR admins want bulk approve for leave requests. we have to demo it to the customer advisory board next thursday.", []string{"bulk approve", "customer advisory board"}, []string{"thanks", "nordic"}},
		{"I reverted the retry change yesterday. launch is the 26th.", []string{"2026-03-26"}, []string{"reverted"}},
		{"Go-live with Generali is 1 september.", []string{"Generali", "2026-09-01"}, nil},
		// No topic from a greeting, something private, a task of today or
		// a sentence that is no statement of the work.
		{"Good morning Claude, hope you are doing well today. deadline is friday", []string{"2026-03-06"}, []string{"morning"}},
		{"my wife is pregnant and i'm off from april. the release is 25 march", []string{"2026-03-25"}, []string{"wife"}},
		{"today's task: rename the userId column in the orders table. launch is end of april", []string{"2026-04-30"}, []string{"rename"}},
		{"We are launching the android app in brazil. Portuguese translations are done by an agency. launch is 1 may", []string{"android app in brazil", "2026-05-01"}, []string{"Portuguese"}},
		// A fact that names its thing keeps no topic.
		{"we are building a slack bot for the support team. the go-live for the dashboard is 1 april", []string{"dashboard", "2026-04-01"}, []string{"slack bot"}},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		var p *Candidate
		for i := range got {
			if got[i].Type == "project" {
				p = &got[i]
			}
		}
		if p == nil {
			t.Errorf("%q: no project memory in %+v", tc.text, got)
			continue
		}
		for _, h := range tc.has {
			if !strings.Contains(p.Body, h) {
				t.Errorf("%q: body %q lacks %q", tc.text, p.Body, h)
			}
		}
		for _, h := range tc.not {
			if strings.Contains(p.Body, h) {
				t.Errorf("%q: body %q holds %q", tc.text, p.Body, h)
			}
		}
	}
}

// TestHeuristic_SoRuleTakesReasonBefore: a rule opened with "so" follows
// from the sentence before it, which is its Why though it tells what
// happened.
func TestHeuristic_SoRuleTakesReasonBefore(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: "the L4 has a FPU but we dont save the FPU context in our interrupts, in 2024 we had a very strange bug because of that. so no float in the ISR, fixed point Q15 like everywhere else."}}, "s")
	if len(got) != 1 || got[0].Type != "feedback" || !strings.Contains(whyOfBody(got[0].Body), "FPU context") {
		t.Errorf("got %+v, want one rule on floats in the ISR with the FPU context as its Why", got)
	}
	// "so anyway" moves on; a bug that is not said to cause the rule is
	// no reason for it.
	for _, text := range []string{
		"we had a bug in the invoice PDF last week, the logo was missing. so anyway dont use var in the new code",
		"the PR from Tom needs a review first, it had a problem with the tests. so never squash merge on this repo",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if c.Type == "feedback" && whyOfBody(c.Body) != "" {
				t.Errorf("%q: the rule took %q as its Why", text, whyOfBody(c.Body))
			}
		}
	}
}
