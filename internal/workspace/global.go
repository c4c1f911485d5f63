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
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// The user's global folder (Layout.UserDir, <home>/memory/user) holds the
// memories about the person — their role, what they know, how they like
// to work (type user) — that follow them into every project, as the seeds
// keep user memories in the user's global directory. It is a memory
// folder in the same format as a project's, opened as a Workspace of its
// own (--global: list, show, edit, forget, index, dream work on it
// unchanged). Recall reads it beside the project's folder, its memories
// named GlobalPrefix+file; extraction writes the user memories it finds
// there (extract.user.global, on by default). Claude Code's own
// per-project memory files are not moved: a user memory Claude Code saved
// in a project stays there, and is recalled there.

// GlobalPrefix is what a memory of the global folder is named with beside
// a project's: "global/prefers-terse-answers.md".
const GlobalPrefix = "global/"

// IsGlobal reports whether w is the user's global folder.
func (w *Workspace) IsGlobal() bool { return w.isGlobal }

// Global is the user's global folder beside w's project folder, opened
// once; w itself when w is the global folder, and nil (no error) when the
// folder does not exist and create is unset: one stat.
func (w *Workspace) Global(create bool) (*Workspace, error) {
	switch {
	case w.isGlobal:
		return w, nil
	case w.global != nil:
		return w.global, nil
	case w.selfGlobal || w.Layout.UserDir != "" && filepath.Clean(w.Store.Dir()) == filepath.Clean(w.Layout.UserDir):
		// The memory folder is set to the global one: nothing beside it.
		return nil, nil
	}
	g, err := openGlobal(w.Env, w.Layout, create)
	if g != nil && sameDir(w.Store.Dir(), g.Store.Dir()) {
		// The same folder by another path (a link, a linked home): read
		// beside itself, each memory would be its own global twin.
		w.selfGlobal = true
		return nil, nil
	}
	if g != nil {
		g.Models = w.Models
		w.global = g
	}
	return g, err
}

// sameDir reports whether two paths are one folder, links followed.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// OpenGlobalReader opens the user's global folder for a caller with no
// project folder open (a project without memories of its own): nil when
// the user has no global folder.
func OpenGlobalReader(env Env, l paths.Layout) (*Workspace, error) {
	return openGlobal(env, l, false)
}

// openGlobal opens l.UserDir; nil, nil when it does not exist and create
// is unset.
func openGlobal(env Env, l paths.Layout, create bool) (*Workspace, error) {
	if l.UserDir == "" {
		return nil, nil
	}
	if !create {
		if fi, err := os.Stat(l.UserDir); err != nil || !fi.IsDir() {
			return nil, nil
		}
	}
	if !allowedPlace(env, l, l.UserDir) {
		return nil, hint.With(fmt.Errorf("%s leads out of your home folders: not used as the global memory folder", l.UserDir),
			"check where it or a folder above it leads ('ls -l %s'); add the target to MEMDIR_ALLOWED_ROOTS if it is yours", filepath.Dir(l.UserDir))
	}
	timeout, err := env.LockTimeout()
	if err != nil {
		return nil, err
	}
	st, err := memdir.Open(l.UserDir, memdir.Options{Create: create, LockTimeout: timeout, Holder: env.Holder, Names: snapshot.Names})
	if errors.Is(err, memdir.ErrNotFound) && !create {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	gl := l
	gl.MemoryDir, gl.MemorySource = l.UserDir, paths.SourceGlobal
	return &Workspace{Env: env, Layout: gl, Store: st, isGlobal: true}, nil
}

// globalPart is the global folder's part beside w, its snapshot checked
// now; a zero Part when w is the global folder, or the user has none.
func (w *Workspace) globalPart(ctx context.Context) (snapshot.Part, []error, error) {
	if w.isGlobal {
		return snapshot.Part{}, nil, nil
	}
	return freshPart(ctx)(w.Global(false))
}

// OpenOthersReader opens what a recall reads in a project that has no
// memory folder of its own: its team folder, else the user's global folder
// (recalled beside the team's); nil when there is neither. A team folder
// that cannot be used is in problems, and passed over.
func OpenOthersReader(env Env, l paths.Layout) (ws *Workspace, problems []error, err error) {
	ws, err = OpenTeamReader(env, l)
	if err != nil {
		problems = append(problems, fmt.Errorf("team memories: %w", err))
	}
	if ws != nil {
		return ws, problems, nil
	}
	ws, err = OpenGlobalReader(env, l)
	return ws, problems, err
}

// allowedPlace reports whether p (or where its links lead) is in one of the
// places a memory folder may be: the user's home, the agent home or a
// folder of MEMDIR_ALLOWED_ROOTS, as paths.Resolve allows for --global.
func allowedPlace(env Env, l paths.Layout, p string) bool {
	places := []string{l.Home, env.getenv("HOME")}
	places = append(places, filepath.SplitList(env.getenv("MEMDIR_ALLOWED_ROOTS"))...)
	for _, base := range places {
		if base == "" {
			continue
		}
		if ok, err := paths.Within(base, p); err == nil && ok {
			return true
		}
	}
	return false
}

// RecallIn is the recall a front end runs in the project of l: its own
// folder (with its team's and the user's global folder beside it); in a
// project without one, its team's or the user's global folder; and where
// none of them answers, what synthesis wrote. left are the team or global
// folders that could not be read and were left out (a front end reports
// them); err is the project's own folder failing.
func RecallIn(ctx context.Context, env Env, l paths.Layout, q Query) (rec Recalled, left []error, err error) {
	ws, err := OpenLayout(env, l, false)
	if !errors.Is(err, memdir.ErrNotFound) {
		if err != nil {
			return Recalled{Terms: recall.Default.Terms(q.Text, nil)}, nil, err
		}
		rec, err = ws.Recall(ctx, q)
		return rec, nil, err
	}
	ws, left, err = OpenOthersReader(env, l)
	if err != nil {
		left = append(left, fmt.Errorf("global memories: %w", err))
	}
	if ws != nil {
		if rec, err = ws.Recall(ctx, q); err == nil {
			return rec, left, nil
		}
		left = append(left, err) // unreadable: synthesis may still answer
	}
	return RecallSynthesis(env, l, q), left, nil
}
