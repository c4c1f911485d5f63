package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
	"github.com/memdir/memdir/internal/workspace"
)

const feedbackDescription = `Mark a memory helpful or wrong, with a short note on why. Call it when a recalled or listed memory clearly helped with the task (helpful), or turned out false or outdated (wrong: then also fix it with memory_update or remove it with memory_forget). The marks are kept beside the memory folder, never in the memory, and memory_list with stats shows them.`

// FeedbackIn is memory_feedback's input.
type FeedbackIn struct {
	Common
	Name    string `json:"name" jsonschema:"the memory's name or file (as memory_list shows it: team/<file> for a team memory)"`
	Verdict string `json:"verdict" jsonschema:"helpful or wrong"`
	Note    string `json:"note,omitempty" jsonschema:"why, in a sentence"`
}

// feedback is memory_feedback: workspace.Mark by an agent.
func (h *handlers) feedback(ctx context.Context, _ *mcp.CallToolRequest, in FeedbackIn) (*mcp.CallToolResult, workspace.Marked, error) {
	v, err := usage.ParseVerdict(in.Verdict)
	if err != nil {
		return nil, workspace.Marked{}, fmt.Errorf("%w: give verdict \"helpful\" or \"wrong\"", err)
	}
	// A team memory, named team/<file>, is marked in the team folder.
	ws, scope, name, err := h.p.named(in.Project, "", in.Name)
	if err != nil {
		return nil, workspace.Marked{}, toolHint(err)
	}
	m, err := ws.Mark(ctx, name, v, in.Note, "mcp")
	if scope == "" {
		err = h.p.notPrivate(in.Project, scope, name, err)
	}
	if errors.Is(err, memdir.ErrNotFound) {
		return nil, m, fmt.Errorf("%w (memory_list shows the memories' names)", err)
	}
	if err != nil {
		return nil, m, err
	}
	msg := fmt.Sprintf("marked %s %s: helpful %d, wrong %d; injected %d times", m.File, v, m.Record.Helpful, m.Record.Wrong, m.Record.Injected)
	if m.Aside != "" {
		msg += fmt.Sprintf(" (the usage file could not be read: kept as %s, a fresh one started)", m.Aside)
	}
	return text("%s", msg), m, nil
}

// statsText is a manifest line's evidence of use.
func statsText(r usage.Record) string {
	last := "never"
	if !r.LastInjected.IsZero() {
		last = r.LastInjected.UTC().Format(time.DateOnly)
	}
	return fmt.Sprintf(" [injected %d, last %s, helpful %d, wrong %d]", r.Injected, last, r.Helpful, r.Wrong)
}
