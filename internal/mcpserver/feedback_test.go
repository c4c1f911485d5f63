package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/workspace"
)

// TestFeedback: memory_feedback marks a memory, memory_list with stats
// shows the marks and the injections of the recall log.
func TestFeedback(t *testing.T) {
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	call := func(tool string, args map[string]any) (*mcp.CallToolResult, string) {
		t.Helper()
		r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return r, b.String()
	}
	if r, text := call("memory_save", map[string]any{"type": "project", "name": "Deploy freeze", "description": "No deploys on Fridays", "body": "Ask."}); r.IsError {
		t.Fatal(text)
	}
	l, err := env.Layout()
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]any{"time": time.Now().Add(-time.Hour), "project": l.ProjectRoot, "files": []string{"deploy-freeze.md"}})
	os.MkdirAll(filepath.Join(l.SynthesisDir, "logs"), 0o700)
	os.WriteFile(filepath.Join(l.SynthesisDir, filepath.FromSlash(workspace.RecallLog)), append(line, '\n'), 0o600)

	r, text := call("memory_feedback", map[string]any{"name": "Deploy freeze", "verdict": "wrong", "note": "the freeze ended"})
	if r.IsError || !strings.Contains(text, "marked deploy-freeze.md wrong: helpful 0, wrong 1; injected 1 times") {
		t.Errorf("feedback: %s", text)
	}
	var m workspace.Marked
	b, _ := json.Marshal(r.StructuredContent)
	json.Unmarshal(b, &m)
	if m.File != "deploy-freeze.md" || m.Record.Wrong != 1 || len(m.Record.Notes) != 1 || m.Record.Notes[0].By != "mcp" {
		t.Errorf("structured: %s", b)
	}
	for _, args := range []map[string]any{
		{"name": "No such memory", "verdict": "helpful"},
		{"name": "Deploy freeze", "verdict": "maybe"},
	} {
		if r, text := call("memory_feedback", args); !r.IsError || !strings.Contains(text, "memory_list") && !strings.Contains(text, `"helpful" or "wrong"`) {
			t.Errorf("%v: %v %s", args, r.IsError, text)
		}
	}

	if _, text := call("memory_list", map[string]any{}); strings.Contains(text, "injected") {
		t.Errorf("stats without asking: %s", text)
	}
	r, text = call("memory_list", map[string]any{"stats": true})
	if !strings.Contains(text, "[injected 1, last "+time.Now().Add(-time.Hour).UTC().Format(time.DateOnly)+", helpful 0, wrong 1]") {
		t.Errorf("list with stats: %s", text)
	}
	var out ListOut
	b, _ = json.Marshal(r.StructuredContent)
	json.Unmarshal(b, &out)
	if len(out.Memories) != 1 || out.Memories[0].Usage == nil || out.Memories[0].Usage.Injected != 1 || out.Memories[0].Usage.Wrong != 1 {
		t.Errorf("structured list: %s", b)
	}
}
