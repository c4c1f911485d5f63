package claudeinstall

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
)

// Scopes are the settings files memdir installs into, as Claude Code
// names them.
var Scopes = []string{"user", "project", "local"}

// SettingsPath is the settings file of a scope: <home>/settings.json for
// user, <project>/.claude/settings.json for project and
// <project>/.claude/settings.local.json for local.
func SettingsPath(l paths.Layout, scope string) (string, error) {
	switch scope {
	case "user":
		return filepath.Join(l.Home, "settings.json"), nil
	case "project":
		return filepath.Join(l.ProjectRoot, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(l.ProjectRoot, ".claude", "settings.local.json"), nil
	}
	return "", hint.With(fmt.Errorf("--scope %q is not user, project or local", scope), "see 'memdir install --help'")
}

// MCPConfig is where a scope registers MCP servers, as 'claude mcp add
// --scope' does: Claude Code's global config for user (beside an agent
// home named .claude, as ~/.claude.json is beside ~/.claude; inside any
// other, as with $CLAUDE_CONFIG_DIR), under projects.<root> there for
// local, and <root>/.mcp.json for project. at is the keys InstallMCP
// takes.
func MCPConfig(l paths.Layout, scope string) (path string, at []string) {
	global := filepath.Join(l.Home, ".claude.json")
	if filepath.Base(l.Home) == ".claude" && l.HomeSource != "CLAUDE_CONFIG_DIR" {
		global = filepath.Join(filepath.Dir(l.Home), ".claude.json")
	}
	switch scope {
	case "project":
		return filepath.Join(l.ProjectRoot, ".mcp.json"), nil
	case "local":
		return global, []string{"projects", l.ProjectRoot}
	}
	return global, nil
}

// EachSettings calls fn with each of Claude Code's settings files that
// exists — user, project, local — parsed, or with the error that kept it
// from parsing.
func EachSettings(l paths.Layout, fn func(scope, path string, doc *Object, err error)) {
	for _, scope := range Scopes {
		path, _ := SettingsPath(l, scope)
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		doc, err := Parse(b)
		fn(scope, path, doc, err)
	}
}

// EnabledPlugins lists the memdir plugins enabled in Claude Code's
// settings files, each as "<plugin> in <scope> settings".
func EnabledPlugins(l paths.Layout) []string {
	var out []string
	EachSettings(l, func(scope, _ string, doc *Object, err error) {
		if err == nil {
			for _, p := range PluginsEnabled(doc) {
				out = append(out, p+" in "+scope+" settings")
			}
		}
	})
	return out
}

// Options say what Apply does.
type Options struct {
	Layout    paths.Layout
	Scope     string // user, project or local
	Uninstall bool   // take memdir out instead of putting it in
	// Binary is the absolute path of the memdir the hooks and the MCP
	// server call (install only).
	Binary string
	NoMCP  bool // leave the MCP server's registration alone
	DryRun bool // compute the change (diffs included), write nothing
	// Force installs even though the memdir plugin is enabled.
	Force bool
	Now   time.Time // the backups' time stamp; zero: time.Now()
}

// FileEdit is what an install or uninstall did (or, in a dry run, would
// do) to one file.
type FileEdit struct {
	File    string `json:"file"`
	Changed bool   `json:"changed"`
	Removed bool   `json:"removed,omitempty"` // nothing was left in it
	Backup  string `json:"backup,omitempty"`
	Diff    string `json:"diff,omitempty"`
}

// Result is what Apply did: to the settings file, embedded, and to the
// MCP server's registration (nil with NoMCP).
type Result struct {
	FileEdit
	DryRun bool      `json:"dry_run"`
	Hooks  []string  `json:"hooks"` // install: the events memdir handles afterwards; uninstall: those taken out
	Binary string    `json:"binary,omitempty"`
	MCP    *FileEdit `json:"mcp,omitempty"`
}

// Plan is Apply without writing: the result says what would change.
func Plan(o Options) (Result, error) {
	o.DryRun = true
	return Apply(o)
}

// Apply installs memdir's hooks in the settings file of o.Scope and
// registers its MCP server where that scope keeps them, or takes both out.
// Each file is backed up before it changes (the newest five backups are
// kept): beside it, or, for a file inside the project, under the synthesis
// folder's backups/, out of the working tree. Every other key and hook is
// kept; running it twice changes nothing the second time.
func Apply(o Options) (Result, error) {
	install := !o.Uninstall
	if install && !o.Force {
		if p := EnabledPlugins(o.Layout); len(p) > 0 {
			return Result{}, hint.With(fmt.Errorf("the memdir plugin is enabled (%s): with memdir's hooks installed too, every memory would arrive twice", strings.Join(p, ", ")),
				"keep the plugin, or remove it first with 'claude plugin uninstall memdir@memdir'; --force installs anyway")
		}
	}
	path, err := SettingsPath(o.Layout, o.Scope)
	if err != nil {
		return Result{}, err
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	l := o.Layout
	backups := func(p string) string {
		if ok, _ := paths.Within(l.ProjectRoot, p); ok {
			return filepath.Join(l.SynthesisDir, "backups", l.ProjectKey)
		}
		return filepath.Dir(p)
	}
	out := Result{DryRun: o.DryRun, Hooks: []string{}}
	if install {
		if strings.Contains(o.Binary, string(filepath.Separator)+"go-build") {
			return out, hint.With(errors.New("memdir is running from 'go run', whose binary is deleted after the run"), "install it first: go install ./cmd/memdir, then run 'memdir install claude'")
		}
		out.Binary = o.Binary
	}
	out.FileEdit, err = editFile(path, backups(path), o, func(doc *Object) (bool, error) {
		if install {
			defer func() {
				if h := Installed(doc); h != nil {
					out.Hooks = h
				}
			}()
			return Install(doc, o.Binary)
		}
		if h := Installed(doc); h != nil {
			out.Hooks = h // what is taken out
		}
		return Uninstall(doc), nil
	})
	if err != nil || o.NoMCP {
		return out, err
	}
	mpath, at := MCPConfig(l, o.Scope)
	m, err := editFile(mpath, backups(mpath), o, func(doc *Object) (bool, error) {
		if install {
			return InstallMCP(doc, at, o.Binary)
		}
		return UninstallMCP(doc, at), nil
	})
	if err != nil {
		return out, err
	}
	out.MCP = &m
	return out, nil
}
