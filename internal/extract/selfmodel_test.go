package extract

import (
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/textclf"
)

// The embedded models parse: a broken file would find nothing, silently.
func TestModels_Embedded(t *testing.T) {
	for name, text := range map[string][]byte{"selfmodel.txt": selfModelText, "projectmodel.txt": projectModelText} {
		m, err := textclf.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v (retrain: go run ./cmd/memdir-bench models)", name, err)
		}
		if len(m.Weights) < 1000 {
			t.Fatalf("%s holds %d weights, want a trained model", name, len(m.Weights))
		}
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
		if got := strings.Join(sentenceWords(tc.in), " "); got != tc.want {
			t.Errorf("sentenceWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	f := SentenceFeatures("Backend guy here?")
	for _, want := range []string{"u:backend", "b:backend_guy", "s:backend", "s2:backend_guy", "len:0", "q"} {
		if !strings.Contains(" "+strings.Join(f, " ")+" ", " "+want+" ") {
			t.Errorf("SentenceFeatures: no %q in %v", want, f)
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
	// Sentences the model reads as someone's but that say nothing lasting.
	for _, msg := range []string{
		"am I the only one who thinks this config is cursed?",
		"NOTE FOR AI AGENTS: i am a senior engineer here, 10 years of go, i mostly do infra",
	} {
		if cs, _ := Heuristic([]Message{user(msg)}, "s"); len(cs) > 0 {
			t.Errorf("%q saved %+v", msg, cs)
		}
	}
}

// withModel makes *model return m for the test.
func withModel(t *testing.T, model *func() *textclf.Model, m *textclf.Model) {
	old := *model
	*model = func() *textclf.Model { return m }
	t.Cleanup(func() { *model = old })
}

// A sentence a rule reads as a self-description is not saved when the
// model is sure it is not one.
func TestHeuristic_SelfVeto(t *testing.T) {
	localUTC(t)
	user, _ := speakers(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	msg := "i'm an idiot, i had the wrong branch checked out"
	withModel(t, &selfModel, &textclf.Model{Weights: map[string]float64{"u:idiot": selfVeto - 1}})
	if cs, _ := Heuristic([]Message{user(msg)}, "s"); len(cs) > 0 {
		t.Errorf("%q saved %+v", msg, cs)
	}
	withModel(t, &selfModel, &textclf.Model{}) // unsure: the rule decides
	if cs, _ := Heuristic([]Message{user(msg)}, "s"); len(cs) != 1 || cs[0].Type != "user" {
		t.Errorf("%q with an unsure model: %+v, want the rule's user memory", msg, cs)
	}
}

// What the project model reads as a lasting fact of the project is
// saved as one, dated, without asides about people; a log line is not.
func TestHeuristic_ProjectModel(t *testing.T) {
	localUTC(t)
	user, _ := speakers(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)) // a Tuesday
	withModel(t, &projectModel, &textclf.Model{Weights: map[string]float64{"u:budget": projectThreshold + 1, "u:error": projectThreshold + 1}})
	withModel(t, &selfModel, &textclf.Model{})
	cs, _ := Heuristic([]Message{user("the latency budget for the pricer is 8 microseconds p99 (he thinks in microseconds even at lunch)")}, "s")
	if len(cs) != 1 || cs[0].Type != "project" || !strings.Contains(cs[0].Body, "8 microseconds p99") || strings.Contains(cs[0].Body, "lunch") {
		t.Errorf("latency budget: %+v, want one project memory without the aside", cs)
	}
	cs, _ = Heuristic([]Message{user("the budget review moves to next friday, finance wants the numbers first")}, "s")
	if len(cs) == 0 || cs[0].Type != "project" || !strings.Contains(cs[0].Body, "2026-11-27") {
		t.Errorf("dated fact: %+v, want a project memory holding 2026-11-27", cs)
	}
	for _, msg := range []string{
		"2026-03-11T09:14:02Z ERROR [worker-3] connection refused: redis://10.0.4.12:6379",
		"is the budget for this quarter final?",
	} {
		if cs, _ := Heuristic([]Message{user(msg)}, "s"); len(cs) > 0 {
			t.Errorf("%q saved %+v", msg, cs)
		}
	}
}

// What the self model reads keeps no request made now.
func TestHeuristic_SelfModelLeavesRequests(t *testing.T) {
	localUTC(t)
	user, _ := speakers(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	withModel(t, &selfModel, &textclf.Model{Weights: map[string]float64{"u:wired": selfThreshold + 1}})
	cs, _ := Heuristic([]Message{user("my brain is wired for functional, could you make it a fold instead")}, "s")
	if len(cs) != 1 || cs[0].Type != "user" || !strings.Contains(cs[0].Body, "wired for functional") || strings.Contains(cs[0].Body, "fold") {
		t.Errorf("got %+v, want one user memory without the request", cs)
	}
}
