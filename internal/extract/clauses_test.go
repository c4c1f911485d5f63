package extract

import (
	"strings"
	"testing"
	"time"
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
	user := func(s string) Message { return Message{Role: "user", Text: s, Time: at} }
	assistant := func(s string) Message { return Message{Role: "assistant", Text: s, Time: at} }
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
		{"N weeks from a weekday",
			[]Message{user("heads up we're moving to the new pager, cutover is two weeks from friday")},
			[]want{{typ: "project", has: []string{"2026-06-12"}}}, false},
		{"this coming weekday, and a weekday with its day of the month",
			[]Message{user("the change freeze on the payments cluster starts this coming monday and the audit is wednesday the 17th")},
			[]want{{typ: "project", has: []string{"2026-06-01", "2026-06-17"}}}, false},
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
	at := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC) // a Wednesday
	for in, want := range map[string]string{
		"two weeks from friday":    "2026-06-12",
		"3 days after monday":      "2026-06-04",
		"a week from tomorrow":     "2026-06-04",
		"this coming monday":       "monday 2026-06-01",
		"wednesday the 17th":       "2026-06-17",
		"by the end of next month": "by 2026-06-30",
		"it starts the 30th":       "it starts 2026-05-30",
	} {
		if got, ok := AbsoluteDates(in, at); !ok || !strings.Contains(got, want) {
			t.Errorf("%q: %q (%v), want it to hold %q", in, got, ok, want)
		}
	}
}
