package mcpserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

const testToken = "a-test-token-of-more-than-32-characters"

func post(t *testing.T, ts *httptest.Server, origin string, body []byte) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

var initialize = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)

// TestHandler_Origin: a browser request from another origin is refused
// even with the token; the server's own origin and clients that send no
// Origin are served.
func TestHandler_Origin(t *testing.T) {
	ts := httptest.NewServer(Handler(newTest(t, testEnv(t)), testToken))
	defer ts.Close()
	own := strings.Replace(ts.URL, "http://", "http://", 1)
	for origin, want := range map[string]int{
		"":                     http.StatusOK,
		own:                    http.StatusOK,
		"https://evil.example": http.StatusForbidden,
		"http://localhost:1":   http.StatusForbidden,
		"null":                 http.StatusForbidden,
	} {
		if got := post(t, ts, origin, initialize).StatusCode; got != want {
			t.Errorf("Origin %q: status %d, want %d", origin, got, want)
		}
	}
}

// TestSameOrigin_RebindingHost: a request whose Host and Origin both name
// an outside host (DNS rebinding) is refused by the Origin check itself.
func TestSameOrigin_RebindingHost(t *testing.T) {
	h := sameOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	for origin, want := range map[string]int{
		"http://evil.example:7777": http.StatusForbidden,
		"http://127.0.0.1:7777":    http.StatusOK,
		"http://localhost:7777":    http.StatusOK,
	} {
		req := httptest.NewRequest("POST", "/mcp", nil)
		req.Host = strings.TrimPrefix(origin, "http://")
		req.Header.Set("Origin", origin)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Origin and Host %s: status %d, want %d", origin, rec.Code, want)
		}
	}
}

// TestHandler_KeepsNoSessions: every initialize used to open a session
// kept for 30 minutes (40,000 of them held 530 MB); now none is kept.
func TestHandler_KeepsNoSessions(t *testing.T) {
	ts := httptest.NewServer(Handler(newTest(t, testEnv(t)), testToken))
	defer ts.Close()
	if resp := post(t, ts, "", initialize); resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("the server opened session %q", resp.Header.Get("Mcp-Session-Id"))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 2000 {
		post(t, ts, "", initialize)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Errorf("2,000 initializes grew the heap by %d MB", grown>>20)
	}
}

func TestCheckToken(t *testing.T) {
	for tok, ok := range map[string]bool{
		"a":                                  false,
		"secret":                             false,
		strings.Repeat("a", 40):              false,
		"0123456789abcdef0123456789abcdef":   true,
		"conformance-token-of-forty-chars-1": true,
	} {
		if err := CheckToken(tok); (err == nil) != ok {
			t.Errorf("CheckToken(%q) = %v, want ok=%v", tok, err, ok)
		}
	}
}

func TestListenAddr(t *testing.T) {
	for _, tc := range []struct {
		in, want   string
		everywhere bool
		bad        bool
	}{
		{in: "7777", want: "127.0.0.1:7777"},
		{in: ":7777", want: "127.0.0.1:7777"},
		{in: "127.0.0.1:0", want: "127.0.0.1:0"},
		{in: "localhost:7777", want: "localhost:7777"},
		{in: "[::1]:7777", want: "[::1]:7777"},
		{in: "0.0.0.0:7777", want: "0.0.0.0:7777", everywhere: true},
		{in: "192.168.1.5:7777", want: "192.168.1.5:7777", everywhere: true},
		{in: "7791x", bad: true},
		{in: "70000", bad: true},
		{in: "host:port", bad: true},
		{in: "a:b:c", bad: true},
	} {
		got, everywhere, err := ListenAddr(tc.in)
		if tc.bad != (err != nil) || !tc.bad && (got != tc.want || everywhere != tc.everywhere) {
			t.Errorf("ListenAddr(%q) = %q, %v, %v", tc.in, got, everywhere, err)
		}
	}
}
