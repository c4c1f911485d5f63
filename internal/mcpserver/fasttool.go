package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addHotTool adds a tool as mcp.AddTool does — the same input and output
// schemas, derived from In and Out, the arguments checked against the
// input schema, the output as structured content and, when the handler
// gives no content, as text — for a tool on the hot path (memory_recall,
// on every prompt of an agent that recalls through MCP). Two costs of the
// SDK's generic path are left out: arguments are decoded with the
// standard library rather than the SDK's decoder (a 32 KB buffer per
// value), and the output, a value of Out the handler built, is not
// validated again against the schema derived from that same type
// (TestHotTool_OutputMatchesSchema checks the replies do match it). Both
// were a fifth of a warm memory_recall at 10k memories.
func addHotTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) error {
	in, err := jsonschema.For[In](&jsonschema.ForOptions{})
	if err != nil {
		return fmt.Errorf("%s: input schema: %w", t.Name, err)
	}
	inResolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return fmt.Errorf("%s: input schema: %w", t.Name, err)
	}
	out, err := jsonschema.For[Out](&jsonschema.ForOptions{})
	if err != nil {
		return fmt.Errorf("%s: output schema: %w", t.Name, err)
	}
	tt := *t
	tt.InputSchema, tt.OutputSchema = in, out
	s.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := hotArguments[In](req.Params.Arguments, inResolved)
		if err != nil {
			var res mcp.CallToolResult
			res.SetError(fmt.Errorf("validating \"arguments\": %v", err))
			return &res, nil
		}
		res, o, err := h(ctx, req, args)
		if err != nil {
			if wire, ok := err.(*jsonrpc.Error); ok {
				return nil, wire
			}
			var res mcp.CallToolResult
			res.SetError(err)
			return &res, nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		data, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		res.StructuredContent = json.RawMessage(data)
		if res.Content == nil {
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		}
		return res, nil
	})
	return nil
}

// hotArguments decodes a tool's arguments into In once they pass the
// input schema (absent arguments are {}), its defaults applied.
func hotArguments[In any](raw json.RawMessage, schema *jsonschema.Resolved) (In, error) {
	var in In
	m := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return in, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var v any = m // as the SDK passes it
	if err := schema.ApplyDefaults(&v); err != nil {
		return in, fmt.Errorf("applying schema defaults: %w", err)
	}
	if err := schema.Validate(&v); err != nil {
		return in, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return in, err
	}
	err = json.Unmarshal(data, &in)
	return in, err
}
