package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// Recall reads the project's private memories and, when the project keeps
// them, its team memories (paths.TeamFolder) as one ranking (see
// recall.Merged: pooled idf, so neither folder wins by its size) under one
// policy. A team memory is named TeamPrefix+file wherever it shows (the
// rendering, Kept, the session's exclusions, the recall log) and carries
// scope team and its author. The user's global folder (global.go) is one
// more snapshot.Part, between the two, its memories named GlobalPrefix+file.

// TeamPrefix is what a team memory's file is named with beside private
// ones: "team/deploy-flow.md".
const TeamPrefix = "team/"

// Part is w's folder as recall ranks it beside others: its store, snap,
// and its name prefix and scope.
func (w *Workspace) Part(snap *recall.Snapshot) snapshot.Part {
	if w.isTeam {
		return snapshot.Part{Store: w.Store, Snap: snap, Prefix: TeamPrefix, Scope: memdir.ScopeTeam, Forgotten: w.ForgottenFiles()}
	}
	if w.isGlobal {
		return snapshot.Part{Store: w.Store, Snap: snap, Prefix: GlobalPrefix, Scope: memdir.ScopePrivate, NoRefs: true}
	}
	return snapshot.Part{Store: w.Store, Snap: snap, Scope: memdir.ScopePrivate}
}

// ForgottenFiles is the set of memory files of a team folder that have a
// tombstone (memdir.TombstoneFile): one ReadDir of its tombstone folder.
// A memory file among them came back despite its forget (a stale branch
// merged): recall never injects it, the session's list leaves it out and
// 'memdir list' marks it, until a person resolves it ('memdir team
// resolve'). A private folder, or a team folder without tombstones, has
// none.
func (w *Workspace) ForgottenFiles() map[string]bool {
	if !w.isTeam {
		return nil
	}
	entries, err := os.ReadDir(w.Store.Path(memdir.TombstoneDir))
	if err != nil {
		return nil
	}
	var out map[string]bool
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), memdir.TombstoneExt)
		if !ok || stem == "" || strings.HasPrefix(stem, ".") {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[stem+".md"] = true
	}
	return out
}

// TeamReader is the project's team folder opened for reading (recall, the
// session's list of team memories), or nil when the project keeps none:
// one stat when it does not. It reuses a team folder Team opened; else it
// opens the store without looking up the author (a git process), which
// only writing needs.
func (w *Workspace) TeamReader() (*Workspace, error) {
	if w.isTeam || w.team != nil {
		return cmp.Or(w.team, w), nil
	}
	if !w.HasTeam() {
		return nil, nil
	}
	t, err := OpenTeamReader(w.Env, w.Layout)
	if t != nil {
		t.Models = w.Models
	}
	return t, err
}

// OpenTeamReader opens the project's team folder for reading, as
// TeamReader does, for a caller with no private folder open (a project
// with team memories and no private ones); nil when the project keeps no
// team memories.
func OpenTeamReader(env Env, l paths.Layout) (*Workspace, error) {
	st, err := openTeamStore(env, l, memdir.Options{})
	if errors.Is(err, memdir.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Workspace{Env: env, Layout: l, Store: st, isTeam: true}, nil
}

// recallParts are the folders a recall from w ranks: w's own, from held
// when the caller holds its snapshot, else checked now; then the user's
// global folder and the team folder beside a private one, checked now. A
// global or team folder that cannot be read is a warning, and the others
// are recalled without it.
func (w *Workspace) recallParts(ctx context.Context, held *recall.Snapshot, q Query) (parts []snapshot.Part, problems []error, err error) {
	snap := held
	if snap == nil {
		if snap, problems, err = snapshot.Fresh(ctx, w.Store); err != nil {
			return nil, problems, err
		}
	}
	parts = append(parts, w.Part(snap))
	if !q.NoGlobal {
		gp, more, err := w.globalPart(ctx)
		problems = append(problems, more...)
		if err != nil {
			problems = append(problems, fmt.Errorf("global memories left out: %w", err))
		} else if gp.Store != nil {
			parts = append(parts, gp)
		}
	}
	if q.NoTeam || w.isTeam || w.isGlobal {
		return parts, problems, nil
	}
	tp, more, err := w.teamPart(ctx)
	problems = append(problems, more...)
	if err != nil {
		problems = append(problems, fmt.Errorf("team memories left out: %w", err))
	} else if tp.Store != nil {
		parts = append(parts, tp)
	}
	return parts, problems, nil
}

// teamPart is the team folder's part, its snapshot checked now; a zero
// Part when the project keeps no team memories.
func (w *Workspace) teamPart(ctx context.Context) (snapshot.Part, []error, error) {
	return freshPart(ctx)(w.TeamReader())
}

// freshPart returns the part of folder f, its snapshot checked now; a
// zero Part when f is nil (no such folder) or err is set.
func freshPart(ctx context.Context) func(f *Workspace, err error) (snapshot.Part, []error, error) {
	return func(f *Workspace, err error) (snapshot.Part, []error, error) {
		if err != nil || f == nil {
			return snapshot.Part{}, nil, err
		}
		snap, problems, err := snapshot.Fresh(ctx, f.Store)
		if err != nil {
			return snapshot.Part{}, problems, err
		}
		return f.Part(snap), problems, nil
	}
}

// TeamMemory is one team memory as a session is told of it.
type TeamMemory struct {
	File        string // TeamPrefix + file
	Name        string
	Description string
	Author      string
	Type        string
}

// TeamMemories lists the project's team memories from the team folder's
// files (its snapshot; never its MEMORY.md, which is derived and may be
// missing after a pull), newest first, at most limit of them read in full
// for their author; total counts them all. A project without team
// memories has none (one stat).
func (w *Workspace) TeamMemories(ctx context.Context, limit int) (list []TeamMemory, total int, problems []error, err error) {
	t, err := w.TeamReader()
	if err != nil || t == nil {
		return nil, 0, nil, err
	}
	snap, problems, err := snapshot.Fresh(ctx, t.Store)
	if err != nil {
		return nil, 0, problems, err
	}
	all := make([]recall.Memory, 0, snap.Len())
	forgotten := t.ForgottenFiles()
	for i := range snap.Len() {
		m, _, err := snap.Memory(i)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if m.SupersededBy == "" && !forgotten[m.File] {
			all = append(all, m)
		}
	}
	slices.SortStableFunc(all, func(a, b recall.Memory) int {
		if c := b.Saved.Compare(a.Saved); c != 0 {
			return c
		}
		return strings.Compare(a.File, b.File)
	})
	for _, m := range all[:min(len(all), limit)] {
		tm := TeamMemory{File: TeamPrefix + m.File, Name: m.Name, Description: m.Description, Type: m.Type}
		// The author is not in the snapshot: read it from the file.
		if got, err := t.Store.Read(m.File); err == nil {
			tm.Author = got.Author
		}
		list = append(list, tm)
	}
	return list, len(all), problems, nil
}

// RefreshTeamIndex rebuilds a team folder's MEMORY.md (derived and
// git-ignored: a pull or a merge brings memory files, never their index)
// when it is missing or older than the folder or any memory file the
// snapshot records, and reports whether it did. What Claude Code's layout
// reads through the team link is then current. It reads the snapshot the
// caller just checked (SessionStart sweeps first): a folder whose index
// is current costs a stat of the index and of the folder. A private
// folder is left alone (its index is kept up to date by every write).
// indexSlack is how much later than MEMORY.md its folder may have
// changed and the index still count as current (its own atomic write
// renames it into the folder just after writing it).
const indexSlack = time.Second

func (w *Workspace) RefreshTeamIndex(ctx context.Context) (bool, error) {
	if !w.isTeam {
		return false, nil
	}
	ix, err := os.Stat(w.Store.Path(memdir.IndexFile))
	if err == nil {
		stale := false
		// The folder's time moves when a file is added or removed (a
		// pull that deletes a memory); writing the index itself moves it
		// a moment after the index's own time, hence the slack.
		if dir, derr := os.Stat(w.Store.Dir()); derr == nil && dir.ModTime().After(ix.ModTime().Add(indexSlack)) {
			stale = true
		}
		if !stale {
			snap, _, serr := snapshot.Fresh(ctx, w.Store)
			if serr != nil {
				return false, serr
			}
			at := ix.ModTime().UnixNano()
			for i := range snap.Len() {
				if _, stamp := snap.Stat(i); stamp > at {
					stale = true
					break
				}
			}
		}
		if !stale {
			return false, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	res, err := w.Store.RebuildIndex(ctx)
	return err == nil && res.Changed, err
}
