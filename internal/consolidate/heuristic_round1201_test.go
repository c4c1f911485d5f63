package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Rules of the fifth round of blind folders (2026-12-01), each case in
// words of its own, not the folders'.

// A number changed with no marker, the newer giving a second form of it
// in a code span: "every 10 minutes", then "every 20 minutes
// (`SYNC_PERIOD_S=1200`)". Read when the model takes the two for one
// memory (amountChanged), which would otherwise merge them.
func TestAmountChanged_BesideItsCode(t *testing.T) {
	old := Item{File: "old.md", Type: "project", Created: date("2026-03-12"), Name: "Inventory sync", Description: "How the store syncs its inventory with the ERP", Body: "The store syncs its inventory every 10 minutes with one bulk call to the ERP, then sleeps."}
	new := Item{File: "new.md", Type: "project", Created: date("2026-09-08"), Name: "Inventory sync period", Description: "How often inventory syncs with the ERP, and its setting", Body: "Inventory sync runs every 20 minutes — `SYNC_PERIOD_S=1200`, one bulk call to the ERP."}
	p := newPlanner(Input{Now: now, Items: []Item{old, new}}, nil)
	pr := pair{a: 0, b: 1}
	if !p.amountChanged(&pr) || pr.contra != "it changes 10 to 20" {
		t.Errorf("amountChanged: %q", pr.contra)
	}
}

// One thing of another kind: "squash-merge", then "rebase-merge" (names
// of one template, "Squash-merge X" and "Rebase-merge X", stay two things:
// "client-side validation", "server-side validation").
func TestHeuristic_KindChanged(t *testing.T) {
	old := Item{Name: "Squash-merge into develop", Description: "Feature branches are squash-merged into develop", Body: "Squash-merge feature branches into develop so each feature is one commit."}
	new := Item{Name: "Rebase-merge feature branches", Description: "Feature branches are rebase-merged into develop, commits kept", Body: "Rebase-merge feature branches into develop; keep the commits, each one green."}
	p := r5pair(old, new, r5u(3, 0), r5u(3, 0))
	if !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("squash to rebase not read as a change: %v", reasons(p))
	}
	if c := compounds("Blue-green deploys, squash-merged PRs and a read-only replica"); len(c) != 2 || c[0] != [2]string{"blue", "green"} || c[1] != [2]string{"squash", "merge"} {
		t.Errorf("compounds = %v", c)
	}
}

// "1,000" is one number.
func TestValues_Thousands(t *testing.T) {
	v := values("a wave is 1,000 meters, then 12,500 by June")
	for _, want := range []string{"1000", "12500"} {
		if !v[want] {
			t.Errorf("values lacks %s: %v", want, v)
		}
	}
	if v["000"] || v["500"] {
		t.Errorf("a number split at its comma: %v", v)
	}
	if got := withoutThousands("lists 1,2,3 and 10,00"); got != "lists 1,2,3 and 10,00" {
		t.Errorf("withoutThousands changed what is no thousands: %q", got)
	}
}

// A tool said end-of-life is gone; a clause after "was dropped" that says
// with which release is when, not a condition.
func TestMoves_EndOfLifeAndWithRelease(t *testing.T) {
	if mv := moves("Flashing uses nrfutil now; nrfjprog is end-of-life."); len(mv) == 0 || mv[0].from != "nrfjprog" {
		t.Errorf("end-of-life not read as gone: %+v", mv)
	}
	if mv := moves("The paper checklist was dropped with 3.2."); len(mv) == 0 {
		t.Errorf("dropped with 3.2 read as a condition")
	}
	if mv := moves("Old preview apps are deleted with two days' notice."); len(mv) != 0 {
		t.Errorf("a policy's condition read as gone: %+v", mv)
	}
	if mv := moves("We retired with Season 4 the weekly reset."); slices.ContainsFunc(mv, func(m saidMove) bool { return strings.HasPrefix(m.from, "with") }) {
		t.Errorf("'retired with Season 4' read as retiring 'with …': %+v", mv)
	}
}

// Another thing, said so: "separately from", "ours stays at".
func TestHeuristic_SaidTwoThings(t *testing.T) {
	cap := Item{Name: "Coupon cap", Description: "A customer can redeem at most 3 coupons a month", Body: "At most 3 coupon redemptions per customer per month, checked in CouponService."}
	gift := Item{Name: "Gift card cap", Description: "Gift cards are capped separately from coupons: 2 a month", Body: "Gift card redemptions are capped separately from coupons: 2 per customer per month. Changing the coupon cap does not touch this one."}
	if p := r5pair(cap, gift, r5u(1, 2), r5u(3, 0)); slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("a separate cap retired the coupon cap: %v", reasons(p))
	}
	ours := Item{Name: "Platform standup", Description: "Platform standup is daily at 9:30", Body: "Platform standup: daily at 9:30 in the Platform room."}
	theirs := Item{Name: "Mobile team standup", Description: "The mobile team's standup moved to 10:15; ours stays at 9:30", Body: "The mobile team moved their standup to 10:15 (ours stays at 9:30). One of us joins theirs on Thursdays."}
	p := r5pair(ours, theirs, r5u(3, 0), r5u(3, 0))
	if slices.ContainsFunc(ids(p), func(id string) bool { return strings.Contains(id, "old.md") && !strings.HasPrefix(id, "date") }) {
		t.Errorf("our standup retired by another team's: %v", reasons(p))
	}
	if !staysSo("Their standup moved to 10:15; ours stays at 9:30", "Platform standup: daily at 9:30") || staysSo("minSdk 29, targetSdk still 35", "minSdk 26, targetSdk 35") ||
		staysSo("The cron still runs at 03:00, now from ops-2", "The cron runs at 03:00 on ops-1") {
		t.Error("staysSo: every number of the older sentence still there, and a new one of its kind beside it")
	}
}

// A routine and one day of it are two memories.
func TestHeuristic_RoutineAndItsInstance(t *testing.T) {
	routine := Item{File: "freeze.md", Name: "Release freeze", Type: "project", Created: date("2026-04-01"), Description: "Every quarterly release, merges to main freeze 7 days before", Body: "Every quarterly release, main is frozen 7 days before the release: only fixes the release manager approves."}
	one := Item{File: "q4.md", Name: "Q4 release checklist", Type: "project", Created: date("2026-11-10"), Description: "The Q4 release (2026-12-14) needs the freeze announced and the checklist signed", Body: "The Q4 release is on 2026-12-14: announce the merge freeze and get the release checklist signed before main is frozen."}
	p := Heuristic(Input{Now: now, Items: amongFillers([]Item{routine, one}, "reference", fillerBodies...)})
	if slices.ContainsFunc(ids(p), func(id string) bool { return strings.HasPrefix(id, "merge:") && strings.Contains(id, "freeze.md") }) {
		t.Errorf("a routine merged with one of its days: %v", reasons(p))
	}
}

// A day told from an event the memory dates: "two days before the launch".
func TestFromEvent(t *testing.T) {
	text := "The spring sale launches Thu 2026-04-16. Code freeze starts two days before the launch: config PRs only."
	if got := fromEvent(text, text); !strings.Contains(got, "starts 2026-04-14 (two days before the launch)") {
		t.Errorf("fromEvent = %q", got)
	}
	// Two dates for the event, or none: left as written.
	for _, s := range []string{
		"The sale launches 2026-04-16 in the EU and 2026-04-23 in the US. Freeze starts two days before the launch.",
		"Freeze starts two days before the launch.",
	} {
		if got := fromEvent(s, s); got != s {
			t.Errorf("fromEvent(%q) = %q", s, got)
		}
	}
}

// A window said first ends the whole memory, its routine included.
func TestHeuristic_BoundedRoutineExpires(t *testing.T) {
	for _, it := range []Item{
		r4it("2026-08-03", "The Hillcrest pilot runs for the next two sprints, free, with a weekly check-in", "Hillcrest pilot: 20 devices, two-week sprints, check-in every Tuesday."),
		r4it("2026-06-01", "Orders dual-write to both queues until the cutover on 2026-07-15; compare counts daily", "Run compare.py daily during the dual-write."),
	} {
		if p := r3plan(it); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("%q: not expired: %v", it.Description, reasons(p))
		}
	}
	if p := r3plan(r4it("2026-08-03", "Every Monday we plan for the next two weeks", "Planning happens every Monday at 10:00.")); slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("a routine that plans ahead expired: %v", reasons(p))
	}
}

// What a rule quotes is an example, no day.
func TestHeuristic_QuotedExampleNotDated(t *testing.T) {
	it := Item{Type: "feedback", Created: date("2026-03-01"), Description: "Push notifications must name the action", Body: `Notifications tell the user what to do ("water the tomatoes tonight"), never only what was measured.`}
	if p := r3plan(it); slices.Contains(ids(p), "date:m.md") {
		t.Errorf("a quoted example dated: %v", reasons(p))
	}
}

// A fix told done is pruned once unused, feedback too; a weekday
// abbreviation is a date word.
func TestHeuristic_FixToldDone(t *testing.T) {
	it := Item{Type: "feedback", Created: date("2026-02-10"), Description: "LoginTest flaked on CI; raised its wait to 20s", Body: "`LoginTest.redirects` flaked on the shared runners. Raised its wait to 20s in `LoginTest.kt`; passes now.",
		Usage: Usage{Since: date("2026-01-05")}}
	if p := r3plan(it); !slices.Contains(ids(p), "prune:m.md") {
		t.Errorf("a done fix not pruned: %v", reasons(p))
	}
	in := Input{Now: now, Items: []Item{{File: "w.md", Name: "w", Type: "project", Created: date("2026-10-08"), Body: "Patch window Sat 17 Oct 01:00–05:00."}}}
	op := Op{ID: "date:w.md", Kind: Date, Files: []string{"w.md"}, Keep: "w.md", Edit: &Edit{Body: "Patch window 2026-10-17 01:00–05:00."}}
	if err := Validate(in, Plan{Ops: []Op{op}}); err != nil {
		t.Errorf("the weekday of a day written out may go with it: %v", err)
	}
}

// A rule worded two ways, both forbidding: no reversal.
func TestHeuristic_TwoProhibitionsAgree(t *testing.T) {
	old := Item{Type: "feedback", Name: "Limits come from config", Description: "Every limit from the contract goes in limits.yaml", Body: "Every limit from the contract goes in limits.yaml, read through LimitsConfig. Never hard-code a number from the contract in a handler."}
	new := Item{Type: "feedback", Name: "No magic numbers in handlers", Description: "Contract values: limits.yaml + LimitsConfig, not literals", Body: "Contract values go in limits.yaml via LimitsConfig. No magic numbers in handlers."}
	p := r5pair(old, new, r5u(3, 0), r5u(3, 0))
	if slices.ContainsFunc(ids(p), func(id string) bool { return strings.HasPrefix(id, "supersede:") }) {
		t.Errorf("two prohibitions read as a reversal: %v", reasons(p))
	}
}

// A memory marked wrong, replaced by a newer one whose name or file holds
// the value that changed ("prod-php-82.md", "booking-cap-9.md"), or whose
// body alone says the change.
func TestHeuristic_WrongReplacedDespiteFileValues(t *testing.T) {
	for _, c := range []struct{ old, new Item }{
		{Item{Name: "Runtime version", Description: "Workers run PHP 8.2 on Debian 11", Body: "The queue workers run PHP 8.2 from the sury repo on Debian 11; `config.platform.php` in composer.json is 8.2."},
			Item{Name: "Workers on PHP 8.3", Description: "Workers were rebuilt on Debian 12 with PHP 8.3; composer platform is 8.3", Body: "The queue workers were rebuilt on Debian 12 with PHP 8.3 in the October maintenance; `config.platform.php` is 8.3 and CI tests 8.3 only."}},
		{Item{Name: "Alerting via PagerDuty", Description: "Alerts page through PagerDuty, service core-primary", Body: "Alertmanager pages through PagerDuty, service `core-primary`; unacked after 15 minutes it escalates."},
			Item{Name: "Paging through Incident.io", Description: "Pages come from Incident.io (escalation core)", Body: "Pages come from incident.io, escalation path `core`, 15 minutes to the secondary. The PagerDuty contract ran out, so nothing pages from there any more."}},
	} {
		c.old.File, c.new.File = "runtime-php-82.md", "runtime-php-83.md"
		if strings.Contains(c.old.Name, "Alert") {
			c.old.File, c.new.File = "paging-pagerduty.md", "paging-incidentio.md"
		}
		c.old.Type, c.new.Type = "project", "project"
		c.old.Created, c.new.Created = date("2026-02-01"), date("2026-09-01")
		c.old.Usage, c.new.Usage = r5u(4, 2), r5u(5, 0)
		p := Heuristic(Input{Now: now, Items: amongFillers([]Item{c.old, c.new}, "reference", fillerBodies...)})
		if !slices.ContainsFunc(p.Ops, func(op Op) bool {
			return op.Kind == Supersede && op.Keep == c.new.File && slices.Equal(op.Retire, []string{c.old.File})
		}) {
			t.Errorf("%s: not superseded by %s: %v", c.old.File, c.new.File, reasons(p))
		}
	}
	if u := undotted(map[string]bool{"8.2": true, "v2": true, "10": true}); !u["82"] || len(u) != 1 {
		t.Errorf("undotted = %v", u)
	}
}

// Days a note names as kinds of day are not dated; one said as a day is.
func TestMaskGenericDays(t *testing.T) {
	created := date("2026-02-20")
	for _, c := range []struct{ in, want string }{
		{"Before a peak day (Valentine's, Mother's Day, Christmas Eve): scale the web tier to 12.", "Before a peak day (Valentine's, Mother's Day, Christmas Eve): scale the web tier to 12."},
		{"Ana has him Monday to Wednesday, the data team Thursday and Friday.", "Ana has him Monday to Wednesday, the data team Thursday and Friday."},
		{"Orders spread over Friday to Sunday.", "Orders spread over Friday to Sunday."},
		{"The menu must be live by Christmas Eve.", "2026-12-24"},
		{"Next Monday to Wednesday the office is closed.", "2026-02-23"},
	} {
		if got := absoluteIn(c.in, Item{Type: "project", Created: created, Body: c.in}); !strings.Contains(got, c.want) {
			t.Errorf("absoluteIn(%q) = %q, want it to hold %q", c.in, got, c.want)
		}
	}
}

// A spend cap for this quarter ends with it; a board no longer held is gone.
func TestHeuristic_SpendCapAndNoLongerHeld(t *testing.T) {
	if p := r3plan(r4it("2026-07-01", "Cloud spend cap for this quarter is EUR 2,000 a month", "Anything above goes through Lena.")); !slices.Contains(ids(p), "expire:m.md") {
		t.Errorf("a quarter's spend cap not expired: %v", reasons(p))
	}
	if mv := moves("The Tuesday release board is no longer held."); len(mv) == 0 {
		t.Error("'is no longer held' not read as gone")
	}
}

// A channel or a slug said gone is one name, not its stems.
func TestHeuristic_ChannelArchived(t *testing.T) {
	old := Item{Name: "Release announcements", Description: "Release announcements go in #web-releases on Slack", Body: "Announce every production release in #web-releases on Slack: what, who, how to roll back."}
	new := Item{Name: "Where release notes go", Description: "Release notes go in #eng-announce; #web-releases has been archived", Body: "Post release notes in #eng-announce, which the support desk reads too. #web-releases has been archived."}
	// "web" and "release" are in many memories: no stem of the name is rare.
	common := []string{"The web app builds with Vite.", "Web fonts load from our CDN.", "Each release gets a tag.", "Release branches are cut on Mondays.",
		"The web team owns the design system.", "A release needs a green main.", "Web vitals are on the perf dashboard.", "Release notes list every PR.",
		"The web API has its own release train.", "Hotfix releases skip the web QA pass.", "Web and release docs live in the wiki.", "The web release checklist is in Notion."}
	if p := r5pair(old, new, r5u(3, 0), r5u(3, 0), common...); !slices.Contains(ids(p), "supersede:new.md+old.md") {
		t.Errorf("an archived channel not read as gone: %v", reasons(p))
	}
	if slugOf("#web-releases") != "web-releases" || slugOf("the old board") != "" || slugOf("web") != "" {
		t.Error("slugOf")
	}
	if !mentionsSlug("post in #web-releases.", "web-releases") || mentionsSlug("post in #web-releases-eu", "web-releases") {
		t.Error("mentionsSlug reads whole names only")
	}
}
