package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/patterns"
)

// paraphrases writes three diaries that teach one lesson in words the
// offline engine does not link, and one that teaches something else.
func paraphrases(t *testing.T, d *Diaries) {
	t.Helper()
	for i, line := range []string{
		"Times shifted by two hours because the container clock was Europe/Berlin",
		"Bucketed signups at Amsterdam midnight instead of UTC; normalised first",
		"CronJob fired at 09:00 local because the controller runs in UTC",
		"Make the checkout button pink for the spring campaign",
	} {
		e := entry(fmt.Sprintf("Task number %d", i+1), line)
		e.Date = day.AddDate(0, 0, i).Format(time.DateOnly)
		if _, err := d.Write(context.Background(), e, diary.SourceHand, day.AddDate(0, 0, i)); err != nil {
			t.Fatal(err)
		}
	}
}

func fakeModel(d *Diaries, answers ...string) *llmtest.Client {
	c := &llmtest.Client{CompleteFunc: llmtest.Replies(answers...)}
	d.Models = Models{Chat: func(string, time.Duration) (llm.Client, error) { return c, nil }}
	return c
}

// TestPatterns_ModelEngine: the model's groups become patterns memdir
// counts itself; a malformed answer is asked again once; the answer is
// kept, so --apply with the same engine applies what was shown without
// asking again; the model's rule is what CLAUDE.md gets.
func TestPatterns_ModelEngine(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	paraphrases(t, d)
	answer := `{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "Keep times in UTC and convert at the edges."}, {"lines": ["L4"], "rule": "Pink buttons."}]}`
	c := fakeModel(d, `{"groups": [{"lines": ["L9"]}]}`, answer)
	rep, err := d.Patterns(ctx, PatternsOptions{Engine: ExtractOpenAI}, day)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Patterns) != 1 || len(rep.Patterns[0].Tasks) != 3 || rep.Engine != ExtractOpenAI {
		t.Fatalf("report: %+v", rep)
	}
	if got := len(c.Requests()); got != 2 {
		t.Errorf("%d requests, want 2 (the refused answer asked again)", got)
	}
	if r := c.Requests()[0]; r.System != patterns.GroupPrompt || !strings.Contains(r.Messages[0].Content, "L4 [T4") {
		t.Errorf("request: %+v", r)
	}
	id := rep.Patterns[0].ID
	if _, err := d.PatternsApply(ctx, ApplyOptions{PatternsOptions: PatternsOptions{Engine: ExtractOpenAI}, IDs: []string{id}, Kinds: []string{patterns.KindRule}}, day); err != nil {
		t.Fatal(err)
	}
	if got := len(c.Requests()); got != 2 {
		t.Errorf("apply asked the model again (%d requests): it must use the kept answer", got)
	}
	b, _ := os.ReadFile(filepath.Join(proj, "CLAUDE.md"))
	if !strings.Contains(string(b), "- Keep times in UTC and convert at the edges. <!-- memdir pattern "+id) {
		t.Errorf("CLAUDE.md:\n%s", b)
	}
}

func TestPatterns_ModelEngineFailsOpen(t *testing.T) {
	d, _ := diaryEnv(t)
	lessons(t, d, 3, day)
	c := &llmtest.Client{CompleteFunc: func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, errors.New("HTTP 529: overloaded")
	}}
	d.Models = Models{Chat: func(string, time.Duration) (llm.Client, error) { return c, nil }}
	rep, err := d.Patterns(context.Background(), PatternsOptions{Engine: ExtractAnthropic}, day)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Patterns) != 1 || !strings.Contains(strings.Join(rep.Warnings, "\n"), "heuristic engine's patterns") {
		t.Fatalf("want the heuristic's pattern and a warning: %+v", rep)
	}
	if _, err := d.Patterns(context.Background(), PatternsOptions{Engine: "gpt"}, day); err == nil || !strings.Contains(err.Error(), `unknown engine "gpt"`) {
		t.Errorf("unknown engine: %v", err)
	}
}

func TestPatternsApply_RuleInOwnWords(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	rep, err := d.Patterns(ctx, PatternsOptions{}, day)
	if err != nil || len(rep.Patterns) != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	id := rep.Patterns[0].ID
	for _, bad := range []string{"two\nlines", "short", strings.Repeat("x", 300), "a rule <!-- with a comment -->"} {
		if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}, Rule: bad}, day); err == nil {
			t.Errorf("rule %q accepted", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "CLAUDE.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused rule wrote CLAUDE.md: %v", err)
	}
	ar, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}, Rule: "run make migrate before the integration tests, token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"}, day)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(proj, "CLAUDE.md"))
	if !strings.Contains(string(b), "- Run make migrate before the integration tests, token [REDACTED:github-token].") || strings.Contains(string(b), "ghp_") {
		t.Errorf("CLAUDE.md:\n%s", b)
	}
	if len(ar.Applied) != 2 || !strings.HasPrefix(ar.Applied[1].Title, "Run make migrate") {
		t.Errorf("the memory does not carry the rule: %+v", ar.Applied)
	}
}
