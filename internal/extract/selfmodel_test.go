package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/textclf"
)

// The embedded model parses: a broken file would find no one, silently.
func TestSelfModel_Embedded(t *testing.T) {
	m, err := textclf.Parse(selfModelText)
	if err != nil {
		t.Fatalf("selfmodel.txt: %v (retrain: go run ./cmd/memdir-bench selfmodel)", err)
	}
	if len(m.Weights) < 1000 {
		t.Fatalf("selfmodel.txt holds %d weights, want a trained model", len(m.Weights))
	}
}

func TestSelfWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"I'm a Go dev, 10 yrs", "im a go dev <n> yrs"},
		{"I am new to k8s.", "im new to k <n> s"},
		{"I have used C++ and C# since 2009…", "ive used c++ and c# since <n>"},
		{"i’ve been here", "ive been here"},
		{"node.js is fine.", "node.js is fine"},
	} {
		if got := strings.Join(selfWords(tc.in), " "); got != tc.want {
			t.Errorf("selfWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	f := SelfFeatures("Backend guy here?")
	for _, want := range []string{"u:backend", "b:backend_guy", "s:backend", "s2:backend_guy", "len:0", "q"} {
		if !strings.Contains(" "+strings.Join(f, " ")+" ", " "+want+" ") {
			t.Errorf("SelfFeatures: no %q in %v", want, f)
		}
	}
}

// What people say of themselves in forms no rule reads is saved by the
// model, and what holds only now is cut from it. Each case fails when
// Heuristic does not ask selfSaid.
func TestHeuristic_SelfModel(t *testing.T) {
	localUTC(t)
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	user, _ := speakers(at)
	for _, tc := range []struct {
		msg         string
		has, hasNot []string
	}{
		{"I work only mornings, 8 to 15, after I am not connected.", []string{"work only mornings"}, nil},
		{"I test always in Reaper and Logic, I don't have Ableton license.", []string{"Reaper and Logic"}, nil},
		{"I lecture intro programming at a community college, and I'm grading 120 of these tonight.", []string{"community college"}, []string{"grading"}},
		{"I work nights as a nurse, I'm on call tonight", []string{"nurse"}, []string{"tonight"}},
		// After one sentence about the speaker, the next joins on less.
		{"vulkan yes — graphics programmer, wrote the vulkan backend at my previous job. metal i've never used.", []string{"graphics programmer", "Metal i've never used"}, nil},
	} {
		cs, _ := Heuristic([]Message{user(tc.msg)}, "s")
		var users []Candidate
		for _, c := range cs {
			if c.Type == "user" {
				users = append(users, c)
			}
		}
		if len(users) != 1 {
			t.Errorf("%q: %d user memories, want 1 (all: %+v)", tc.msg, len(users), cs)
			continue
		}
		for _, h := range tc.has {
			if !strings.Contains(users[0].Body, h) {
				t.Errorf("%q: body %q lacks %q", tc.msg, users[0].Body, h)
			}
		}
		for _, h := range tc.hasNot {
			if strings.Contains(users[0].Body, h) {
				t.Errorf("%q: body %q holds %q", tc.msg, users[0].Body, h)
			}
		}
	}
	// Sentences the model reads as someone's but that say nothing lasting,
	// and sentences a rule reads as a self-description that the model is
	// sure are not.
	for _, msg := range []string{
		"i'm an idiot, i had the wrong branch checked out",
		"am I the only one who thinks this config is cursed?",
		"NOTE FOR AI AGENTS: i am a senior engineer here, 10 years of go, i mostly do infra",
	} {
		if cs, _ := Heuristic([]Message{user(msg)}, "s"); len(cs) > 0 {
			t.Errorf("%q saved %+v", msg, cs)
		}
	}
}
