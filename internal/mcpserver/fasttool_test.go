package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/workspace"
)

// TestHotTool_SameAsAddTool: memory_recall, added by addHotTool, shows
// clients the schemas mcp.AddTool would derive from its types, and
// refuses the arguments the SDK's generic path refuses.
func TestHotTool_SameAsAddTool(t *testing.T) {
	generic := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	h := &handlers{}
	mcp.AddTool(generic, &mcp.Tool{Name: "memory_recall"}, h.recall)
	want := toolSchemas(t, connect(t, generic))["memory_recall"]
	cs := connect(t, newTest(t, testEnv(t)).Server)
	if got := toolSchemas(t, cs)["memory_recall"]; got != want {
		t.Fatalf("memory_recall's schemas differ from mcp.AddTool's:\n got %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"query": 5}, "validating \"arguments\""},
		{map[string]any{"query": "deploys", "surprise": true}, "validating \"arguments\""},
		{map[string]any{"k": 3}, "validating \"arguments\""},
		{map[string]any{"query": "deploys", "k": "three"}, "validating \"arguments\""},
		{map[string]any{"query": "  "}, "query is required"},
	} {
		r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "memory_recall", Arguments: tc.args})
		if err != nil || !r.IsError || !strings.Contains(r.Content[0].(*mcp.TextContent).Text, tc.want) {
			t.Errorf("arguments %v: %+v, %v; want an error saying %q", tc.args, r, err, tc.want)
		}
	}
}

// TestHotTool_OutputMatchesSchema: memory_recall's replies — memories
// recalled, none recalled, no folder yet — validate against the output
// schema it advertises, the check addHotTool leaves out of each call.
func TestHotTool_OutputMatchesSchema(t *testing.T) {
	out, err := jsonschema.For[RecallOut](&jsonschema.ForOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := out.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	check := func(query string) {
		t.Helper()
		r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": query}})
		if err != nil || r.IsError {
			t.Fatalf("%q: %+v, %v", query, r, err)
		}
		data, _ := json.Marshal(r.StructuredContent)
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(&v); err != nil {
			t.Errorf("%q: the reply does not match the output schema: %v\n%s", query, err, data)
		}
		if len(r.Content) != 1 {
			t.Errorf("%q: %d content blocks, want the text", query, len(r.Content))
		}
	}
	check("deploy freeze") // no folder yet
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws.Store, "Deploy freeze", "No deploys on Fridays")
	check("when is the deploy freeze")
	check("an unrelated question about llamas")
}

// toolSchemas is each tool's input and output schema as a client sees them.
func toolSchemas(t *testing.T, cs *mcp.ClientSession) map[string]string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tool := range res.Tools {
		in, _ := json.Marshal(tool.InputSchema)
		o, _ := json.Marshal(tool.OutputSchema)
		out[tool.Name] = string(in) + "\n" + string(o)
	}
	return out
}
