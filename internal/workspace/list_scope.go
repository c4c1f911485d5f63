package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memdir/memdir/internal/hint"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// ListPart is one folder's share of a listing of several (private, team):
// its listing, its store, and whether it is the team folder.
type ListPart struct {
	*Listing
	Store *memdir.Store
	Team  bool
	// Forgotten are the team memories back despite their tombstone (a
	// stale branch merged), by file: the listing marks them.
	Forgotten map[string]memdir.Tombstone
}

// forgotten is the mark of a team memory back despite its tombstone, ""
// for any other: who forgot it, when, and the command that settles it.
func (p ListPart) forgotten(file string) string {
	t, ok := p.Forgotten[file]
	if !ok {
		return ""
	}
	return "[forgotten" + t.Who() + ": memdir team resolve " + TeamPrefix + file + " --keep, or --drop] "
}

// Forgotten reads the tombstones of w's memories that came back despite
// them (a stale branch merged), by file: what a listing marks. A team
// folder without tombstones costs one ReadDir; a private folder has none.
func (w *Workspace) Forgotten() map[string]memdir.Tombstone {
	files := w.ForgottenFiles()
	if len(files) == 0 {
		return nil
	}
	tombs, _, err := w.Store.Tombstones()
	if err != nil {
		return nil
	}
	out := map[string]memdir.Tombstone{}
	for _, t := range tombs {
		if _, err := os.Lstat(w.Store.Path(t.File)); err == nil {
			out[t.File] = t
		}
	}
	return out
}

// name is how file is shown in a listing of several folders.
func (p ListPart) name(file string) string {
	if p.Team {
		return TeamPrefix + file
	}
	return file
}

// scope is the part's folder's scope.
func (p ListPart) scope() string {
	if p.Team {
		return memdir.ScopeTeam
	}
	return memdir.ScopePrivate
}

// json is m of the part as MemoryJSON: scope the folder's, a team
// memory named team/<file>.
func (p ListPart) json(m memdir.Memory, withBody bool) MemoryJSON {
	var j MemoryJSON
	if p.Store != nil {
		j = ToJSON(p.Store, m, withBody)
	} else {
		j = MemoryJSON{File: m.File, Name: m.Title(), Description: m.Summary(), Type: string(m.Type)}
	}
	if t, ok := p.Forgotten[m.File]; ok {
		j.Forgotten = &t
	}
	j.File, j.Scope = p.name(m.File), p.scope()
	return j
}

// JSON is m, a memory of w, as MemoryJSON: scope w's (a private memory
// whose frontmatter says team is still private: it is not shared), a team
// memory named team/<file>.
func (w *Workspace) JSON(m memdir.Memory, withBody bool) MemoryJSON {
	return ListPart{Store: w.Store, Team: w.isTeam, Forgotten: w.Forgotten()}.json(m, withBody)
}

// ListScoped lists the memories of scope: "" or ScopeAll, the private
// folder's then the team folder's (each when the project has it);
// private or team, that folder's alone. A folder that does not exist is
// no part (no error), except the team folder asked for by name
// (ErrNoTeam, with a hint). A team folder that cannot be used (a file, a
// link out of the project) fails a listing of the team alone; listing
// all, it is passed to skip (its error carries the reason and a hint) and
// the private memories are listed. With stats, each part gets its
// evidence of use. problems are the files that could not be parsed (a
// team file named team/<file>).
func ListScoped(ctx context.Context, env Env, l paths.Layout, scope string, stats bool, skip func(error)) (parts []ListPart, problems []error, err error) {
	if err := CheckScope(scope, true); err != nil {
		return nil, nil, err
	}
	add := func(w *Workspace) error {
		ls, probs, err := List(ctx, w.Store)
		if err != nil {
			return err
		}
		if stats {
			if err := ls.AddStats(ctx, w); err != nil {
				return err
			}
		}
		for _, p := range probs {
			if w.isTeam {
				p = fmt.Errorf("%s: %w", paths.TeamFolder, p)
			}
			problems = append(problems, p)
		}
		parts = append(parts, ListPart{Listing: ls, Store: w.Store, Team: w.isTeam, Forgotten: w.Forgotten()})
		return nil
	}
	if scope != memdir.ScopeTeam {
		w, err := OpenLayout(env, l, false)
		switch {
		case errors.Is(err, memdir.ErrNotFound):
		case err != nil:
			return nil, nil, err
		default:
			if err := add(w); err != nil {
				return nil, problems, err
			}
		}
	}
	if scope != memdir.ScopePrivate {
		t, err := OpenTeam(env, l, false)
		if err == nil {
			err = add(t)
		}
		if err != nil && !errors.Is(err, ErrNoTeam) && hint.Of(err) == "" {
			err = hint.With(err, "the team folder is a plain folder %s in the repository: see what is there ('ls -la %s'), or run 'memdir team check'", paths.TeamFolder, filepath.Dir(l.TeamDir))
		}
		switch {
		case errors.Is(err, ErrNoTeam) && scope != memdir.ScopeTeam:
		case err != nil && scope != memdir.ScopeTeam && skip != nil:
			skip(fmt.Errorf("team memories left out: %w", err))
		case err != nil:
			return nil, problems, err
		}
	}
	return parts, problems, nil
}
