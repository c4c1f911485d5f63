package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// liveFixture is a server over a project with memories, and a store of
// its folder that writes as another process would.
type liveFixture struct {
	cs  *mcp.ClientSession
	st  *memdir.Store
	srv *Server
}

func newLiveFixture(t *testing.T, names ...string) liveFixture {
	t.Helper()
	env := testEnv(t)
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		save(t, ws.Store, n, "about "+n)
	}
	srv := newTest(t, env)
	return liveFixture{cs: connect(t, srv.Server), st: ws.Store, srv: srv}
}

func save(t *testing.T, st *memdir.Store, name, desc string) {
	t.Helper()
	if _, err := st.Save(t.Context(), memdir.Memory{Name: name, Description: desc, Type: memdir.TypeProject, Body: desc + "."}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (f liveFixture) call(t *testing.T, tool string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	r, err := f.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return r, b.String()
}

func (f liveFixture) list(t *testing.T, args map[string]any) ListOut {
	t.Helper()
	r, text := f.call(t, "memory_list", args)
	if r.IsError {
		t.Fatalf("memory_list %v: %s", args, text)
	}
	var out ListOut
	b, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLive_ChangesBeforeACallAreSeen: whatever another writer finished
// before a call — a save, a forget, an edit in place — the call sees,
// with no wait for the watcher: also with no watcher at all and a
// snapshot trusted (past the racy window), where only the call's own
// checks can see them.
func TestLive_ChangesBeforeACallAreSeen(t *testing.T) {
	t.Run("Watched", func(t *testing.T) { changesBeforeACall(t, false) })
	t.Run("UnwatchedSettled", func(t *testing.T) {
		testOnlyNoWatch, pollEvery = true, time.Hour
		t.Cleanup(func() { testOnlyNoWatch, pollEvery = false, 2*time.Second })
		changesBeforeACall(t, true)
	})
}

func changesBeforeACall(t *testing.T, settle bool) {
	f := newLiveFixture(t, "Deploy day", "Merge freeze")
	if settle {
		time.Sleep(time.Duration(racyWindow) + 100*time.Millisecond)
		f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
		before := testOnlyChecks.Load()
		f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
		if testOnlyChecks.Load() != before {
			t.Fatal("the snapshot did not settle")
		}
	}
	if _, text := f.call(t, "memory_recall", map[string]any{"query": "when is the deploy day?"}); !strings.Contains(text, "deploy-day.md") {
		t.Fatalf("recall: %s", text)
	}
	save(t, f.st, "Grafana board", "latency dashboards on grafana")
	if _, text := f.call(t, "memory_recall", map[string]any{"query": "where are the latency dashboards on grafana?"}); !strings.Contains(text, "grafana-board.md") {
		t.Errorf("a memory saved before the call: %s", text)
	}
	if _, err := f.st.Forget(t.Context(), "deploy-day.md", true); err != nil {
		t.Fatal(err)
	}
	if _, text := f.call(t, "memory_recall", map[string]any{"query": "when is the deploy day?"}); strings.Contains(text, "deploy-day.md") {
		t.Errorf("a memory forgotten before the call was recalled: %s", text)
	}
	if out := f.list(t, nil); out.Total != 2 || slices.ContainsFunc(out.Memories, func(m ManifestEntry) bool { return m.File == "deploy-day.md" }) {
		t.Errorf("list after forget: %+v", out)
	}
	// In place, as an editor that does not rename writes: the folder's
	// time does not move; the event may still be on its way.
	if settle {
		time.Sleep(time.Duration(racyWindow) + 100*time.Millisecond)
		f.list(t, nil)
	}
	p := f.st.Path("merge-freeze.md")
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), "about Merge freeze", "no merges on Thursday", 1)), 0o600)
	out := f.list(t, nil)
	if i := slices.IndexFunc(out.Memories, func(m ManifestEntry) bool { return m.File == "merge-freeze.md" }); i < 0 || out.Memories[i].Description != "no merges on Thursday" {
		t.Errorf("list after an edit in place: %+v", out.Memories)
	}
	if _, text := f.call(t, "memory_recall", map[string]any{"query": "merge freeze: any merges on Thursday?"}); !strings.Contains(text, "no merges on Thursday") {
		t.Errorf("recall after an edit in place: %s", text)
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestLive_WarmCallsDoNotCheck: once the folder's times are past the
// racy window, calls are answered from the held snapshot without a full
// check; an event leads to one check in the background.
func TestLive_WarmCallsDoNotCheck(t *testing.T) {
	f := newLiveFixture(t, "Deploy day", "Merge freeze", "Table tests")
	time.Sleep(time.Duration(racyWindow) + 100*time.Millisecond)
	f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
	waitFor(t, "the snapshot to settle", func() bool {
		before := testOnlyChecks.Load()
		f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
		return testOnlyChecks.Load() == before
	})
	before := testOnlyChecks.Load()
	for range 20 {
		f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
		f.list(t, map[string]any{"limit": 2})
	}
	if n := testOnlyChecks.Load() - before; n != 0 {
		t.Errorf("%d full checks for 40 warm calls", n)
	}
	// A write in the cache folder is no change.
	os.WriteFile(filepath.Join(f.st.Dir(), memdir.CacheDir, "other"), []byte("x"), 0o600)
	// An edit in place of a memory no call returns: the watcher's event
	// leads to a check without any call.
	p := f.st.Path("table-tests.md")
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), "about Table tests", "tests as tables of cases", 1)), 0o600)
	waitFor(t, "a check after the event", func() bool { return testOnlyChecks.Load() > before })
	if out := f.list(t, map[string]any{"type": "project"}); !slices.ContainsFunc(out.Memories, func(m ManifestEntry) bool { return m.Description == "tests as tables of cases" }) {
		t.Errorf("after the event: %+v", out.Memories)
	}
}

// TestLive_PollsWhenNotWatched: when the folder cannot be watched, a
// poller checks it, so an edit of a memory no call returns is still
// picked up without a call.
func TestLive_PollsWhenNotWatched(t *testing.T) {
	testOnlyNoWatch, pollEvery = true, 50*time.Millisecond
	t.Cleanup(func() { testOnlyNoWatch, pollEvery = false, 2*time.Second })
	f := newLiveFixture(t, "Deploy day", "Table tests")
	f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
	l, err := f.srv.lives.get(f.st)
	if err != nil {
		t.Fatal(err)
	}
	p := f.st.Path("table-tests.md")
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), "about Table tests", "tests as tables of cases", 1)), 0o600)
	waitFor(t, "the poller", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.snap == nil {
			return false
		}
		for i := range l.snap.Len() {
			if m, _, _ := l.snap.Memory(i); m.Description == "tests as tables of cases" {
				return true
			}
		}
		return false
	})
}

// TestLive_CloseStopsWatching: Close ends the watcher's and the pollers'
// goroutines (it waits for them) and a second Close is harmless.
func TestLive_CloseStopsWatching(t *testing.T) {
	f := newLiveFixture(t, "Deploy day")
	f.call(t, "memory_recall", map[string]any{"query": "deploy day"})
	done := make(chan error)
	go func() { done <- f.srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	if err := f.srv.Close(); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.call(t, "memory_recall", map[string]any{"query": "deploy day"}); !r.IsError {
		t.Error("a call after Close was answered")
	}
}

// TestList_Pages: memory_list pages through the folder once, says the
// total, and refuses a cursor it did not give or one of another type.
func TestList_Pages(t *testing.T) {
	var names []string
	for i := range 23 {
		names = append(names, fmt.Sprintf("Memory %02d", i))
	}
	f := newLiveFixture(t, names...)
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		args := map[string]any{"limit": 10}
		if cursor != "" {
			args["cursor"] = cursor
		}
		out := f.list(t, args)
		if out.Total != 23 {
			t.Fatalf("total %d, want 23", out.Total)
		}
		for _, m := range out.Memories {
			seen = append(seen, m.File)
		}
		if cursor = out.NextCursor; cursor == "" {
			if pages != 2 {
				t.Errorf("%d pages, want 3", pages+1)
			}
			break
		}
	}
	if len(seen) != 23 || !slices.IsSorted(seen) || len(slices.Compact(slices.Clone(seen))) != 23 {
		t.Errorf("pages gave %v", seen)
	}
	if out := f.list(t, nil); len(out.Memories) != 23 || out.NextCursor != "" {
		t.Errorf("default limit: %d memories, next %q", len(out.Memories), out.NextCursor)
	}
	first := f.list(t, map[string]any{"limit": 5})
	for _, args := range []map[string]any{
		{"cursor": "not-a-cursor"},
		{"cursor": first.NextCursor, "type": "user"},
		{"limit": -1},
	} {
		if r, text := f.call(t, "memory_list", args); !r.IsError || !strings.Contains(text, "list again") && args["limit"] == nil {
			t.Errorf("%v: %v %s", args, r.IsError, text)
		}
	}
}

func TestIgnored(t *testing.T) {
	for name, want := range map[string]bool{
		"deploy-day.md": false, "MEMORY.md": true, ".deploy-day.md.tmp-123": true, ".memdir-cache": true,
		".memdir.lock": true, "notes.txt": true, ".forgotten": true,
	} {
		if got := ignored(name); got != want {
			t.Errorf("ignored(%q) = %v, want %v", name, got, want)
		}
	}
}
