package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// fillerBodies are five unrelated reference memories that give a test
// folder word frequencies to weigh rare words against.
var fillerBodies = []string{"Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
	"Dashboards live in Grafana.", "Keep one branch per feature."}

// planAmongFillers plans items among the filler memories.
func planAmongFillers(items ...Item) Plan {
	return Heuristic(Input{Now: now, Items: amongFillers(items, "reference", fillerBodies...)})
}

// Wordings two more labellers' folders (fresh24, fresh25) held that the
// engine of 2026-11-30 planned wrongly; the memories are new ones in the
// same words, not the folders' own.
func TestHeuristic_Fresh24(t *testing.T) {
	sup := "supersede:new.md+old.md"

	t.Run("ChangesSaidInPassing", func(t *testing.T) {
		for _, tc := range []struct{ old, new Item }{
			{Item{Name: "Where alerts go", Description: "Prod alerts post to #acme-alerts in Slack", Body: "Production alerts (uptime, error tracker) post to #acme-alerts in Slack."},
				Item{Name: "Ops alerts channel", Description: "Error tracker and uptime alerts go to #ops-pager these days", Body: "Alerts (error tracker, uptime, queue latency) go to #ops-pager these days. #acme-alerts was archived."}},
			{Item{Name: "Releasing the app", Description: "Release the app with fastlane beta from the build Mac", Body: "To ship the app: on the build Mac, `bundle exec fastlane beta`."},
				Item{Name: "App releases in CI", Description: "App releases run through EAS Build from GitHub Actions", Body: "Releases go through EAS Build from the release workflow. Nobody runs fastlane on a laptop any more."}},
		} {
			tc.old.Type, tc.new.Type = "project", "project"
			if p := reviewPair(tc.old, tc.new); !slices.Contains(ids(p), sup) {
				t.Errorf("%s: no supersede: %v", tc.new.Name, reasons(p))
			}
		}
	})
	t.Run("NoValueChangeFromAWrappedLine", func(t *testing.T) {
		// "GitHub Action;" is the tail of a hard-wrapped line, not a value.
		p := reviewPair(Item{Name: "Mobile releases", Description: "App releases run through EAS Build and EAS Submit from GitHub Actions", Body: "Mobile releases go through EAS Build and EAS Submit."},
			Item{Name: "PR previews", Description: "PR previews deploy to one of three staging slots", Body: "PR previews deploy to a staging slot through the `deploy-preview`\nGitHub Action; label the PR `preview`."})
		if slices.Contains(ids(p), sup) {
			t.Errorf("superseded: %v", reasons(p))
		}
	})
	t.Run("ObligingWordsNameNoThing", func(t *testing.T) {
		p := reviewPair(Item{Name: "Release needs the CRN", Description: "Never release a hold without the customs reference (CRN); every release is audited", Body: "No hold may be released without the customs officer's reference number (CRN). Every release writes an audit row."},
			Item{Name: "CRN mandatory on release", Description: "hold release: CRN required, audit row on every release", Body: "`ReleaseRequest.crn` is required; every hold release writes an audit row. No admin bypass."})
		if !slices.Contains(ids(p), "merge:new.md+old.md") {
			t.Errorf("not merged: %v", reasons(p))
		}
	})
	t.Run("OthersUseTheDefault", func(t *testing.T) {
		p := reviewPair(Item{Name: "Default import free time", Description: "Imports get 5 calendar days free time by default; demurrage starts on day 6", Body: "Free time is counted from discharge."},
			Item{Name: "Acme Lines free time", Description: "Acme Lines' contract gives imports 7 days free time", Body: "Set in the tariff table. Other lines use the default."})
		if slices.ContainsFunc(ids(p), func(id string) bool { return strings.Contains(id, "old.md") && strings.Contains(id, "new.md") }) {
			t.Errorf("an override joined its default: %v", reasons(p))
		}
	})

	t.Run("Dates", func(t *testing.T) {
		for _, tc := range []struct{ desc, created, want string }{
			{"The vendor API goes v2 in ten days; the client must call /v2/dues.", "2026-11-24", "2026-12-04"},
			{"The licence renewal needs sign-off by EOM or SSO stops working.", "2026-11-09", "2026-11-30"},
		} {
			it := Item{File: "m.md", Name: "m", Type: "project", Description: tc.desc, Body: "Kwame chases it.", Created: date(tc.created)}
			p := planAmongFillers(it)
			i := slices.IndexFunc(p.Ops, func(op Op) bool { return op.ID == "date:m.md" })
			if i < 0 || !strings.Contains(p.Ops[i].Edit.Description, tc.want) {
				t.Errorf("%q: no date %s: %v, left %v", tc.desc, tc.want, reasons(p), p.LeftForModel)
			}
		}
	})
	t.Run("NextSprintOfANumberedSprint", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Alert cleanup slipped", Type: "project", Created: date("2026-11-16"),
			Description: "The alert cleanup didn't fit this sprint; it's first up next sprint",
			Body:        "Sprint 23 kicked off today; sprints are two weeks, Monday to the Friday of the following week.\nThe cleanup is the first thing next sprint."}
		p := planAmongFillers(it)
		i := slices.IndexFunc(p.Ops, func(op Op) bool { return op.ID == "date:m.md" })
		if i < 0 || !strings.Contains(p.Ops[i].Edit.Body, "2026-11-30") || strings.Contains(p.Ops[i].Edit.Body, "2026-11-20") {
			t.Errorf("want next sprint 2026-11-30 and the sprint's weekdays left alone: %v", reasons(p))
			if i >= 0 {
				t.Log(p.Ops[i].Edit.Body)
			}
		}
	})
	t.Run("ACalendarWrittenOut", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Term dates", Type: "reference", Created: date("2026-06-30"),
			Description: "Autumn 2 Sep-18 Dec 2026 (half-term 26-30 Oct); spring 5 Jan-26 Mar 2027",
			Body:        "Most schools follow these: autumn term 2 Sep to 18 Dec 2026, half-term 26 to 30 Oct; spring term 5 Jan to 26 Mar 2027."}
		if p := planAmongFillers(it); slices.Contains(ids(p), "date:m.md") {
			t.Errorf("absolute dates rewritten: %v", p.Ops)
		}
	})

	t.Run("Expires", func(t *testing.T) {
		for _, it := range []Item{
			{Name: "Nightly replan at 03:00", Created: date("2026-09-07"), Description: "For the next two sprints the nightly replan runs at 03:00 instead of 01:00",
				Body: "It overlapped the stats job. Sprints are two weeks; this one started today. Back to 01:00 afterwards."},
			{Name: "Q3 worker nodes", Created: date("2026-07-06"), Description: "Q3 budget covers 4 extra worker nodes for peak-season load tests; returned at quarter end.", Body: "Schedule load-test pods there only."},
			{Name: "SMS budget this quarter", Created: date("2026-07-01"), Description: "Q3 SMS budget is £1,500; more needs Marta's sign-off", Body: "Keep reminders to parents who opted in."},
		} {
			it.File, it.Type = "m.md", "project"
			if p := planAmongFillers(it); !slices.Contains(ids(p), "expire:m.md") {
				t.Errorf("%s: not expired: %v", it.Name, reasons(p))
			}
		}
	})
	t.Run("AWeeklyBoardIsNoDeadline", func(t *testing.T) {
		old := Item{File: "old.md", Type: "project", Created: date("2026-02-05"), Name: "Prod changes go through CAB",
			Description: "Prod changes need the Tuesday 14:00 Change Advisory Board; RFC in ServiceNow by Monday noon."}
		if p := planAmongFillers(old); slices.Contains(ids(p), "expire:old.md") {
			t.Errorf("a weekly routine expired: %v", reasons(p))
		}
	})

	t.Run("Prunes", func(t *testing.T) {
		never := Usage{Since: date("2026-01-12")}
		for _, tc := range []struct {
			it   Item
			want bool
		}{
			{Item{Name: "Allocator test flake fixed", Description: "AllocatorTest flake fixed by a 180 s startup timeout in that test.", Body: "Commit 4e1a9c2. Only that test class was affected.", Created: date("2026-03-12"), Usage: never}, true},
			{Item{Name: "Nil allergens fix", Description: "Nil allergens on three menu items crashed the menu screen", Body: "Patched the rows by hand in a console on prod. Done.", Created: date("2026-04-15"),
				Usage: Usage{Since: date("2026-01-12"), Injected: 1, LastInjected: date("2026-04-16")}}, true},
			{Item{Name: "Why we're still a monolith", Description: "In 2025 we split payments into a service and reverted; history, not a plan",
				Body:    "History, for when someone proposes microservices: in 2025 we split payments out, spent a term\nchasing double charges across the boundary, and folded it back. We stay a monolith.",
				Created: date("2026-02-18"), Usage: Usage{Since: date("2026-01-12"), Injected: 3, Helpful: 2, LastInjected: date("2026-08-12")}}, false},
		} {
			tc.it.File, tc.it.Type = "m.md", "project"
			if p := planAmongFillers(tc.it); slices.Contains(ids(p), "prune:m.md") != tc.want {
				t.Errorf("%s: pruned %v, want %v: %v", tc.it.Name, !tc.want, tc.want, reasons(p))
			}
		}
	})
}
