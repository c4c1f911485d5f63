package workspace

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
)

// MemoryJSON is a memory as the CLI's --json prints it (list, show).
type MemoryJSON struct {
	File         string    `json:"file"`
	Path         string    `json:"path"`
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	Type         string    `json:"type"`
	Scope        string    `json:"scope,omitempty"`
	Author       string    `json:"author,omitempty"` // who added a team memory
	Created      time.Time `json:"created,omitzero"`
	Updated      time.Time `json:"updated,omitzero"`
	Modified     time.Time `json:"modified"`
	Source       string    `json:"source,omitempty"`
	Trust        string    `json:"trust,omitempty"`
	Refs         []string  `json:"refs,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Pinned       bool      `json:"pinned,omitempty"`
	Stale        string    `json:"stale,omitempty"`
	Size         int64     `json:"size"`
	Body         *string   `json:"body,omitempty"`
	// Forgotten is the tombstone of a team memory back despite it (a
	// stale branch merged): recall leaves it out until a person settles
	// it with 'memdir team resolve'.
	Forgotten *memdir.Tombstone `json:"forgotten,omitempty"`
	// Usage is the memory's evidence of use (list --stats).
	Usage *usage.Record `json:"usage,omitempty"`
}

// ToJSON is m as MemoryJSON; withBody adds its body.
func ToJSON(st *memdir.Store, m memdir.Memory, withBody bool) MemoryJSON {
	j := MemoryJSON{
		File: m.File, Path: st.Path(m.File), Name: m.Title(), Description: m.Summary(), Type: string(m.Type),
		Scope: m.Scope, Author: m.Author, Created: m.Created, Updated: m.Updated, Modified: m.ModTime, Source: m.Source,
		Trust: m.Trust, Refs: m.Refs, SupersededBy: m.SupersededBy, Pinned: m.Pinned, Stale: m.Stale, Size: m.Size,
	}
	if withBody {
		j.Body = &m.Body
	}
	return j
}

// WriteText writes one line per memory of type typ, in columns — type,
// file, last update, then name — description — from the snapshot alone:
// a first pass measures the columns (as text/tabwriter would, which holds
// every line until it flushes), a second writes. It returns how many
// lines it wrote.
func (l *Listing) WriteText(w io.Writer, typ string) (int, error) {
	return WriteListText(w, typ, ListPart{Listing: l})
}

// WriteJSON streams the memories of type typ as a JSON array, element by
// element; each memory's fields beyond the snapshot's are read from its
// file, one at a time, so memory use does not grow with the folder. A file
// that can no longer be read is passed to warn and left out.
func (l *Listing) WriteJSON(w io.Writer, st *memdir.Store, typ string, warn func(error)) (unread int, err error) {
	return WriteListJSON(w, typ, warn, ListPart{Listing: l, Store: st})
}

// WriteListText is WriteText over several folders' listings, in one set
// of columns: the parts in order. A team memory is named team/<file> and
// shows its created day and "[team by <author>]" (read from its file).
func WriteListText(w io.Writer, typ string, parts ...ListPart) (int, error) {
	label := func(m Listed) string { return cmp.Or(m.Type, Untyped) }
	typeW, fileW, n := 0, 0, 0
	for _, p := range parts {
		for m, err := range p.All(typ, Key{}) {
			if err != nil {
				return 0, err
			}
			typeW = max(typeW, utf8.RuneCountInString(label(m)))
			fileW = max(fileW, utf8.RuneCountInString(p.name(m.File)))
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	bw := bufio.NewWriter(w)
	for _, p := range parts {
		for m, err := range p.All(typ, Key{}) {
			if err != nil {
				bw.Flush()
				return 0, err
			}
			t, file, day, mark := label(m), p.name(m.File), m.Saved, ""
			if p.Team {
				// Who added it and when: a team memory is somebody's.
				mark = "[team] "
				if full, err := p.Store.Read(m.File); err == nil {
					if !full.Created.IsZero() {
						day = full.Created
					}
					if full.Author != "" {
						mark = "[team by " + full.Author + "] "
					}
				}
				mark += p.forgotten(m.File)
			}
			// The name is what show, edit and forget take; the file name
			// works too.
			fmt.Fprintf(bw, "%s%*s%s%*s%s  %s%s%s — %s\n", t, typeW-utf8.RuneCountInString(t)+2, "", file, fileW-utf8.RuneCountInString(file)+2, "",
				day.Local().Format("2006-01-02"), p.statsColumn(m.File), mark, m.Name, m.Description)
		}
	}
	return n, bw.Flush()
}

// WriteListJSON is WriteJSON over several folders' listings, as one
// array: the parts in order. Every entry carries its folder's scope
// (whatever its frontmatter says) and a team memory its author, named
// team/<file>.
func WriteListJSON(w io.Writer, typ string, warn func(error), parts ...ListPart) (unread int, err error) {
	bw := bufio.NewWriter(w)
	n := 0
	for _, p := range parts {
		for e, err := range p.All(typ, Key{}) {
			if err != nil {
				bw.Flush()
				return unread, err
			}
			m, err := p.Store.Read(e.File)
			if err != nil {
				warn(err)
				unread++
				continue
			}
			j := p.json(m, false)
			if p.Stats != nil {
				r := p.Stats[e.File]
				j.Usage = &r
			}
			b, err := json.MarshalIndent(j, "  ", "  ")
			if err != nil {
				return unread, err
			}
			if n == 0 {
				bw.WriteString("[\n  ")
			} else {
				bw.WriteString(",\n  ")
			}
			bw.Write(b)
			n++
		}
	}
	if n == 0 {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	return unread, bw.Flush()
}

// AddStats gives the listing the evidence of use of w's memories
// (Workspace.Usage): WriteText and WriteJSON then show it.
func (l *Listing) AddStats(ctx context.Context, w *Workspace) error {
	f, err := w.Usage(ctx)
	if err != nil {
		return err
	}
	l.Stats = f.Memories
	return nil
}

// statsColumn is the text listing's column of file's evidence of use:
// injections, the last one's day, helpful and wrong marks; "" without
// stats.
func (l *Listing) statsColumn(file string) string {
	if l.Stats == nil {
		return ""
	}
	r := l.Stats[file]
	last := "never     "
	if !r.LastInjected.IsZero() {
		last = r.LastInjected.Local().Format("2006-01-02")
	}
	return fmt.Sprintf("injected %3d  last %s  helpful %d  wrong %d  ", r.Injected, last, r.Helpful, r.Wrong)
}

// Write writes what Mark did on w: the memory and its evidence now, as
// indented JSON with asJSON; a usage file kept aside is a warning on warn.
func (m Marked) Write(w, warn io.Writer, asJSON bool) error {
	if m.Aside != "" {
		fmt.Fprintf(warn, "memdir: warning: the usage file could not be read: kept as %s, a fresh one started\n", m.Aside)
	}
	if asJSON {
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	r := m.Record
	last := "never"
	if !r.LastInjected.IsZero() {
		last = r.LastInjected.Local().Format("2006-01-02")
	}
	verdict := ""
	if n := len(r.Notes); n > 0 {
		verdict = string(r.Notes[n-1].Verdict)
	}
	_, err := fmt.Fprintf(w, "marked %s %s: helpful %d, wrong %d; injected %d times (last %s)\n", m.File, verdict, r.Helpful, r.Wrong, r.Injected, last)
	return err
}
