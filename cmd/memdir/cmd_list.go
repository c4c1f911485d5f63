package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// memoryJSON is a memory as --json prints it.
type memoryJSON struct {
	File         string    `json:"file"`
	Path         string    `json:"path"`
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	Type         string    `json:"type"`
	Scope        string    `json:"scope,omitempty"`
	Created      time.Time `json:"created,omitzero"`
	Updated      time.Time `json:"updated,omitzero"`
	Modified     time.Time `json:"modified"`
	Source       string    `json:"source,omitempty"`
	Trust        string    `json:"trust,omitempty"`
	Refs         []string  `json:"refs,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Pinned       bool      `json:"pinned,omitempty"`
	Size         int64     `json:"size"`
	Body         *string   `json:"body,omitempty"`
}

func toJSON(st *memdir.Store, m memdir.Memory, withBody bool) memoryJSON {
	j := memoryJSON{
		File: m.File, Path: st.Path(m.File), Name: m.Title(), Description: m.Summary(), Type: string(m.Type),
		Scope: m.Scope, Created: m.Created, Updated: m.Updated, Modified: m.ModTime, Source: m.Source,
		Trust: m.Trust, Refs: m.Refs, SupersededBy: m.SupersededBy, Pinned: m.Pinned, Size: m.Size,
	}
	if withBody {
		j.Body = &m.Body
	}
	return j
}

func (a *app) listCmd() *cobra.Command {
	var typ string
	cmd := &cobra.Command{
		Use:   "list [--type TYPE]",
		Short: "List the project's memories",
		Long: `List prints one line per memory: type, file, last update, then name — description,
grouped by type. Files that cannot be parsed are named in a warning on stderr
and the others are still listed; the exit status stays 0 ('memdir doctor'
exits 1 on them).`,
		Example: `  memdir list
  memdir list --type feedback
  memdir list --type untyped --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if typ != "" && typ != workspace.Untyped {
				if _, err := memdir.ParseType(typ); err != nil {
					return withHint(err, "or use --type untyped for files without a type")
				}
			}
			st, l, err := a.store(false)
			if errors.Is(err, memdir.ErrNotFound) {
				if a.json {
					return a.printJSON([]memoryJSON{})
				}
				a.printf("no memories yet for %s\n", l.ProjectRoot)
				return nil
			}
			if err != nil {
				return err
			}
			ls, problems, err := workspace.List(a.ctx, st)
			if err != nil {
				return err
			}
			for _, p := range problems {
				a.warnf("%v", p)
			}
			var unread int
			if a.json {
				unread, err = a.listJSON(st, ls, typ)
			} else {
				err = a.listText(ls, typ)
			}
			if err != nil {
				return err
			}
			if n := len(problems) + unread; n > 0 {
				a.warnf("%s could not be read (named above); run 'memdir doctor' for details", sessions.Plural(n, "memory file"))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&typ, "type", "", "only this type: user, feedback, project, reference or untyped")
	return cmd
}

// listText prints one line per memory from the snapshot, in columns: a
// first pass over the snapshot measures them (as text/tabwriter would,
// which holds every line until it flushes), a second prints.
func (a *app) listText(ls *workspace.Listing, typ string) error {
	label := func(m workspace.Listed) string { return cmp.Or(m.Type, workspace.Untyped) }
	typeW, fileW, n := 0, 0, 0
	for m, err := range ls.All(typ, workspace.Key{}) {
		if err != nil {
			return err
		}
		typeW = max(typeW, utf8.RuneCountInString(label(m)))
		fileW = max(fileW, utf8.RuneCountInString(m.File))
		n++
	}
	if n == 0 {
		a.printf("no memories match\n")
		return nil
	}
	w := bufio.NewWriter(a.stdout)
	for m, err := range ls.All(typ, workspace.Key{}) {
		if err != nil {
			w.Flush()
			return err
		}
		t := label(m)
		// The name is what show, edit and forget take; the file name
		// works too.
		fmt.Fprintf(w, "%s%*s%s%*s%s  %s — %s\n", t, typeW-utf8.RuneCountInString(t)+2, "", m.File, fileW-utf8.RuneCountInString(m.File)+2, "",
			m.Saved.Local().Format("2006-01-02"), m.Name, m.Description)
	}
	return w.Flush()
}

// listJSON streams the --json array element by element; each memory's
// fields beyond the snapshot's are read from its file, one at a time.
// A file that can no longer be read is warned about and left out.
func (a *app) listJSON(st *memdir.Store, ls *workspace.Listing, typ string) (unread int, err error) {
	a.printedJSON = true
	w := bufio.NewWriter(a.stdout)
	n := 0
	for l, err := range ls.All(typ, workspace.Key{}) {
		if err != nil {
			w.Flush()
			return unread, err
		}
		m, err := st.Read(l.File)
		if err != nil {
			a.warnf("%v", err)
			unread++
			continue
		}
		b, err := json.MarshalIndent(toJSON(st, m, false), "  ", "  ")
		if err != nil {
			return unread, err
		}
		if n == 0 {
			w.WriteString("[\n  ")
		} else {
			w.WriteString(",\n  ")
		}
		w.Write(b)
		n++
	}
	if n == 0 {
		w.WriteString("[]\n")
	} else {
		w.WriteString("\n]\n")
	}
	return unread, w.Flush()
}

func (a *app) showCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print one memory",
		Long: `Show prints a memory file as it is on disk. NAME is the memory's name, its
slug, or its file name; the words of an unquoted NAME are joined.`,
		Example: `  memdir show prefer-tabs
  memdir show "Prefer tabs" --json`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			args = []string{strings.Join(args, " ")}
			st, _, err := a.store(false)
			if err != nil {
				return err
			}
			if a.json {
				m, err := st.Get(args[0])
				if err != nil {
					return err
				}
				return a.printJSON(toJSON(st, m, true))
			}
			b, file, err := st.Raw(args[0])
			if err != nil {
				return err
			}
			if _, err := a.stdout.Write(b); err != nil {
				return err
			}
			if _, perr := memdir.Parse(file, b); perr != nil {
				a.warnf("%v (fix it with 'memdir edit %s')", perr, strings.TrimSuffix(file, ".md"))
			}
			return nil
		},
	}
}
