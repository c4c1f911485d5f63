package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRecall_Global: memory_recall gives the user's global memories
// (named global/<file>) beside the project's, from a held snapshot of the
// global folder, and in a project with no memory folder of its own.
func TestRecall_Global(t *testing.T) {
	env, g := globalFolder(t)
	if _, err := g.Store.Save(t.Context(), memdir.Memory{Name: "Go veteran new to React", Description: "Ten years of Go, first React project: explain React with backend analogies",
		Type: memdir.TypeUser, Body: "New to React."}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := newTest(t, env)
	cs := connect(t, srv.Server)
	recallOut := func(query string) RecallOut { return recallJSON(t, liveFixture{cs: cs, srv: srv}, query) }
	// No project folder yet: the global memories still answer.
	out := recallOut("explain this React component")
	if !slices.Equal(out.Files, []string{"global/go-veteran-new-to-react.md"}) || !strings.Contains(out.Text, "global/go-veteran-new-to-react.md") {
		t.Fatalf("recall without a project folder: %+v", out)
	}
	// Beside the project's own memories, held and watched like them.
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws.Store, "Deploy freeze", "No deploys on Fridays")
	out = recallOut("explain the React deploy freeze")
	if !slices.Contains(out.Files, "global/go-veteran-new-to-react.md") || !slices.Contains(out.Files, "deploy-freeze.md") {
		t.Fatalf("recall beside the project's memories: %+v", out)
	}
	srv.lives.mu.Lock()
	_, held := srv.lives.byDir[g.Store.Dir()]
	srv.lives.mu.Unlock()
	if !held {
		t.Fatal("the global folder's snapshot is not held")
	}
	// The name recall gives reaches the memory for the other tools.
	f := liveFixture{cs: cs, srv: srv}
	if r, text := f.call(t, "memory_get", map[string]any{"name": "global/go-veteran-new-to-react.md"}); r.IsError || !strings.Contains(text, "New to React.") {
		t.Fatalf("memory_get global/…: %s", text)
	}
	if r, text := f.call(t, "memory_forget", map[string]any{"name": "global/go-veteran-new-to-react"}); r.IsError {
		t.Fatalf("memory_forget global/…: %s", text)
	}
	if _, err := g.Store.Read("go-veteran-new-to-react.md"); err == nil {
		t.Fatal("forgotten from the global folder, yet still there")
	}
}

// TestRecall_GlobalUnreadable: a global folder that cannot be read leaves
// the project's memories recalled, not an error.
func TestRecall_GlobalUnreadable(t *testing.T) {
	env, g := globalFolder(t)
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws.Store, "Deploy freeze", "No deploys on Fridays")
	// The global folder now a link out of the home folders: refused.
	out := t.TempDir()
	if err := os.RemoveAll(g.Store.Dir()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, g.Store.Dir()); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Global(false); err == nil {
		t.Fatal("a global folder linked out of the home folders was opened")
	}
	srv := newTest(t, env)
	f := liveFixture{cs: connect(t, srv.Server), srv: srv}
	r, text := f.call(t, "memory_recall", map[string]any{"query": "deploy freeze friday"})
	if r.IsError || !strings.Contains(text, "deploy-freeze.md") {
		t.Fatalf("memory_recall with a broken global folder: %s", text)
	}
}

// globalFolder is a test environment and the user's global folder in it,
// created.
func globalFolder(t *testing.T) (workspace.Env, *workspace.Workspace) {
	t.Helper()
	env := testEnv(t)
	genv := env
	genv.Global = true
	g, err := workspace.Open(genv, true)
	if err != nil {
		t.Fatal(err)
	}
	return env, g
}

// recallJSON calls memory_recall for query and decodes its structured
// answer; an error answer fails the test.
func recallJSON(t *testing.T, f liveFixture, query string) RecallOut {
	t.Helper()
	r, text := f.call(t, "memory_recall", map[string]any{"query": query})
	if r.IsError {
		t.Fatalf("memory_recall: %s", text)
	}
	var out RecallOut
	b, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGet_Redacts: memory_get and the memdir://index resource give the
// agent no credential, whoever wrote the file (as memory_recall).
func TestGet_Redacts(t *testing.T) {
	env := testEnv(t)
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	const key = "AKIAIOSFODNN7EXAMPLE"
	if err := os.MkdirAll(ws.Store.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	memory := "---\nname: Deploy key\ndescription: the prod key " + key + "\ntype: reference\n---\nprod deploy key " + key + "\n"
	if err := os.WriteFile(ws.Store.Path("deploy-key.md"), []byte(memory), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws.Store.Path(memdir.IndexFile), []byte("- [Deploy key](deploy-key.md) — the prod key "+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newTest(t, env)
	cs := connect(t, srv.Server)
	f := liveFixture{cs: cs, srv: srv}
	r, text := f.call(t, "memory_get", map[string]any{"name": "deploy-key"})
	if r.IsError || !strings.Contains(text, "[REDACTED:aws-access-key]") {
		t.Fatalf("memory_get: %s", text)
	}
	if b, _ := json.Marshal(r); strings.Contains(string(b), key) {
		t.Errorf("memory_get gives the key: %s", b)
	}
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "memdir://index"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || strings.Contains(res.Contents[0].Text, key) || !strings.Contains(res.Contents[0].Text, "[REDACTED:aws-access-key]") {
		t.Errorf("memdir://index: %+v", res.Contents)
	}
	if b, _ := os.ReadFile(ws.Store.Path("deploy-key.md")); string(b) != memory {
		t.Errorf("reading changed the file:\n%s", b)
	}
}

// TestTranscriptSearch_Redacts: transcript_search gives the agent no
// credential pasted into an earlier session, in the line it found or the
// lines around it.
func TestTranscriptSearch_Redacts(t *testing.T) {
	env := testEnv(t)
	const key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	dir := filepath.Join(env.Getenv("HOME"), ".claude", "projects", "-p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","uuid":"u1","timestamp":"2026-11-20T10:00:00.000Z","sessionId":"s1","cwd":"/p","message":{"role":"user","content":"the CI token is ` + key + `\nrotate it monthly"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := newTest(t, env)
	f := liveFixture{cs: connect(t, srv.Server), srv: srv}
	for _, pattern := range []string{"CI token", "rotate it"} {
		r, text := f.call(t, "transcript_search", map[string]any{"pattern": pattern})
		b, _ := json.Marshal(r)
		if r.IsError || strings.Contains(string(b), key) || !strings.Contains(string(b), "[REDACTED:github-token]") && pattern == "CI token" {
			t.Errorf("transcript_search %q: %s", pattern, b)
		}
		if !strings.Contains(text, "s1") {
			t.Errorf("transcript_search %q found nothing: %s", pattern, text)
		}
	}
}
