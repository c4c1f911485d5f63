package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/testenv"
)

// Recorded replies, in each provider's exact wire format.
const (
	anthropicReply = `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"{\"operations\": []}"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":412,"output_tokens":9}}`
	openAIReply    = `{"id":"chatcmpl-abc123","object":"chat.completion","created":1763800000,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"{\"operations\": []}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":398,"completion_tokens":8,"total_tokens":406}}`
	anthropic429   = `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`
	overloaded     = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
)

func request() Request {
	return Request{System: "sys", JSON: true, Messages: []Message{{Role: "user", Content: "hello"}}}
}

func TestAnthropic_WireFormat(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" || r.Header.Get("x-api-key") != "k" || r.Header.Get("anthropic-version") != "2023-06-01" {
			t.Errorf("request %s with headers %v", r.URL.Path, r.Header)
		}
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		if body["system"] != "sys" || body["model"] != "claude-sonnet-4-5" || body["max_tokens"].(float64) != 2048 {
			t.Errorf("body %v", body)
		}
		io.WriteString(w, anthropicReply)
	}))
	defer ts.Close()
	var logged []string
	c, _ := New(Config{Provider: "anthropic", BaseURL: ts.URL, APIKey: "k", Log: func(f string, a ...any) { logged = append(logged, f) }})
	resp, err := c.Complete(context.Background(), request())
	if err != nil || resp.Text != `{"operations": []}` || resp.Usage != (Usage{412, 9}) {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "input and %d output tokens") {
		t.Errorf("usage not logged: %v", logged)
	}
}

func TestOpenAI_WireFormat(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k" {
			t.Errorf("request %s %v", r.URL.Path, r.Header)
		}
		var body struct {
			Messages       []Message         `json:"messages"`
			ResponseFormat map[string]string `json:"response_format"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.ResponseFormat["type"] != "json_object" {
			t.Errorf("body %+v", body)
		}
		io.WriteString(w, openAIReply)
	}))
	defer ts.Close()
	c, _ := New(Config{Provider: "openai", BaseURL: ts.URL + "/v1", APIKey: "k"})
	resp, err := c.Complete(context.Background(), request())
	if err != nil || resp.Text != `{"operations": []}` || resp.Usage != (Usage{398, 8}) {
		t.Fatalf("resp %+v err %v", resp, err)
	}
}

// TestRetries: a 429 with Retry-After is waited out, a 5xx is retried with
// backoff, a timeout is retried then reported, a malformed reply is an
// error at once.
func TestRetries(t *testing.T) {
	var calls atomic.Int32
	var mode atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		switch mode.Load() {
		case "429":
			if n == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				io.WriteString(w, anthropic429)
				return
			}
		case "5xx":
			if n <= 2 {
				w.WriteHeader(529)
				io.WriteString(w, overloaded)
				return
			}
		case "slow":
			time.Sleep(500 * time.Millisecond)
		case "garbage":
			io.WriteString(w, `{"content": [`)
			return
		}
		io.WriteString(w, anthropicReply)
	}))
	defer ts.Close()
	c, _ := New(Config{Provider: "anthropic", BaseURL: ts.URL, APIKey: "k", Timeout: 200 * time.Millisecond, MaxRetries: 2})

	for _, tc := range []struct {
		mode    string
		calls   int32
		wantErr string
		atLeast time.Duration
	}{
		{"429", 2, "", time.Second},
		{"5xx", 3, "", 0},
		{"slow", 3, "context deadline exceeded", 0},
		{"garbage", 1, "not the expected JSON", 0},
	} {
		calls.Store(0)
		mode.Store(tc.mode)
		start := time.Now()
		_, err := c.Complete(context.Background(), request())
		took := time.Since(start)
		switch {
		case tc.wantErr == "" && err != nil, tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: err %v, want %q", tc.mode, err, tc.wantErr)
		case calls.Load() != tc.calls:
			t.Errorf("%s: %d calls, want %d", tc.mode, calls.Load(), tc.calls)
		case took < tc.atLeast:
			t.Errorf("%s: retried after %v, before Retry-After", tc.mode, took)
		}
	}
	var se *StatusError
	mode.Store("5xx")
	calls.Store(-10) // every call fails
	c2, _ := New(Config{Provider: "anthropic", BaseURL: ts.URL, APIKey: "k", MaxRetries: 1})
	if _, err := c2.Complete(context.Background(), request()); !errors.As(err, &se) || se.Code != 529 {
		t.Errorf("after the retries: %v", err)
	}
}

func TestFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, err := FromEnv("anthropic", env(nil)); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("anthropic without a key: %v", err)
	}
	if c, err := FromEnv("openai", env(map[string]string{"MEMDIR_LLM_BASE_URL": "http://localhost:11434/v1"})); err != nil || c.APIKey != "" {
		t.Errorf("ollama without a key: %v", err)
	}
	if _, err := FromEnv("gemini", env(nil)); err == nil {
		t.Error("an unknown engine was accepted")
	}
}

// TestClaudeCLI_Args checks the command line the claude engine builds: no
// hooks, no saved session, no MCP, and one tool, Read, in the memory
// folder only.
func TestClaudeCLI_Args(t *testing.T) {
	c := &claudeCLI{Config{Provider: "claude", WriteDir: "/home/u/.claude/projects/-p/memory", Model: "sonnet"}}
	got := c.Args(Request{System: "be brief"})
	want := []string{"-p", "--bare", "--no-session-persistence", "--output-format", "json", "--strict-mcp-config",
		"--permission-mode", "dontAsk", "--max-turns", "5", "--tools", "Read", "--add-dir", "/home/u/.claude/projects/-p/memory",
		"--allowedTools", "Read(/home/u/.claude/projects/-p/memory/**)",
		"--model", "sonnet", "--system-prompt", "be brief"}
	if !slices.Equal(got, want) {
		t.Errorf("args\n got %q\nwant %q", got, want)
	}
}

// TestClaudeCLI_Real runs the pinned claude CLI with those flags: without
// a login it answers "Not logged in" — it accepted every flag.
func TestClaudeCLI_Real(t *testing.T) {
	bin := testenv.Claude(t)
	home := t.TempDir()
	dir := filepath.Join(home, "memory")
	os.MkdirAll(dir, 0o700)
	t.Setenv("HOME", home)
	for _, kv := range testenv.ClaudeEnv(home) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	c, _ := New(Config{Provider: "claude", ClaudeBin: bin, WriteDir: dir, MaxRetries: 1, Timeout: time.Minute})
	_, err := c.Complete(context.Background(), request())
	if err == nil || !strings.Contains(err.Error(), "Not logged in") {
		t.Fatalf("claude: %v", err)
	}
	out, _ := exec.Command(bin, "-p", "--no-such-flag").CombinedOutput()
	if !strings.Contains(string(out), "unknown option") {
		t.Fatalf("an unknown flag is not reported as such, so this test proves nothing: %s", out)
	}
}

func TestEmbeddings_RepeatedIndexRefused(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,0]},{"object":"embedding","index":0,"embedding":[0,1]}],"usage":{"prompt_tokens":2}}`)
	}))
	defer ts.Close()
	e := NewEmbedder(Config{BaseURL: ts.URL, MaxRetries: 1})
	if _, err := e.Embed(context.Background(), []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf("a reply filling one slot twice: %v", err)
	}
}
