package extract

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHeuristic_RulesByForm: lasting rules said without "always" or
// "never" (issue 17) are feedback, with the reason when one is given; an
// instruction for this step, a task with "not only", and a contrast in a
// one-off are not.
func TestHeuristic_RulesByForm(t *testing.T) {
	at := time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ text, has, why string }{
		{"run tests with nx affected, not the whole workspace", "nx affected", ""},
		{"wrap errors with %w, not %v", "%w", ""},
		{"the convention is snake_case for all json fields in the public api", "snake_case", ""},
		{"quit adding type: ignore comments, fix the actual types", "type: ignore", ""},
		{"Please not use git rebase on the shared branch. It make confusion for other members.", "rebase", ""},
		{"it's podman here, not docker", "podman", ""},
		{"all images need alt text. we got an accessibility audit complaint last quarter", "alt text", ""},
		{"next time no need explain every step, just give me the code is ok", "explain every step", ""},
		{"can you not reformat whole files when you change one line, bc it makes git blame useless", "reformat whole files", "it makes git blame useless"},
		{"make sure you run make gen after touching any .proto file or else the go stubs go stale and CI fails", "make gen", "the go stubs go stale"},
		{"prefer bf16 over fp16 on the A100s, fp16 kept overflowing in the attention layers", "bf16", "fp16 kept overflowing"},
		{"never allocate in the update loop, GC spikes drop us below 60fps on the switch", "update loop", "GC spikes drop us"},
		{"use structured logging, never f-strings in log calls, so the log parser can index the fields", "structured logging", "the log parser can index"},
		{"pls no more emojis in commit messages cuz the changelog generator chokes on them", "emojis", "changelog generator chokes"},
		{"always split train/test by user id, not by row, or you leak users across splits", "user id", "leak users across splits"},
		{"ask before running any migration against staging", "migration", ""},
		{"you can run git status and git diff without asking", "git status", ""},
		{"it's tabs, not spaces, in the makefiles", "tabs", ""},
		{"we do trunk-based development here, short lived branches only", "trunk-based", ""},
		{"skip the summary at the end of your answers", "summary", ""},
		{"answer in bullet points, not paragraphs", "bullet points", ""},
		{"for me is important that you write small functions", "small functions", ""},
		{"use kebab-case for file names", "kebab-case", ""},
		{"only squash merge into main", "squash merge", ""},
		{"configs belong in yaml, not in code", "yaml", ""},
		{"run go vet before you push", "go vet", ""},
		{"double-check timezones when you touch the scheduler, we had an outage from DST last march", "timezones", "we had an outage"},
		{"when you give me shell commands, put each in its own code block so I can copy them one at a time", "own code block", ""},
		{"if a function runs in ISR context, no malloc and no blocking calls, full stop", "malloc", ""},
		{"when you're not sure about something, say so", "not sure", ""},
		{"we squash merge here, always have. one commit per PR on main so bisect stays sane", "squash merge", ""},
		{"so any change to requirements.txt gets its own PR, never bundled with feature work", "requirements.txt", ""},
		{"Please write the commit messages always in English, also when I write you in German. The team in Porto reads them too.", "English", "The team in Porto reads them too"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		var c *Candidate
		for i := range got {
			if got[i].Type == "feedback" && strings.Contains(strings.ToLower(got[i].Body), strings.ToLower(tc.has)) {
				c = &got[i]
			}
		}
		if c == nil {
			t.Errorf("%q: no feedback holding %q in %+v", tc.text, tc.has, got)
			continue
		}
		_, why, _ := strings.Cut(c.Body, "**Why:** ")
		if tc.why != "" && !strings.Contains(strings.ToLower(why), strings.ToLower(tc.why)) {
			t.Errorf("%q: why %q, want it to hold %q", tc.text, why, tc.why)
		}
	}
	for _, text := range []string{
		"wait, not run the tests now, first I want see the diff",
		"ok dont push yet, i want to squash a couple of those first myself",
		"use the staging creds from 1password for this, not prod",
		"please make the loader also read yaml files, not only json, and add tests for it",
		"keep going, this looks right",
		"run the tests again, not the lint",
		"rename the file to utils.ts, not helpers.ts",
		"please change the title when you update the README",
		"use kebab-case for the new file",
		"answer the question above first",
		"never mind, I found it — it was a stale env var",
		"my lead keeps saying 'never use ORMs for reporting queries'. is that actually true for something this small?",
		"read a blog post saying you should always pin transitive deps with a lockfile hash. thoughts?",
		"Wait, not yet. First show me please which SQL it will generate.",
		"hold on, im in a meeting for the next 30 min, dont push anything until I'm back",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if c.Type == "feedback" {
				t.Errorf("%q: saved a rule %q", text, c.Body)
			}
		}
	}
	// A clause that narrows the rule or allows an exception is no reason.
	for _, text := range []string{
		"add the retry to the upload fn and also going forward keep all retry logic in the httpclient package, not scattered around",
		"prefer thiserror over anyhow in library crates, anyhow is fine in the bins",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if strings.Contains(c.Body, "**Why:**") {
				t.Errorf("%q: a reason where none was given: %q", text, c.Body)
			}
		}
	}
}

// TestHeuristic_ProjectFactsInChat: who owns what, what the project is
// held to, a move, a promise — project memories; the same words about
// the speaker's own step are not.
func TestHeuristic_ProjectFactsInChat(t *testing.T) {
	for _, tc := range []struct{ text, has string }{
		{"backups are handled by the infra team in Warsaw, not us", "Warsaw"},
		{"btw Kenji is the release manager for mobile now, Tom moved to infra", "Kenji"},
		{"ah no, the client's IT only allows python 3.8 on their servers", "python 3.8"},
		{"the bootloader partition on the rev B boards is 512KB and we can't change it, 40k units are already in the field", "rev B"},
		{"we're replacing launchdarkly with unleash because of cost", "launchdarkly"},
		{"the SLA with Northwind is 300ms p99 and we pay penalties above it", "Northwind"},
		{"we promised Acme Health a 30 day deletion SLA in their contract", "Acme Health"},
		{"that's owned by the messaging team (Lena's team)", "Lena"},
		{"fine for now, but we only get the A100 cluster until the grant ends in august", "A100"},
		{"fine for now but heads up we're moving search from elasticsearch to opensearch by end of Q3 because of the license change", "opensearch"},
		{"looks right. two things: Omar owns the loyalty domain end to end", "Omar"},
		{"we ship the pilot to the Rotterdam port authority in Q3", "Rotterdam"},
		{"netcode is belonging to Montreal studio, the rest is ours", "Montreal"},
		{"we own the CI runners and the base images, not the apps themselves", "CI runners"},
		{"the kiosks run Chrome 87 on a locked-down Windows image that IT won't update before 2027", "Chrome 87"},
		{"fyi we're halfway through moving from Jenkins to GitHub Actions", "Jenkins"},
		{"We have promised to Hartmann GmbH that the CSV export keeps the old column order", "Hartmann"},
	} {
		wantMemory(t, "project", tc.text, tc.has)
	}
	for _, text := range []string{
		"we're on it, give me ten minutes",
		"is the payments service owned by the platform team?",
		"we can't change this file right now, it's locked",
		"the screen is frozen again, can you check",
		"legal wants to know what you think",
		"the function forbids nulls, see line 12",
		"the file is shared with the other module",
	} {
		wantNothing(t, text)
	}
}

// TestHeuristic_SelfDescriptionsInChat: a role without its article, years
// of a tool, where the speaker works from — user memories.
func TestHeuristic_SelfDescriptionsInChat(t *testing.T) {
	for _, tc := range []struct{ text, has string }{
		{"good idea. me I am QA engineer, not developer", "QA engineer"},
		{"thanks. for info I am native french speaker, english is ok for me", "french"},
		{"nah I wrote most of them, I've been running kubernetes in prod for 7 years", "kubernetes"},
		{"10 yrs of java but never touched kotlin, so whatever is least magic", "java"},
		{"yep. also just so you know, I work at the Oslo office, my team is called Fjord", "Oslo"},
		{"based in Lisbon so I'm UTC+0/+1 depending on DST", "Lisbon"},
		{"I have a physics background, not CS, so go easy on the jargon", "physics"},
		{"i've used django for like 6 years", "django"},
		{"english is not my first language", "English"},
		{"i used to work at stripe so i know the webhook stuff well", "stripe"},
		{"ok. sidenote I'm in Sydney (AEST) so if I go quiet for 8 hours I'm asleep", "Sydney"},
		{"I'm in Berlin and usually only online 10–16, so async is best", "Berlin"},
		{"i'm on the Sydney side of the team", "Sydney"},
		{"i'm in london and platform's in chicago so anything u need from them is an evening answer", "london"},
		{"i'm only in tue-thu fyi, and dentist at 3 today so i'll be offline after", "tue-thu"},
		{"i'm mech eng btw, ros is kinda my side gig on this team", "mech eng"},
		{"astronomer here (postdoc, galaxy merger sims), i know the physics way better than gpus", "Astronomer"},
		{"I am having 6 years experience in UVM, but formal I am new", "Formal I am new"},
		{"I am having 6 years experience in UVM", "UVM"},
		{"We are a small startup of electric bikes in Lyon and I am more an electronic engineer", "electronic engineer"},
		{"We are a small startup of electric bikes in Lyon and I am more an electronic engineer", "Lyon"},
		{"i've done C on AVRs for like 15 yrs so the hw side i get", "AVRs"},
		{"quick bg: SRE on the payments infra team, on call this week, been doing ops for 10+ yrs so skip the k8s basics", "skip the k8s basics"},
	} {
		wantMemory(t, "user", tc.text, tc.has)
	}
	// What holds only now is left out of who they are; a trailing "btw"
	// out of the name.
	for text, not := range map[string]string{
		"i'm only in tue-thu fyi, and dentist at 3 today so i'll be offline after":                                       "dentist",
		"quick bg: SRE on the payments infra team, on call this week, been doing ops for 10+ yrs so skip the k8s basics": "on call",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), Text: text}}, "s")
		for _, c := range got {
			if strings.Contains(c.Body, not) {
				t.Errorf("%q: %q kept in %q", text, not, c.Body)
			}
		}
	}
	if got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), Text: "i'm mech eng btw, ros is kinda my side gig"}}, "s"); len(got) != 1 || strings.HasSuffix(got[0].Name, "btw") {
		t.Errorf("name: %+v", got)
	}
}

// TestHeuristic_PlacesInTools: where a thing lives in a tool outside the
// repository is a reference, the tool alone or with its name there; a
// problem seen in a tool, an instruction to look there, are not.
func TestHeuristic_PlacesInTools(t *testing.T) {
	for _, tc := range []struct{ text, has string }{
		{"the on-call schedule is in opsgenie", "opsgenie"},
		{"specs are in confluence space INVC", "INVC"},
		{"it's documented at https://docs.partners.kestrelpay.io/v3/settlements", "docs.partners"},
		{"our sentry project is web-frontend", "web-frontend"},
		{"the designs are in figma, file Orion v2", "Orion"},
		{"Thanks. Bugs come in Linear, team BOOK, I look there every morning first.", "BOOK"},
		{"bugs go in youtrack project DMA", "DMA"},
		{"sample intake is the 'Intake v4' google form", "Intake v4"},
		{"known issue: the staging db resets every sunday night, the backups live in s3://acme-backups", "s3://acme-backups"},
		{"CRs come thru servicenow, assignment group SFDC-Change", "SFDC-Change"},
		{"the db is /scratch/db/k2_standard_16gb, built for 150bp", "k2_standard_16gb"},
		{"stripe webhook failures post to #payments-alerts", "#payments-alerts"},
	} {
		wantMemory(t, "reference", tc.text, tc.has)
	}
	// A place less the step of this task said after it.
	if got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC), Text: "flagsmith, project 'tilde-backend', create the flag there as streak_local_midnight, off by default"}}, "s"); len(got) != 1 || strings.Contains(got[0].Body, "streak_local_midnight") || !strings.Contains(got[0].Body, "tilde-backend") {
		t.Errorf("the task's step in a place: %+v", got)
	}
	// Two things and their places, joined by "and": two memories.
	for text, want := range map[string][]string{
		"maps are in the s3 bucket amr-maps-prod and fleet stuff is on foxglove.amr-lab.io":                          {"Maps are in the s3 bucket amr-maps-prod.", "Fleet stuff is on foxglove.amr-lab.io."},
		"stripe webhook failures post to #payments-alerts and product data comes from her google sheet 'Roast 2026'": {"Stripe webhook failures post to #payments-alerts.", "Product data comes from her google sheet 'Roast 2026'."},
		"the runbook is in confluence and i read it every morning":                                                   {"The runbook is in confluence and i read it every morning."},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC), Text: text}}, "s")
		var bodies []string
		for _, c := range got {
			bodies = append(bodies, strings.SplitN(c.Body, "\n", 2)[0])
		}
		if !slices.Equal(bodies, want) {
			t.Errorf("%q: got %q, want %q", text, bodies, want)
		}
	}
	for _, text := range []string{
		"check what is in datadog for the last hour",
		"the jira board is a mess honestly",
		"the bug is in sentry, look at it",
		"the error shows up in kibana, any idea",
		"i was in confluence all morning",
	} {
		wantNothing(t, text)
	}
}

// TestHeuristic_ReviewNotRules: what a review found saved as a rule, a
// project fact, a place or a self-description that is none (issue 17);
// and the rules it found missed.
func TestHeuristic_ReviewNotRules(t *testing.T) {
	at := time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"all three failing tests need fixing",
		"all the files in the legacy folder need to be deleted",
		"each of these functions needs a docstring",
		"any idea why all requests get a 500",
		"next time I'll just write it myself",
		"please not now, I'm in a meeting",
		"the logs please",
		"more tests please",
		"once you finish the migration, check the logs",
		"after you fix the import, rerun the build",
		"when you're done, ping me",
		"if you want, run the linter",
		"if you could, send me the diff",
		"the bug lives in the parser, not the lexer",
		"we got stuck here",
		"the tests here are flaky",
		"in 2019 we ran everything on bare metal",
		"in prod we saw a spike in latency",
		"you deleted my branch without asking",
		"only one file in the diff is wrong",
		"the page won't update after I click save",
		"the workers crash when they run out of memory",
		"the field can't be updated, the api returns 400",
		"the test fails because of the cost function",
		"this job is cpu-bound, not io-bound",
		"we're switching to the feature branch",
		"Maria is on slack all day",
		"the link is in slack somewhere",
		"5 years of logs are stored in s3",
		"based in part on the old design, the new one is simpler",
		"I'm on the wrong side of this argument",
		// A step of the task with its reason is still a step.
		"check the logs, the deploy failed",
		"use the staging config for now because prod is down",
		"keep the tab open, the login takes a while",
		"use it in the next commit because the build is red",
	} {
		wantNothing(t, text)
	}
	for _, tc := range []struct{ text, has string }{
		{"as I said before, never force push to main", "force push"},
		{"like I said, don't use ORMs", "ORMs"},
		{"nvm, always use tabs", "tabs"},
		{"pls not amend pushed commits", "amend"},
		{"if you change the schema, regenerate the client", "regenerate"},
		{"when a test flakes, quarantine it", "quarantine"},
		{"It is better to use early returns", "early returns"},
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: tc.text}}, "s")
		if len(got) != 1 || got[0].Type != "feedback" || !strings.Contains(got[0].Body, tc.has) {
			t.Errorf("%q: got %+v, want one rule holding %q", tc.text, got, tc.has)
		}
	}
	// A reason a sentence later is the rule's only when it points back at
	// the rule's things, tells no past and holds no credential.
	for _, text := range []string{
		"Please write the commit messages always in English, also when I write you in German. Our office dog is called Rex.",
		"Please write the commit messages always in English, also when I write you in German. It was a long week for all of us.",
		"Please write the commit messages always in English, also when I write you in German. We log in with deploy:Xk29fLq8ZmP3 on them.",
	} {
		got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
		for _, c := range got {
			if strings.Contains(c.Body, "**Why:**") || strings.Contains(c.Body, "Xk29") {
				t.Errorf("%q: %q", text, c.Body)
			}
		}
	}
}

// TestProjectFactWords: every form reProjectFact reads holds one of the
// words its cheap test looks for, or the test would hide it.
func TestProjectFactWords(t *testing.T) {
	for _, s := range []string{
		"the api is owned by the platform team", "that's run by ops", "Kenji is now our point person for mobile",
		"the client only allows python 3.8", "we can't patch the vendor agent", "we're not allowed to expire points",
		"data residency is in the contract", "we're hipaa-bound", "we pay it because of the license change",
		"we're halfway through moving from Jenkins to GitHub Actions", "we're rewriting the billing service",
		"netcode is belonging to Montreal studio", "we own the CI runners", "the data team owns the warehouse",
		"they maintain the model", "the units can't be updated over the air", "IT won't update the image",
		"no cloud allowed", "the cabinets have no internet", "we decided on date-fns", "we picked Go as the only language",
		"the SLA with Northwind is 300ms", "we have promised to Hartmann GmbH", "we keep only the last 5",
		"we have to be off the old account", "we only get the A100 cluster until august", "the security team chose it",
		"we ship the pilot in Q3", "Maria is the release manager",
		"the payments service is Dana's", "legal wants all PII deleted after 30 days", "our biggest customer is Acme",
		"the mobile app is frozen until the redesign ships", "the staging env is shared with the QA team",
		"the contract forbids storing images outside the EU", "budget for cloud is capped at 5k a month",
		"marketing owns the landing pages", "we migrated from heroku to fly last spring",
	} {
		if !reProjectFact.MatchString(s) {
			t.Errorf("%q: the pattern reads no project fact", s)
		}
		if !mayHold(s, projectFactWords) {
			t.Errorf("%q: projectFactWords would hide it", s)
		}
	}
}

// wantMemory checks that one message, said on a Tuesday, saves a memory
// of typ whose body holds has.
func wantMemory(t *testing.T, typ, text, has string) {
	t.Helper()
	got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC), Text: text}}, "s")
	for _, c := range got {
		if c.Type == typ && strings.Contains(c.Body, has) {
			return
		}
	}
	t.Errorf("%q: no %s memory holding %q in %+v", text, typ, has, got)
}

// wantNothing checks that one message saves no memory.
func wantNothing(t *testing.T, text string) {
	t.Helper()
	if got, _ := Heuristic([]Message{{Role: "user", Time: time.Date(2026, 4, 14, 10, 0, 0, 0, time.UTC), Text: text}}, "s"); len(got) > 0 {
		t.Errorf("%q: saved %q", text, got[0].Type+": "+got[0].Body)
	}
}
