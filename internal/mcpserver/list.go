package mcpserver

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/usage"
	"github.com/memdir/memdir/internal/workspace"
)

const listDescription = `List the project's memories as a manifest — type, file, name, description, last update — without bodies, optionally of one type, a page at a time: grouped by type (user, feedback, project, reference, then untyped), then by file. Call it to see what is remembered before saving something that may already be there. scope all (the default) lists the private memories, then the project's team memories (shared through git, named team/<file>, each with its author); scope private or team lists one folder. With stats, each memory also gets its usage: how often recall injected it, when last, and its helpful and wrong marks (memory_feedback).

A reply holds at most limit memories (default 100, at most 1000), the total of that type, and next_cursor when more follow: pass it back as cursor, with the same type, for the next page. A cursor is a place in that order, not a page number: memories saved or forgotten between two pages move no other memory, so the memories that stayed are never skipped nor repeated; one saved before the cursor's place is not shown (list again without a cursor to see it). A cursor that is not one memory_list gave, or given with another type or scope, is an error: list again without one.`

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
	Scope  string `json:"scope,omitempty" jsonschema:"private, team or all (default): the private memories, then the team's"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous reply, for the page after it; empty: the first page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many memories (default 100, at most 1000)"`
	Stats  bool   `json:"stats,omitempty" jsonschema:"add each memory's usage: times recall injected it, the last time, and helpful and wrong marks"`
}

// ManifestEntry is one line of the manifest.
type ManifestEntry struct {
	File        string    `json:"file"`             // team/<file> for a team memory
	Scope       string    `json:"scope"`            // private or team
	Author      string    `json:"author,omitempty"` // who added a team memory
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Type        string    `json:"type"`
	Updated     time.Time `json:"updated"`
	// Forgotten is the tombstone of a team memory back despite it (a
	// stale branch merged): recall leaves it out until a person settles
	// it ('memdir team resolve team/<file> --keep' or '--drop').
	Forgotten *memdir.Tombstone `json:"forgotten,omitempty"`
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

// A cursor is the filters (type, scope), the folder (private or team) and
// the key of the last memory a page showed, opaque to the client.
const cursorVersion = "c2"

func encodeCursor(typ, scope, folder string, k workspace.Key) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorVersion + "\x00" + typ + "\x00" + scope + "\x00" + folder + "\x00" + k.Type + "\x00" + k.File))
}

func decodeCursor(c, typ, scope string) (folder string, k workspace.Key, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	parts := strings.Split(string(b), "\x00")
	if err != nil || len(parts) != 6 || parts[0] != cursorVersion || parts[5] == "" ||
		(parts[3] != memdir.ScopePrivate && parts[3] != memdir.ScopeTeam) {
		return "", workspace.Key{}, errors.New("cursor is not one memory_list gave: list again without a cursor")
	}
	if parts[1] != typ {
		return "", workspace.Key{}, fmt.Errorf("cursor is from a list of type %q, not %q: pass that type, or list again without a cursor", parts[1], typ)
	}
	if parts[2] != scope {
		return "", workspace.Key{}, fmt.Errorf("cursor is from a list of scope %q, not %q: pass that scope, or list again without a cursor", parts[2], scope)
	}
	return parts[3], workspace.Key{Type: parts[4], File: parts[5]}, nil
}

// listFolder is one folder of a memory_list: its workspace, live
// snapshot and listing, and what could not be read.
type listFolder struct {
	ws       *workspace.Workspace
	live     *live
	listing  *workspace.Listing
	problems []error
}

// folderRank is a folder's place in a list of all: private first.
func folderRank(scope string) int {
	if scope == memdir.ScopeTeam {
		return 1
	}
	return 0
}

// folders opens the folders of scope ("" is all): the private one, then
// the team one, each when the project has it; team asked for by name
// must exist. Listing all, a team folder that cannot be used (a file, a
// link out of the project) is skipped, its error returned as skipped.
func (h *handlers) folders(project, scope string) (_ []*listFolder, skipped, _ error) {
	var out []*listFolder
	ws, err := h.openRead(project)
	switch {
	case errors.Is(err, memdir.ErrNotFound):
		ws = nil
	case err != nil:
		return nil, nil, err
	}
	if scope != memdir.ScopeTeam && ws != nil {
		out = append(out, &listFolder{ws: ws})
	}
	if scope != memdir.ScopePrivate {
		var t *workspace.Workspace
		if ws != nil {
			t, err = ws.Team(false)
		} else {
			t, _, err = h.p.Scoped(project, memdir.ScopeTeam, false)
		}
		switch {
		case errors.Is(err, workspace.ErrNoTeam) && scope != memdir.ScopeTeam:
		case err != nil && scope != memdir.ScopeTeam:
			skipped = fmt.Errorf("team memories left out: %w", err)
		case err != nil:
			return nil, nil, toolHint(err)
		default:
			out = append(out, &listFolder{ws: t})
		}
	}
	return out, skipped, nil
}

func (h *handlers) list(ctx context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	out := ListOut{Memories: []ManifestEntry{}}
	if in.Type != "" && in.Type != workspace.Untyped {
		if _, err := memdir.ParseType(in.Type); err != nil {
			return nil, out, err
		}
	}
	if err := workspace.CheckScope(in.Scope, true); err != nil {
		return nil, out, err
	}
	scope := in.Scope
	if scope == workspace.ScopeAll {
		scope = ""
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
	from := memdir.ScopePrivate
	if in.Cursor != "" {
		f, k, err := decodeCursor(in.Cursor, in.Type, scope)
		if err != nil {
			return nil, out, err
		}
		from, after = f, k
	}
	folders, skipped, err := h.folders(in.Project, scope)
	if err != nil {
		return nil, out, err
	}

	if len(folders) == 0 {
		if skipped != nil {
			out.Problems = append(out.Problems, skipped.Error())
			return text("No memories for this project yet.\nproblem: %v", skipped), out, nil
		}
		return text("No memories for this project yet."), out, nil
	}
	type shown struct {
		workspace.Listed
		f *listFolder
	}
	var page []shown
	for try := 0; ; try++ {
		page, out.Total = page[:0], 0
		more, changed, dropped := false, false, false
		for i, f := range folders {
			if f.live, err = h.lives.get(f.ws.Store); err == nil {
				f.listing, f.problems, err = f.live.listingOf(ctx)
			}
			if err != nil && f.ws.IsTeam() && scope == "" {
				// Listing all, a team folder that cannot be read (it
				// became a file since it was opened) is left out.
				skipped, dropped = fmt.Errorf("team memories left out: %w", err), true
				folders = slices.Delete(folders, i, i+1)
				break
			}
			if err != nil {
				return nil, out, err
			}
			out.Total += f.listing.Count(in.Type)
			if more || folderRank(f.ws.Scope()) < folderRank(from) {
				continue // the page is full, or the cursor is in a later folder
			}
			k := workspace.Key{}
			if f.ws.Scope() == from {
				k = after
			}
			// With the page full already (limit 0), Page still says
			// whether this folder has more.
			got, m, err := f.listing.Page(in.Type, k, limit-len(page))
			if err != nil {
				return nil, out, err
			}
			more = m
			docs := make([]int, len(got))
			for i, e := range got {
				docs[i] = e.Doc
				page = append(page, shown{e, f})
			}
			// A memory of the page changed in place, its event on its
			// way: check the folder and page again.
			if try == 0 && f.live.changed(f.listing.Snapshot(), docs) {
				changed = true
			}
		}
		if changed || dropped {
			continue
		}
		if more && len(page) > 0 {
			last := page[len(page)-1]
			out.NextCursor = encodeCursor(in.Type, scope, last.f.ws.Scope(), last.Key())
		}
		break
	}
	stats := map[*listFolder]map[string]usage.Record{}
	if in.Stats {
		for _, f := range folders {
			u, err := f.ws.Usage(ctx)
			if err != nil {
				return nil, out, err
			}
			stats[f] = u.Memories
		}
	}
	forgotten := map[*listFolder]map[string]memdir.Tombstone{}
	for _, f := range folders {
		forgotten[f] = f.ws.Forgotten()
	}
	var b strings.Builder
	for _, m := range page {
		t := m.Type
		e := ManifestEntry{File: m.f.ws.ShownName(m.File), Scope: m.f.ws.Scope(), Name: m.Name, Description: m.Description, Type: t, Updated: m.Saved.UTC()}
		extra := ""
		if in.Stats {
			r := stats[m.f][m.File]
			e.Usage, extra = &r, statsText(r)
		}
		mark := ""
		if m.f.ws.IsTeam() {
			// Who added it: read from its file (a team folder is small).
			mark = " [team]"
			if full, err := m.f.ws.Store.Read(m.File); err == nil && full.Author != "" {
				e.Author, mark = full.Author, " [team, by "+full.Author+"]"
			}
			if tomb, ok := forgotten[m.f][m.File]; ok {
				e.Forgotten = &tomb
				mark += " [forgotten" + tomb.Who() + "; not recalled until a person runs 'memdir team resolve " + e.File + " --keep' or '--drop']"
			}
		}
		out.Memories = append(out.Memories, e)
		if t == "" {
			t = workspace.Untyped
		}
		fmt.Fprintf(&b, "- [%s] %s (%s)%s: %s%s\n", t, e.File, m.Saved.UTC().Format(time.DateOnly), mark, m.Description, extra)
	}
	if skipped != nil {
		out.Problems = append(out.Problems, skipped.Error())
		fmt.Fprintf(&b, "problem: %v\n", skipped)
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
		var problems []error
		for _, f := range folders {
			for _, p := range f.problems {
				if f.ws.IsTeam() {
					p = fmt.Errorf("%s: %w", paths.TeamFolder, p)
				}
				problems = append(problems, p)
			}
		}
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
