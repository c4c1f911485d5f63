// Package workspace is memdir's application layer: the use cases the CLI,
// the Claude Code hooks and the MCP server share. A front end builds an Env
// from its process (flags, environment, working directory), opens a
// Workspace, and calls Recall, Save or Extract on it; it never reaches
// beneath this package for those jobs, so the three behave the same.
//
//	cmd/memdir ─┐
//	hooks ──────┼─> workspace ─> memdir (store), sessions, synthesis, llm
//	mcpserver ──┘        └─────> recall, extract, redact (pure decisions)
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/snapshot"
)

// DefaultLockTimeout is how long a write waits for a busy folder when
// MEMDIR_LOCK_TIMEOUT does not say.
const DefaultLockTimeout = 10 * time.Second

// Env is what a front end knows of its process.
type Env struct {
	Getenv      func(string) string
	Cwd         string
	HomeFlag    string // --home
	ProjectFlag string // --project (or an MCP tool's project argument)
	Global      bool   // --global: the user's global folder is the memory folder
	Holder      string // who takes the folder's lock, for "locked by …"
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Layout resolves where things live: the agent home, the project, its
// memory folder and the synthesis folder.
func (e Env) Layout() (paths.Layout, error) {
	home := e.getenv("HOME")
	if runtime.GOOS == "windows" && home == "" {
		home = e.getenv("USERPROFILE")
	}
	return paths.Resolve(paths.Env{
		Getenv:      e.getenv,
		Cwd:         e.Cwd,
		UserHome:    home,
		HomeFlag:    e.HomeFlag,
		ProjectFlag: e.ProjectFlag,
		Global:      e.Global,
	})
}

// LockTimeout is MEMDIR_LOCK_TIMEOUT, or DefaultLockTimeout.
func (e Env) LockTimeout() (time.Duration, error) {
	v := e.getenv("MEMDIR_LOCK_TIMEOUT")
	if v == "" {
		return DefaultLockTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, hint.With(fmt.Errorf("MEMDIR_LOCK_TIMEOUT=%q is not a duration", v), "use a value like 500ms or 30s")
	}
	return d, nil
}

// Workspace is one project's memory folder, opened for a front end.
type Workspace struct {
	Env    Env
	Layout paths.Layout
	Store  *memdir.Store
	// Models makes the model engines' clients; the zero value reads the
	// environment (tests put fakes here).
	Models Models

	isTeam bool       // Store is the project's team folder (OpenTeam)
	team   *Workspace // the team folder beside a private one, once opened (Team)
	// isGlobal: Store is the user's global folder (Layout.UserDir).
	isGlobal   bool
	global     *Workspace // the global folder beside a project's, once opened (Global)
	selfGlobal bool       // the memory folder is the global one, under another path (a link): nothing beside it
	// usersGlobal: an extraction into w saves new user memories in the
	// global folder (settings' global.userMemories).
	usersGlobal bool
}

// Open opens the project's memory folder as env resolves it. With create
// unset, a folder that does not exist yet is memdir.ErrNotFound, with a
// hint to save a first memory.
func Open(env Env, create bool) (*Workspace, error) {
	l, err := env.Layout()
	if err != nil {
		return nil, err
	}
	return OpenLayout(env, l, create)
}

// OpenLayout is Open on a layout the caller already resolved.
func OpenLayout(env Env, l paths.Layout, create bool) (*Workspace, error) {
	if create && l.MemorySource == "default" {
		// Memories are kept per project: never for a folder that is not
		// there (a typo), nor for the root a desktop app starts in.
		if fi, err := os.Stat(l.ProjectRoot); err != nil || !fi.IsDir() {
			return nil, hint.With(fmt.Errorf("project folder %s does not exist", l.ProjectRoot), "give --project (or an MCP tool's project argument) an existing folder")
		}
		if filepath.Dir(l.ProjectRoot) == l.ProjectRoot {
			return nil, hint.With(fmt.Errorf("%s is not a project: memdir was started there", l.ProjectRoot), "run memdir inside a project, or give --project (MCP: the project argument, or start the server in the project)")
		}
	}
	timeout, err := env.LockTimeout()
	if err != nil {
		return nil, err
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{Create: create, LockTimeout: timeout, Holder: env.Holder, Names: snapshot.Names})
	global := l.MemorySource == paths.SourceGlobal
	if errors.Is(err, memdir.ErrNotFound) {
		if global {
			return nil, hint.With(err, "no global memories yet; save one with 'memdir save --global --type user …'")
		}
		return nil, hint.With(err, "no memories for %s yet; save one with 'memdir save'", l.ProjectRoot)
	}
	if err != nil {
		return nil, err
	}
	return &Workspace{Env: env, Layout: l, Store: st, isGlobal: global}, nil
}
