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

const createLinters = `{"op":"create","type":"feedback","name":"Run linters before pushing","description":"Run the linters before every push","body":"Run the linters before pushing."}`

// An answer that lists the same create twice saves one memory, not two.
func TestExtractLLM_DuplicateCreateInOneAnswer(t *testing.T) {
	h := newExtractHome(t)
	h.transcript("d1", []string{"We always run the linters before pushing, they caught a data race last week."})
	ts, _ := llmServer(t, 200, `{"operations":[`+createLinters+`,`+createLinters+`]}`)
	out, err := h.llmCmd(ts, "--json").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := h.memories(); len(got) != 1 {
		t.Fatalf("one fact, %d memories: %v\n%s", len(got), got, out)
	}
}

// Extracting the same turns again (state lost, or a crash between the
// saves and the cursor's write) updates what was saved, as the warning
// promises ("memories already saved are updated, not duplicated").
func TestExtractLLM_ReExtractionUpdates(t *testing.T) {
	h := newExtractHome(t)
	h.transcript("d2", []string{"We always run the linters before pushing, they caught a data race last week."})
	ts, _ := llmServer(t, 200, `{"operations":[`+createLinters+`]}`)
	if out, err := h.llmCmd(ts).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	os.Remove(filepath.Join(h.home, "memory", "extract", "state.json")) // the cursor was never written
	out, err := h.llmCmd(ts).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := h.memories(); len(got) != 1 {
		t.Fatalf("the same turns extracted twice: %d memories %v\n%s", len(got), got, out)
	}
}

// Two supersede operations on one target are refused as an answer (the
// first replacement was left live beside the second, the target naming
// only one): one memory about the deploy day stays live.
func TestExtractLLM_TwoOpsOneTargetRefused(t *testing.T) {
	h := newExtractHome(t)
	h.run("save", "--type", "project", "--name", "Deploy day", "--description", "Deploys happen on Tuesdays", "--body", "Tuesdays.")
	h.transcript("d3", []string{"We decided deploys move to Wednesdays and then to Thursdays."})
	sup := func(name, day string) string {
		return `{"op":"supersede","type":"project","name":"` + name + `","description":"Deploys happen on ` + day + `","body":"` + day + `.","target":"deploy-day.md"}`
	}
	ts, _ := llmServer(t, 200, `{"operations":[`+sup("Deploy day wed", "Wednesdays")+`,`+sup("Deploy day thu", "Thursdays")+`]}`)
	out, err := h.llmCmd(ts, "--json").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	live := 0
	for _, f := range h.memories() {
		b, _ := os.ReadFile(filepath.Join(h.tdir, "memory", f))
		if !strings.Contains(string(b), "superseded_by") {
			live++
		}
	}
	if live != 1 {
		t.Fatalf("%d live memories about the deploy day (want 1): %v\n%s", live, h.memories(), out)
	}
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

// The agent saved the rule itself through memdir's MCP server in this
// stretch: the mutex skips the stretch, as it does for a Write into the
// memory folder; the extractor must not save it a second time.
func TestExtract_MutexSeesMCPSave(t *testing.T) {
	h := newExtractHome(t)
	recs := []map[string]any{
		{"type": "user", "uuid": "m-u0", "timestamp": "2026-11-20T10:00:00Z", "cwd": h.proj, "sessionId": "mx",
			"message": map[string]any{"role": "user", "content": "We always run the linters before pushing, they caught a data race last week."}},
		{"type": "assistant", "uuid": "m-a0", "timestamp": "2026-11-20T10:00:05Z", "cwd": h.proj, "sessionId": "mx",
			"message": map[string]any{"id": "msg_1", "role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": "Noted, saving that."},
				map[string]any{"type": "tool_use", "id": "toolu_1", "name": "mcp__memdir__memory_save", "input": map[string]any{
					"type": "feedback", "name": "Lint first", "description": "Lint before each push (caught a race)", "body": "Run linters before pushing."}},
			}}},
	}
	var b bytes.Buffer
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	os.WriteFile(filepath.Join(h.tdir, "mx.jsonl"), b.Bytes(), 0o600)
	// What the MCP call did.
	h.run("save", "--type", "feedback", "--name", "Lint first", "--description", "Lint before each push (caught a race)", "--body", "Run linters before pushing.")
	out := h.run("extract", "--json")
	if got := h.memories(); len(got) != 1 {
		t.Fatalf("the agent saved it; extraction saved it again: %v\n%s", got, out)
	}
}

// TestContradicts: a reversed choice is a contradiction, as a negation is;
// a restatement is not.
func TestContradicts(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     bool
	}{
		{"I prefer pnpm over npm", "Actually, I prefer npm over pnpm now", true},
		{"Use tabs instead of spaces", "Use spaces instead of tabs", true},
		{"Prefer table tests rather than subtests", "Prefer subtests rather than table tests", true},
		{"I prefer pnpm over npm", "I really prefer pnpm over npm", false},
		{"Always run the linters before pushing", "Never run the linters before pushing", true},
		{"Always run the linters before pushing", "Run the linters before every push", false},
	} {
		if got := contradicts(tc.old, tc.new); got != tc.want {
			t.Errorf("contradicts(%q, %q) = %v, want %v", tc.old, tc.new, got, tc.want)
		}
	}
}

// TestExtract_ReversedPreferenceSupersedes: "pnpm over npm", then in a
// later session "npm over pnpm": the new memory supersedes the old one,
// instead of updating it under a title that says the opposite.
func TestExtract_ReversedPreferenceSupersedes(t *testing.T) {
	h := newExtractHome(t)
	h.transcript("p1", []string{"I prefer pnpm over npm for every package in this repo."})
	h.run("extract")
	h.transcript("p2", []string{"Actually, I prefer npm over pnpm for every package in this repo."})
	out := h.run("extract")
	got := h.memories()
	if len(got) != 2 {
		t.Fatalf("memories %v\n%s", got, out)
	}
	live := 0
	for _, f := range got {
		b, _ := os.ReadFile(filepath.Join(h.tdir, "memory", f))
		if !strings.Contains(string(b), "superseded_by") {
			live++
			if !strings.Contains(string(b), "npm over pnpm") {
				t.Errorf("the live memory is the old choice:\n%s", b)
			}
		}
	}
	if live != 1 {
		t.Errorf("%d live memories, want 1\n%s", live, out)
	}
}

// TestExtract_NothingNewSaysSo: a transcript already extracted to its end
// is "nothing new", not "no conversation in it yet".
func TestExtract_NothingNewSaysSo(t *testing.T) {
	h := newExtractHome(t)
	h.transcript("n1", []string{"We always run the linters before pushing, they caught a data race last week."})
	h.run("extract")
	if out := h.run("extract", "--dry-run", "--json"); !strings.Contains(out, `"why": "nothing new since the last extraction"`) {
		t.Errorf("second run:\n%s", out)
	}
}
