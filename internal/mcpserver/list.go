package mcpserver

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
	"github.com/memdir/memdir/internal/workspace"
)

const listDescription = `List the project's memories as a manifest — type, file, name, description, last update — without bodies, optionally of one type, a page at a time: grouped by type (user, feedback, project, reference, then untyped), then by file. Call it to see what is remembered before saving something that may already be there. With stats, each memory also gets its usage: how often recall injected it, when last, and its helpful and wrong marks (memory_feedback).

A reply holds at most limit memories (default 100, at most 1000), the total of that type, and next_cursor when more follow: pass it back as cursor, with the same type, for the next page. A cursor is a place in that order, not a page number: memories saved or forgotten between two pages move no other memory, so the memories that stayed are never skipped nor repeated; one saved before the cursor's place is not shown (list again without a cursor to see it). A cursor that is not one memory_list gave, or given with another type, is an error: list again without one.`

// Paging of memory_list.
const (
	defaultListLimit = 100
	maxListLimit     = 1000
	// maxProblems bounds the unreadable files a reply names.
	maxProblems = 20
)

// ListIn filters memory_list.
type ListIn struct {
	Common
	Type   string `json:"type,omitempty" jsonschema:"only this type: user, feedback, project, reference or untyped"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous reply, for the page after it; empty: the first page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many memories (default 100, at most 1000)"`
	Stats  bool   `json:"stats,omitempty" jsonschema:"add each memory's usage: times recall injected it, the last time, and helpful and wrong marks"`
}

// ManifestEntry is one line of the manifest.
type ManifestEntry struct {
	File        string    `json:"file"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Type        string    `json:"type"`
	Updated     time.Time `json:"updated"`
	// Usage is the memory's evidence of use, with stats.
	Usage *usage.Record `json:"usage,omitempty"`
}

// ListOut is memory_list's result.
type ListOut struct {
	Memories []ManifestEntry `json:"memories"`
	// Total is how many memories of that type there are now, on every page.
	Total int `json:"total"`
	// NextCursor continues after the last memory of this page; "" when it
	// is the last page.
	NextCursor string   `json:"next_cursor,omitempty"`
	Problems   []string `json:"problems,omitempty"`
}

// A cursor is the filter and the key of the last memory a page showed,
// opaque to the client.
const cursorVersion = "c1"

func encodeCursor(typ string, k workspace.Key) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorVersion + "\x00" + typ + "\x00" + k.Type + "\x00" + k.File))
}

func decodeCursor(c, typ string) (workspace.Key, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	parts := strings.Split(string(b), "\x00")
	if err != nil || len(parts) != 4 || parts[0] != cursorVersion || parts[3] == "" {
		return workspace.Key{}, errors.New("cursor is not one memory_list gave: list again without a cursor")
	}
	if parts[1] != typ {
		return workspace.Key{}, fmt.Errorf("cursor is from a list of type %q, not %q: pass that type, or list again without a cursor", parts[1], typ)
	}
	return workspace.Key{Type: parts[2], File: parts[3]}, nil
}

func (h *handlers) list(ctx context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	out := ListOut{Memories: []ManifestEntry{}}
	if in.Type != "" && in.Type != workspace.Untyped {
		if _, err := memdir.ParseType(in.Type); err != nil {
			return nil, out, err
		}
	}
	limit := in.Limit
	switch {
	case limit < 0:
		return nil, out, errors.New("limit must not be negative")
	case limit == 0:
		limit = defaultListLimit
	}
	limit = min(limit, maxListLimit)
	var after workspace.Key
	if in.Cursor != "" {
		k, err := decodeCursor(in.Cursor, in.Type)
		if err != nil {
			return nil, out, err
		}
		after = k
	}
	ws, err := h.openRead(in.Project)
	if errors.Is(err, memdir.ErrNotFound) {
		return text("No memories for this project yet."), out, nil
	}
	if err != nil {
		return nil, out, err
	}
	l, err := h.lives.get(ws.Store)
	if err != nil {
		return nil, out, err
	}
	var page []workspace.Listed
	var problems []error
	for try := 0; ; try++ {
		ls, probs, err := l.listingOf(ctx)
		if err != nil {
			return nil, out, err
		}
		var more bool
		page, more, err = ls.Page(in.Type, after, limit)
		if err != nil {
			return nil, out, err
		}
		docs := make([]int, len(page))
		for i, m := range page {
			docs[i] = m.Doc
		}
		// A memory of the page changed in place, its event on its way:
		// check the folder and page again.
		if try == 0 && l.changed(ls.Snapshot(), docs) {
			continue
		}
		out.Total, problems = ls.Count(in.Type), probs
		if more {
			out.NextCursor = encodeCursor(in.Type, page[len(page)-1].Key())
		}
		break
	}
	var stats map[string]usage.Record
	if in.Stats {
		f, err := ws.Usage(ctx)
		if err != nil {
			return nil, out, err
		}
		stats = f.Memories
	}
	var b strings.Builder
	for _, m := range page {
		t := m.Type
		e := ManifestEntry{File: m.File, Name: m.Name, Description: m.Description, Type: t, Updated: m.Saved.UTC()}
		extra := ""
		if stats != nil {
			r := stats[m.File]
			e.Usage, extra = &r, statsText(r)
		}
		out.Memories = append(out.Memories, e)
		if t == "" {
			t = workspace.Untyped
		}
		fmt.Fprintf(&b, "- [%s] %s (%s): %s%s\n", t, m.File, m.Saved.UTC().Format(time.DateOnly), m.Description, extra)
	}
	if len(page) == 0 {
		b.WriteString("No memories match.\n")
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&b, "%d of %d shown; for the next page, call again with cursor %q.\n", len(page), out.Total, out.NextCursor)
	} else if in.Cursor != "" || len(page) < out.Total {
		fmt.Fprintf(&b, "Last page (%d memories in all).\n", out.Total)
	}
	// Unreadable files are named on the first page only.
	if in.Cursor == "" {
		for i, p := range problems {
			if i == maxProblems {
				out.Problems = append(out.Problems, fmt.Sprintf("%d more; run 'memdir doctor'", len(problems)-i))
				fmt.Fprintf(&b, "problem: %d more; run 'memdir doctor'\n", len(problems)-i)
				break
			}
			out.Problems = append(out.Problems, p.Error())
			fmt.Fprintf(&b, "problem: %v\n", p)
		}
	}
	return text("%s", b.String()), out, nil
}
