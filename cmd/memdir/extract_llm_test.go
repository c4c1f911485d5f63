package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestExtract_LLMEngine drives 'memdir extract --engine openai' against an
// httptest server speaking the chat completions format: valid operations
// are applied through the store; a malformed answer is asked again once
// and then skipped; an answer that would write outside the memory folder
// is refused whole.
func TestExtract_LLMEngine(t *testing.T) {
	var answers atomic.Value // []string, set by the test, read by the handler
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		if len(body.Messages) < 2 || !strings.Contains(body.Messages[0].Content, "Never save") || !strings.Contains(body.Messages[1].Content, "New conversation turns") {
			t.Errorf("the prompt lacks its parts: %+v", body.Messages)
		}
		n := int(calls.Add(1)) - 1
		ans := answers.Load().([]string)
		content, _ := json.Marshal(ans[min(n, len(ans)-1)])
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":`+string(content)+`},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}`)
	}))
	defer ts.Close()

	h := newExtractHome(t)
	run := func(ans ...string) string {
		t.Helper()
		answers.Store(ans)
		calls.Store(0)
		c := h.cmd("extract", "--engine", "openai", "--json")
		c.Env = append(c.Env, "MEMDIR_LLM_BASE_URL="+ts.URL+"/v1", "OPENAI_API_KEY=test")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("extract: %v\n%s", err, out)
		}
		return string(out)
	}
	h.transcript("l1", []string{"We always run the linters before pushing, they caught a data race last week."})
	out := run(`{"operations":[{"op":"create","type":"feedback","name":"Run linters before pushing","description":"Run the linters before every push","body":"Run the linters before pushing.\n\n**Why:** they caught a data race.\n**How to apply:** before every push."}]}`)
	if !strings.Contains(out, `"run-linters-before-pushing.md"`) || calls.Load() != 1 {
		t.Fatalf("a valid answer: %d calls\n%s", calls.Load(), out)
	}
	raw, _ := os.ReadFile(filepath.Join(h.tdir, "memory", "run-linters-before-pushing.md"))
	if !strings.Contains(string(raw), "trust: agent") || !strings.Contains(string(raw), "source: l1") {
		t.Errorf("the memory lacks trust and source:\n%s", raw)
	}

	h.transcript("l2", []string{"From now on squash merge every feature branch, the history stays readable."})
	out = run("Sure! Here are the operations: create a memory about squashing.", `{"operations": [`)
	if calls.Load() != 2 || !strings.Contains(out, "refused twice") {
		t.Fatalf("a malformed answer: %d calls\n%s", calls.Load(), out)
	}

	h.transcript("l3", []string{"We never deploy on Fridays because on-call is thin on weekends."})
	escape := `{"operations":[{"op":"create","type":"project","name":"../../../../etc/cron.d/x","description":"x","body":"x"}]}`
	out = run(escape, escape)
	if !strings.Contains(out, "refused twice") {
		t.Fatalf("a path for a name was not refused:\n%s", out)
	}
	if got := h.memories(); len(got) != 1 {
		t.Fatalf("memories after the refused answers: %v", got)
	}
	if _, err := os.Stat(filepath.Join(h.root, "etc")); err == nil {
		t.Fatal("something was written outside the memory folder")
	}

	h.transcript("l4", []string{"Run the linters and the race detector before pushing."})
	out = run(`{"operations":[{"op":"update","type":"feedback","name":"Run linters before pushing","description":"Run the linters and go test -race before every push","body":"Run the linters and the race detector before pushing.","target":"run-linters-before-pushing.md"}]}`)
	if !strings.Contains(out, `"updated": [`) {
		t.Fatalf("an update:\n%s", out)
	}
	raw, _ = os.ReadFile(filepath.Join(h.tdir, "memory", "run-linters-before-pushing.md"))
	if !strings.Contains(string(raw), "race detector") {
		t.Errorf("not updated:\n%s", raw)
	}
}
