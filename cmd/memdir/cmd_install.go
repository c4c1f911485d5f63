package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/memdir/memdir/internal/paths"
	"github.com/spf13/cobra"
)

func (a *app) installCmd() *cobra.Command {
	return a.settingsCmd(true, &cobra.Command{
		Use:   "install claude [--scope user|project|local] [--dry-run]",
		Short: "Wire memdir into Claude Code's hooks",
		Long: `Install claude adds memdir's hooks to a Claude Code settings file, so that from
the next session on the agent gets the right memories with every prompt and
its sessions are queued for extraction (see 'memdir hook --help').

  --scope user     <home>/settings.json: every project (default)
  --scope project  <project>/.claude/settings.json, shared with the repo
  --scope local    <project>/.claude/settings.local.json, this machine only

The file is backed up first (<file>.memdir-backup-<time>, the newest five;
files inside the project are backed up under <home>/memory/backups/, out of
the working tree); every other key and every other hook is kept; the hooks
call this memdir binary by its absolute path, so a project-scope install
suits a team whose members install memdir at the same path. It also registers memdir's MCP server ('memdir mcp') where
'claude mcp add --scope' would (~/.claude.json, or <project>/.mcp.json for
--scope project); --no-mcp skips that. Running install again changes
nothing; after moving the binary it updates the path. --dry-run prints the
change and writes nothing.
'memdir uninstall claude' takes out exactly what install put in, and
removes a file left with nothing in it.

To turn the hooks off for a while without uninstalling: MEMDIR_DISABLE=1.`,
		Example: `  memdir install claude
  memdir install claude --scope project --dry-run`,
	})
}

func (a *app) uninstallCmd() *cobra.Command {
	return a.settingsCmd(false, &cobra.Command{
		Use:   "uninstall claude [--scope user|project|local] [--dry-run]",
		Short: "Take memdir's hooks out of Claude Code's settings",
		Long: `Uninstall claude removes every memdir hook from the settings file of the scope
(see 'memdir install --help'), and the hook lists that held only memdir's,
after backing the file up. Everything else in it is kept. Memories,
transcripts and logs are not touched.`,
		Example: `  memdir uninstall claude
  memdir uninstall claude --scope local --dry-run`,
	})
}

// settingsCmd completes install's or uninstall's command with their
// common arguments, flags and action.
func (a *app) settingsCmd(install bool, cmd *cobra.Command) *cobra.Command {
	var scope string
	var dryRun, noMCP, force bool
	cmd.Args = a.agentArg
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if install && !force {
			if p := a.pluginsEnabled(); len(p) > 0 {
				return withHint(fmt.Errorf("the memdir plugin is enabled (%s): with memdir's hooks installed too, every memory would arrive twice", strings.Join(p, ", ")),
					"keep the plugin, or remove it first with 'claude plugin uninstall memdir@memdir'; --force installs anyway")
			}
		}
		return a.editSettings(scope, dryRun, install, noMCP)
	}
	if install {
		cmd.Flags().BoolVar(&force, "force", false, "install even though the memdir plugin is enabled")
	}
	cmd.Flags().BoolVar(&noMCP, "no-mcp", false, "leave the MCP server registration alone")
	cmd.Flags().StringVar(&scope, "scope", "user", "which settings file: user, project or local")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the change, write nothing")
	return cmd
}

func (a *app) agentArg(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 1 && args[0] == "claude":
		return nil
	case len(args) == 1:
		// Other agents have no hooks memdir can install: they reach it
		// through MCP or the CLI.
		return withHint(fmt.Errorf("%s knows Claude Code only, not %q", cmd.CommandPath(), args[0]),
			"other agents use memdir through its MCP server ('memdir mcp --help' shows how to register it) or the CLI")
	}
	return withHint(fmt.Errorf("%s needs the agent: claude", cmd.CommandPath()), "run '%s claude'", cmd.CommandPath())
}

// settingsPath is the settings file of a scope.
func (a *app) settingsPath(scope string) (string, error) {
	l, err := a.layout()
	if err != nil {
		return "", err
	}
	switch scope {
	case "user":
		return filepath.Join(l.Home, "settings.json"), nil
	case "project":
		return filepath.Join(l.ProjectRoot, ".claude", "settings.json"), nil
	case "local":
		return filepath.Join(l.ProjectRoot, ".claude", "settings.local.json"), nil
	}
	return "", withHint(fmt.Errorf("--scope %q is not user, project or local", scope), "see 'memdir install --help'")
}

// fileEdit is what an install or uninstall did to one file.
type fileEdit struct {
	File    string `json:"file"`
	Changed bool   `json:"changed"`
	Removed bool   `json:"removed,omitempty"` // nothing was left in it
	Backup  string `json:"backup,omitempty"`
	Diff    string `json:"diff,omitempty"`
}

type installJSON struct {
	fileEdit
	DryRun bool      `json:"dry_run"`
	Hooks  []string  `json:"hooks"` // events memdir handles in the file afterwards
	Binary string    `json:"binary,omitempty"`
	MCP    *fileEdit `json:"mcp,omitempty"` // the MCP server's registration
}

// mcpConfig is where a scope registers MCP servers, as 'claude mcp add
// --scope' does: Claude Code's global config for user (beside an agent
// home named .claude, as ~/.claude.json is beside ~/.claude; inside any
// other, as with $CLAUDE_CONFIG_DIR), under projects.<root> there for
// local, and <root>/.mcp.json for project.
func (a *app) mcpConfig(scope string) (path string, at []string, err error) {
	l, err := a.layout()
	if err != nil {
		return "", nil, err
	}
	global := filepath.Join(l.Home, ".claude.json")
	if filepath.Base(l.Home) == ".claude" && l.HomeSource != "CLAUDE_CONFIG_DIR" {
		global = filepath.Join(filepath.Dir(l.Home), ".claude.json")
	}
	switch scope {
	case "project":
		return filepath.Join(l.ProjectRoot, ".mcp.json"), nil, nil
	case "local":
		return global, []string{"projects", l.ProjectRoot}, nil
	}
	return global, nil, nil
}

func (a *app) editSettings(scope string, dryRun, install, noMCP bool) error {
	path, err := a.settingsPath(scope)
	if err != nil {
		return err
	}
	l, err := a.layout()
	if err != nil {
		return err
	}
	// Backups of files in the project (.claude/settings.json, .mcp.json)
	// go under memdir's own folder, not into the working tree where one
	// 'git add -A' commits them; others sit beside their file.
	backups := func(p string) string {
		if ok, _ := paths.Within(l.ProjectRoot, p); ok {
			return filepath.Join(l.SynthesisDir, "backups", l.ProjectKey)
		}
		return filepath.Dir(p)
	}
	out := installJSON{DryRun: dryRun, Hooks: []string{}}
	var bin string
	if install {
		if bin, err = memdirBinary(); err != nil {
			return err
		}
		out.Binary = bin
	}
	out.fileEdit, err = editJSONFile(path, backups(path), dryRun, func(doc *claudeinstall.Object) (bool, error) {
		if install {
			defer func() {
				if h := claudeinstall.Installed(doc); h != nil {
					out.Hooks = h
				}
			}()
			return claudeinstall.Install(doc, bin)
		}
		if h := claudeinstall.Installed(doc); h != nil {
			out.Hooks = h // what is taken out
		}
		return claudeinstall.Uninstall(doc), nil
	})
	if err != nil {
		return err
	}
	if !noMCP {
		mpath, at, err := a.mcpConfig(scope)
		if err != nil {
			return err
		}
		m, err := editJSONFile(mpath, backups(mpath), dryRun, func(doc *claudeinstall.Object) (bool, error) {
			if install {
				return claudeinstall.InstallMCP(doc, at, bin)
			}
			return claudeinstall.UninstallMCP(doc, at), nil
		})
		if err != nil {
			return err
		}
		out.MCP = &m
	}
	if a.json {
		return a.printJSON(out)
	}
	verb := map[bool]string{true: "install", false: "uninstall"}[install]
	for _, e := range []*fileEdit{&out.fileEdit, out.MCP} {
		if e == nil {
			continue
		}
		what := "memdir hooks: " + listOrNone(out.Hooks)
		if e == out.MCP {
			what = "memdir MCP server"
		}
		switch {
		case !e.Changed:
			a.printf("%s: nothing to %s (%s)\n", e.File, verb, what)
		case dryRun:
			a.printf("%s would change (--dry-run: nothing written):\n%s", e.File, e.Diff)
		default:
			a.printf("%s: %sed (%s)\n", e.File, verb, what)
			if e.Removed {
				a.printf("%s: removed, nothing was left in it\n", e.File)
			}
			if e.Backup != "" {
				a.printf("backup: %s\n", e.Backup)
			}
		}
	}
	if install && !dryRun && (out.Changed || out.MCP != nil && out.MCP.Changed) {
		a.printf("next: start a new Claude Code session; 'memdir uninstall claude --scope %s' undoes this\n", scope)
	}
	return nil
}

// editJSONFile applies edit to the JSON object in path (missing: empty)
// and, when it changed and this is no dry run, backs the file up into
// backupDir and replaces it atomically, keeping its mode; a file left with
// nothing in it (an uninstall from a file the install created) is removed.
// A read-only file is refused.
func editJSONFile(path, backupDir string, dryRun bool, edit func(*claudeinstall.Object) (bool, error)) (fileEdit, error) {
	// A settings file linked from a dotfiles repo is edited where it lives:
	// replacing the link with a file would fork the user's settings.
	linked := false
	if real, err := filepath.EvalSymlinks(path); err == nil {
		linked = real != path
		path = real
	}
	e := fileEdit{File: path}
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return e, err
	}
	doc, err := claudeinstall.Parse(old)
	if err != nil {
		return e, withHint(fmt.Errorf("%s: %w", path, err), "fix the file (it must be one JSON object, without comments), then run the command again")
	}
	if e.Changed, err = edit(doc); err != nil {
		return e, withHint(fmt.Errorf("%s: %w", path, err), "fix that part of the file by hand, then run the command again")
	}
	if !e.Changed {
		return e, nil
	}
	updated := claudeinstall.Encode(doc)
	e.Diff = claudeinstall.Diff(strings.TrimSuffix(string(claudeinstall.Encode(mustParse(old))), "\n"), strings.TrimSuffix(string(updated), "\n"), 3)
	if dryRun {
		return e, nil
	}
	if exists {
		if err := writable(path); err != nil {
			return e, withHint(err, "make it writable (chmod u+w %s) or choose another --scope", path)
		}
		e.Backup = backupName(filepath.Join(backupDir, filepath.Base(path)), time.Now())
		if err := os.MkdirAll(backupDir, 0o700); err != nil {
			return e, fmt.Errorf("back up %s: %w", path, err)
		}
		if err := atomicfile.WriteFile(e.Backup, old, 0o600); err != nil {
			return e, fmt.Errorf("back up %s: %w", path, err)
		}
		pruneBackups(filepath.Join(backupDir, filepath.Base(path)), keepBackups)
		if !linked && strings.TrimSpace(string(updated)) == "{}" {
			e.Removed = true
			return e, os.Remove(path)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return e, err
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return e, atomicfile.WriteFile(path, updated, mode)
}

func mustParse(b []byte) *claudeinstall.Object {
	o, err := claudeinstall.Parse(b)
	if err != nil {
		return claudeinstall.NewObject()
	}
	return o
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// writable checks that path may be written by this user: a read-only
// settings file is somebody's decision, and an atomic replace would
// silently override it.
func writable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only: nothing changed", path) // even for root
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s is read-only: nothing changed", path)
		}
		return err
	}
	return f.Close()
}

// memdirBinary is the absolute path of the running memdir.
func memdirBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the memdir binary: %w", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", withHint(errors.New("memdir is running from 'go run', whose binary is deleted after the run"), "install it first: go install ./cmd/memdir, then run 'memdir install claude'")
	}
	return exe, nil
}

// backupName is a backup path for path that does not exist yet.
func backupName(path string, now time.Time) string {
	base := path + ".memdir-backup-" + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}

// pluginsEnabled lists the memdir plugins enabled in Claude Code's
// settings, with their scope.
func (a *app) pluginsEnabled() []string {
	var out []string
	a.eachSettings(func(scope, _ string, doc *claudeinstall.Object, err error) {
		if err == nil {
			for _, p := range claudeinstall.PluginsEnabled(doc) {
				out = append(out, p+" in "+scope+" settings")
			}
		}
	})
	return out
}

// eachSettings calls fn with each of Claude Code's settings files that
// exists — user, project, local — parsed, or with the error that kept it
// from parsing.
func (a *app) eachSettings(fn func(scope, path string, doc *claudeinstall.Object, err error)) {
	for _, scope := range []string{"user", "project", "local"} {
		path, err := a.settingsPath(scope)
		if err != nil {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		doc, err := claudeinstall.Parse(b)
		fn(scope, path, doc, err)
	}
}

// keepBackups is how many of its backups of a settings file memdir keeps.
const keepBackups = 5

// pruneBackups removes all but the newest keep backups memdir made of path
// (their names sort by time).
func pruneBackups(path string, keep int) {
	entries, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + ".memdir-backup-"
	var old []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			old = append(old, e.Name())
		}
	}
	sort.Slice(old, func(i, j int) bool { return backupKey(old[i]) < backupKey(old[j]) })
	for len(old) > keep {
		os.Remove(filepath.Join(filepath.Dir(path), old[0]))
		old = old[1:]
	}
}

// backupKey orders backups by time, then by their -N suffix.
func backupKey(name string) string {
	stamp := name[strings.LastIndex(name, ".memdir-backup-")+len(".memdir-backup-"):]
	ts, n, _ := strings.Cut(stamp, "-")
	return fmt.Sprintf("%s-%06s", ts, n)
}
