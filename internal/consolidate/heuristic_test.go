package consolidate

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t.Add(10 * time.Hour)
}

var now = date("2026-11-25")

// ids lists a plan's operation IDs.
func ids(p Plan) []string {
	var out []string
	for _, op := range p.Ops {
		out = append(out, op.ID)
	}
	return out
}

func TestHeuristic(t *testing.T) {
	old := Usage{Since: date("2026-01-01")}
	for _, tc := range []struct {
		name  string
		items []Item
		index Index
		want  []string // op IDs
		left  []string // candidate files, joined
	}{
		{"MergeNearDuplicates", []Item{
			{File: "a.md", Name: "pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo. Run pnpm install with the frozen lockfile in CI.", Created: date("2026-02-01")},
			{File: "b.md", Name: "package manager is pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo; CI runs pnpm install with the frozen lockfile. Node 22 is required.", Created: date("2026-01-01")},
		}, Index{}, []string{"merge:a.md+b.md"}, nil},
		{"NoMergeAcrossScopes", []Item{
			{File: "a.md", Name: "pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo. Run pnpm install with the frozen lockfile in CI.", Created: date("2026-02-01")},
			{File: "b.md", Name: "pnpm", Type: "feedback", Scope: "team", Body: "Use pnpm for installs in this repo; CI runs pnpm install with the frozen lockfile.", Created: date("2026-01-01")},
		}, Index{}, nil, []string{"a.md+b.md"}},
		{"SupersedeAMove", []Item{
			{File: "host.md", Name: "hosting", Type: "project", Body: "We deploy the API on Heroku.", Created: date("2026-01-01")},
			{File: "fly.md", Name: "hosting moved", Type: "project", Body: "Moved hosting from Heroku to Fly.io in March.", Created: date("2026-04-01")},
		}, Index{}, []string{"supersede:fly.md+host.md"}, nil},
		{"SupersedePolarity", []Item{
			{File: "tabs.md", Name: "tabs", Type: "feedback", Body: "Indent with tabs.", Created: date("2026-01-01")},
			{File: "spaces.md", Name: "spaces", Type: "feedback", Body: "Don't indent with tabs, indent with spaces.", Created: date("2026-05-01")},
		}, Index{}, []string{"supersede:spaces.md+tabs.md"}, nil},
		{"PinnedOlderLeftForModel", []Item{
			{File: "tabs.md", Name: "tabs", Type: "feedback", Body: "Indent with tabs.", Created: date("2026-01-01"), Pinned: true},
			{File: "spaces.md", Name: "spaces", Type: "feedback", Body: "Don't indent with tabs, indent with spaces.", Created: date("2026-05-01")},
		}, Index{}, nil, []string{"spaces.md+tabs.md"}},
		{"TemplateNotMerged", []Item{
			{File: "edi.md", Name: "Celery edi queue", Type: "project", Body: "The Celery edi queue runs one task at a time on the worker; Harbor Line rate-limits us.", Created: date("2026-06-15")},
			{File: "pay.md", Name: "Celery payments queue", Type: "project", Body: "The Celery payments queue runs one task at a time on the worker so Stripe calls stay in order.", Created: date("2026-06-16")},
		}, Index{}, nil, []string{"edi.md+pay.md"}},
		{"DifferentSubjectsLeftForModel", []Item{
			// Two versions in their names: never merged here, but one
			// fact told twice is for a reader to see.
			{File: "sdk.md", Name: "Android minSdk 26", Type: "project", Body: "minSdk = 26 (Android 8.0) in app/build.gradle.kts. Needed for the TFLite GPU delegate on device.", Created: date("2026-04-14")},
			{File: "drop.md", Name: "Why Android 7 support was dropped", Type: "project", Body: "The TFLite GPU delegate needs API level 26+, so Android 7 devices were dropped in the 2.4 release.", Created: date("2026-07-29")},
		}, Index{}, nil, []string{"drop.md+sdk.md"}},
		{"DateRelative", []Item{
			{File: "demo.md", Name: "demo", Type: "project", Body: "The demo for Acme is next Friday.", Created: date("2026-11-23")},
		}, Index{}, []string{"date:demo.md"}, nil},
		{"DateAbsoluteLeftAlone", []Item{
			{File: "demo.md", Name: "demo", Type: "project", Body: "The demo is on Friday 2026-12-04. Standups every Monday.", Created: date("2026-11-23")},
		}, Index{}, nil, nil},
		{"ExpireEndedFreeze", []Item{
			{File: "freeze.md", Name: "freeze", Type: "project", Body: "Merge freeze until next Friday for the release.", Created: date("2026-03-02")},
		}, Index{}, []string{"expire:freeze.md"}, nil},
		{"StartIsNoEnd", []Item{
			{File: "start.md", Name: "new process", Type: "project", Body: "Code review by two people starts on 2026-03-01.", Created: date("2026-02-01")},
		}, Index{}, nil, nil},
		{"FreezeOfUserNotExpired", []Item{
			{File: "me.md", Name: "vacation", Type: "user", Body: "Away until 2026-03-06.", Created: date("2026-03-01")},
		}, Index{}, nil, nil},
		{"PinnedFreezeNotExpired", []Item{
			{File: "freeze.md", Name: "freeze", Type: "project", Body: "Freeze until 2026-03-06.", Created: date("2026-03-01"), Pinned: true},
		}, Index{}, nil, nil},
		{"PruneUnusedAndSuperseded", []Item{
			{File: "note.md", Name: "note", Type: "project", Body: "Staging cluster is flaky; investigating.", Created: date("2026-01-05"), Usage: old},
			{File: "contact.md", Name: "contact", Type: "reference", Body: "Security questions go to Bo in #sec.", Created: date("2026-01-05"), Usage: old},
			{File: "used.md", Name: "used", Type: "project", Body: "Staging lives in eu-west-1.", Created: date("2026-01-05"), Usage: Usage{Since: old.Since, Injected: 3, LastInjected: date("2026-11-01")}},
			{File: "pref.md", Name: "pref", Type: "user", Body: "Prefers short answers.", Created: date("2026-01-05"), Usage: old},
			{File: "wrong.md", Name: "wrong", Type: "user", Body: "Works in Java.", Created: date("2026-01-05"), Usage: Usage{Since: old.Since, Injected: 4, Wrong: 2}},
			{File: "gone.md", Name: "gone", Type: "feedback", Body: "Tabs.", Created: date("2026-01-05"), SupersededBy: "x.md"},
			{File: "host.md", Name: "host", Type: "project", Body: "The API runs on Heroku.", Created: date("2026-01-05"), SupersededBy: "fly.md", Usage: Usage{Since: old.Since, Injected: 9, LastInjected: date("2026-11-01")}},
			{File: "fly.md", Name: "fly", Type: "project", Body: "The API runs on Fly.io.", Created: date("2026-03-05"), Usage: Usage{Since: old.Since, Injected: 9, LastInjected: date("2026-11-01")}},
			// Superseded by one marked wrong, which goes: the old one stays,
			// whatever the order the folder lists them in.
			{File: "a-old.md", Name: "old", Type: "project", Body: "Builds run on Jenkins.", Created: date("2026-01-05"), SupersededBy: "z-new.md", Usage: Usage{Since: old.Since, Injected: 9, LastInjected: date("2026-11-01")}},
			{File: "z-new.md", Name: "new", Type: "project", Body: "Builds run on Buildkite.", Created: date("2026-03-05"), Usage: Usage{Since: old.Since, Injected: 4, Wrong: 2}},
			// Words that say a note is passing count outside paths too.
			{File: "wip.md", Name: "wip", Type: "project", Body: "WIP/draft: the new auth flow, currently investigating...the login timeouts.", Created: date("2026-01-05"), Usage: old},
			// Superseded by a memory no longer there: the only record left.
			{File: "queue.md", Name: "queue", Type: "project", Body: "Jobs run on Sidekiq.", Created: date("2026-01-05"), SupersededBy: "deleted.md", Usage: Usage{Since: old.Since, Injected: 9, LastInjected: date("2026-11-01")}},
			{File: "pin.md", Name: "pin", Type: "project", Body: "Legal contact is Ana.", Created: date("2026-01-05"), Usage: old, Pinned: true},
			// A path or a name is no passing note: "tmp", "draft" in them say
			// nothing of how long it holds.
			{File: "cache.md", Name: "build cache", Type: "reference", Body: "CI keeps its build cache in `/tmp/ci-cache` and drafts in gs://acme-ci/draft_releases.", Created: date("2026-01-05"), Usage: old},
			// Superseded long after it last changed: kept until its superseder is 90 days old.
			{File: "ci-old.md", Name: "ci", Type: "project", Body: "CI runs on CircleCI.", Created: date("2026-01-05"), SupersededBy: "ci-new.md", Usage: old},
			{File: "ci-new.md", Name: "ci now", Type: "project", Body: "CI runs on GitHub Actions.", Created: date("2026-10-01"), Usage: Usage{Since: old.Since, Injected: 9, LastInjected: date("2026-11-01")}},
			// Passing by the moment it names, or as a reminder.
			{File: "remind.md", Name: "refund backfill", Type: "project", Body: "Reminder to self: row counts looked high after the backfill; check for double counting.", Created: date("2026-01-05"), Usage: old},
			{File: "flags.md", Name: "sync flags", Type: "project", Body: "Benchmarking the sync with a few RUSTFLAGS this afternoon; will write up if anything pans out.", Created: date("2026-01-05"), Usage: old},
			// A one-off task, done.
			{File: "pr812.md", Name: "rename in PR 812", Type: "project", Body: "For PR #812 the user wanted shipment_ref renamed to booking_ref in the serializer only. Done and merged.", Created: date("2026-01-05"), Usage: old},
			// How to debug a part, a sensor's temperature, notes on a part: durable.
			{File: "rtt.md", Name: "modem", Type: "reference", Body: "Debugging the modem: attach J-Link and read RTT channel 1.", Created: date("2026-01-05"), Usage: old},
			{File: "boot.md", Name: "bootloader", Type: "reference", Body: "When debugging the bootloader, hold BOOT0 high while resetting.", Created: date("2026-01-05"), Usage: old},
			{File: "temp.md", Name: "temp sensor", Type: "reference", Body: "The temp sensor reports tenths of a degree Celsius.", Created: date("2026-01-05"), Usage: old},
			{File: "notes.md", Name: "flash notes", Type: "reference", Body: "Notes on the flash layout: MCUboot owns the first 48 KB.", Created: date("2026-01-05"), Usage: old},
			// temp.md and notes.md, plain facts no prompt needed in ten
			// months, are proposed since 2026-11-30 (TestHeuristic_PruneNeverUsed);
			// the how-tos rtt.md and boot.md are kept.
		}, Index{}, []string{"prune:flags.md", "prune:host.md", "prune:note.md", "prune:notes.md", "prune:pr812.md", "prune:remind.md", "prune:temp.md", "prune:wip.md", "prune:wrong.md", "prune:z-new.md"}, nil},
		{"ShortenDescriptionAndIndex", []Item{
			{File: "long.md", Name: "long", Type: "reference", Created: date("2026-10-01"), Body: "Grafana.",
				Description: "The Grafana dashboard for the API, with panels for latency, errors and saturation, the on-call rotation, the alert routes, and the runbook link at length"},
		}, Index{Lines: 230, LongLines: []string{"long.md"}}, []string{"shorten:MEMORY.md", "shorten:long.md"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Items: tc.items, Index: tc.index, Now: now}
			p := Heuristic(in)
			if got := ids(p); !slices.Equal(got, tc.want) {
				t.Errorf("ops %v, want %v", got, tc.want)
			}
			var left []string
			for _, c := range p.LeftForModel {
				left = append(left, strings.Join(slices.Sorted(slices.Values(c.Files)), "+"))
			}
			if !slices.Equal(left, tc.left) {
				t.Errorf("left for a model %v, want %v", left, tc.left)
			}
			if err := Validate(in, p); err != nil {
				t.Errorf("the plan does not validate: %v", err)
			}
			for _, op := range p.Ops {
				if !strings.HasSuffix(op.Reason, ".") || len(op.Evidence) == 0 {
					t.Errorf("%s: reason %q, evidence %q: want a sentence and evidence", op.ID, op.Reason, op.Evidence)
				}
			}
			if again := Heuristic(in); !reflect.DeepEqual(again, p) {
				t.Errorf("a second run planned differently")
			}
		})
	}
}

func TestHeuristic_MergeKeepsEveryFact(t *testing.T) {
	in := Input{Now: now, Items: []Item{
		{File: "a.md", Name: "pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo. Run pnpm install with the frozen lockfile in CI.", Created: date("2026-02-01"), Usage: Usage{Injected: 1}},
		{File: "b.md", Name: "package manager is pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo; CI runs pnpm install with the frozen lockfile. Node 22 is required.", Created: date("2026-01-01"), Usage: Usage{Injected: 5}},
	}}
	p := Heuristic(in)
	if len(p.Ops) != 1 {
		t.Fatalf("ops %v", ids(p))
	}
	op := p.Ops[0]
	if op.Keep != "b.md" || !slices.Equal(op.Retire, []string{"a.md"}) {
		t.Errorf("keep %s retire %v: want the most used, b.md, kept", op.Keep, op.Retire)
	}
	if !strings.Contains(op.Edit.Body, "Node 22 is required.") || !op.Edit.Created.IsZero() {
		t.Errorf("edit %+v: want b.md's body whole and its own created time", op.Edit)
	}
	in.Items[1].Usage.Injected = 0
	op = Heuristic(in).Ops[0]
	if op.Keep != "a.md" || !op.Edit.Created.Equal(date("2026-01-01")) || !strings.Contains(op.Edit.Body, "Node 22 is required.") {
		t.Errorf("keep %s, edit %+v: want the shorter name kept, the fact of b.md added, the earliest created", op.Keep, op.Edit)
	}
}

func TestHeuristic_DateRewritesOnlyDates(t *testing.T) {
	in := Input{Now: now, Items: []Item{
		{File: "d.md", Name: "demo", Type: "project", Description: "Demo tomorrow", Body: "The Acme demo is next Friday; slides in two weeks.", Created: date("2026-11-23")},
	}}
	p := Heuristic(in)
	if len(p.Ops) != 1 || p.Ops[0].Kind != Date {
		t.Fatalf("ops %v", ids(p))
	}
	e := p.Ops[0].Edit
	if e.Body != "The Acme demo is Friday 2026-11-27; slides by 2026-12-07." || e.Description != "Demo 2026-11-24" {
		t.Errorf("edit %+v", e)
	}
}

func TestCut(t *testing.T) {
	long := "Deploys go through the release train, which leaves every other Tuesday; hotfixes go through the on-call lead, who must approve them in the channel first"
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{long, "Deploys go through the release train, which leaves every other Tuesday"},
		{strings.Repeat("abc ", 50), strings.TrimSpace(strings.Repeat("abc ", 24)) + "…"},
	} {
		got := cut(tc.in, 100)
		if got != tc.want {
			t.Errorf("cut(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len([]rune(got)) > 100 {
			t.Errorf("cut(%q) is %d runes", tc.in, len([]rune(got)))
		}
	}
}

func TestAbsolute(t *testing.T) {
	mon := date("2026-03-02") // a Monday
	for _, tc := range []struct{ in, want string }{
		{"Freeze until next Friday.", "Freeze until Friday 2026-03-06."},
		{"The pentest starts in two weeks.", "The pentest starts on 2026-03-16."},
		{"Migrate by the end of next month.", "Migrate by 2026-04-30."},
		{"Handover every Monday, and on Mondays the rota changes; a Friday demo.", "Handover every Monday, and on Mondays the rota changes; a Friday demo."},
		{"Ships on Friday 2026-03-06 or March 9, 2026.", "Ships on Friday 2026-03-06 or March 9, 2026."},
		{"Nothing relative here.", "Nothing relative here."},
		{"It expires on 2027-03-02. Renew at least 30 days before and re-import.", "It expires on 2027-03-02. Renew at least 30 days before and re-import."}, // a lead time
		{"The minimum version goes to 3.0 in two weeks.", "The minimum version goes to 3.0 on 2026-03-16."},                                                  // a day
		{"Finish the data migration in two weeks.", "Finish the data migration by 2026-03-16."},                                                              // a deadline
	} {
		if got := absolute(tc.in, mon); got != tc.want {
			t.Errorf("absolute(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// The ends of named quarters and months, in a project fact.
	for _, tc := range []struct {
		in, created, want string
	}{
		{"Decide by the end of Q1.", "2026-03-02", "Decide by 2026-03-31."},
		{"Decide by the end of Q1.", "2026-11-12", "Decide by 2027-03-31."},      // long past this year: next year's
		{"Decide by the end of Q1 2027.", "2026-03-02", "Decide by 2027-03-31."}, // its own year
		{"Lena triages crashes through the end of October.", "2026-09-02", "Lena triages crashes through 2026-10-31."},
		{"The audit closes at the end of February.", "2026-03-02", "The audit closes at 2026-02-28."},                               // just past: this year's
		{"Since the end of Q1 the billing service runs on k8s.", "2026-04-05", "Since 2026-03-31 the billing service runs on k8s."}, // not next year's
		{"Every year the TLS certs expire at the end of March.", "2026-04-05", "Every year the TLS certs expire at the end of March."},
	} {
		it := Item{Type: "project", Created: date(tc.created)}
		if got := absoluteIn(tc.in, it); got != tc.want {
			t.Errorf("absoluteIn(%q, created %s) = %q, want %q", tc.in, tc.created, got, tc.want)
		}
	}
	// A rule's weekday is any such day; a project's is the coming one.
	for _, tc := range []struct{ in, typ, want string }{
		{"If a PR is ready on Friday, leave it approved and merge on Monday.", "feedback", "If a PR is ready on Friday, leave it approved and merge on Monday."},
		{"Friday merges are fine again.", "feedback", "Friday merges are fine again."},
		{"Don't deploy before next Friday.", "feedback", "Don't deploy before Friday 2026-03-06."},
		{"The old repo is archived this Friday.", "project", "The old repo is archived Friday 2026-03-06."},
	} {
		if got := absoluteIn(tc.in, Item{Type: tc.typ, Created: mon}); got != tc.want {
			t.Errorf("absoluteIn(%q, %s) = %q, want %q", tc.in, tc.typ, got, tc.want)
		}
	}
	// A rule is never pinned to one year.
	if got := absoluteIn("Avoid releases at the end of December; half the team is off.", Item{Type: "feedback", Created: mon}); strings.Contains(got, "2026") {
		t.Errorf("a rule got a year: %q", got)
	}
	// The heuristic's date rewrite of a period with its year passes Validate.
	in := Input{Now: now, Items: []Item{{File: "q.md", Name: "q", Type: "project", Body: "Ship the new billing API by the end of Q4 2026.", Created: date("2026-10-01")}}}
	p := Heuristic(in)
	if err := Validate(in, p); err != nil || !slices.Contains(ids(p), "date:q.md") {
		t.Errorf("a period with its year: ops %v, Validate %v", ids(p), err)
	}
	if got := absolute("Freeze until next Friday.", time.Time{}); got != "Freeze until next Friday." {
		t.Errorf("with no created time: %q", got)
	}
}

func TestHeuristic_Expire(t *testing.T) {
	for _, tc := range []struct {
		body    string
		created string
		want    bool
	}{
		{"Merge freeze until next Friday.", "2026-03-02", true},
		{"No merges from 2026-10-26 to 2026-11-06 during the audit.", "2026-10-20", true},
		{"Code freeze starts next Monday and lasts a week.", "2026-06-03", true},
		{"Maintenance window: Sat 2026-09-19, 02:00-06:00 UTC.", "2026-09-10", true},
		{"Stripe drops the v1 format by the end of next month.", "2026-08-14", true},
		{"Code review by two people starts on 2026-03-01.", "2026-02-01", false},       // a start ends nothing
		{"Freeze from 2026-03-01; lifted when the audit passes.", "2026-02-01", false}, // no end date
		{"Year-end freeze 2025-12-19 to 2026-01-05; it repeats every December.", "2025-12-01", false},
		{"All services on Node 22 by 2027-01-15.", "2026-10-28", false}, // ahead
		{"Release 2.0 shipped on 2026-03-01 with the new API.", "2026-03-01", false},
		{"Freeze on release/2.7 from 2026-10-30 to 2026-11-09: only P0 fixes, each approved by Tomás.", "2026-10-28", true}, // each of them, not each week
		{"Freeze before each release, from 2026-10-30 to 2026-11-09.", "2026-10-28", false},
		{"No freeze every December, from 2025-12-19 to 2026-01-05.", "2025-12-01", false},
		{"The relabeling sprint wraps up next Friday; don't retrain until then.", "2026-09-15", true},
		{"Legacy SQL is disabled within six weeks; port the last queries.", "2026-07-01", true},
		{"Legacy SQL is disabled within six weeks; port the last queries.", "2026-11-01", false}, // still ahead
		{"Lena triages Android crashes through the end of October.", "2026-09-02", true},
		// An end after a clause, as running out or a sunset, a period from the writing, a month's name.
		{"Temporary workaround until the vendor fix ships on 2026-06-12: pin libfoo to 1.2.", "2026-05-20", true},
		{"Feature flag `new_checkout` stays off until the launch on 2026-05-05.", "2026-04-10", true},
		{"Until the launch on 2027-02-01 the flag stays off.", "2026-04-10", false},
		{"The Datadog trial runs out on 2026-04-30.", "2026-04-01", true},
		{"API v1 is sunset on 2026-09-30; clients move to v2.", "2026-08-01", true},
		{"For the next two weeks, deploys need a second approver.", "2026-06-08", true},
		{"For the next two weeks, deploys need a second approver.", "2026-11-20", false},
		{"Keep build logs for two weeks.", "2026-01-10", false},
		{"Steam Next Fest demo must stay up through June 16, 2026.", "2026-05-01", true},
		{"Steam Next Fest demo must stay up through 16 June 2027.", "2026-05-01", false},
		// From a review: policies, starts and recurrences end nothing.
		{"Security policy: critical CVEs must be patched within 7 days of disclosure.", "2026-01-10", false},
		{"SLA: P1 incidents need a postmortem within a week.", "2026-01-10", false},
		{"The vendor responds within two days to tickets.", "2026-01-10", false},
		{"The code freeze starts at the end of Q1 and lasts until the audit passes.", "2026-01-10", false},
		{"Dependency audit happens every three months; the next one is due by 2026-04-01.", "2026-01-10", false},
		{"Freeze before every major release, from 2026-03-01 to 2026-03-10.", "2026-01-10", false},
		{"Backups are verified quarterly, the next check by 2026-04-01.", "2026-01-10", false},
		// A period of so many days from the writing, or from its own start.
		{"We're on a 14-day BrowserStack trial for the e2e runs (started today).", "2026-08-20", true},
		{"We're on a 14-day BrowserStack trial for the e2e runs (started today).", "2026-11-20", false},
		{"A 30-day free trial of the load tester from 2026-06-01.", "2026-05-20", true},
		{"A 30-day free trial of the load tester from 2026-12-01.", "2026-10-01", false},
		// A change on a day is no end: the rule after it holds.
		{"The minimum app version goes to 3.0 in two weeks; no shims for 2.x.", "2026-07-06", false},
		// The name says what the description dates.
		{"upgrade window: Postgres 15 to 16 upgrade on Saturday 2026-08-15, 02:00-06:00 UTC", "2026-08-10", true},
		{"upgrade: Postgres 15 to 16 upgrade on Saturday 2026-08-15, 02:00-06:00 UTC", "2026-08-10", false},
	} {
		it := Item{File: "m.md", Name: "m", Type: "project", Body: tc.body, Created: date(tc.created)}
		if name, desc, ok := strings.Cut(tc.body, ": "); ok && strings.HasPrefix(name, "upgrade") {
			it.Name, it.Description, it.Body = "Postgres 16 "+name, desc, "Kenji drives."
		}
		in := Input{Now: now, Items: []Item{it}}
		p := Heuristic(in)
		got := slices.Contains(ids(p), "expire:m.md")
		if got != tc.want {
			t.Errorf("%q: expired %v, want %v (ops %v)", tc.body, got, tc.want, ids(p))
		}
	}
}

func TestHeuristic_Supersede(t *testing.T) {
	for _, tc := range []struct {
		name       string
		old, new   Item
		supersedes bool
	}{
		{"MovedOff",
			Item{Name: "deploys", Description: "Deploys: ArgoCD syncs the prod app", Body: "Merging to main lets ArgoCD sync ledger-prod."},
			Item{Name: "deploys moved", Description: "We moved deploys off ArgoCD", Body: "Prod deploys run from deploy.yml on a tag push."}, true},
		{"Gone",
			Item{Name: "orm", Description: "The API uses Prisma", Body: "Change the Prisma schema, then migrate."},
			Item{Name: "orm now", Description: "Tables live in schema.ts", Body: "Prisma is gone since 2.0; tables live in schema.ts."}, true},
		{"NegatedInDescription",
			Item{Name: "merging", Description: "Always squash-merge pull requests", Body: "Use Squash and merge for every PR."},
			Item{Name: "rebase", Description: "Don't squash-merge anymore; rebase-merge", Body: "Use Rebase and merge so the changelog sees every commit."}, true},
		{"OlderNegatesAnAlternative",
			Item{Name: "pnpm", Description: "Package manager is pnpm; do not use npm", Body: "Use pnpm for every install, not npm."},
			Item{Name: "pnpm lockfile", Description: "npm install breaks the pnpm lockfile", Body: "npm install writes a package-lock.json next to pnpm-lock.yaml."}, false},
		{"ChangedPort", // the same sentence with another value: an update, never a merge stating both
			Item{Name: "grafana port", Description: "Grafana runs on port 3000 in the dev stack", Body: "Open Grafana at localhost port 3000 in the dev stack."},
			Item{Name: "grafana address", Description: "Grafana runs on port 3300 in the dev stack", Body: "Open Grafana at localhost port 3300 in the dev stack; 3000 is taken by the web app."}, true},
		{"ChangedOwner",
			Item{Name: "release owner", Description: "Priya Raman owns the Android releases", Body: "Priya Raman owns the Android releases and the Play Console."},
			Item{Name: "who releases android", Description: "Tomas Ibarra owns the Android releases now", Body: "Tomas Ibarra owns the Android releases and the Play Console."}, true},
		{"SameValueMoreDetail", // one adds a detail, none changes: a duplicate
			Item{Name: "grafana port", Description: "Grafana runs on port 3000 in the dev stack", Body: "Open Grafana at localhost port 3000."},
			Item{Name: "grafana dev", Description: "Grafana runs on port 3000 in the dev stack", Body: "Open Grafana at localhost port 3000; log in as admin."}, false},
		{"BothForbid", // a negation's reach differs ("never mock PostgreSQL"), the prohibition is one
			Item{Name: "No mocked database in integration tests", Description: "Integration tests never mock PostgreSQL; they use the real docker-compose database",
				Body: "Integration tests use the real PostgreSQL from docker compose, never a mock or an in-memory fake: a mock missed a NOT NULL column once."},
			Item{Name: "Integration tests hit a real database", Description: "Never mock PostgreSQL in integration tests; use the docker-compose database",
				Body: "Integration tests run against the real PostgreSQL from `docker compose up db`,\nnever a mock or an in-memory fake."}, false},
		{"BackedOut",
			Item{Name: "runtime", Description: "The apps run the classifier with ONNX", Body: "Both apps run the classifier with ONNX, one model file."},
			Item{Name: "runtime per platform", Description: "The classifier runs on TFLite", Body: "The classifier runs with TFLite; ONNX was backed out (+18 MB per app)."}, true},
		{"BackedOutNameOfSeveralWords", // the older holds "ONNX", the last word "Mobile" is common
			Item{Name: "runtime", Description: "The apps run the classifier with ONNX Runtime Mobile", Body: "Both apps run the classifier with ONNX Runtime Mobile, one model file for mobile."},
			Item{Name: "runtime per platform", Description: "The classifier runs on TFLite and Core ML", Body: "The classifier runs with TFLite on Android and Core ML on iOS; ONNX Runtime Mobile was backed out (+18 MB per mobile app)."}, true},
		// A change said outright, with no negation and no "from".
		{"SaidNow",
			Item{Name: "alerts channel", Description: "Prod alerts go to #ops", Body: "Prod alerts go to #ops in Slack."},
			Item{Name: "alerts channel now", Description: "Prod alerts go to #oncall-quay", Body: "Prod alerts go to #oncall-quay now."}, true},
		{"SaidFromNowOn",
			Item{Name: "deploy day", Description: "Deploys happen on Tuesdays", Body: "Deploys happen on Tuesdays."},
			Item{Name: "deploy day now", Description: "Deploy day moves", Body: "Deploy day is Thursday from now on."}, true},
		{"NowOfAnotherThing", // "iOS builds now run on …" says nothing of Android's
			Item{Name: "android builds", Description: "Android builds run on Bitrise", Body: "Android builds run on Bitrise."},
			Item{Name: "ios builds", Description: "iOS builds run on Xcode Cloud", Body: "iOS builds now run on Xcode Cloud."}, false},
		{"TookOver",
			Item{Name: "edi owner", Description: "Bo owns the EDI integration", Body: "Bo owns the EDI integration and its on-call."},
			Item{Name: "edi owner now", Description: "Dana owns EDI", Body: "Dana took over the EDI integration from Bo in June."}, true},
		{"HasTakenOver",
			Item{Name: "edi owner", Description: "Bo owns the EDI integration", Body: "Bo owns the EDI integration and its on-call."},
			Item{Name: "edi owner now", Description: "Dana owns EDI", Body: "Dana has taken over the EDI integration from Bo in June."}, true},
		{"IgnoreTheOldAdvice",
			Item{Name: "migrations by hand", Description: "Run migrations by hand", Body: "Run Django migrations by hand on the bastion before each deploy."},
			Item{Name: "migrations in pipeline", Description: "The pipeline migrates", Body: "Ignore the old advice about running migrations by hand: the deploy pipeline runs them now."}, true},
		{"WeRetired",
			Item{Name: "build agent", Description: "Jenkins builds on the mac mini", Body: "Jenkins builds run on the old mac mini agent."},
			Item{Name: "build agent now", Description: "Jenkins builds on the Mac Studio", Body: "We retired the mac mini agent; Jenkins builds run on the new Mac Studio."}, true},
		{"NoLongerNeeded",
			Item{Name: "stripe fixtures", Description: "Refresh the Stripe fixtures first", Body: "Run scripts/refresh-stripe-fixtures.sh before the payments tests."},
			Item{Name: "stripe-mock", Description: "Payments tests run against stripe-mock", Body: "Payments tests run against stripe-mock; the fixtures refresh script is no longer needed."}, true},
		{"GoneInCode",
			Item{Name: "deploy command", Description: "Deploy with make", Body: "Deploy with `make deploy ENV=prod`."},
			Item{Name: "deploy script", Description: "Deploy with ship", Body: "`make deploy` is gone; deploy with `./scripts/ship prod`."}, true},
		{"StillForTheOlder", // moved off Sentry for the backend; the driver app stays
			Item{Name: "driver app crashes in Sentry", Description: "Driver app crashes go to Sentry", Body: "Driver app crashes and JS errors: Sentry project quayside-driver."},
			Item{Name: "backend errors in Datadog", Description: "Backend errors moved to Datadog", Body: "We moved off Sentry for the backend: API errors now go to Datadog.\nThe driver app still reports to Sentry."}, false},
		{"AnException", // narrows the rule, never reverses it
			Item{Name: "every API endpoint requires JWT", Description: "All API views require JWT auth; never add AllowAny", Body: "Every API endpoint requires JWT auth; never add AllowAny to a view."},
			Item{Name: "webhooks authenticate by signature", Description: "Stripe webhook endpoints check signatures, not JWT", Body: "Exception to the JWT rule: the Stripe webhook can't carry a JWT, so it uses AllowAny plus a signature check."}, false},
		{"Template", // two services from one template, each with its own port
			Item{Name: "svc-booking-api", Type: "reference", Description: "ECS service booking-api: port 8000, min 3 tasks", Body: "Cluster prod, service booking-api. Container port 8000; min 3 tasks; health check /healthz."},
			Item{Name: "svc-edi-gateway", Type: "reference", Description: "ECS service edi-gateway: port 8010, 1 task", Body: "Cluster prod, service edi-gateway. Container port 8010; 1 task; health check /health."}, false},
		{"LabelsSayNothing", // "How to apply" opens both lines; the PRs are other PRs
			Item{Name: "release notes each sprint", Type: "project", Description: "The user writes release notes each sprint", Body: "Each sprint the user writes the backend release notes.\n**How to apply:** when asked, draft them from merged PRs labelled release-notes."},
			Item{Name: "legacy repo archived", Type: "project", Description: "The legacy repo is archived", Body: "The old legacy repo is archived; backend code lives in the platform repo.\n**How to apply:** don't open PRs or issues against the legacy repo."}, false},
		{"SameSlotNewNumber", // "after the refactor": the same host, another port
			Item{Name: "local Postgres port", Type: "project", Description: "Dev Postgres from docker compose is published on host port 5433", Body: "DATABASE_URL in .env.example points at localhost:5433."},
			Item{Name: "dev database on 55432", Type: "project", Description: "After the dev-env refactor the dev database listens on localhost:55432", Body: "Since the refactor (compose.yaml split in two) the dev database listens on localhost:55432."}, true},
		{"RuleFineAgain",
			Item{Name: "No Friday merges", Description: "Don't merge backend PRs to main on Fridays", Body: "Don't merge backend PRs to main on a Friday.\n**Why:** main rolls to prod the same afternoon.\n**How to apply:** if a PR is ready on Friday, leave it approved and merge on Monday."},
			Item{Name: "Friday merges are fine again", Description: "No-Friday-merge rule dropped once blue/green went live", Body: "Friday merges are fine again: with blue/green and automatic rollback, the user dropped the no-Friday rule at the retro.\n**How to apply:** merge PRs when approved and green, any weekday."}, true},
		{"MoveOfAWordOnly", // "moved from Vault" says nothing of a 1Password vault
			Item{Name: "Android release signing", Description: "Android builds are signed by EAS with the upload key", Body: "Android release builds are signed by EAS with the upload key.\nThe upload keystore backup is in 1Password, vault \"Driver App\"."},
			Item{Name: "secrets manager", Description: "Service secrets live in AWS Secrets Manager", Body: "We migrated secrets from Vault to AWS Secrets Manager; services read them at start-up."}, false},
		{"OtherType", // a project fact cannot make a memory about the person history
			Item{Name: "deploys", Description: "Deploys: ArgoCD syncs the prod app", Body: "Merging to main lets ArgoCD sync ledger-prod."},
			Item{Name: "deploys moved", Type: "project", Description: "We moved deploys off ArgoCD", Body: "Prod deploys run from deploy.yml on a tag push."}, false},
		// A negation against a statement, or a rule against the incident
		// that taught it, reverses no rule (2026-11-30: 22 such pairs in the
		// labelled merge folders were planned as supersedes).
		{"RuleAndItsIncident",
			Item{Name: "churn-train run used a stale trainer image", Description: "churn-train metrics didn't match the local run because the GKE node ran a cached trainer:latest from an earlier build",
				Body: "The `churn-train` pipeline run produced metrics that didn't match the local run. Cause: the component referenced `trainer:latest`, and the GKE node had an older `trainer:latest` cached, so the run executed code from an earlier build."},
			Item{Name: "No :latest in pipelines", Description: "Never use :latest or any other mutable image tag in a Kubeflow component", Body: "Never use `:latest` or any other mutable tag for a Kubeflow component image. Digest only."}, false},
		{"StatementAgainstRule",
			Item{Name: "Where app crash reports live", Type: "reference", Description: "Client crash reports: Firebase console, juniper-prod project, Crashlytics tab for bank.juniper.android",
				Body: "For app crashes open the Firebase console, project `juniper-prod`, Crashlytics, and pick `bank.juniper.android`."},
			Item{Name: "Crash triage starting point", Type: "reference", Description: "Triage Android crashes from Crashlytics in juniper-prod; dev builds go to juniper-dev so they don't pollute prod numbers",
				Body: "Start Android crash triage in Crashlytics under the `juniper-prod` Firebase project (app `bank.juniper.android`). Debug and QA builds report to `juniper-dev`."}, false},
		{"RuleReversedAfterALeadingClause",
			Item{Name: "errors", Description: "Wrap errors with pkg/errors", Body: "In the Go services, wrap errors with errors.Wrap from pkg/errors."},
			Item{Name: "errors now", Description: "Stop using pkg/errors", Body: "Stop using pkg/errors; wrap with fmt.Errorf and %w."}, true},
		{"NumberAgainstName", // "99.5" against "Play Console": put differently, not changed
			Item{Name: "Play staged rollout ladder", Type: "project", Description: "Rollouts go 1% > 5% > 20% > 50% > 100%, halt below 99.5% crash-free", Body: "Every production release is a staged rollout in Play Console: 1% -> 5% -> 20% -> 50% -> 100%, holding 48 hours at each step.\nHalt the rollout if crash-free users for the new version drop below 99.5% in Crashlytics."},
			Item{Name: "Staged rollout steps", Type: "project", Description: "Play Console rollout goes 1%, 5%, 20%, 50%, 100%; halt under 99.5% crash-free", Body: "Production rollouts in Play Console step through 1%, 5%, 20%, 50%, 100%, with 48 hours at every step. Halt if the new version's crash-free users fall under 99.5% (Crashlytics)."}, false},
		{"CommonWordMove", // "one" is no tool's name
			Item{Name: "migrations", Description: "Migrations stay compatible for one release", Body: "Drop a column one release later."},
			Item{Name: "stacked PRs", Description: "Stacked PRs instead of one big one", Body: "Stack them: migration, API, UI."}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.old.File, tc.old.Type, tc.old.Created = "old.md", cmp.Or(tc.old.Type, "feedback"), date("2026-01-01")
			tc.new.File, tc.new.Type, tc.new.Created = "new.md", cmp.Or(tc.new.Type, "feedback"), date("2026-06-01")
			// a few unrelated memories, so that idf tells rare from common
			items := amongFillers([]Item{tc.old, tc.new}, "reference", "Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
				"Dashboards live in Grafana.", "Keep one branch per feature.", "Only one deploy at a time.", "One reviewer is enough for docs.", "The rate sheet arrives every Friday.", "Standup notes go out on Friday.", "Demo day is a Friday.", "Merges to main need one approval.", "Merge with a squash.",
				"Mobile builds run on Bitrise.", "The mobile runtime logs go to Sentry.")
			p := Heuristic(Input{Now: now, Items: items})
			got := slices.Contains(ids(p), "supersede:new.md+old.md")
			if got != tc.supersedes {
				t.Errorf("superseded %v, want %v (ops %v)", got, tc.supersedes, ids(p))
				for _, op := range p.Ops {
					t.Log(op.Reason, op.Evidence)
				}
			}
		})
	}
}

func TestSameSlot(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     bool
	}{
		{"DATABASE_URL in .env.example points at localhost:5433.", "The dev database listens on localhost:55432.", true},
		{"Open Grafana on port 3000.", "Grafana now answers on port 3300.", true},
		{"The backend builds on Node 18.", "Builds moved to Node 22.", true},
		{"Open Grafana on port 3000.", "Grafana needs Node 22.", false},
		{"Runs 4 workers.", "Retries 3 times.", false},
		{"Open Grafana on port 3000.", "Open Grafana on port 3000 as admin.", false},
	} {
		if got := sameSlot(tc.old, tc.new); got != tc.want {
			t.Errorf("sameSlot(%q, %q) = %v, want %v", tc.old, tc.new, got, tc.want)
		}
	}
}

func TestDifferentSubjects(t *testing.T) {
	for _, tc := range []struct {
		a, b string // names
		want bool
	}{
		{"billing-07 health port", "billing-08 health port", true},
		{"local Postgres port", "dev database on 55432", false}, // a name and a number: not two of a template
		{"Celery edi queue", "Celery payments queue", true},
		{"svc-booking-api", "svc-edi-gateway", true},
	} {
		a := item{Item: Item{Name: tc.a, File: "a.md"}, terms: termSet(tc.a)}
		b := item{Item: Item{Name: tc.b, File: "b.md"}, terms: termSet(tc.b)}
		if got := differentSubjects(a, b); got != tc.want {
			t.Errorf("differentSubjects(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
