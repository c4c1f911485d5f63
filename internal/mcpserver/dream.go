package mcpserver

import (
	"context"
	"strings"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const consolidateDescription = "Plan the consolidation of the project's memories, without writing anything: near-duplicates to merge, contradictions where the newer memory supersedes the older, relative dates to make absolute, project facts whose date has passed to archive, memories to prune (with their usage evidence), descriptions to shorten. Each operation has an id, its reason and evidence; 'left_for_model' lists what the offline engine could not decide. Call it when memory looks cluttered or contradictory; a person applies the plan with 'memdir dream --apply' (undo: 'memdir dream --undo')."

// addMaintenanceTools registers the tools that look after a memory folder.
func addMaintenanceTools(s *mcp.Server, h *handlers) {
	mcp.AddTool(s, &mcp.Tool{Name: "memory_consolidate", Annotations: readOnly, Description: consolidateDescription}, h.consolidate)
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
