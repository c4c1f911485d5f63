package llm

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const secretKey = "sk-ant-api03-AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKKKllllMMMMnnnnOOOOppppQQQQrrrrSSSStt-UUUUvvvv"

// A redirect to another host does not carry the Anthropic key along.
func TestClient_RedirectKeepsKey(t *testing.T) {
	var leaked string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("x-api-key") + r.Header.Get("Authorization")
		io.WriteString(w, anthropicReply)
	}))
	defer other.Close()
	// other, by another name: a different host.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer api.Close()
	for _, p := range []string{"anthropic", "openai"} {
		leaked = ""
		c, _ := New(Config{Provider: p, BaseURL: api.URL, APIKey: secretKey})
		c.Complete(context.Background(), request())
		if leaked != "" {
			t.Errorf("%s: the key went to the redirect's host: %q", p, leaked)
		}
	}
}

// An error body that quotes the key does not put it in the error (which
// is printed, put in --json reports and in logs/extract.jsonl).
func TestClient_ErrorDoesNotQuoteKey(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"invalid key `+r.Header.Get("x-api-key")+`"}}`)
	}))
	defer ts.Close()
	c, _ := New(Config{Provider: "anthropic", BaseURL: ts.URL, APIKey: secretKey})
	_, err := c.Complete(context.Background(), request())
	if err == nil || strings.Contains(err.Error(), secretKey[:40]) {
		t.Fatalf("the error quotes the key: %v", err)
	}
}

// A server that sends its headers and then stalls the body is cut off
// by the per-attempt timeout and retried like any other timeout.
func TestClient_StalledBodyRetried(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		io.WriteString(w, `{"id":`)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(release)
	c, _ := New(Config{Provider: "anthropic", BaseURL: ts.URL, APIKey: "k", Timeout: 200 * time.Millisecond, MaxRetries: 1})
	if _, err := c.Complete(context.Background(), request()); err == nil {
		t.Fatal("a reply that never finished was taken")
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("a timed-out body read was not retried: %d calls", n)
	}
}

// TestSameHost_NoDowngrade: a redirect from https to http on the same host
// is not followed (the key would travel in clear).
func TestSameHost_NoDowngrade(t *testing.T) {
	from, _ := http.NewRequest("POST", "https://api.example.com/v1/messages", nil)
	to, _ := http.NewRequest("POST", "http://api.example.com/v1/messages", nil)
	if err := sameHost(to, []*http.Request{from}); err == nil {
		t.Error("sameHost follows an https -> http redirect")
	}
	same, _ := http.NewRequest("POST", "https://api.example.com/v2/messages", nil)
	if err := sameHost(same, []*http.Request{from}); err != nil {
		t.Errorf("a same-host https redirect was refused: %v", err)
	}
}

// TestClient_RedactsWhatItSends: a key pasted into a session (and so into
// a transcript the extraction prompt quotes) never reaches the provider:
// not in a message, not in the system prompt, not in a text to embed.
func TestClient_RedactsWhatItSends(t *testing.T) {
	var sent atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent.Store(string(b))
		switch {
		case strings.HasSuffix(r.URL.Path, "/embeddings"):
			io.WriteString(w, `{"data":[{"index":0,"embedding":[1,0]}]}`)
		case strings.HasSuffix(r.URL.Path, "/messages"):
			io.WriteString(w, anthropicReply)
		default:
			io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":"{}"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
		}
	}))
	defer ts.Close()
	aws := "AKIA" + strings.Repeat("Z", 16)
	for _, p := range []string{"anthropic", "openai"} {
		c, _ := New(Config{Provider: p, BaseURL: ts.URL, APIKey: "the-real-api-key"})
		_, err := c.Complete(context.Background(), Request{System: "rules; deploy key " + aws,
			Messages: []Message{{Role: "user", Content: "[user] my key is " + secretKey + " — save it"}}})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		body := sent.Load().(string)
		if strings.Contains(body, secretKey[:30]) || strings.Contains(body, aws) || !strings.Contains(body, "REDACTED") {
			t.Errorf("%s sent a secret: %s", p, body)
		}
		if !strings.Contains(body, "save it") {
			t.Errorf("%s lost the message around the secret: %s", p, body)
		}
	}
	e := NewEmbedder(Config{BaseURL: ts.URL, APIKey: "k"})
	if _, err := e.Embed(context.Background(), []string{"token " + secretKey}); err != nil {
		t.Fatal(err)
	}
	if body := sent.Load().(string); strings.Contains(body, secretKey[:30]) {
		t.Errorf("the embedder sent a secret: %s", body)
	}
}
