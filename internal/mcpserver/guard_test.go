package mcpserver

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRecoverPanics: a panicking handler becomes that call's error, and the
// server goes on answering.
func TestRecoverPanics(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	type in struct {
		Boom bool `json:"boom"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "t"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		if a.Boom {
			panic("tool boom")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "fine"}}}, nil, nil
	})
	s.AddResource(&mcp.Resource{URI: "t://r", Name: "r"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		panic("resource boom")
	})
	s.AddReceivingMiddleware(recoverPanics)
	cs := connect(t, s)
	ctx := t.Context()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t", Arguments: map[string]any{"boom": true}})
	if err != nil || !r.IsError || !strings.Contains(r.Content[0].(*mcp.TextContent).Text, "t failed: internal error: tool boom") {
		t.Fatalf("panicking call: %+v, %v", r, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "t://r"}); err == nil || !strings.Contains(err.Error(), "internal error: resource boom") {
		t.Fatalf("panicking resource: %v", err)
	}
	r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "t", Arguments: map[string]any{"boom": false}})
	if err != nil || r.IsError {
		t.Fatalf("the call after a panic: %+v, %v", r, err)
	}
}

// TestAnnotations: clients are told which tools only read and which one
// destroys.
func TestAnnotations(t *testing.T) {
	cs := connect(t, newTest(t, testEnv(t)).Server)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.ToolAnnotations{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool.Annotations
	}
	for _, name := range []string{"memory_recall", "memory_get", "memory_list", "transcript_search", "memory_consolidate"} {
		if a := got[name]; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s is not marked read-only: %+v", name, a)
		}
	}
	for _, name := range []string{"memory_save", "memory_update", "memory_forget", "memory_feedback"} {
		if a := got[name]; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil {
			t.Errorf("%s: %+v", name, a)
		}
	}
	if a := got["memory_forget"]; a == nil || !*a.DestructiveHint {
		t.Errorf("memory_forget is not marked destructive: %+v", a)
	}
	if a := got["memory_save"]; a == nil || *a.DestructiveHint {
		t.Errorf("memory_save is marked destructive: %+v", a)
	}
	if a := got["memory_feedback"]; a == nil || *a.DestructiveHint {
		t.Errorf("memory_feedback is marked destructive: %+v", a)
	}
	if a := got["diary_write"]; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("diary_write is not marked additive: %+v", a)
	}
	if len(got) != 11 {
		t.Errorf("%d tools, want 11", len(got))
	}
}

func connect(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// testEnv is a workspace environment on a temporary agent home and
// project.
func testEnv(t *testing.T) workspace.Env {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	vars := map[string]string{"HOME": home, "MEMDIR_HOME": filepath.Join(home, ".claude")}
	return workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: project, Holder: "test"}
}

// newTest is New on env, closed with the test.
func newTest(t *testing.T, env workspace.Env) *Server {
	t.Helper()
	s := New(env, "test")
	t.Cleanup(func() { s.Close() })
	return s
}
