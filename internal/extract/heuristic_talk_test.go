package extract

import (
	"strings"
	"testing"
	"time"
)

// TestHeuristic_TalkAsPeopleTalk holds the rules of issue 17's third pass,
// one case each, in words of their own (not the labelled sets'): places
// named by a breadcrumb, a channel or "that's where"; self-descriptions
// without their I, their article, or beside what holds only today; what
// a project is held to; decisions behind a label; rules said as "use X,
// not Y", "any change to X means", "can't keep", a convention, a window;
// dates counted from the one before; asides, emoji and URLs that end a
// sentence; and what is said to the assistant about this session kept
// out of memories and their reasons.
func TestHeuristic_TalkAsPeopleTalk(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 5, 20, 10, 0, 0, 0, time.UTC) // a Wednesday
	user, _ := speakers(at)
	type want struct {
		typ    string
		has    []string // lower case, in name, description or body
		why    string   // in the Why line, lower case; "" for none asked
		hasNot []string // in no memory
		lacks  []string // not in the memory that has the rest
	}
	for _, tc := range []struct {
		name  string
		msg   string
		wants []want // nil: no memory at all
	}{
		{"a breadcrumb names a place", "the load test numbers are in notion under Perf / Checkout / Q3 runs",
			[]want{{typ: "reference", has: []string{"perf / checkout"}}}},
		{"a dated fact and where its results go", "we run smoke tests every friday, results go in confluence under QA > Smoke Log",
			[]want{{typ: "project", has: []string{"smoke tests"}, hasNot: []string{"**why:** results"}}, {typ: "reference", has: []string{"qa > smoke log"}}}},
		{"a channel things are dropped in", "designers drop their mockups in #design-drops on slack if you need them",
			[]want{{typ: "reference", has: []string{"#design-drops"}}}},
		{"that's where something lives", "the fixtures compare against parquet files in the gcs bucket golden-fixtures, thats where the expected outputs live",
			[]want{{typ: "reference", has: []string{"golden-fixtures"}}}},
		{"experience without its I", "been using react for 5 yrs but ive never touched react native",
			[]want{{typ: "user", has: []string{"react native"}}}},
		{"a self-description with an adverb", "ok so im honestly more of a data person who learned to code",
			[]want{{typ: "user", has: []string{"data person"}}}},
		{"who they are apart from what holds only today", "fwiw i'm on call today, normally i'm on the search team doing relevance stuff",
			[]want{{typ: "user", has: []string{"search team"}, hasNot: []string{"on call today"}}}},
		{"a long context label", "ok some context since you asked twice lol: i'm the only backend dev at a 4 person startup",
			[]want{{typ: "user", has: []string{"only backend dev"}}}},
		{"what the project is stuck on, and why", "we're stuck on python 3.8 because the vendor sdk only supports that version",
			[]want{{typ: "project", has: []string{"python 3.8"}, why: "vendor sdk"}}},
		{"a stack said as 'only'", "we're postgres only, the team voted against mongo last year",
			[]want{{typ: "project", has: []string{"postgres only"}}}},
		{"a decision behind its label", "decided in standup: no new endpoints without an openapi spec",
			[]want{{typ: "feedback", has: []string{"openapi spec"}, hasNot: []string{"decided in standup"}}}},
		{"a thing taken out for a reason stays out", "we ripped moment.js out last year, it tripled the bundle",
			[]want{{typ: "feedback", has: []string{"don't bring moment.js back"}, why: "tripled the bundle"}}},
		{"use X, not Y", "sure, but use pnpm for the workspace, not npm",
			[]want{{typ: "feedback", has: []string{"use pnpm for the workspace, not npm"}, hasNot: []string{"sure"}}}},
		{"any change means", "any change to the public schema means a major version bump",
			[]want{{typ: "feedback", has: []string{"public schema"}}}},
		{"can't keep, with its reason", "cant keep customer emails in the logs, that's in our DPA with the bank",
			[]want{{typ: "feedback", has: []string{"customer emails"}, why: "dpa"}}},
		{"the day of next month", "the pen test slot is the 16th of next month so anything risky lands before that",
			[]want{{typ: "project", has: []string{"pen test", "2026-06-16"}}}},
		{"a date counted from the one before, two facts", "the launch is 6 july and code freeze is two days before",
			[]want{{typ: "project", has: []string{"launch", "2026-07-06"}, hasNot: []string{"code freeze is 2026-07-06"}}, {typ: "project", has: []string{"code freeze", "2026-07-04"}}}},
		{"a role without its article", "I am android developer mostly, kotlin since two years",
			[]want{{typ: "user", has: []string{"android developer"}}}},
		{"a part-time week", "I work part-time, only afternoons",
			[]want{{typ: "user", has: []string{"part-time"}}}},
		{"a firm", "context for you: i'm at a small consultancy and i juggle a dozen clients",
			[]want{{typ: "user", has: []string{"small consultancy"}}}},
		{"leave, dated: planned around, a project fact", "im on parental leave from june 3rd for 6 weeks, Ana covers",
			[]want{{typ: "project", has: []string{"parental leave", "2026-06-03"}}}},
		{"a past role and the switch, one memory", "i was a data analyst till last year, switched to backend",
			[]want{{typ: "user", has: []string{"data analyst", "switched to backend"}}}},
		{"a request after who they are opens with its verb", "i'm a designer not really a dev, keep the css boring and flat",
			[]want{{typ: "user", has: []string{"designer"}}, {typ: "feedback", has: []string{"keep the css boring"}}}},
		{"not moving until", "the board runs freertos 10 and we're NOT moving to 11 until after the safety audit, a re-audit costs months",
			[]want{{typ: "project", has: []string{"not moving to 11"}}}},
		{"a budget", "we have a hard budget, $200/month on the api, so the classifier uses the small model",
			[]want{{typ: "project", has: []string{"hard budget"}}}},
		{"a minimum", "minimum ios is 15, half our users are on old iphones",
			[]want{{typ: "project", has: []string{"minimum ios is 15"}}}},
		{"a weekly meeting, not the speaker's errand as its reason", "there's a weekly release sync with the mobile team on mondays, i need the crash numbers for it",
			[]want{{typ: "project", has: []string{"release sync"}, hasNot: []string{"**why:** i need"}}}},
		{"a naming convention", "branch names follow the feat/ABC-123 pattern, same in every repo",
			[]want{{typ: "feedback", has: []string{"feat/abc-123"}}}},
		{"a practice for a kind of thing", "use example.org in fixtures.",
			[]want{{typ: "feedback", has: []string{"example.org in fixtures"}}}},
		{"what everything goes into", "everything goes into the shared ui package, not the app.",
			[]want{{typ: "feedback", has: []string{"shared ui package"}}}},
		{"what the team never does without asking", "we dont add new dependencies without asking Omar first, licences get audited",
			[]want{{typ: "feedback", has: []string{"new dependencies"}, why: "licences"}}},
		{"a window", "vacuum full is ok but only inside the maintenance window, it locks the table",
			[]want{{typ: "feedback", has: []string{"maintenance window"}, why: "locks the table"}}},
		{"a prohibition and its reason after a dash", "no snapshot tests — they break on every upgrade of the renderer",
			[]want{{typ: "feedback", has: []string{"no snapshot tests"}}}},
		{"a prohibition with a relative clause", "no console.log in anything that ships to prod.",
			[]want{{typ: "feedback", has: []string{"console.log"}}}},
		{"an app named by its id", "we deploy on render, the staging app is shop-stg.",
			[]want{{typ: "reference", has: []string{"shop-stg"}}}},
		{"a service named by its id", "on-call for the payments stuff is the pagerduty service payments-core, page there",
			[]want{{typ: "reference", has: []string{"payments-core"}}}},
		{"where they go, never elsewhere", "migrations live in db/migrations as sql files, never inline in code",
			[]want{{typ: "feedback", has: []string{"db/migrations", "never inline"}}}},
		{"a prohibition that points back", "the bucket name stays acme-prod-assets, dont rename it, three services read it",
			[]want{{typ: "feedback", has: []string{"acme-prod-assets", "dont rename it"}, why: "three services"}}},
		{"a URL's dot ends the sentence", "bugs go to https://bugs.example.com. and i'm the qa lead here",
			[]want{{typ: "reference", has: []string{"https://bugs.example.com"}, hasNot: []string{"https://bugs.example.com. and"}}, {typ: "user", has: []string{"qa lead"}}}},
		{"an emoji ends the sentence", "i'm the sre here so skip the basics 🙂 today: the pods keep restarting",
			[]want{{typ: "user", has: []string{"sre"}, hasNot: []string{"pods keep restarting"}}}},
		{"an aside in parentheses", "spark 3.5. (bg: i'm on the data platform team, so be brief.) anyway the job fails",
			[]want{{typ: "user", has: []string{"data platform team"}, hasNot: []string{"job fails"}}}},
		{"what is said to the assistant about this session", "(and its bazel in this repo not make, you saw the BUILD files already, whatever)",
			[]want{{hasNot: []string{"build files", "whatever"}}}},
		{"a next sentence about the assistant's work is no reason", "use example.org in fixtures. the test you wrote has acme-internal.net, change it",
			[]want{{typ: "feedback", has: []string{"example.org"}, hasNot: []string{"acme-internal.net"}}}},
		{"an aside is no part of a reason", "the queue name stays jobs-v1, dont rename it, two teams consume it (yes i know, blame sam)",
			[]want{{typ: "feedback", has: []string{"jobs-v1"}, why: "two teams", hasNot: []string{"blame sam"}}}},

		{"a channel without a tool's name", "new hires ask their questions in #help-onboarding, someone answers within the hour",
			[]want{{typ: "reference", has: []string{"#help-onboarding"}}}},
		{"a chatty aside is no part of a memory", "we use trunk-based dev, never long-lived branches (lol i know, fun times)",
			[]want{{typ: "feedback", has: []string{"long-lived branches"}, hasNot: []string{"fun times"}}}},
		{"a path in parentheses is an aside, not code", "the SLA is tracked in the data-contracts sheet on the shared drive (Finance/Contracts/sla.xlsx)",
			[]want{{typ: "reference", has: []string{"data-contracts sheet"}}}},
		{"a rule and a place in one sentence", "never deploy on fridays, the deploy calendar is in notion under Eng / Deploys / Calendar",
			[]want{{typ: "feedback", has: []string{"never deploy on fridays"}}, {typ: "reference", has: []string{"eng / deploys"}}}},

		{"a place in a clause of a constraint", "we're stuck on node 16 because of the lambda runtime, the runtime matrix is in confluence under Infra / Runtimes / Matrix",
			[]want{{typ: "project", has: []string{"node 16"}}, {typ: "reference", has: []string{"infra / runtimes"}}}},

		{"a weekday cut short", "the new boards arrive next wed, firmware has to be ready",
			[]want{{typ: "project", has: []string{"2026-05-27"}}}},
		{"places said alike beside a named one", "crash reports: ios is in sentry project mobile-ios-prod, android is in firebase crashlytics",
			[]want{{typ: "reference", has: []string{"mobile-ios-prod"}}, {typ: "reference", has: []string{"crash reports: android is in firebase crashlytics"}}}},
		{"managed in, and the rule it backs", "nginx config is managed in the ansible repo infra-playbooks, never edit /etc/nginx on the box",
			[]want{{typ: "reference", has: []string{"infra-playbooks"}, lacks: []string{"never edit"}}, {typ: "feedback", has: []string{"infra-playbooks", "never edit /etc/nginx"}}}},
		{"a three-word rule fragment joins the rule", "no snapshot tests — they break on every renderer upgrade. unit tests only",
			[]want{{typ: "feedback", has: []string{"no snapshot tests", "unit tests only"}}}},
		{"keep doing it that way, with what it is", "yes exactly, partial indexes over new tables, keep suggesting it that way.",
			[]want{{typ: "feedback", has: []string{"partial indexes over new tables"}}}},
		{"don't do it each time, with what it is", "the e2e suite is slow and it hogs my laptop, dont run it locally each time",
			[]want{{typ: "feedback", has: []string{"dont run the e2e suite locally each time"}, why: "the e2e suite is slow and it hogs my laptop"}}},

		{"a rule whose reason follows a dash, and a version is no place", "dont change the embedding model — re-embedding 40k docs takes a week and our eval baseline is on text-embedding-3-small",
			[]want{{typ: "feedback", has: []string{"embedding model"}, why: "re-embedding"}, {hasNot: []string{"location"}}}},
		{"a two-word prohibition and its reason after a dash", "no goldens — they break on every flutter upgrade",
			[]want{{typ: "feedback", has: []string{"no goldens"}, why: "they break"}}},
		{"a rule naming a channel is a rule", "any change to the retry settings needs a heads up in #stream-ops first, the cluster is shared with the fraud team",
			[]want{{typ: "feedback", has: []string{"#stream-ops"}, why: "shared with the fraud team"}}},

		{"a complaint is no rule", "cant keep up with the reviews, they pile up", nil},
		{"where the speaker is now", "i'm in a meeting, back in 10", nil},
		{"where the speaker is today", "i'm at the office today", nil},
		{"out of ideas is no leave", "i'm out of ideas for this one", nil},
		{"one test's choice", "use the staging db for this test, not prod", nil},
		{"what went wrong is no rule", "no not redis — we got burned, the cluster ran out of memory twice",
			[]want{{hasNot: []string{"we got burned."}}}},
		{"an offset with no date before it", "we shipped it two days after the outage", nil},
		{"what failed now is no rule", "the migration failed, dont retry it", nil},
		{"what failed on a named place is no rule", "the deploy to prod-eu failed, dont retry it", nil},
		{"what holds today is no rule", "the build is flaky today, dont touch it", nil},
		{"sat is no saturday", "i sat on it for a week", nil},

		// A read-only review's cases: all but three failed, or crashed, on 9a2ebf3.
		{"a removal that was the mistake", "we dropped the users table, that was a mistake", []want{{hasNot: []string{"bring"}}}},
		{"a removal of a thing said with its article", "we removed the redis cache, it broke the session store", []want{{hasNot: []string{"bring the back"}}}},
		{"an emoji mid-rule ends nothing", "never deploy 🚀 on fridays, the on-call is thin",
			[]want{{typ: "feedback", has: []string{"never deploy", "on fridays"}}}},
		{"what the assistant said is no rule", "you said to use yarn, not npm, but that broke the lockfile", nil},
		{"a log's advice is no rule", "npm WARN: use npm ci, not npm install, in CI environments", nil},
		{"a choice for the demo", "let's use sqlite for the demo, not postgres", nil},
		{"a choice here", "use the v2 endpoint here, not v1", nil},
		{"a duration is no offset", "starting june 1 backups are kept for 30 days after deletion",
			[]want{{hasNot: []string{"(30 days after)"}}}},
		{"an exception in an aside stays", "always rebase before merging (ok except for release branches)",
			[]want{{typ: "feedback", has: []string{"except for release branches"}}}},
		{"agreement is no decision", "agreed: that looks good to me", nil},
		{"no decision is no decision", "nothing was decided: the meeting got cancelled again", nil},
		{"an undecided choice", "we havent decided yet: redis or memcached for sessions", nil},
		{"a lesson about oneself", "lesson learned: i should have read the docs first", nil},
		{"an issue number is no channel", "this bug was introduced in #4521, can you take a look", nil},
		{"can't log in is a complaint", "cant log in to grafana, it says my session expired", nil},
		{"errors above are this output's", "ignore all the errors above, they're from the old build", nil},
		{"a bug said as what we don't do", "we don't call close() on the file in the error path", nil},
		{"no luck is no rule", "no luck — same error after the restart", nil},
		{"stuck on a bug", "we're stuck on the flaky auth test, can you look at it", nil},
		{"not going to, for this test", "we're not going to need the cache for this test", nil},
		{"testing only", "we're testing only the login flow here", nil},
		{"a maximum seen", "the maximum i saw is 400ms on the p99", nil},
		{"pinned for now", "we're pinned to node 18 for now", nil},
		{"taking the lead is no role", "i'm taking the lead on this migration", nil},
		{"out until a time", "i'm out until 3, just keep going", nil},
		{"a coffee shop is no firm", "i'm at a coffee shop so my connection is flaky", nil},
		{"never touched this file", "ive never touched this file before", nil},
		{"a tier is no team", "i'm on the free platform tier, so rate limits hit fast", nil},
		{"a task after who they are", "i'm a backend dev, write a migration for the users table",
			[]want{{hasNot: []string{"write a migration"}}}},
		{"a mess not to merge yet", "the branch feature/login-v2 is a mess, dont merge it yet", nil},
		{"background jobs is no label", "background jobs: never retry more than 3 times",
			[]want{{typ: "feedback", has: []string{"background jobs"}}}},
		{"a reason is no second fact", "the freeze starts june 3, because the audit is june 10",
			[]want{{hasNot: []string{"\"because"}}}},
		{"a date written out stays as it is", "the retro is a week after this coming monday and the demo is june 3",
			[]want{{hasNot: []string{"2026-06-01 2026-05-25"}}}},
		{"the weekday of next month", "friday the 19th of next month is the launch",
			[]want{{typ: "project", has: []string{"2026-06-19"}, lacks: []string{"of next month"}}}},
		{"the bug's place is in the code", "the retry loop in fetch_user, that's where the bug lives", nil},
		{"a stack is no place", "the app is react-native, so no web-only apis please", []want{{hasNot: []string{"location"}}}},
		{"a breadcrumb of code words", "results go in dlq > failed", nil},
		{"this PR's deadline", "this PR has to be merged before friday", nil},
		{"an aside at the start", "(imo) always use early returns",
			[]want{{typ: "feedback", has: []string{"always use early returns"}, hasNot: []string{")"}}}},
		// Reasons wherever they are said (issue 17: Why lines on 0.80 of
		// the memories whose turn gave one).
		{"a because inside a deontic clause", "the session cookie has to stay httponly because the admin panel loads third-party scripts",
			[]want{{typ: "feedback", has: []string{"httponly"}, why: "the admin panel loads third-party scripts", lacks: []string{"httponly because"}}}},
		{"a reason spliced on with a plural object", "the nightly export must keep the old column order, finance imports rows by position",
			[]want{{typ: "feedback", has: []string{"column order"}, why: "finance imports rows by position"}}},
		{"a dated fact, so a rule", "the pen test starts on the 3rd, so every new route needs an auth check",
			[]want{{typ: "feedback", has: []string{"every new route needs an auth check"}, why: "the pen test starts on 2026-06-03"}}},
		{"a weekly fact and a rule pointing back at its day", "the backup job runs every saturday, don't restart the db then",
			[]want{{typ: "project", has: []string{"don't restart the db on saturdays"}, why: "the backup job runs every saturday", hasNot: []string{"2026-"}}}},
		{"a dated fact and a rule pointing back at its date", "the shop switches to the new card terminal on june 2, no payment changes before that",
			[]want{{typ: "project", has: []string{"no payment changes before 2026-06-02"}, why: "new card terminal on 2026-06-02"}}},
		{"so and what follows from a date", "the contract renewal is on june 12 so we're trying to cut the bill before then",
			[]want{{typ: "project", has: []string{"cut the bill before 2026-06-12"}, why: "renewal is on 2026-06-12"}}},
		{"every other week is on no one date", "we demo to the client every other tuesday",
			[]want{{typ: "project", has: []string{"every other tuesday"}, hasNot: []string{"2026-"}}}},
		{"what a rule is for", "always write the migration scripts in plain bash so we can run them on the old boxes",
			[]want{{typ: "feedback", has: []string{"plain bash"}, why: "so we can run them on the old boxes"}}},
		{"the sentence before, after so", "our auditors read every log line by hand. so never log request bodies",
			[]want{{typ: "feedback", has: []string{"never log request bodies"}, why: "our auditors read every log line by hand"}}},
		{"the sentence before, about the rule's thing", "the public schema is consumed by three partner teams. any change to the schema needs a deprecation notice first",
			[]want{{typ: "feedback", has: []string{"deprecation notice"}, why: "three partner teams"}}},
		{"a fact saved on its own is no reason", "we're migrating the release pipeline to github actions. never tag a release from a fork",
			[]want{{typ: "feedback", has: []string{"never tag a release from a fork"}, lacks: []string{"**why:**"}}}},
		{"what went worse explains the rule after it", "never run the workers multi-threaded. the threaded build gave us worse tail latency in every load test",
			[]want{{typ: "feedback", has: []string{"multi-threaded"}, why: "worse tail latency"}}},
		// What a review of the reasons above found taken as reasons, or
		// dates read wrong; one case each.
		{"a report before so is no reason", "the meeting with the client went fine. so going forward, always use absolute imports",
			[]want{{typ: "feedback", has: []string{"absolute imports"}, lacks: []string{"**why:**"}}}},
		{"something private is no reason", "sarah is going through a divorce and is out a lot. so always cc tom on the auth reviews",
			[]want{{typ: "feedback", has: []string{"cc tom"}, hasNot: []string{"divorce"}}}},
		{"a request is no reason", "could you check whether the cache is warm. never flush the cache in prod",
			[]want{{typ: "feedback", has: []string{"never flush the cache"}, lacks: []string{"**why:**"}}}},
		{"a status of now is no reason", "hey the payments module tests pass now. any change to the payments module needs two reviews",
			[]want{{typ: "feedback", has: []string{"two reviews"}, lacks: []string{"**why:**"}}}},
		{"the speaker's past is no reason", "the payments module is what i worked on at my last job. any change to the payments module needs two reviews",
			[]want{{typ: "feedback", has: []string{"two reviews"}, lacks: []string{"**why:**"}}}},
		{"a comparison of today is no reason", "the coffee here is worse than at the old office. never commit directly to main",
			[]want{{typ: "feedback", has: []string{"never commit directly to main"}, lacks: []string{"**why:**"}}}},
		{"a task after the rule is no reason", "always use spot instances for the batch jobs. check what it costs on the dashboard",
			[]want{{typ: "feedback", has: []string{"spot instances"}, lacks: []string{"**why:**"}}}},
		{"so that keeps its reason clean", "keep the functions short so that they're easy to test",
			[]want{{typ: "feedback", has: []string{"keep the functions short"}, why: "they're easy to test", lacks: []string{"so that"}}}},
		{"a monthly day is no one date for a pointer", "we ship on the first tuesday of every month, no merges then",
			[]want{{typ: "project", has: []string{"first tuesday of every month", "no merges then"}}}},
		{"every other week keeps its rule as said", "we demo to the client every other tuesday, don't deploy then",
			[]want{{typ: "project", has: []string{"every other tuesday, don't deploy then"}}}},
		{"a range is no one date for a pointer", "the freeze runs from june 1 to june 15, no deploys until then",
			[]want{{typ: "project", has: []string{"no deploys until then"}}}},
		{"a rule under a condition is not made unconditional", "the freeze starts june 1, if the build is red, don't merge then",
			[]want{{typ: "project", has: []string{"if the build is red"}, lacks: []string{"**why:**"}}}},
		{"a task before then is no rule", "the new hire starts june 8, set up her laptop before then",
			[]want{{typ: "project", has: []string{"new hire starts 2026-06-08"}, hasNot: []string{"**why:**"}}}},
		{"what we never did is no rule", "the backup ran every saturday, so we never restarted the db then",
			[]want{{hasNot: []string{"db on saturdays"}}}},
		// What a seventh labeller's talk showed the rules missing or
		// saving wrong (fresh6), each in words of its own.
		{"a place said after a rule is not its reason", "never store card numbers in the app db. the raw exports land in the s3 bucket acme-raw-drop",
			[]want{{typ: "feedback", has: []string{"never store card numbers"}, lacks: []string{"**why:**"}}, {typ: "reference", has: []string{"acme-raw-drop"}}}},
		{"a ticket's bug is this task", "invoices go out in USD instead of the customer's currency, ticket BILL-4411", nil},
		{"a prohibition of only a pronoun", "dont save that", nil},
		{"an aside with a login is left out, the place is kept", "the setup guide is on the team wiki https://wiki.example.org/Setup (login is lab / Orchard2031! dont save that pls). right now the sensor reads zero",
			[]want{{typ: "reference", has: []string{"wiki.example.org/setup"}, hasNot: []string{"orchard2031", "dont save that"}}}},
		{"a clause with a key is left out, the place is kept", "the heap dumps from prod are in s3://acme-heap-dumps/ , the read role is heap-reader, or if the role fails my temp key is AKIAQ4EXAMPLE77ZZP",
			[]want{{typ: "reference", has: []string{"acme-heap-dumps", "heap-reader"}, hasNot: []string{"akiaq4example77zzp"}}}},
		{"a token said without is", "the sandbox account sid is AC9e8d7c6b5a4f3e2d1c and token 4f3e2d1c9b8a, use them for the smoke test", nil},
		{"a joke aside at the end is left out", "the dashboards are in grafana folder 'Kitchen Ops' (the ovens are named after planets btw, the big one is jupiter)",
			[]want{{typ: "reference", has: []string{"kitchen ops"}, hasNot: []string{"jupiter"}}}},
		{"an aside about the speaker is kept", "i mostly own the search side of the app (been doing elastic since 5.x so dont explain mappings to me lol)",
			[]want{{typ: "user", has: []string{"search side", "elastic since 5.x"}}}},
		{"where the speaker is on a day is no project fact", "on the 28th i am onsite at the customer all day so i answer slow", nil},
		{"what they feel is no request", "i know go well but generics make me nervous so walk me through those",
			[]want{{typ: "user", has: []string{"know go well"}}, {hasNot: []string{"make me nervous."}}}},
		{"i keeps its clause", "we got fined last year for a customer email in a debug log and i dont want to go thru that again", nil},
		{"a list goes on with the rule", "we're under a data audit so never put real card numbers in fixtures, seeds or log lines",
			[]want{{typ: "feedback", has: []string{"in fixtures, seeds or log lines"}}}},
		{"a long greeting and who they are", "heyyy so i'm a masters student in the robotics group, thesis is on grasping",
			[]want{{typ: "user", has: []string{"masters student"}}}},
		{"a name, then a role", "yo! im priyanka, platform engineer on the payments side",
			[]want{{typ: "user", has: []string{"platform engineer"}, hasNot: []string{"about me: priyanka"}}}},
		{"a background after but", "I took over this rewrite last month, but my background is mostly perl and shell, typescript not so much",
			[]want{{typ: "user", has: []string{"background is mostly perl"}}}},
		{"not so good with is who they are", "i am not so good with terraform, so when you change a module explain each block please",
			[]want{{typ: "user", has: []string{"not so good with terraform"}}}},
		{"nah opens a correction", "nah not that — no `os.chdir`, we tried it in the worker before and it broke the other jobs",
			[]want{{typ: "feedback", has: []string{"os.chdir"}, why: "broke the other jobs"}}},
		{"can u not, with the style agreed", "umm can u not put all the handlers in one file pls, our style guide says one handler per file",
			[]want{{typ: "feedback", has: []string{"don't put all the handlers in one file"}, why: "style guide"}}},
		{"nah alone opens a correction", "nah, use the retry queue for webhooks, the cron job double-sends them",
			[]want{{typ: "feedback", has: []string{"retry queue"}}}},
		{"always said of a thing here", "control topics are always reliable with depth 10 here, keep_last 10",
			[]want{{typ: "feedback", has: []string{"always reliable"}}}},
		{"where they work from and when they answer", "i sit in auckland so i am 12 hours ahead of most of you",
			[]want{{typ: "user", has: []string{"auckland"}}}},
		{"the office they are in", "also i'm in the berlin office, usually gone by 5pm, so if you need me after that it's tomorrow",
			[]want{{typ: "user", has: []string{"berlin office"}, hasNot: []string{"so if you need me"}}}},
		{"in a meeting is not where they work", "i'm in a meeting until 3", nil},
		{"an aside's exception is in its first words", "always deploy from the release branch (yes, except hotfixes lol)",
			[]want{{typ: "feedback", has: []string{"except hotfixes"}}}},
		{"a joke aside after a rule is left out", "always deploy from the release branch (yes our release branch is called potato, marketing was not creative)",
			[]want{{typ: "feedback", has: []string{"release branch"}, hasNot: []string{"potato"}}}},
		{"a day counted from another is still a project's day", "we moved the launch to the first monday after the holidays",
			[]want{{typ: "project", has: []string{"first monday after the holidays"}}}},
		{"a place named by its kind", "bucket is acme-invoices-archive.",
			[]want{{typ: "reference", has: []string{"acme-invoices-archive"}}}},
		{"a page named after where it lives", "there is a runbook on confluence, page 'Pager-Escalation-2026'",
			[]want{{typ: "reference", has: []string{"pager-escalation-2026"}}}},
		{"a name without a verb stays with its place", "the build metrics are in grafana cloud, dashboard 'ci-health', and the flaky test list is on the NAS at //nas-ci/flaky",
			[]want{{typ: "reference", has: []string{"grafana cloud, dashboard 'ci-health'"}}, {typ: "reference", has: []string{"nas-ci/flaky"}}}},
		// What a review of the fresh6 rules found; one case each.
		{"a second, weaker credential after a cut one", "the build logs are in s3://acme-build-logs/, secret Qz7PlmX3/AbcdefGhij/KLMNOP99, access key AKIAIOSFODNN7EXAMPLE",
			[]want{{typ: "reference", has: []string{"acme-build-logs"}, hasNot: []string{"qz7plmx3", "akia"}}}},
		{"a pw beside an api key", "the grafana dashboards live in the ops folder, pw: hunter2x9, api key 3f9a8c7b6d5e4f3a2b1c",
			[]want{{typ: "reference", has: []string{"ops folder"}, hasNot: []string{"hunter2x9", "3f9a8c7b"}}}},
		{"the user of a credential pair", "the reporting db is at db.internal:5432, user report_ro, password Tr0ub4dor&3",
			[]want{{typ: "reference", has: []string{"db.internal:5432"}, hasNot: []string{"report_ro", "tr0ub4dor"}}}},
		{"a rule's exception that holds a password", "never run migrations on prod by hand, unless you use the break-glass password Tr0ub4dor&3", nil},
		{"a gpg key id is no secret", "always sign release tags with the gpg key 3AA5C34371567BD2",
			[]want{{typ: "feedback", has: []string{"3aa5c34371567bd2"}}}},
		{"a tracker key is no secret", "we always file infra bugs under the epic key INFRA-2041",
			[]want{{typ: "feedback", has: []string{"infra-2041"}}}},
		{"a password said without its word", "don't use the old password anymore, the new one is Tr0ub4dor&3",
			[]want{{hasNot: []string{"tr0ub4dor"}}}},
		{"1password is a place, not a password", "we keep all secrets in 1password vault 'platform-dev', and for CI they come from the repo's actions secrets",
			[]want{{typ: "reference", has: []string{"platform-dev"}}}},
		{"an emoticon opens no aside", "thanks :( never use sudo in the scripts. always pin versions (like we do in ci).",
			[]want{{typ: "feedback", has: []string{"always pin versions"}, hasNot: []string{"sudo in the scripts. always"}}}},
		{"an escaped paren opens no aside", "escape the paren like \\( in the grep. always quote the pattern (see the docs).",
			[]want{{typ: "feedback", has: []string{"always quote the pattern"}}}},
		{"an aside that narrows the rule is kept", "never merge on fridays (hotfixes are exempt btw)",
			[]want{{typ: "feedback", has: []string{"hotfixes are exempt"}}}},
		{"an aside that names a host is kept", "the prod logs are in loki (grafana at logs.internal btw)",
			[]want{{typ: "reference", has: []string{"logs.internal"}}}},
		{"in the office tomorrow is for now", "i'm in the office tomorrow", nil},
		{"in trouble is no place", "i'm in trouble if this doesn't ship by 5pm", nil},
		{"in a city next week is for now", "i'm in london next week, so expect late answers", nil},
		{"in hospital is private", "i'm in hospital for a couple of days, so answers will be late", nil},
		{"an adjective is no name", "i'm afraid, the admin already deleted it", nil},
		{"someone else's background sentence", "the schema is fine, but my background is different", nil},
		{"not good at this is no fact", "i'm not good at this, sorry", nil},
		{"can you not just is a suggestion", "can you not just use the style from the other file", []want{{hasNot: []string{"don't just use"}}}},
		{"can u not yet is for now", "can u not merge yet, the style guide review isn't done", []want{{hasNot: []string{"don't merge"}}}},
		{"always flaky here is a complaint", "the tests are always flaky here", nil},
		{"a ticket as a rule's reason", "from now on always add a migration test, ticket DB-7 took prod down",
			[]want{{typ: "feedback", has: []string{"always add a migration test"}}}},
		{"a greeting talked about is no greeting", "howdy is the greeting we always use in docs",
			[]want{{typ: "feedback", has: []string{"howdy is the greeting"}}}},
		{"a name with colons stays whole in the title", "also can you stop using std::bind for the callbacks, lambdas please — it's the style we agreed",
			[]want{{typ: "feedback", has: []string{"stop using std::bind"}, hasNot: []string{"stop using std\n"}}}},
		{"nah-ah is one lead", "nah-ah, never push to main",
			[]want{{typ: "feedback", has: []string{"never push to main"}, hasNot: []string{"ah, never"}}}},
		{"a weak password in the clause kept", "the grafana dashboards are in the folder 'Ops Boards' and the pw is hunterx, the api token is ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5",
			[]want{{hasNot: []string{"hunterx"}}}},
		{"an aside naming a credential goes with the secret", "the runbook is in notion (pw hunterx), the token is ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5",
			[]want{{typ: "reference", has: []string{"notion"}, hasNot: []string{"hunterx"}}}},
		{"a tracker key after the key is", "infra bugs always go under one jira epic, the key is PLATFORM-1234",
			[]want{{typ: "reference", has: []string{"platform-1234"}}}},
		{"an aside that names a host, off the topic's words", "the audit trail is in loki (grafana at logs.internal btw)",
			[]want{{typ: "reference", has: []string{"logs.internal"}}}},
		{"where they work and something private", "i work from porto, but the divorce means i answer late", nil},
		{"can you not just, with the style guide", "can you not just copy the style guide example", []want{{hasNot: []string{"don't just copy"}}}},
		{"no paren left alone", "i mostly own the search side of the app (been doing elastic since 5.x so dont explain mappings to me lol)",
			[]want{{typ: "user", has: []string{"search side", "dont explain mappings to me"}}}}, // how to explain to them is part of their profile
		{"keep doing it, said of what the user describes", "yes thats right, a partial index on tenant_id for the hot tables, keep doing it that way for new ones",
			[]want{{typ: "feedback", has: []string{"partial index on tenant_id", "for new ones"}, lacks: []string{"thats right", "that way"}}}},
		{"keep doing it, with what it is for", "perfect, yes exactly that way with the query plan pasted in the PR, keep doing that, it helps me review",
			[]want{{typ: "feedback", has: []string{"query plan pasted in the pr"}, why: "it helps me review"}}},
		{"keep doing it after a long yes", "yesss that's exactly how i wanted the fixtures, one factory per model, keep doing that!!",
			[]want{{typ: "feedback", has: []string{"one factory per model"}, lacks: []string{"yesss"}}}},
		{"keep doing it, said of something else", "my pm is finally off my back, keep doing that", nil},
		{"a weekday's night and its date", "the cutover is saturday night the 30th",
			[]want{{typ: "project", has: []string{"2026-05-30 night"}, hasNot: []string{"2026-05-23"}}}},
		{"a comparison that went worse explains a clause's rule", "fine, threads inside the workers are a no here. the last attempt gave us worse tail latency across the board",
			[]want{{typ: "feedback", has: []string{"threads inside the workers"}, why: "worse tail latency"}}},
		{"what a thing cost explains the rule before it", "always merge main into the release branch, not rebase. rebase on that branch cost us two days when someone lost the conflict fixes",
			[]want{{typ: "feedback", has: []string{"merge main into the release branch"}, why: "cost us two days"}}},
		{"a statement, then the rule it explains", "the people who edit each field are not technical at all, every field needs a help text",
			[]want{{typ: "feedback", has: []string{"every field needs a help text"}, why: "the people who edit each field are not technical"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Heuristic([]Message{user(tc.msg)}, "s")
			var b strings.Builder
			for _, c := range got {
				b.WriteString("\n  [" + c.Type + "] " + c.Name + " | " + strings.ReplaceAll(c.Body, "\n", " / "))
			}
			if tc.wants == nil && len(got) > 0 {
				t.Fatalf("want no memory:%s", b.String())
			}
			for _, w := range tc.wants {
				for _, c := range got {
					text := strings.ToLower(c.Name + "\n" + c.Description + "\n" + c.Body)
					for _, h := range w.hasNot {
						if strings.Contains(text, h) {
							t.Errorf("a memory holds %q:%s", h, b.String())
						}
					}
				}
				if w.typ == "" {
					continue
				}
				found := false
				for _, c := range got {
					text := strings.ToLower(c.Name + "\n" + c.Description + "\n" + c.Body)
					ok := c.Type == w.typ
					for _, h := range w.has {
						ok = ok && strings.Contains(text, h)
					}
					for _, h := range w.lacks {
						ok = ok && !strings.Contains(text, h)
					}
					if _, why, hasWhy := strings.Cut(strings.ToLower(c.Body), "**why:**"); ok && w.why != "" {
						ok = hasWhy && strings.Contains(why, w.why)
					}
					found = found || ok
				}
				if !found {
					t.Errorf("no %s memory holding %q (why %q):%s", w.typ, w.has, w.why, b.String())
				}
			}
		})
	}
}
