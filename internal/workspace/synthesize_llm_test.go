package workspace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
)

// validDaily is a summary of 2026-02-03 that passes learning.CheckDaily.
const validDaily = `# 2026-02-03

<!-- projects: alpha, beta -->

## Sessions Summary
Fixed the importer's time zone bug in alpha and settled beta's cache layout.

## Topics
- Importer time zones
- Cache layout

## Key Points
- Timestamps are stored in UTC; the importer converts on read.

## Learnings
- **Naive timestamps in vendor CSV** [alpha/data-quirk] (2026-02-03): The vendor's CSV has local times without offsets
  - Lesson: Parse vendor timestamps in Europe/Paris, then convert to UTC

- **Flock on NFS** [global/error] (2026-02-03): flock silently succeeded on an NFS mount
  - Lesson: Keep lock files on local disks
`

func dayWork() DayWork {
	return DayWork{Date: "2026-02-03", Path: "/home/u/.claude/memory/daily/2026-02-03.md",
		Projects: []string{"alpha", "beta"}, Rules: SynthesisRules,
		Conversation: "[USER] 09:00\nWhy are the imported times off by an hour?\n\n[CLAUDE] 09:01\nThe CSV has no offsets.\n"}
}

// answering is a fake model answering texts in turn, each call reporting
// 100 input and 10 output tokens.
func answering(texts ...string) *llmtest.Client {
	replies := llmtest.Replies(texts...)
	return &llmtest.Client{CompleteFunc: func(ctx context.Context, r llm.Request) (llm.Response, error) {
		resp, err := replies(ctx, r)
		resp.Usage = llm.Usage{InputTokens: 100, OutputTokens: 10}
		return resp, err
	}}
}

func TestModelSummary_Accepted(t *testing.T) {
	for name, answer := range map[string]string{
		"Plain":            validDaily,
		"Fenced":           "```markdown\n" + validDaily + "```\n",
		"FencedAfterWords": "Here is the summary:\n\n```md\n" + validDaily + "```",
		"WordsBefore":      "Sure! The file:\n\n" + validDaily + "\n",
		"Spaces":           "\n\n  " + validDaily + "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			fake := answering(answer)
			text, usage, err := modelSummary(t.Context(), fake, dayWork())
			if err != nil {
				t.Fatal(err)
			}
			if text != validDaily {
				t.Errorf("modelSummary()=%q, want %q", text, validDaily)
			}
			if n := len(fake.Requests()); n != 1 || usage != (llm.Usage{InputTokens: 100, OutputTokens: 10}) {
				t.Errorf("%d calls, usage %+v; want 1 call of 100+10 tokens", n, usage)
			}
		})
	}
}

// An answer over 8 KB is refused and sent back with its problems; the
// compact second answer is taken.
func TestModelSummary_OversizeRetried(t *testing.T) {
	w := dayWork()
	big := validDaily
	for len(big) < 8704 { // 8.5 KB
		big = strings.Replace(big, "## Learnings\n", "- The importer now converts every vendor timestamp on read.\n\n## Learnings\n", 1)
	}
	var refused []string
	for _, p := range learning.CheckDaily(w.Date, big, w.Projects) {
		if !p.Warning {
			refused = append(refused, oneLine(p.Msg))
		}
	}
	if len(refused) == 0 {
		t.Fatalf("CheckDaily does not refuse %d bytes", len(big))
	}
	fake := answering(big, validDaily)
	text, usage, err := modelSummary(t.Context(), fake, w)
	if err != nil {
		t.Fatal(err)
	}
	if text != validDaily || usage != (llm.Usage{InputTokens: 200, OutputTokens: 20}) {
		t.Errorf("modelSummary()=%q, usage %+v", text, usage)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d calls, want 2", len(reqs))
	}
	msgs := reqs[1].Messages
	if len(msgs) != 3 || msgs[0] != reqs[0].Messages[0] || msgs[1] != (llm.Message{Role: "assistant", Content: big}) || msgs[2].Role != "user" {
		t.Fatalf("the retry is not the same conversation with the refused answer: %+v", msgs[:min(len(msgs), 2)])
	}
	retry := msgs[2].Content
	for _, want := range append(refused, fmt.Sprintf("It is %.1f KB", float64(len(big))/1024), "Compact harder") {
		if !strings.Contains(retry, want) {
			t.Errorf("the retry message lacks %q:\n%s", want, retry)
		}
	}
}

// A malformed learning refused twice is an error naming the problem, and
// nothing is returned.
func TestModelSummary_RefusedTwice(t *testing.T) {
	bad := strings.Replace(validDaily, "[global/error]", "[global/oops]", 1)
	fake := answering(bad)
	text, usage, err := modelSummary(t.Context(), fake, dayWork())
	var re *SummaryRefusedError
	if !errors.As(err, &re) || text != "" {
		t.Fatalf("modelSummary()=%q, %v; want a SummaryRefusedError", text, err)
	}
	if len(re.Problems) == 0 || re.Date != "2026-02-03" || !strings.Contains(err.Error(), oneLine(re.Problems[0].Msg)) {
		t.Errorf("the error does not name its problems: %v (%+v)", err, re.Problems)
	}
	if n := len(fake.Requests()); n != 2 || usage.InputTokens != 200 {
		t.Errorf("%d calls, usage %+v; want 2 calls", n, usage)
	}
	if retry := fake.Requests()[1].Messages[2].Content; !strings.Contains(retry, oneLine(re.Problems[0].Msg)) {
		t.Errorf("the retry lacks the problem %q:\n%s", re.Problems[0].Msg, retry)
	}
}

// The prompt holds the rules, the day and its projects, the existing
// learnings, the commits, the previous summary without its user notes,
// and the conversation, cut to its budget.
func TestModelSummary_Prompt(t *testing.T) {
	w := dayWork()
	w.Existing = []learning.Learning{
		{Title: "Old lesson", Scope: "global", Type: learning.BestPractice, Date: "2026-01-10", Description: "An older finding",
			Lesson: "Do the old thing", Notes: []string{"*Source: global-long-term-memory.md*"}},
	}
	w.Commits = map[string][]extract.Commit{
		"beta":  {{Hash: "ea83b7f", Subject: "fix: simplify the cache", Time: "2026-02-03T16:20:00+01:00"}},
		"alpha": {{Hash: "1234abc", Subject: "importer: convert on read", Time: "2026-02-03T11:05:00+01:00"}},
	}
	w.Previous = "# 2026-02-03\n\n## Sessions Summary\nMorning: triaged the importer.\n\n## 14:30 - User Note\nsecret plans for the demo\n"
	var conv strings.Builder
	for i := range 400 {
		fmt.Fprintf(&conv, "\n[USER] 10:%02d\nquestion %d about the importer\n\n[CLAUDE] 10:%02d\n%s\n  → Bash: go test ./importer/%d\n", i%60, i, i%60, strings.Repeat("a long explanation ", 40), i)
	}
	w.Conversation = conv.String()
	if len(w.Conversation) <= conversationBudget {
		t.Fatalf("the conversation is %d bytes, not over the budget", len(w.Conversation))
	}
	fake := answering(validDaily)
	if _, _, err := modelSummary(t.Context(), fake, w); err != nil {
		t.Fatal(err)
	}
	r := fake.Requests()[0]
	if len(r.Messages) != 1 || r.Messages[0].Role != "user" || r.System == "" || r.JSON {
		t.Fatalf("want a system prompt and one user message: %+v", r)
	}
	p := r.Messages[0].Content
	for _, want := range []string{
		SynthesisRules, "2026-02-03", "<!-- projects: alpha, beta -->",
		"- **Old lesson** [global/best-practice] (2026-01-10): An older finding\n  - Lesson: Do the old thing",
		"alpha:\n- 1234abc \"importer: convert on read\" (11:05)", "beta:\n- ea83b7f \"fix: simplify the cache\" (16:20)",
		"Morning: triaged the importer.", "The conversation was cut to fit",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
	for _, unwanted := range []string{"*Source:", "secret plans", "14:30 - User Note", "→ Bash"} {
		if strings.Contains(p, unwanted) {
			t.Errorf("the prompt holds %q", unwanted)
		}
	}
	for i := range 400 {
		if !strings.Contains(p, fmt.Sprintf("question %d about", i)) {
			t.Fatalf("the cut conversation lost user turn %d", i)
		}
	}
	if len(p) > conversationBudget+len(SynthesisRules)+5000 {
		t.Errorf("the prompt is %d bytes", len(p))
	}
}

func TestCutConversation(t *testing.T) {
	header := strings.Repeat("=", 70) + "\nDAY: 2026-02-03 (1 session, 4 messages)\n" + strings.Repeat("=", 70) + "\n\n" +
		strings.Repeat("─", 70) + "\nSession: s1\nproject: /p/alpha · agent: claude\n" + strings.Repeat("─", 70) + "\n"
	user := "\n[USER] 09:00\nwhy is the import slow?\n"
	tools := strings.Repeat("  → Read: importer.go\n", 50)
	failed := "  ✗ failed: exit status 1\n"
	reply := "\n[CLAUDE] 09:01\n" + strings.Repeat("é", 3000) + "\n" + tools + failed
	text := header + user + reply + user + reply
	for _, tc := range []struct {
		name          string
		budget        int
		cut           bool
		tools, failed bool // tool lines and failures kept
		replyText     int  // bytes of "é" kept per reply, at least
	}{
		{"UnderBudget", len(text), false, true, true, 6000},
		{"ToolsFirst", len(text) - 100, true, false, true, 6000},
		{"RepliesShortened", len(header) + 2*len(user) + 2*2000, true, false, false, 500},
		{"RepliesLeftOut", len(header) + 2*len(user) + 10, true, false, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := cutConversation(text, tc.budget)
			if cut != tc.cut || len(got) > tc.budget {
				t.Fatalf("cutConversation(%d)= %d bytes, cut %v; want cut %v", tc.budget, len(got), cut, tc.cut)
			}
			if !strings.HasPrefix(got, header) || strings.Count(got, "why is the import slow?") != 2 {
				t.Errorf("the header or a user turn was lost:\n%s", got)
			}
			if strings.Contains(got, "→ Read") != tc.tools || strings.Contains(got, "✗ failed") != tc.failed {
				t.Errorf("tool lines kept %v, failures kept %v; want %v, %v", strings.Contains(got, "→ Read"), strings.Contains(got, "✗ failed"), tc.tools, tc.failed)
			}
			if n := strings.Count(got, "é") * 2; n < tc.replyText || tc.replyText == 0 && n != 0 {
				t.Errorf("%d bytes of replies kept, want at least %d", n, tc.replyText)
			}
			if !utf8.ValidString(got) {
				t.Error("a character was cut in half")
			}
		})
	}
	t.Run("TailCut", func(t *testing.T) {
		long := header + strings.Repeat(user, 100)
		got, cut := cutConversation(long, 1000)
		if !cut || len(got) > 1000 || !strings.HasSuffix(got, "was cut]\n") || !strings.HasPrefix(got, header) {
			t.Errorf("cutConversation(1000)= %d bytes, cut %v:\n%s", len(got), cut, got)
		}
	})
}

func TestUnwrapSummary(t *testing.T) {
	withCode := "# 2026-02-03\n\n## Key Points\n```bash\n# run it\ngo test ./...\n```\n"
	for _, tc := range []struct{ name, answer, want string }{
		{"CodeBlockInside", withCode, withCode},
		{"FencedWithCodeBlock", "```markdown\n" + withCode + "```", withCode},
		{"FourBackticks", "````markdown\n" + withCode + "````\n", withCode},
		{"Unclosed", "```markdown\n# 2026-02-03\n\n## Topics\n- a\n", "# 2026-02-03\n\n## Topics\n- a\n"},
		{"OtherLanguageBeforeH1", "```json\n{}\n```\n# 2026-02-03\n", "# 2026-02-03\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := unwrapSummary(tc.answer, "2026-02-03"); got != tc.want {
				t.Errorf("unwrapSummary()=%q, want %q", got, tc.want)
			}
		})
	}
}

// Existing learnings are shown newest first, within their cap.
func TestExistingLines_Capped(t *testing.T) {
	var ls []learning.Learning
	for i := range existingMax + 50 {
		d := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)
		ls = append(ls, learning.Learning{Title: fmt.Sprintf("Lesson %d", i), Scope: "global", Type: learning.Error, Date: d, Description: "d"})
	}
	got := existingLines(ls)
	if !strings.Contains(got, "(50 older learnings not shown)") || strings.Count(got, "- **") != existingMax {
		t.Fatalf("existingLines: %d shown:\n%s", strings.Count(got, "- **"), got[len(got)-200:])
	}
	if !strings.HasPrefix(got, fmt.Sprintf("- **Lesson %d**", existingMax+49)) || strings.Contains(got, "**Lesson 49**") {
		t.Errorf("not the newest first:\n%s", got[:200])
	}
	if got := existingLines(nil); got != "(none)\n" {
		t.Errorf("existingLines(nil)=%q", got)
	}
}

func TestModelSummary_Canceled(t *testing.T) {
	fake := &llmtest.Client{CompleteFunc: func(ctx context.Context, _ llm.Request) (llm.Response, error) {
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	_, _, err := modelSummary(ctx, fake, dayWork())
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("modelSummary()=%v after %v; want context.Canceled at once", err, time.Since(start))
	}
	// Cancelled before: no call.
	fake = answering(validDaily)
	if _, _, err := modelSummary(ctx, fake, dayWork()); !errors.Is(err, context.Canceled) || len(fake.Requests()) != 0 {
		t.Errorf("modelSummary(cancelled)=%v with %d calls", err, len(fake.Requests()))
	}
}

func TestSynthesisRules(t *testing.T) {
	// The rules' own example learnings are well-formed learning lines.
	n := 0
	for line := range strings.Lines(SynthesisRules) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "- **") || strings.Contains(line, "[scope/type]") {
			continue
		}
		if _, ok, err := learning.ParseLine(line); !ok || err != nil {
			t.Errorf("ParseLine(%q)= %v, %v", line, ok, err)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d example learnings in the rules", n)
	}
	for _, want := range []string{"1-4 KB", "8 KB", "User Note", "activity list", "Do not repeat the existing learnings",
		"error", "best-practice", "data-quirk", "decision", "command", "<!-- projects:"} {
		if !strings.Contains(SynthesisRules, want) {
			t.Errorf("the rules lack %q", want)
		}
	}
}
