package extract

import (
	"strings"
	"testing"
	"time"
)

// reviewRun is what the heuristic engine saves of one user message.
func reviewRun(t *testing.T, text string) []Candidate {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	got, _ := Heuristic([]Message{{Role: "user", Time: at, Text: text}}, "s")
	return got
}

// reviewCount is how many of cs are of type typ.
func reviewCount(cs []Candidate, typ string) int {
	n := 0
	for _, c := range cs {
		if c.Type == typ {
			n++
		}
	}
	return n
}

// TestHeuristic_Review1130c holds the defects a read-only review found in
// the rules of 2026-11-30 (who is who, a rule and its other side,
// conventions, names and roles, reasons as said, parts of days), each as
// the reviewer demonstrated it.
func TestHeuristic_Review1130c(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	// 1 otherSide folds unrelated rules
	for _, s := range []string{
		"never commit .env files. run the linter before every push.",
		"don't add new dependencies without asking. use tabs for indentation in the makefiles.",
		"always run the tests before pushing. never push directly to main.",
		"never commit secrets to the repo because the repo is public. run gitleaks before every push since CI blocks on it.",
	} {
		if got := reviewRun(t, s); reviewCount(got, "feedback") != 2 {
			t.Errorf("1 %q: want 2 rules, got %q", s, got)
		}
	}
	// 2 pastHabit drops a rule said in the same sentence
	for _, s := range []string{"we always had trouble with that vendor, never use their sdk.", "we never used to pin versions, now always pin them."} {
		if got := reviewRun(t, s); reviewCount(got, "feedback") != 1 {
			t.Errorf("2 %q: want 1 rule, got %q", s, got)
		}
	}
	// 3 peopleSaid saves requests, one-offs, hypotheticals, hedges
	for _, s := range []string{
		"can you ask Tomas from IT to reset my password",
		"ping Wanjiru from ops, the staging box is down again.",
		"if Sarah joined the team we could ship faster.",
		"maybe Ravi manages the vendor contracts, not sure",
		"I'm on call this week, Farah handles the pager next week.",
	} {
		if got := reviewRun(t, s); len(got) != 0 {
			t.Errorf("3 %q: want nothing, got %q", s, got)
		}
	}
	// 4 products / duplicates
	for _, s := range []string{"Kubernetes handles the scaling, don't add manual replicas.", "Ravi owns the billing service, so don't touch it without asking him."} {
		if got := reviewRun(t, s); len(got) != 1 {
			t.Errorf("4 %q: want 1 memory, got %q", s, got)
		}
	}
	for _, s := range []string{"the fix: Copilot wrote most of that module.", "Grafana from the platform team has the dashboards."} {
		if got := reviewRun(t, s); len(got) != 0 {
			t.Errorf("4b %q: want nothing, got %q", s, got)
		}
	}
	// 5 convention: observations become rules
	for _, s := range []string{"users never read the docs.", "the docs never mention the rate limit.", "the old code never checked for nil.", "the PM always changes the requirements at the last minute.", "Safari never supports the new APIs on time."} {
		if got := reviewRun(t, s); reviewCount(got, "feedback") != 0 {
			t.Errorf("5 %q: want no rule, got %q", s, got)
		}
	}
	// 6 doesArea: tasks read as who one is; 7 nameIntro: any word as a name
	for _, s := range []string{"I run the web server locally on port 3000.", "I do the ui changes first, then the api.", "I run the docs build before pushing.",
		"this is weird, admin panel returns a 404 for me.", "hi, I'm Tom, dev environment is broken again.", "I'm leaving, manager asked me to wrap up."} {
		if got := reviewRun(t, s); reviewCount(got, "user") != 0 {
			t.Errorf("6/7 %q: want no user memory, got %q", s, got)
		}
	}
	// 8 handOver: someone else's leave blocks the split
	if got := reviewRun(t, "I'm the backend lead, Farah is on parental leave until june."); len(got) == 0 || strings.Contains(got[0].Body, "Farah") {
		t.Errorf("8: user memory holds Farah: %q", got)
	}
	// 9 orSubject, 10 purposeTail: made-up reasons
	for _, s := range []string{"always deploy with the script or you can click through the console if it's down.", "use the shared runner or we spin up our own for heavy jobs.",
		"keep the handlers thin, for instance.", "always freeze the API, for the conference."} {
		for _, c := range reviewRun(t, s) {
			if strings.Contains(c.Body, "**Why:**") {
				t.Errorf("9/10 %q: made-up reason %q", s, c.Body)
			}
		}
	}
	// 11 withoutTalkClauses cuts imperatives
	if got := learningTitle("feedback", "update the changelog, then tag the release"); got == "Then tag the release" {
		t.Errorf("11: title %q", got)
	}
	// 12 pluralPartOfDay
	for _, s := range []string{"we patch on saturday and sunday nights", "thursday nights' deploys are risky"} {
		if out, _ := AbsoluteDates(s, at); strings.Contains(out, "2026-") {
			t.Errorf("12 %q -> %q", s, out)
		}
	}
}
