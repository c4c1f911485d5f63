package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/mcpserver"
	"github.com/memdir/memdir/internal/memdir"
)

// testApp is an app on a temporary home and project.
func testApp(t *testing.T) (*app, string) {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	var out, errb bytes.Buffer
	a := &app{sys: sys{stdout: &out, stderr: &errb, cwd: project, getenv: func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}}, ctx: context.Background()}
	return a, project
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// inMemoryClient connects the Go SDK's client to a server for a, in
// memory; the session closes with the test.
func inMemoryClient(t *testing.T, a *app) (*mcp.ClientSession, context.Context) {
	t.Helper()
	srv := mcpserver.New(a.mcpEnv(), version)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, ctx
}

// TestMCP_ToolsInMemory drives every tool with the Go SDK's own client.
func TestMCP_ToolsInMemory(t *testing.T) {
	a, project := testApp(t)
	cs, ctx := inMemoryClient(t, a)

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 11 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	r := call(t, cs, "memory_save", map[string]any{"type": "feedback", "name": "Tabs not spaces", "description": "Indent Go with tabs", "body": "gofmt decides.\napi_key = sk-ant-api03-" + strings.Repeat("a", 90)})
	if r.IsError || !strings.Contains(textOf(r), "saved feedback memory tabs-not-spaces.md") || !strings.Contains(textOf(r), "redacted") {
		t.Fatalf("save: %+v %s", r, textOf(r))
	}
	if r := call(t, cs, "memory_save", map[string]any{"type": "nonsense", "name": "x", "description": "y", "body": "z"}); !r.IsError {
		t.Errorf("a bad type was accepted: %s", textOf(r))
	}
	if r := call(t, cs, "memory_get", map[string]any{"name": "no-such-memory"}); !r.IsError {
		t.Errorf("a missing memory: %s", textOf(r))
	}
	r = call(t, cs, "memory_recall", map[string]any{"query": "how should I indent go code? tabs?"})
	if !strings.Contains(textOf(r), "tabs-not-spaces.md") || !strings.Contains(textOf(r), "verify the files") {
		t.Errorf("recall: %s", textOf(r))
	}
	var rec mcpserver.RecallOut
	b, _ := json.Marshal(r.StructuredContent)
	json.Unmarshal(b, &rec)
	if len(rec.Files) != 1 || rec.Tokens == 0 {
		t.Errorf("recall structured: %s", b)
	}
	r = call(t, cs, "memory_update", map[string]any{"name": "Tabs not spaces", "description": "Indent Go with tabs, YAML with spaces"})
	if r.IsError {
		t.Fatalf("update: %s", textOf(r))
	}
	r = call(t, cs, "memory_get", map[string]any{"name": "tabs-not-spaces.md"})
	if !strings.Contains(textOf(r), "YAML with spaces") || !strings.Contains(textOf(r), "gofmt decides") {
		t.Errorf("get after update: %s", textOf(r))
	}
	r = call(t, cs, "memory_list", map[string]any{"type": "feedback"})
	if !strings.Contains(textOf(r), "- [feedback] tabs-not-spaces.md") {
		t.Errorf("list: %s", textOf(r))
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://index"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "(tabs-not-spaces.md)") {
		t.Errorf("index resource: %+v %v", res, err)
	}
	// A MEMORY.md deleted by hand is rebuilt from the files, as 'memdir index' does.
	l, _ := a.layout()
	os.Remove(filepath.Join(l.MemoryDir, "MEMORY.md"))
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://index"}); err != nil || !strings.Contains(res.Contents[0].Text, "(tabs-not-spaces.md)") {
		t.Errorf("index resource with MEMORY.md missing: %+v %v", res, err)
	}
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://memory/tabs-not-spaces.md"})
	if err != nil || !strings.Contains(res.Contents[0].Text, "type: feedback") {
		t.Errorf("memory resource: %+v %v", res, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://memory/../../etc/passwd"}); err == nil {
		t.Error("a path outside the folder was served")
	}
	for _, name := range []string{"MEMORY.md", "../MEMORY.md", ".memdir-cache"} {
		if r := call(t, cs, "memory_forget", map[string]any{"name": name, "purge": true}); !r.IsError {
			t.Errorf("forget %q was accepted: %s", name, textOf(r))
		}
	}
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://index"}); err != nil || !strings.Contains(res.Contents[0].Text, "(tabs-not-spaces.md)") {
		t.Fatalf("MEMORY.md after refused forgets: %+v %v", res, err)
	}
	r = call(t, cs, "memory_forget", map[string]any{"name": "Tabs not spaces", "project": project})
	if r.IsError || !strings.Contains(textOf(r), "forgot tabs-not-spaces.md") {
		t.Errorf("forget: %s", textOf(r))
	}
	if r := call(t, cs, "memory_recall", map[string]any{"query": "tabs"}); strings.Contains(textOf(r), "tabs-not-spaces.md") {
		t.Errorf("a forgotten memory was recalled: %s", textOf(r))
	}
	if r := call(t, cs, "memory_save", map[string]any{"type": "user", "name": "x", "description": "y", "body": "z", "project": "relative/path"}); !r.IsError {
		t.Errorf("a relative project was accepted")
	}
}

// TestMCP_HTTP: the token is required, big requests are refused, and 8
// clients saving at once lose nothing.
func TestMCP_HTTP(t *testing.T) {
	a, _ := testApp(t)
	srv := mcpserver.New(a.mcpEnv(), version)
	ts := httptest.NewServer(mcpserver.Handler(srv, "s3cret"))
	defer ts.Close()
	post := func(auth string, body []byte) int {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "Bearer S3CRET"} {
		if code := post(auth, init); code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, code)
		}
	}
	for _, auth := range []string{"bearer s3cret", "BEARER s3cret"} { // the scheme is case-insensitive
		if code := post(auth, init); code != http.StatusOK {
			t.Errorf("Authorization %q: status %d, want 200", auth, code)
		}
	}
	if code := post("Bearer s3cret", init); code != http.StatusOK {
		t.Errorf("with the token: status %d", code)
	}
	big := append([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_save","arguments":{"body":"`), bytes.Repeat([]byte("x"), 10<<20)...)
	big = append(big, `"}}}`...)
	if code := post("Bearer s3cret", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 10 MB request: status %d, want 413", code)
	}

	var wg sync.WaitGroup
	errs := make(chan error, 8*10)
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			transport := &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: &http.Client{Transport: authRT{"s3cret"}}}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprint("c", c)}, nil).Connect(context.Background(), transport, nil)
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			for i := range 10 {
				r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memory_save", Arguments: map[string]any{
					"type": "project", "name": fmt.Sprintf("note %d %d", c, i), "description": "concurrent note", "body": "x"}})
				if err != nil || r.IsError {
					errs <- fmt.Errorf("client %d save %d: %v %v", c, i, err, r)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st, _, err := a.store(false)
	if err != nil {
		t.Fatal(err)
	}
	mems, problems, _ := st.List()
	idx, _ := os.ReadFile(st.Path(memdir.IndexFile))
	if len(mems) != 80 || len(problems) > 0 {
		t.Fatalf("%d memories (%v), want 80", len(mems), problems)
	}
	for _, m := range mems {
		if n := strings.Count(string(idx), "("+m.File+")"); n != 1 {
			t.Errorf("%s is listed %d times in MEMORY.md", m.File, n)
		}
	}
}

type authRT struct{ token string }

func (a authRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+a.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCP_NamesAndProblems: titles with punctuation are names, not paths;
// an update says what it redacted; list shows broken files in its text;
// a MEMORY.md that links out of the folder is not served.
func TestMCP_NamesAndProblems(t *testing.T) {
	a, _ := testApp(t)
	cs, ctx := inMemoryClient(t, a)
	for _, name := range []string{"CI/CD secrets location", ".env files are never committed", "Wait... why Go 1.22"} {
		if r := call(t, cs, "memory_save", map[string]any{"type": "project", "name": name, "description": "d " + name, "body": "b"}); r.IsError {
			t.Errorf("save %q: %s", name, textOf(r))
		}
		if r := call(t, cs, "memory_get", map[string]any{"name": name}); r.IsError || !strings.Contains(textOf(r), "d "+name) {
			t.Errorf("get %q: %s", name, textOf(r))
		}
	}
	if r := call(t, cs, "transcript_search", map[string]any{"pattern": "deploy", "since": "yesterday"}); r.IsError {
		t.Errorf("since yesterday: %s", textOf(r))
	}
	if r := call(t, cs, "transcript_search", map[string]any{"pattern": "deploy", "since": "last blue moon"}); !r.IsError {
		t.Errorf("a since that is no date was accepted: %s", textOf(r))
	}
	r := call(t, cs, "memory_update", map[string]any{"name": "CI/CD secrets location", "body": "token ghp_" + strings.Repeat("a1B2", 9)})
	if r.IsError || !strings.Contains(textOf(r), "redacted before writing: 1 github-token") {
		t.Errorf("update with a secret: %s", textOf(r))
	}
	l, err := a.layout()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(l.MemoryDir, "broken.md"), []byte("---\nname: [unclosed\n---\nbody"), 0o600)
	if r := call(t, cs, "memory_list", nil); !strings.Contains(textOf(r), "problem: broken.md") {
		t.Errorf("list does not show the broken file: %s", textOf(r))
	}
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("TOP SECRET"), 0o600)
	ix := filepath.Join(l.MemoryDir, "MEMORY.md")
	os.Remove(ix)
	if err := os.Symlink(outside, ix); err != nil {
		t.Fatal(err)
	}
	if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memdir://index"}); err == nil && strings.Contains(res.Contents[0].Text, "TOP SECRET") {
		t.Error("MEMORY.md linking out of the folder was served")
	}
}
