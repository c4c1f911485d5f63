package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGuard: a panicking handler becomes that call's error, and the server
// goes on answering.
func TestGuard(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	type in struct {
		Boom bool `json:"boom"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "t"}, guard("t", func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		if a.Boom {
			panic("tool boom")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "fine"}}}, nil, nil
	}))
	s.AddResource(&mcp.Resource{URI: "t://r", Name: "r"}, guardResource(func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		panic("resource boom")
	}))
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t", Arguments: map[string]any{"boom": true}})
	if err != nil || !r.IsError || !strings.Contains(r.Content[0].(*mcp.TextContent).Text, "t failed: internal error") {
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
