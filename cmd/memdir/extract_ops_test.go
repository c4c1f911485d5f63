package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
)

// llmServer is an OpenAI-compatible chat endpoint answering with the
// given content (the last one repeated).
func llmServer(t *testing.T, status int, answers ...string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n := int(calls.Add(1)) - 1
		if status != 200 {
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		content, _ := json.Marshal(answers[min(n, len(answers)-1)])
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":`+string(content)+`},"finish_reason":"stop"}],"usage":{"prompt_tokens":100,"completion_tokens":20}}`)
	}))
	t.Cleanup(ts.Close)
	return ts, &calls
}

func (h *extractHome) llmCmd(ts *httptest.Server, args ...string) *exec.Cmd {
	c := h.cmd(append([]string{"extract", "--engine", "openai"}, args...)...)
	c.Env = append(c.Env, "MEMDIR_LLM_BASE_URL="+ts.URL+"/v1", "OPENAI_API_KEY=test")
	return c
}

// An engine that fails (a bad key) is a failed command, not "Saved no
// memories." with exit 0.
func TestExtractLLM_FailureExitsOne(t *testing.T) {
	h := newExtractHome(t)
	h.transcript("e1", []string{"We always run the linters before pushing, they caught a data race last week."})
	ts, _ := llmServer(t, 401)
	c := h.llmCmd(ts, "--json")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	err := c.Run()
	t.Logf("exit: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	if err == nil {
		t.Errorf("the engine failed with HTTP 401 and extract exited 0")
	}
	if !strings.Contains(stderr.String(), "memdir: hint: check the engine's key") {
		t.Errorf("no hint after the engine's failure:\n%s", stderr.String())
	}
	var rep struct {
		Transcripts []struct {
			Error string `json:"error"`
		} `json:"transcripts"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Errorf("--json output is not JSON: %v", err)
	} else if len(rep.Transcripts) != 1 || !strings.Contains(rep.Transcripts[0].Error, "HTTP 401") {
		t.Errorf("the report does not carry the error: %+v", rep)
	}
}

// MEMDIR_EXTRACT_EVERY=3 and a session that ends after two turns: the
// SessionEnd hook's run takes the turns the throttle held back (no later
// run would reach the count: they were lost).
func TestHook_SessionEndExtractsThrottledTail(t *testing.T) {
	h := newExtractHome(t)
	path := h.transcript("th", []string{
		"We always run the linters before pushing, they caught a data race last week.",
		"Never deploy on Fridays because on-call is thin on weekends.",
	})
	in, _ := json.Marshal(map[string]string{"session_id": "th", "hook_event_name": "SessionEnd", "transcript_path": path, "cwd": h.proj, "reason": "logout"})
	c := h.cmd("hook", "SessionEnd")
	c.Env = append(c.Env, "MEMDIR_EXTRACT_EVERY=3")
	c.Stdin = bytes.NewReader(in)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("hook: %v %s", err, out)
	}
	// Wait for the detached run: it holds the extraction lock to its end.
	lockDir := filepath.Join(h.home, "memory", "extract")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(lockDir, "state.json")); err == nil {
			if unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{Timeout: 100 * time.Millisecond}); err == nil {
				unlock()
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Later runs (another session's hook, or the user) do no better.
	p := h.cmd("extract", "--pending")
	p.Env = append(p.Env, "MEMDIR_EXTRACT_EVERY=3")
	out, _ := p.CombinedOutput()
	if got := h.memories(); len(got) == 0 {
		t.Fatalf("the session ended; its two turns were never extracted\n%s", out)
	}
}
