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
			[]string{"[feedback] Put regen and fix | put the regen and the fix in a single PR", "when the assistant did it"}, nil},
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
		// The reason said in the confirmation's own clause; not an approval.
		{"a confirmation's clause that says why", "I'll stream the export from a background job with find_each.",
			"yes exactly, keep doing it that way, we had OOM kills on the web dyno",
			[]string{"**Why:** We had OOM kills on the web dyno"}, nil},
		{"a confirmation's approval is no reason", "Done. I regenerated the client and put the regen and the fix in one PR.",
			"yes keep doing that, the single PR was right. reviewers want the regen next to the change it comes from",
			[]string{"put the regen and the fix in one PR", "**Why:** Reviewers want the regen next to the change"}, []string{"Why:** The single PR"}},
		{"a confirmation's own plan is no reason", "I'll pin the base image by digest.",
			"yes keep doing that, i will merge it after lunch",
			[]string{"[feedback] Pin the base image by digest"}, []string{"**Why:**"}},
		// From a review: what must not become a standing rule.
		{"thanks for a reported fix", "I fixed the typo in the README.", "perfect, that's exactly what I wanted", nil, []string{"typo"}},
		{"a reported version bump", "I also bumped the version to 1.4.2.", "yes keep doing that", nil, []string{"1.4.2"}},
		{"a reported choice for this run", "I used the staging DB for this run.", "yes keep doing that", nil, []string{"staging"}},
		{"a reported choice for now", "I disabled the flaky test for now.", "yes keep doing that", nil, []string{"flaky"}},
		{"a reported password", "I changed the db password to Tr0ub4dor&3x.", "yes keep doing that", nil, []string{"Tr0ub4dor", "password"}},
		{"a reported token flag", "I ran the deploy with --token abc123def456ghi789.", "yes keep doing that", nil, []string{"abc123"}},
		{"a confirmation for now", "I'll explain each step as I go.", "ok keep doing that for now", nil, []string{"explain"}},
		{"a confirmation just this once", "I'll explain each step as I go.", "thanks. keep doing that just this once", nil, []string{"explain"}},
		{"a confirmation that excludes a part", "I'll switch the base to alpine, and use a multi-stage build.", "keep doing that, except the alpine switch",
			[]string{"Use a multi-stage build"}, []string{"Switch the base"}},
		{"an unrelated next sentence is no why", "I'll explain each step as I go.", "yes keep doing that. I'm on call this week.",
			[]string{"Explain each step as you go"}, []string{"**Why:** I'm on call"}},
		{"a rule taken back", "", "always squash before merge. only kidding.", nil, []string{"squash"}},
		{"a question is no fragment", "", "don't add new deps without asking. never again?", []string{"don't add new deps without asking"}, []string{"again"}},
		{"an in-task instruction", "", "ok keep following the logs and tell me when it crashes", nil, []string{"logs"}},
		{"a habit for now", "", "yes good, keep avoiding the db for now", nil, []string{"avoiding"}},
		{"a fragment holding a secret", "", "always rebase onto main before pushing. never ghp_abcdefghijklmnopqrstuvwxyz0123456789.",
			[]string{"always rebase onto main before pushing"}, []string{"ghp_"}},
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
		"merged": "merge", "changed": "change", "replaced": "replace", "pinned": "pin", "wired": "wire", "cached": "cache",
		"scoped": "scope", "embedded": "embed", "rebased": "rebase", "released": "release", "parsed": "parse", "stored": "store",
		"ignored": "ignore", "defined": "define", "handled": "handle", "toggled": "toggle", "resolved": "resolve", "pruned": "prune",
		"labelled": "label", "cancelled": "cancel", "opened": "open", "edited": "edit", "ordered": "order", "refactored": "refactor"} {
		if got, ok := baseForm(past); !ok || got != want {
			t.Errorf("baseForm(%q) = %q, %v; want %q", past, got, ok, want)
		}
	}
	// Not a choice, or not read: nothing to make a rule of.
	for _, w := range []string{"need", "needed", "speed", "red", "noticed", "wanted", "tried", "assumed", "hoped", "failed"} {
		if b, ok := baseForm(w); ok {
			t.Errorf("%s read as a choice (%q)", w, b)
		}
	}
}

// yesWord says yes for the words that only say yes, stretched or not.
func TestYesWord(t *testing.T) {
	for w, want := range map[string]bool{"yes": true, "yesss": true, "yeah": true, "yeahh": true, "yep": true, "perfect!": true, "ok,": true,
		"eyes": false, "yet": false, "yellow": false, "y": false, "ye": false, "yess-ish": false, "common_test": false} {
		if got := yesWord(w); got != want {
			t.Errorf("yesWord(%q) = %v, want %v", w, got, want)
		}
	}
}
