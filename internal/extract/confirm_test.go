package extract

import (
	"strings"
	"testing"
	"time"
)

// TestHeuristic_Confirmations: what a confirmation saves when the
// assistant reported a choice it made rather than proposed one, when the
// confirmation points at part of it, and how two-word rules ("never
// -auto-approve.", "debian-slim only.") join the rule beside them.
func TestHeuristic_Confirmations(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	run := func(assistant string, user ...string) string {
		var msgs []Message
		if assistant != "" {
			msgs = append(msgs, Message{Role: "assistant", Text: assistant, Time: at})
		}
		for _, u := range user {
			msgs = append(msgs, Message{Role: "user", Text: u, Time: at})
		}
		got, _ := Heuristic(msgs, "s")
		var b strings.Builder
		for _, c := range got {
			b.WriteString("[" + c.Type + "] " + c.Name + " | " + c.Description + " | " + c.Body + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, assistant, user string
		want, never           []string
	}{
		{"a reported choice, confirmed", "Done. I also put the regen and the fix in a single PR.", "yes keep doing that",
			[]string{"[feedback] Put the regen and the fix | put the regen and the fix in a single PR", "when the assistant did it"}, nil},
		{"a reported choice, in the past, with its lead", "A slow sink. Separately, for the schema change I added session_source as a new optional field.", "yes exactly, keep doing that",
			[]string{"for the schema change, add session_source as a new optional field"}, nil},
		{"the confirmation points at one of two things done", "I kept changes to MapView.svelte and explained each svelte-specific bit inline.",
			"the inline explanations of the svelte stuff are exactly what i need, keep doing that",
			[]string{"explain each svelte-specific bit inline"}, []string{"MapView"}},
		{"the confirmation names one of two proposals", "I'll switch the base to alpine to shrink the image, and use a multi-stage build.",
			"multi-stage yes, keep doing that. but no alpine — musl broke our pdf lib. debian-slim only",
			[]string{"Use a multi-stage build", "No alpine. Debian-slim only."}, []string{"[feedback] Switch the base"}},
		{"a reported choice without a confirmation", "I put the token in .env.local.", "thanks", nil, []string{"token"}},
		{"a reported choice asked about", "I also squashed the commits.", "why do you keep doing that?", nil, []string{"squash"}},
		{"a two-word rule before its rule", "I'll run terraform apply -auto-approve on the module.", "no no, never -auto-approve. always show me the plan and wait",
			[]string{"never -auto-approve; always show me the plan and wait", "Never -auto-approve. Always show me the plan"}, nil},
		{"a social no is no rule", "", "no thanks. always run the linter before you push",
			[]string{"always run the linter before you push |"}, []string{"thanks"}},
		{"an acknowledgement before a habit", "", "yes good, keep preferring native elements over role= hacks",
			[]string{"[feedback] Keep preferring native elements"}, []string{"Yes good"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(tc.assistant, tc.user)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in:\n%s", w, got)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(got, n) {
					t.Errorf("%q must not be saved:\n%s", n, got)
				}
			}
		})
	}
}

func TestBaseForm(t *testing.T) {
	for past, want := range map[string]string{"swapped": "swap", "added": "add", "regenerated": "regenerate", "copied": "copy",
		"committed": "commit", "called": "call", "moved": "move", "used": "use", "wrote": "write", "put": "put", "explained": "explain",
		"merged": "merge", "changed": "change", "replaced": "replace", "pinned": "pin", "included": "include"} {
		if got, ok := baseForm(past); !ok || got != want {
			t.Errorf("baseForm(%q) = %q, %v; want %q", past, got, ok, want)
		}
	}
	for _, w := range []string{"need", "speed", "red"} {
		if _, ok := baseForm(w); ok {
			t.Errorf("%s read as a past", w)
		}
	}
}
