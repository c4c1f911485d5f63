package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/snapshot"
)

// Team memory is a memory folder committed with the project
// (paths.TeamFolder, Layout.TeamDir), in the same format as a private one,
// opened as a Workspace of its own (OpenTeam): list, show, edit, forget and
// index work on it unchanged. The store makes it safe to share
// (memdir.Options.Team: secrets refused, an author on each memory,
// tombstones, a .gitignore for what is derived); recall reads it beside
// the private folder and says which memory is which.

// ErrNoTeam says the project keeps no team memories yet.
var ErrNoTeam = errors.New("no team memory folder")

// IsTeam reports whether w is a project's team folder.
func (w *Workspace) IsTeam() bool { return w.isTeam }

// Scope is w's scope: memdir.ScopeTeam or memdir.ScopePrivate.
func (w *Workspace) Scope() string {
	if w.isTeam {
		return memdir.ScopeTeam
	}
	return memdir.ScopePrivate
}

// OpenTeam opens the project's team folder (Layout.TeamDir). With create
// unset, a project that has none is ErrNoTeam, with a hint. Created, it
// gets its .gitignore; the caller links it into Claude Code's layout
// (LinkTeam).
func OpenTeam(env Env, l paths.Layout, create bool) (*Workspace, error) {
	if err := TeamDirProblem(l); err != nil {
		return nil, err
	}
	if _, err := os.Stat(l.TeamDir); errors.Is(err, os.ErrNotExist) && !create {
		return nil, hint.With(fmt.Errorf("%s: %w", l.TeamDir, ErrNoTeam), "start one with 'memdir team init' (or 'memdir save --scope team …'), then commit %s", paths.TeamFolder)
	}
	if create {
		if fi, err := os.Stat(l.WorkTree); err != nil || !fi.IsDir() {
			return nil, hint.With(fmt.Errorf("project folder %s does not exist", l.WorkTree), "give --project an existing folder")
		}
	}
	st, err := openTeamStore(env, l, memdir.Options{Create: create, Author: TeamAuthor(env, l.WorkTree)})
	if err != nil {
		return nil, err
	}
	if create {
		if err := st.WriteTeamIgnore(); err != nil {
			return nil, fmt.Errorf("write %s: %w", filepath.Join(l.TeamDir, memdir.TeamIgnore), err)
		}
	}
	return &Workspace{Env: env, Layout: l, Store: st, isTeam: true}, nil
}

// openTeamStore opens l.TeamDir as a team folder, with opt's Create and
// Author. A team folder that leads out of the project (.memdir or
// .memdir/team a symbolic link, in a cloned repository, to the user's
// private memories or anywhere else) is refused: memdir would read
// memories from there as the team's, and write team memories there.
func openTeamStore(env Env, l paths.Layout, opt memdir.Options) (*memdir.Store, error) {
	if ok, err := paths.Within(l.WorkTree, l.TeamDir); err != nil || !ok {
		return nil, hint.With(fmt.Errorf("%s leads out of the project %s: not used as its team folder", l.TeamDir, l.WorkTree),
			"a team folder is a plain folder inside the repository; check where the link leads ('ls -l %s') and replace it", filepath.Dir(l.TeamDir))
	}
	timeout, err := env.LockTimeout()
	if err != nil {
		return nil, err
	}
	opt.LockTimeout, opt.Holder, opt.Names, opt.Team = timeout, env.Holder, snapshot.Names, true
	st, err := memdir.Open(l.TeamDir, opt)
	if err != nil {
		return nil, err
	}
	// A team folder made by hand, or by a clone that never ran memdir,
	// gets its .gitignore before recall writes its cache there: the
	// derived files must never be committed. A folder that cannot be
	// written (a read-only checkout) is read as it is.
	_ = st.WriteTeamIgnore()
	return st, nil
}

// Team is the project's team folder beside w's private one, opened once;
// ErrNoTeam (with a hint) when the project has none and create is unset.
func (w *Workspace) Team(create bool) (*Workspace, error) {
	if w.isTeam {
		return w, nil
	}
	if w.team != nil {
		return w.team, nil
	}
	if w.isGlobal {
		return nil, hint.With(fmt.Errorf("the global memory folder: %w", ErrNoTeam), "your global memories are private; leave out --global to work on the project's team folder")
	}
	t, err := OpenTeam(w.Env, w.Layout, create)
	if err != nil {
		return nil, err
	}
	t.Models = w.Models
	w.team = t
	return t, nil
}

// HasTeam reports whether the project keeps team memories: one stat.
func (w *Workspace) HasTeam() bool {
	if w.isTeam || w.team != nil {
		return true
	}
	if w.isGlobal {
		return false // the user's global folder is private
	}
	fi, err := os.Stat(w.Layout.TeamDir)
	return err == nil && fi.IsDir()
}

// TeamAuthor is who adds team memories here: MEMDIR_AUTHOR, else git's
// user.name in the project, else the login name.
func TeamAuthor(env Env, root string) string {
	// One line of at most 100 bytes: a name, never frontmatter of its own.
	flat := func(s string) string {
		s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
		for len(s) > 100 {
			_, n := utf8.DecodeLastRuneInString(s)
			s = s[:len(s)-n]
		}
		return s
	}
	if a := flat(env.getenv("MEMDIR_AUTHOR")); a != "" {
		return a
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", root, "config", "user.name")
	cmd.Env = gitEnv(env)
	if out, err := cmd.Output(); err == nil {
		if a := flat(string(out)); a != "" {
			return a
		}
	}
	return cmp.Or(flat(env.getenv("USER")), flat(env.getenv("USERNAME")), "unknown")
}

// gitEnv is the environment a git child process gets: the process's own,
// with the env's HOME (tests and --home point it at a temporary one).
func gitEnv(env Env) []string {
	out := os.Environ()
	if h := env.getenv("HOME"); h != "" {
		out = append(out, "HOME="+h)
	}
	return out
}

// checkTeamType refuses a memory type that is never shared: a user memory
// is about the person, always private.
func checkTeamType(t memdir.Type) error {
	if t == memdir.TypeUser {
		return hint.With(errors.New("a user memory is about you and always stays private: it cannot be a team memory"), "save it without --scope team, or give it another type (feedback, project, reference)")
	}
	return nil
}

// TeamSecretHint turns a refused secret into an error that says what to do.
func TeamSecretHint(err error) error {
	var se *memdir.SecretError
	if !errors.As(err, &se) {
		return err
	}
	return hint.With(err, "rewrite the memory without the secret (say where it lives instead: \"the token is in 1Password, vault 'deploy'\"), or save it as a private memory")
}

// LinkTeam links the team folder into the private folder where Claude
// Code keeps team memories (<memory dir>/team/<mount>), making the private
// folder when it is missing. Nothing happens without a team folder. A
// link to another checkout's team folder that still exists (the main
// checkout's, seen from a linked worktree, which shares the private
// folder) is left alone: only 'memdir team link' (RelinkTeam) moves it.
func (w *Workspace) LinkTeam() error { return w.linkTeam(false) }

// RelinkTeam is LinkTeam that also moves a link to another checkout's team
// folder to this one.
func (w *Workspace) RelinkTeam() error { return w.linkTeam(true) }

func (w *Workspace) linkTeam(replace bool) error {
	if !w.HasTeam() {
		return nil
	}
	priv := w.Store
	if w.isTeam {
		timeout, err := w.Env.LockTimeout()
		if err != nil {
			return err
		}
		if priv, err = memdir.Open(w.Layout.MemoryDir, memdir.Options{Create: true, LockTimeout: timeout, Holder: w.Env.Holder}); err != nil {
			return err
		}
	}
	if _, cur := priv.TeamLink(w.Layout.TeamMount); cur != "" && cur != w.Layout.TeamDir && !replace {
		if fi, err := os.Stat(cur); err == nil && fi.IsDir() {
			return nil
		}
	}
	_, err := priv.LinkTeam(w.Layout.TeamMount, w.Layout.TeamDir)
	return err
}
