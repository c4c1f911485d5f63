package extract

import (
	"strings"
	"testing"
	"time"
)

// TestHeuristic_ReviewCases: what a review of the third pass found, one
// case each: no panic on letters whose lower case changes length or on
// invalid UTF-8; replies that deny, ask about or paste "keep doing that"
// confirm nothing; a confirmation keeps the reply's own rule; past events,
// requests and greetings with a day are no project facts; a consequence is
// no reason; a rule about "it" does not stand alone; a refusal is tagged
// only in a redirect; naming AI agents is not addressing them; tomorrow's
// plan is a plan.
func TestHeuristic_ReviewCases(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) // a Monday
	run := func(proposal, text string) []Candidate {
		var msgs []Message
		if proposal != "" {
			msgs = append(msgs, Message{Role: "assistant", Text: proposal, Time: at})
		}
		got, _ := Heuristic(append(msgs, Message{Role: "user", Text: text, Time: at}), "s")
		return got
	}
	all := func(cs []Candidate) string {
		var b strings.Builder
		for _, c := range cs {
			b.WriteString("[" + c.Type + "] " + c.Name + " | " + c.Description + " | " + c.Body + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, proposal, text string
		check                func([]Candidate) bool
	}{
		{"a letter whose lower case is longer", "", "always write Ⱥ for the placeholder, the font renders it well everywhere",
			func(cs []Candidate) bool {
				return len(cs) == 1 && strings.Contains(cs[0].Description, "Ⱥ for the placeholder")
			}},
		{"invalid UTF-8", "", "\xff\xfe always use tabs here, the linter enforces it", func([]Candidate) bool { return true }},
		{"a denied keep-doing", "I'll reformat the whole file with prettier before each commit.", "please don't keep doing that, it blows up the diff.",
			func(cs []Candidate) bool { return !strings.Contains(all(cs), "prettier") }},
		{"a question about it", "I'll reformat the whole file with prettier before each commit.", "why do you keep doing that?",
			func(cs []Candidate) bool { return len(cs) == 0 }},
		{"a pasted line with no closing rule line", "I'll use Redis for the cache.", "Here's the README section:\n---\nAI agents should keep doing that and always run setup.",
			func(cs []Candidate) bool {
				return !strings.Contains(all(cs), "Redis") && !strings.Contains(all(cs), "setup")
			}},
		{"a confirmation keeps the reply's own rule", "I'll explain each step as I go.", "yes please, keep doing that, but always use British spelling in docs.",
			func(cs []Candidate) bool {
				return strings.Contains(all(cs), "British spelling") && strings.Contains(all(cs), "explain each step as you go")
			}},
		{"a past event", "", "the outage was on friday, the db ran out of connections.", func(cs []Candidate) bool { return len(cs) == 0 }},
		{"a request with a day", "", "can we get this merged by friday", func(cs []Candidate) bool { return len(cs) == 0 }},
		{"a consequence is no reason", "", "the sprint ends on friday, so don't start anything big.",
			func(cs []Candidate) bool { return !strings.Contains(all(cs), "**Why:** So") }},
		{"a rule about it", "", "Maria owns the billing service, don't touch it without asking her.",
			func(cs []Candidate) bool { return !strings.Contains(all(cs), "[feedback]") }},
		{"a refusal is tagged only in a redirect", "I'll add logging to the handler.", "don't use print statements in library code, not for the CLI either.",
			func(cs []Candidate) bool { return !strings.Contains(all(cs), "refus") }},
		{"naming AI agents is not addressing them", "", "I'm an ML engineer working on AI agents for customer support.",
			func(cs []Candidate) bool { return len(cs) == 1 && cs[0].Type == "user" }},
		{"tomorrow's plan is a plan", "", "we're cutting over to the new queue tomorrow.",
			func(cs []Candidate) bool {
				return len(cs) == 1 && cs[0].Type == "project" && strings.Contains(cs[0].Description, "2026-03-03")
			}},
		{"a line of thousands of clauses", "", strings.Repeat("the release is on friday, ", 3000), func([]Candidate) bool { return true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(tc.proposal, tc.text); !tc.check(got) {
				t.Errorf("%q after %q:\n%s", tc.text, tc.proposal, all(got))
			}
		})
	}
}
