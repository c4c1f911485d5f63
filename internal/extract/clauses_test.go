package extract

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
)

// TestHeuristic_RunOnMessages: the rules of issue 17's fifth pass, written
// from the misses of a fourth blind labeller's part (fresh3) and checked
// on the others; one case each, each failing without its rule. People put
// rules mid-sentence, leave a clause's verb to the one before it, take
// back what they said, name dates from another day, and confirm in their
// own words.
func TestHeuristic_RunOnMessages(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC) // a Wednesday
	user, assistant := speakers(at)
	type want struct {
		typ    string
		has    []string // all in one memory's description or body
		hasNot []string // in no memory
		why    string   // in that memory's **Why:** line
	}
	for _, tc := range []struct {
		name  string
		msgs  []Message
		wants []want // these memories at least (none when empty)
		none  bool   // no memory at all
	}{
		{"a rule in a later clause of a sentence that says nothing else",
			[]Message{user("the deploy bot posts in chat, never restart the workers by hand, the queue loses jobs")},
			[]want{{typ: "feedback", has: []string{"never restart the workers by hand"}, why: "the queue loses jobs"}}, false},
		{"a 'never' that points back at the clause before takes it along",
			[]Message{user("and migrations run on deploy via the k8s job, never run them by hand against prod.")},
			[]want{{typ: "feedback", has: []string{"migrations run on deploy", "never run them by hand"}}}, false},
		{"who is whose contact or lead is a project memory",
			[]Message{user("Amara is the account lead for them, if something blocks tell me and i'll loop her in")},
			[]want{{typ: "project", has: []string{"Amara is the account lead"}}}, false},
		{"who maintains or reviews a thing",
			[]Message{user("Lucia maintains the layer catalogue, ask her before adding a table"), user("Kwame reviews every change to the billing module")},
			[]want{{typ: "project", has: []string{"Lucia maintains the layer catalogue"}}, {typ: "project", has: []string{"Kwame reviews every change"}}}, false},
		{"someone from a team who is the contact",
			[]Message{user("Priya from their facilities team is our contact, she signs the handover doc.")},
			[]want{{typ: "project", has: []string{"Priya from their facilities team is our contact"}}}, false},
		{"someone who wrote a thing and owns it",
			[]Message{user("Sarah Lindqvist wrote the ECT and owns it, if it fails on something weird that's her call")},
			[]want{{typ: "project", has: []string{"Sarah Lindqvist wrote the ECT and owns it"}}}, false},
		{"a clause that leaves its verb to the one before joins it",
			[]Message{user("schema changes get applied only from the migration job, never from a laptop.")},
			[]want{{typ: "feedback", has: []string{"migration job", "never from a laptop"}}}, false},
		{"'unless I say otherwise' makes a standing rule",
			[]Message{user("we tried a class hierarchy last year and it ate a month, so plain functions unless i specifically say otherwise")},
			[]want{{typ: "feedback", has: []string{"plain functions unless i specifically say otherwise"}}}, false},
		{"a statement about what will happen to every thing is no rule",
			[]Message{user("the rebrand is going to change basically every color in the app")}, nil, true},
		{"the speaker's own plan for tomorrow is no project fact",
			[]Message{user("ok need to sign off, tomorrow i'll try the silences")}, nil, true},
		{"what the speaker takes back is not saved",
			[]Message{user("oh and the winter code freeze starts monday, wait no, wrong month lol.")},
			[]want{{hasNot: []string{"winter", "freeze"}}}, false},
		{"a sentence the next one takes back is not saved",
			[]Message{user("the api keys live in vault under kv/payments. actually no, they moved to aws secrets manager last month.")},
			[]want{{hasNot: []string{"kv/payments"}}}, false},
		{"a secret taken back stays out, and so does the rest of its sentence",
			[]Message{user("here's the token if you need it ghp_0123456789abcdefABCDEF0123456789abcd — actually no don't use it")},
			nil, true},
		{"a redirect's head with a rule of its own is kept",
			[]Message{user("don't create warehouses, use TRANSFORM_WH — every new warehouse needs budget approval")},
			[]want{{typ: "feedback", has: []string{"use TRANSFORM_WH"}}}, false},
		{"'please no X without asking' is a standing rule",
			[]Message{user("please no force-pushing to shared branches without asking me first")},
			[]want{{typ: "feedback", has: []string{"no force-pushing to shared branches without asking me first"}}}, false},
		{"a confirmation of a choice reported without its I",
			[]Message{assistant("Added .env to .gitignore as well."), user("perfect, keep doing that")},
			[]want{{typ: "feedback", has: []string{".gitignore"}}}, false},
		{"a confirmation that says in its own words what it confirms",
			[]Message{assistant("Here is the fix for the crash."), user("that was the right approach — a guard instead of force-unwrapping, keep doing that in swift code")},
			[]want{{typ: "feedback", has: []string{"a guard instead of force-unwrapping"}}}, false},
		{"where something shows up is a named place",
			[]Message{user("the spark costs show up in the kubecost namespace 'analytics-spark', finance looks monthly")},
			[]want{{typ: "reference", has: []string{"kubecost", "analytics-spark"}}}, false},
		{"where something is generated from is a named place",
			[]Message{user("the inventory is generated from netbox, https://netbox.example.internal")},
			[]want{{typ: "reference", has: []string{"netbox.example.internal"}}}, false},
		{"a quoted name before its kind is a named place",
			[]Message{user("the owning-team map is the 'Service Owners' google sheet")},
			[]want{{typ: "reference", has: []string{"Service Owners"}}}, false},
		{"a title's dot ends no sentence",
			[]Message{user("dates: go-live with the clinic is on the 5th, pilot with Dr. Okafor's team the week before")},
			[]want{{typ: "project", has: []string{"go-live", "Okafor"}}}, false},
		{"a short head that labels what follows is cut off",
			[]Message{user("quick one before i forget: i'm the PI of a small CFD group, three grad students do most of the coding")},
			[]want{{typ: "user", has: []string{"PI of a small CFD group"}}}, false},
		{"a labelled secret stays whole and out",
			[]Message{user("for the panels here's a grafana api token: glsa_Zx81kPq0RmT4vWcY2nB7_a1b2c3d4, the dashboards are at grafana.example.net/d/ledger")},
			nil, true},
		{"a past role held for years, and a change of trade",
			[]Message{user("clinician turned dev, i was an ICU nurse for 8 years")},
			[]want{{typ: "user", has: []string{"clinician turned dev"}}}, false},
		{"a role on a team said without its I",
			[]Message{user("SRE on the payments infra team, been doing ops for 10+ yrs")},
			[]want{{typ: "user", has: []string{"SRE on the payments infra team"}}}, false},
		{"a mid-sentence rule's reason in the next sentence",
			[]Message{user("also heads up, terraform only gets applied from atlantis, never from a laptop. someone applied from their laptop in march and wiped half the alert rules.")},
			[]want{{typ: "feedback", has: []string{"atlantis", "laptop"}, why: "wiped half the alert rules"}}, false},
		{"what a mid-sentence rule follows from, before its 'so'",
			[]Message{user("we did a jobs rewrite of the pathfinding and it ate three weeks, so plain monobehaviours unless i say otherwise")},
			[]want{{typ: "feedback", has: []string{"plain monobehaviours"}, why: "ate three weeks"}}, false},
		{"the fact a project's rule follows from is its reason",
			[]Message{user("the team offsite is on december 10, so no deploys that day")},
			[]want{{typ: "project", has: []string{"no deploys on 2026-12-10"}, why: "team offsite is on 2026-12-10"}}, false},
		{"a trailing clause with a verb in the third person is a reason",
			[]Message{user("use srun in the job scripts, not mpirun, mpirun bypasses the cgroup binding on our cluster")},
			[]want{{typ: "feedback", has: []string{"srun"}, why: "bypasses the cgroup binding"}}, false},
		{"a place named in title case",
			[]Message{user("the release checklist is the Release Train project board on github")},
			[]want{{typ: "reference", has: []string{"Release Train project board"}}}, false},
		{"a place called by its name, where things are logged",
			[]Message{user("mapping decisions are logged in a ServiceNow form called Third-Party App Review")},
			[]want{{typ: "reference", has: []string{"Third-Party App Review"}}}, false},
		{"a thing and 'always'",
			[]Message{user("yes, filters in the url, always. marketing links straight to filtered listings")},
			[]want{{typ: "feedback", has: []string{"filters in the url"}}}, false},
		{"a prohibition without a verb",
			[]Message{user("no names in the root cause please, we're blameless here")},
			[]want{{typ: "feedback", has: []string{"no names in the root cause"}}}, false},
		{"'no' and what happened is no prohibition",
			[]Message{user("no caching needed in the frontend")}, nil, true},
		{"a standing request put politely",
			[]Message{user("first tho, can we please stop reaching for a pinia store for every little bit of state, ive said this before.")},
			[]want{{typ: "feedback", has: []string{"stop reaching for a pinia store"}}}, false},
		{"'when you write X' and what to do then",
			[]Message{user("when you write fortran for us stick to free-form .f90 and put implicit none in every unit")},
			[]want{{typ: "feedback", has: []string{"implicit none"}}}, false},
		{"what we can't do",
			[]Message{user("we cant keep patient data outside the EHR, that's in our BAA with the hospital.")},
			[]want{{typ: "feedback", has: []string{"patient data outside the EHR"}, why: "BAA"}}, false},
		{"'X is right' confirms the proposal's X",
			[]Message{assistant("I'll replace the paired MPI_Send/MPI_Recv calls with MPI_Sendrecv."), user("yes sendrecv is right, that's how the rest of the model does its exchanges anyway.")},
			[]want{{typ: "feedback", has: []string{"MPI_Sendrecv"}}}, false},
		{"'keep it' confirms",
			[]Message{assistant("I'll use a multiwindow burn-rate alert for the checkout SLO."), user("yes multiwindow burn rate, it's what the rest of the org uses, keep it.")},
			[]want{{typ: "feedback", has: []string{"burn-rate"}}}, false},
		{"'keep X minimal' is a style rule",
			[]Message{user("ok and keep diffs minimal, touch only what the task needs")},
			[]want{{typ: "feedback", has: []string{"keep diffs minimal"}}}, false},
		{"a prohibition in a later clause",
			[]Message{user("whatever we do keep the gdscript dead simple, no clever one-liners or chained ternaries")},
			[]want{{typ: "feedback", has: []string{"no clever one-liners"}}, {typ: "feedback", has: []string{"keep the gdscript dead simple"}}}, false},
		{"a lone 'always' joins the clause before",
			[]Message{user("also pls write the incident notes in UTC, always, half the team's in Lisbon")},
			[]want{{typ: "feedback", has: []string{"incident notes in UTC, always"}}}, false},
		{"'not on X' after a list joins the clause with the verb",
			[]Message{user("fyi we page on symptoms, error rate and latency burn, not on causes")},
			[]want{{typ: "feedback", has: []string{"we page on symptoms", "not on causes"}}}, false},
		{"a proposal after a first sentence that is none",
			[]Message{assistant("Understood, the blocks stay as they are. For the halo exchange I'll replace the paired calls with MPI_Sendrecv."), user("yes sendrecv is right, that's how the rest of the model does it")},
			[]want{{typ: "feedback", has: []string{"MPI_Sendrecv"}}}, false},
		{"N weeks from a weekday",
			[]Message{user("heads up we're moving to the new pager, cutover is two weeks from friday")},
			[]want{{typ: "project", has: []string{"2026-06-12"}}}, false},
		{"this coming weekday, and a weekday with its day of the month",
			[]Message{user("the change freeze on the payments cluster starts this coming monday and the audit is wednesday the 17th")},
			[]want{{typ: "project", has: []string{"change freeze", "2026-06-01"}}, {typ: "project", has: []string{"audit", "2026-06-17"}}}, false},
		{"a date counted from the one before it",
			[]Message{user("the play store release is 6 july and feature freeze is three days before")},
			[]want{{typ: "project", has: []string{"release", "2026-07-06"}}, {typ: "project", has: []string{"feature freeze", "2026-07-03"}}}, false},
		{"a release the project is held to, for now, and why",
			[]Message{user("timescaledb is on that db and has to stay on 2.14 for now, the grafana plugin breaks with 2.15")},
			[]want{{typ: "project", has: []string{"has to stay on 2.14"}, why: "grafana plugin breaks"}}, false},
		{"a pinned image and its reason",
			[]Message{user("the ci image is pinned to ubuntu 22.04 because the hsm driver only ships for it")},
			[]want{{typ: "project", has: []string{"pinned to ubuntu 22.04"}, why: "hsm driver"}}, false},
		{"a version for one task is no pin",
			[]Message{user("you have to stay on node 18 for this one")}, nil, true},
		{"a named day after a rough span",
			[]Message{user("the QSA onsite assessment is in four weeks (wednesday the 24th)")},
			[]want{{typ: "project", has: []string{"onsite assessment is on 2026-06-24"}, hasNot: []string{"by 2026"}}}, false},
		{"two dated facts, the second after 'before that'",
			[]Message{user("the onsite is on the 24th and before that there's a change freeze on the payments cluster starting monday")},
			[]want{{typ: "project", has: []string{"onsite is on 2026-06-24"}, hasNot: []string{"before that"}}, {typ: "project", has: []string{"change freeze on the payments cluster starting monday 2026-06-01"}}}, false},
		{"'important:' only announces the rule",
			[]Message{user("important: no remote code, no eval, no CDN scripts — the store rejected us in june for a remotely hosted script")},
			[]want{{typ: "feedback", has: []string{"no remote code, no eval"}, why: "rejected us in june"}}, false},
		{"what nobody does is a rule",
			[]Message{user("and the validation env labs-val — nobody deploys there on fridays, the hospital IT makes their backups then")},
			[]want{{typ: "feedback", has: []string{"labs-val", "nobody deploys there on fridays"}, why: "backups"}}, false},
		{"a quoted name and a clause that points back at the place stay with it",
			[]Message{user("support inbox is on help scout, mailbox 'TabNest Support', bug reports that need code come from there")},
			[]want{{typ: "reference", has: []string{"help scout", "mailbox 'tabnest support'", "come from there"}}}, false},
		{"an answer's format, asked for",
			[]Message{user("too long. bullet points pls, i skim.")},
			[]want{{typ: "feedback", has: []string{"bullet points"}}}, false},
		{"an instruction after its scope",
			[]Message{user("for tests use the database WMS_TEST on sqltest02, not the dev one, the dev db is restored from prod every night")},
			[]want{{typ: "feedback", has: []string{"use the database wms_test"}, why: "restored from prod every night"}}, false},
		{"a thing asked for everywhere, without a verb",
			[]Message{user("also pls, type hints everywhere and pydantic models for every resource we touch, i got bitten by dict-typed resources on my last gig")},
			[]want{{typ: "feedback", has: []string{"type hints everywhere"}, why: "got bitten"}}, false},
		{"what is seen everywhere is no rule",
			[]Message{user("same deprecation warning everywhere in the logs, no idea why")}, nil, true},
		{"a lasting need of the person, and the rule it is the reason for",
			[]Message{user("also fyi im red-green colorblind so dont give me diffs or test output where only the color tells pass from fail")},
			[]want{{typ: "user", has: []string{"red-green colorblind"}, hasNot: []string{"colorblind so dont"}},
				{typ: "feedback", has: []string{"dont give me diffs"}, why: "colorblind"}}, false},
		{"when they are there, with the day they are not",
			[]Message{user("fyi i'm on a 4 day week, never in on fridays")},
			[]want{{typ: "user", has: []string{"4 day week, never in on fridays"}}}, false},
		{"a tool to use set against the one not to, and why",
			[]Message{user("flash with the jlink directly, not the nrfjprog wrapper in tools/, that script is stale and still points at the old softdevice.")},
			[]want{{typ: "feedback", has: []string{"flash with the jlink directly", "not the nrfjprog wrapper"}, why: "that script is stale"}}, false},
		{"a named month's end in a project fact",
			[]Message{user("btw my boss decided we migrate all log ingestion from vector to the otel collector, done by end of september")},
			[]want{{typ: "project", has: []string{"otel collector", "by 2026-09-30"}}}, false},
		{"a named month's end, long past this year: next year's",
			[]Message{user("heads up, the vendor contract renewal is at the end of february")},
			[]want{{typ: "project", has: []string{"2027-02-28"}}}, false},
		{"a named month's end in a rule is any year's",
			[]Message{user("never release at the end of december, half the team is off")},
			[]want{{typ: "feedback", has: []string{"end of december"}, hasNot: []string{"2026-12-31"}}}, false},
		{"a place, then 'and dont' a rule with its reason",
			[]Message{user("the list of sites is maintained by GRC in a sharepoint list 'Approved GenAI Tools', sync it from there and dont hardcode domains in the extension — last time a hardcoded list needed a full store release")},
			[]want{{typ: "reference", has: []string{"sharepoint list 'approved genai tools'"}, hasNot: []string{"sync it from there and"}},
				{typ: "feedback", has: []string{"dont hardcode domains in the extension"}, why: "full store release"}}, false},
		{"holding off on a kind of change, for a reason, is a rule",
			[]Message{user("hold off on renaming existing columns, looker explores reference those names directly and we have no way of finding the saved looks that would break")},
			[]want{{typ: "feedback", has: []string{"hold off on renaming existing columns"}, why: "looker explores"}}, false},
		{"holding off on this task's step is none",
			[]Message{user("hold off on merging the PR, CI is still red")}, nil, true},
		{"'never' before a gerund inside a noun phrase is no rule; it is the next rule's reason",
			[]Message{user("we're PCI DSS level 1 and our whole plan hinges on the app tier never seeing a raw PAN. so every new endpoint that takes card data goes through the tokenization proxy, non-negotiable")},
			[]want{{typ: "feedback", has: []string{"tokenization proxy"}, why: "never seeing a raw pan"}, {hasNot: []string{"pci dss level 1.\n"}}}, false},
		{"the day of next month",
			[]Message{user("cert lab slot is the 16th of next month so anything risky has to land before that")},
			[]want{{typ: "project", has: []string{"cert lab", "2026-06-16"}}}, false},
		{"the end of next month",
			[]Message{user("our reserved slots expire end of next month, heavy backfills have to happen before then")},
			[]want{{typ: "project", has: []string{"2026-06-30"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Heuristic(tc.msgs, "s")
			var b strings.Builder
			for _, c := range got {
				b.WriteString("\n  [" + c.Type + "] " + c.Name + " | " + strings.ReplaceAll(c.Body, "\n", " / "))
			}
			if tc.none && len(got) > 0 {
				t.Fatalf("want no memory:%s", b.String())
			}
			for _, w := range tc.wants {
				for _, c := range got {
					for _, h := range w.hasNot {
						if strings.Contains(strings.ToLower(c.Name+c.Description+c.Body), h) {
							t.Errorf("a memory holds %q:%s", h, b.String())
						}
					}
				}
				if len(w.has) == 0 {
					continue
				}
				found := false
				for _, c := range got {
					text := strings.ToLower(c.Description + "\n" + c.Body)
					ok := c.Type == w.typ
					for _, h := range w.has {
						ok = ok && strings.Contains(text, strings.ToLower(h))
					}
					if ok && w.why != "" {
						_, why, _ := strings.Cut(c.Body, "**Why:**")
						ok = strings.Contains(strings.ToLower(why), strings.ToLower(w.why))
					}
					found = found || ok
				}
				if !found {
					t.Errorf("no %s memory with %q (why %q):%s", w.typ, w.has, w.why, b.String())
				}
			}
		})
	}
}

// TestAbsoluteDates_FromAnotherDay: dates counted from a day the sentence
// names, not from the message's.
func TestAbsoluteDates_FromAnotherDay(t *testing.T) {
	// "end of next week" said on a weekend, or across a year's end, is the
	// coming Monday's Friday.
	for at, want := range map[time.Time]string{
		time.Date(2026, 5, 30, 10, 0, 0, 0, time.UTC):  "2026-06-05",
		time.Date(2026, 5, 31, 10, 0, 0, 0, time.UTC):  "2026-06-05",
		time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC):   "2026-06-12",
		time.Date(2026, 12, 26, 10, 0, 0, 0, time.UTC): "2027-01-01",
	} {
		if got, _ := AbsoluteDates("due end of next week", at); got != "due "+want {
			t.Errorf("end of next week said %s: %q, want %s", at.Format(time.DateOnly), got, want)
		}
	}
	// A range of days said bare, across a month's end; not a percentile.
	dec := time.Date(2026, 12, 10, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"I'm on leave 21st to the 4th anyway":   "I'm on leave 2026-12-21 to 2027-01-04 anyway",
		"the freeze runs 18th-2nd.":             "the freeze runs 2026-12-18 to 2027-01-02.",
		"I am off 21st to the 1st, so ping Ana": "I am off 2026-12-21 to 2027-01-01, so ping Ana",
		"keep the 5th to 25th percentile band":  "keep the 5th to 25th percentile band",
	} {
		if got, _ := AbsoluteDates(in, dec); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	if got, _ := AbsoluteDates("off 21st-4th.", time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)); got != "off 2026-12-21 to 2027-01-04." {
		t.Errorf("a range's end is after its start: %q", got)
	}
	// A weekday that comes back every week is on no one date.
	for _, in := range []string{"the import runs every sunday", "we demo every other tuesday", "each friday we rotate on-call", "the outage last friday",
		"every monday and tuesday we pair", "the backup runs every saturday, sunday and monday"} {
		if got, _ := AbsoluteDates(in, time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC)); got != in {
			t.Errorf("%q became %q", in, got)
		}
	}
	at := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC) // a Wednesday
	for in, want := range map[string]string{
		"two weeks from friday":    "2026-06-12",
		"3 days after monday":      "2026-06-04",
		"a week from tomorrow":     "2026-06-04",
		"this coming monday":       "monday 2026-06-01",
		"wednesday the 17th":       "2026-06-17",
		"by the end of next month": "by 2026-06-30",
		"it starts the 30th":       "it starts 2026-05-30",
		// The end of a week is its Friday; a weekday counted in a month.
		"due end of the week":                          "due 2026-05-29",
		"due end of next week":                         "due 2026-06-05",
		"the first weekend of june":                    "2026-06-06",
		"the last friday of june":                      "2026-06-26",
		"the second monday of next month":              "2026-06-08",
		"we ship on the first tuesday of every month":  "the first tuesday of every month (next 2026-06-02)",
		"the last wednesday of every month":            "(next 2026-05-27)",
		"the first weekend of january":                 "2027-01-02",
		"saturday night the 30th":                      "2026-05-30 night",
		"by the end of the week after next":            "by 2026-06-12",
		"the first monday of june 2027":                "2027-06-07",
		"we launch the first weekend of october, 2027": "we launch 2027-10-02",
		// A business day counted in a month: Monday to Friday.
		"it starts the first business day of june":          "it starts 2026-06-01",
		"the last working day of october":                   "2026-10-30",
		"the second business day of august":                 "2026-08-04",
		"payroll runs the last business day of every month": "(next 2026-05-29)",
	} {
		if got, ok := AbsoluteDates(in, at); !ok || !strings.Contains(got, want) {
			t.Errorf("%q: %q (%v), want it to hold %q", in, got, ok, want)
		}
	}
}

// TestHeuristic_RunOnReviewCases: what a review of the fifth pass found
// saved that nobody would save, or dated wrong; one case per defect.
func TestHeuristic_RunOnReviewCases(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC) // a Wednesday
	user, assistant := speakers(at)
	for _, tc := range []struct {
		name string
		msgs []Message
		ok   func([]Candidate) bool
	}{
		{"a key named in words", []Message{user("the staging SENDGRID_KEY for tests is Zx8r2LmQ9vTq4nBw7YpK3sJd, we always use the staging one in tests")}, none},
		{"a routing key", []Message{user("always use PAGERDUTY_ROUTING_KEY=R0ZX8r2LmQ9vTq4nBw7YpK3sJd for the test alerts, never the prod one")}, none},
		{"no worries", []Message{user("no worries, the old endpoint is gone anyway")}, none},
		{"no idea why", []Message{user("no idea why, but the build fails on arm64")}, none},
		{"what a system always does", []Message{user("the deploy went out, but the api always returns 500 on /health")}, none},
		{"what a worker never does", []Message{user("i restarted the pod, but the worker never picks up new jobs after a deploy")}, none},
		{"what opens by default", []Message{user("weird, the modal opens by default on page load, which is annoying")}, none},
		{"a guess", []Message{user("the ci job failed, the runner must have run out of disk")}, none},
		{"a suggestion for now", []Message{user("the query is slow, never seen it this bad, we should add an index on user_id")}, none},
		{"a to-do of the team's", []Message{user("that fixed it, but we have to bump the version in package.json too")}, none},
		{"a command for this run", []Message{user("ok so the api works, run the migration on staging only")}, none},
		{"a preference for this screen", []Message{user("hmm the ui looks weird, keep the old colors, not the new palette")}, none},
		{"thanks and chat", []Message{assistant("Bumped react to 18.3.1 and fixed the peer warnings."), user("nice, keep doing that, my PM is finally off my back lol")}, none},
		{"thanks and news", []Message{assistant("Reverted PR #412."), user("that was the right call, keep doing that, the release went out clean this morning")}, none},
		{"thanks and a condition", []Message{assistant("Restarted the dev server."), user("that worked, keep doing that whenever the hot reload dies on my laptop")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.HasPrefix(c.Description, "That") })
		}},
		{"a bug is no place", []Message{user("the bug is the 'Settings' page, it crashes on load")}, none},
		{"a value from code is no place", []Message{user("the weird value comes from `os.Getenv(\"PORT\")` i think")}, none},
		{"nvm is a tool", []Message{user("always run nvm use in the repo root before running any npm scripts")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "nvm use in the repo root")
		}},
		{"never mind what the README says", []Message{user("always run the migrations through the migrate job, never mind what the README says")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "migrate job")
		}},
		{"an ordinal is no day", []Message{user("the payments service is the 2nd biggest line on our aws bill")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Body, "2026-") })
		}},
		{"a weekday picks its month", []Message{user("the pentest window is monday the 25th through friday the 5th, no deploys to prod during it")}, func(cs []Candidate) bool {
			return len(cs) > 0 && strings.Contains(cs[0].Body, "2026-05-25") && strings.Contains(cs[0].Body, "2026-06-05")
		}},
		{"a team's date beside the speaker's plan", []Message{user("the board demo is on friday and i'll be presenting the new billing flow")}, func(cs []Candidate) bool {
			return len(cs) == 1 && cs[0].Type == "project" && strings.Contains(cs[0].Body, "2026-05-29")
		}},
		{"a finding is no choice", []Message{assistant("Here's the summary. Checked the logs, the timeout is from the upstream."), user("perfect, keep doing that")}, none},
		{"a tally is no choice", []Message{assistant("Summary: Changed 3 files, removed 40 lines."), user("nice, keep doing that")}, none},
		{"an aside is no reason", []Message{user("build passes now, never commit the .env file, the standup moved to 10am btw")}, func(cs []Candidate) bool {
			return len(cs) == 1 && !strings.Contains(cs[0].Body, "**Why:**")
		}},
		{"a noun that is also a verb", []Message{user("list prices change on june 1, the billing code has to handle both")}, func(cs []Candidate) bool {
			return slices.ContainsFunc(cs, func(c Candidate) bool { return c.Type == "project" && strings.Contains(c.Body, "2026-06-01") })
		}},
		{"a bare name belongs to the clause before it", []Message{user("contracts live in the data-contracts repo on gitlab, and lineage is on our dbt docs site, dbt-docs.example.com")}, func(cs []Candidate) bool {
			return len(cs) == 2 && strings.Contains(cs[1].Body, "ineage is on") && strings.Contains(cs[1].Body, "dbt-docs.example.com")
		}},
		{"'no, keep it' refuses the change", []Message{assistant("I'll rename the config key to timeout_ms."), user("no, keep it.")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Body, "confirmed") })
		}},
		// The second review's cases.
		{"a user and password pair", []Message{user("creds for the grafana box: admin / hunter2x9 and the url is grafana.internal")}, none},
		{"a sendgrid key", []Message{user("sendgrid: 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 is what we use for mails")}, none},
		{"'keep it' inside a refusal", []Message{assistant("I'll keep the debug logging in the payment handler."), user("i wouldn't keep it")}, none},
		{"'nah, keep it'", []Message{assistant("I'll switch the date parsing to dayjs and drop moment."), user("nah, keep it")}, noConfirmed},
		{"'neither is right'", []Message{assistant("I'll switch the date parsing to dayjs and drop moment."), user("neither is right")}, noConfirmed},
		{"'rollback is the way to go'", []Message{assistant("I'll switch the date parsing to dayjs and drop moment."), user("rollback is the way to go")}, noConfirmed},
		{"someone else's self-description", []Message{user("the candidate said: I'm a staff engineer with 12 years of Go")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return c.Type == "user" })
		}},
		{"a label that limits a rule to now", []Message{user("for this PR: don't bump the version number")}, none},
		{"a label that says where text comes from", []Message{user("copilot instructions: prefer functional components over classes")}, none},
		{"a polite stop for now", []Message{user("could you stop the build real quick")}, none},
		{"someone on another team", []Message{user("the new dev on the platform team broke staging again")}, none},
		{"a passing mood", []Message{user("i was a bit stuck for a few days on this bug")}, none},
		{"a screen is no place", []Message{user("the typo is on the Checkout Page")}, none},
		{"what the speaker put somewhere", []Message{user("I put the notes in the Google Doc")}, none},
		{"logging in is no place", []Message{user("I logged in to admin.staging.internal and the page is blank")}, none},
		{"what the speaker can't do now", []Message{user("can't push to the repo, permission denied")}, none},
		{"a step of this task", []Message{user("when you write the migration use the timestamp from the ticket")}, none},
		{"what a thing always does", []Message{user("it crashes on startup, always")}, none},
		{"thanks and always", []Message{user("thanks so much, always")}, none},
		{"no response", []Message{user("no response from the api after 30s, weird")}, none},
		{"a prohibition's name keeps its no", []Message{user("no names in the root cause please, we're blameless here")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.HasPrefix(strings.ToLower(cs[0].Name), "no ")
		}},
		{"chat after a rule is no reason", []Message{user("deploys go through argo, never kubectl apply by hand. my cat just walked across the keyboard lol")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Body, "cat") })
		}},
		{"a rule never from somewhere", []Message{user("the infra stuff is applied from atlantis, never from a laptop")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "laptop")
		}},
		{"a weekday that does not fit", []Message{user("the deadline is wednesday the 31st")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "2026-05-31")
		}},
		{"an abbreviation at a sentence's end", []Message{user("I talked to the prof. He says the deadline is june 3")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Name, "prof") })
		}},
		{"a style for now", []Message{user("also I'm on call this week so keep answers short pls")}, none},
		// The third review's cases.
		{"a closing line is no proposal", []Message{assistant("I added a null check to the parser. Let me know if you want anything else."), user("perfect, keep doing that")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "null check")
		}},
		{"a question's yes confirms no later line", []Message{assistant("Should I delete the stale branches? I'll wait for your go-ahead."), user("yes please do that every time")}, noConfirmed},
		{"options are no proposal", []Message{assistant("There are two options. I can squash the commits, or I can keep them separate. Which do you prefer?"), user("keep doing that")}, noConfirmed},
		{"a pasted error", []Message{user("no space left on device on the runner again")}, none},
		{"a task's detail", []Message{user("fix the flaky login test, no console logs left behind")}, none},
		{"a review for tonight", []Message{user("keep the PR small, i need to review it tonight")}, none},
		{"the past", []Message{user("we used to keep the config minimal, not anymore")}, none},
		{"a hedge", []Message{user("we should keep things boring and stable i guess lol")}, none},
		{"what is not so yet", []Message{user("we support chrome, firefox, safari, not on edge yet")}, none},
		{"'no exceptions' joins its rule", []Message{user("and every read of a patient resource has to write an AuditEvent, no exceptions, not even for internal service accounts")}, func(cs []Candidate) bool {
			return len(cs) == 1 && strings.Contains(cs[0].Body, "AuditEvent, no exceptions")
		}},
		{"an event named by its day", []Message{user("writing up the postmortem for tuesday's ledger outage with you")}, none},
		{"a far-off count", []Message{user("the migration runs 9999999999999999 weeks from friday")}, func(cs []Candidate) bool {
			return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Body, "-80") })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Heuristic(tc.msgs, "s")
			if !tc.ok(got) {
				var b strings.Builder
				for _, c := range got {
					b.WriteString("\n  [" + c.Type + "] " + strings.ReplaceAll(c.Body, "\n", " / "))
				}
				t.Errorf("got %d memories:%s", len(got), b.String())
			}
		})
	}
}

func none(cs []Candidate) bool { return len(cs) == 0 }

// speakers make a user's and an assistant's message said at at.
func speakers(at time.Time) (user, assistant func(string) Message) {
	return func(s string) Message { return Message{Role: "user", Text: s, Time: at} },
		func(s string) Message { return Message{Role: "assistant", Text: s, Time: at} }
}

func noConfirmed(cs []Candidate) bool {
	return !slices.ContainsFunc(cs, func(c Candidate) bool { return strings.Contains(c.Body, "confirmed") })
}

// TestTitle_SlashesCount: a slash becomes a space before the six-word cut,
// so a title never ends up longer than six words.
func TestTitle_SlashesCount(t *testing.T) {
	for _, rule := range []string{"explain any git stuff beyond commit/push", "A/B tests go through our flag service, config at flags.internal"} {
		if got := title(rule); len(strings.Fields(got)) > 6 {
			t.Errorf("title(%q) = %q: %d words", rule, got, len(strings.Fields(got)))
		}
	}
}

// TestPolarity_WithoutAfterNegation: "don't X without Y" requires Y; it
// negates neither X nor Y, and agrees with "X needs Y".
func TestPolarity_WithoutAfterNegation(t *testing.T) {
	neg, aff := Polarity("Ines doesn't review infra changes without the terraform plan output")
	for _, w := range []string{"infra", "terraform", "plan"} {
		stem := recall.Default.Terms(w, nil)[0]
		if neg[stem] || !aff[stem] {
			t.Errorf("%q: negated %v, affirmed %v", w, neg[stem], aff[stem])
		}
	}
	if neg, _ := Polarity("never deploy without tests"); len(neg) != 0 {
		t.Errorf("'never deploy without tests' is a condition, yet negates %v", neg)
	}
	if neg, _ := Polarity("don't use mocks, run integration tests without docker"); !neg[recall.Default.Terms("mocks", nil)[0]] || !neg[recall.Default.Terms("docker", nil)[0]] {
		t.Errorf("a 'without' in another clause lifted the negation: %v", neg)
	}
	if neg, _ := Polarity("no caching, build without network"); !neg[recall.Default.Terms("caching", nil)[0]] {
		t.Errorf("a 'without' after a comma lifted the negation before it: %v", neg)
	}
	if neg, _ := Polarity("ship it without tests"); !neg[recall.Default.Terms("tests", nil)[0]] {
		t.Errorf("'ship it without tests' does not negate tests: %v", neg)
	}
	if why := Contradiction("A PR touching infra/ needs the terraform plan output in its description.",
		"Ines doesn't review infra changes without the terraform plan output."); why != "" {
		t.Errorf("a condition read as a contradiction: %s", why)
	}
}

// TestStatesNow: a statement of how things are is a reason for the rule
// after it; an approval, a past event, a place or the speaker's own
// state is not.
func TestStatesNow(t *testing.T) {
	for s, want := range map[string]bool{
		"our CI runners are tiny":                    true,
		"the mobile team pins its SDK to 3.2":        true,
		"that's exactly how we want new stuff built": false,
		"we want the handlers boring":                false,
		"the deploy broke twice last week":           false,
		"the runbook lives in confluence":            false,
		"i'm on call this week":                      false,
	} {
		if got := statesNow(s); got != want {
			t.Errorf("statesNow(%q) = %v, want %v", s, got, want)
		}
	}
}

// Two clause cuts that overlap (", that's my whole job — so yes, but
// pgvector") once cut a clause out of range and panicked; the test fails
// by that panic.
func TestHeuristic_OverlappingCuts(t *testing.T) {
	msg := "i build rag pipelines for enterprise clients, that's my whole job — so yes, but pgvector, not a new db."
	Heuristic([]Message{{Role: "user", Text: msg, Time: time.Date(2026, 5, 3, 10, 0, 0, 0, time.UTC)}}, "s")
	clauseRules(msg, "", time.Date(2026, 5, 3, 10, 0, 0, 0, time.UTC))
}
