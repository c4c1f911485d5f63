package mcpserver

import (
	"context"
	"strings"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const consolidateDescription = "Plan the consolidation of the project's memories, without writing anything: near-duplicates to merge, contradictions where the newer memory supersedes the older, relative dates to make absolute, project facts whose date has passed to archive, memories to prune (with their usage evidence), descriptions to shorten. Each operation has an id, its reason and evidence; 'left_for_model' lists what the offline engine could not decide. Call it when memory looks cluttered or contradictory; a person applies the plan with 'memdir dream --apply' (undo: 'memdir dream --undo')."

const verifyDescription = "Check the project's memories against the project as it is now: every file path, function or type, command-line flag, command and package a memory names is looked up (renamed files found through git history). Returns each memory as fresh, stale (with the claims that failed), renamed (with the new path) or unchecked. With mark set, a stale memory gets a 'stale: <reason> (<date>)' field that recall shows beside it, and a mark that no longer holds is cleared; without it nothing is written. Call it before relying on a memory that names code, or when recall says a memory is possibly stale."

// addMaintenanceTools registers the tools that look after a memory folder.
func addMaintenanceTools(s *mcp.Server, h *handlers) {
	mcp.AddTool(s, &mcp.Tool{Name: "memory_consolidate", Annotations: readOnly, Description: consolidateDescription}, h.consolidate)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_verify", Annotations: updating, Description: verifyDescription}, h.verify)
}

// VerifyIn is memory_verify's input.
type VerifyIn struct {
	Common
	Mark bool `json:"mark,omitempty" jsonschema:"write stale marks (and clear those that no longer hold); default: report only"`
}

func (h *handlers) verify(ctx context.Context, _ *mcp.CallToolRequest, in VerifyIn) (*mcp.CallToolResult, workspace.VerifyReport, error) {
	ws, _, err := h.p.Open(in.Project, false)
	if err != nil {
		return nil, workspace.VerifyReport{}, err
	}
	rep, err := ws.Verify(ctx, workspace.VerifyOptions{DryRun: !in.Mark})
	if err != nil {
		return nil, rep, err
	}
	var b strings.Builder
	if err := workspace.WriteVerify(&b, rep); err != nil {
		return nil, rep, err
	}
	return text("%s", b.String()), rep, nil
}

// ConsolidateIn is memory_consolidate's input.
type ConsolidateIn struct {
	Common
}

func (h *handlers) consolidate(ctx context.Context, _ *mcp.CallToolRequest, in ConsolidateIn) (*mcp.CallToolResult, workspace.DreamReport, error) {
	ws, _, err := h.p.Open(in.Project, false)
	if err != nil {
		return nil, workspace.DreamReport{}, err
	}
	rep, err := ws.Dream(ctx, workspace.DreamOptions{})
	if err != nil {
		return nil, rep, err
	}
	var b strings.Builder
	if err := workspace.WriteDream(&b, rep); err != nil {
		return nil, rep, err
	}
	return text("%s", b.String()), rep, nil
}
