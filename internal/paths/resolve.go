// Package paths decides where memdir reads and writes, the way Claude Code
// does, so both tools address the same folders.
//
// # Precedence
//
// Agent home: --home, then $MEMDIR_HOME, then $CLAUDE_CONFIG_DIR, then
// ~/.claude.
//
// Project root: the git root found through the repository's common dir, so
// every worktree of a repository maps to the main checkout; outside git, the
// working directory (or --project). Git is read from the .git entries
// directly, never executed: this runs inside a hook on every prompt.
//
// Memory folder: $MEMDIR_MEMORY_DIR, then $CLAUDE_COWORK_MEMORY_PATH_OVERRIDE,
// then autoMemoryDirectory in the user's <home>/settings.json, then
// <home>/projects/<Sanitize(root)>/memory. A setting in a file inside the
// project is never read: a cloned repository must not redirect writes.
//
// Nothing here reads the process environment or working directory itself:
// the caller passes an Env.
package paths

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/memdir/memdir/internal/safefile"
)

// Env is everything resolution depends on, so tests never touch the process.
type Env struct {
	Getenv      func(string) string // required
	Cwd         string              // absolute working directory
	UserHome    string              // the user's home directory, "" if unknown
	HomeFlag    string              // --home, "" if unset
	ProjectFlag string              // --project, "" if unset; relative to Cwd
	// Global makes the user's global folder (Layout.UserDir) the memory
	// folder: --global.
	Global bool
	// PolicySettings is Claude Code's managed settings file; "" for the
	// system's own (ManagedSettingsPath).
	PolicySettings string
}

// ManagedSettingsPath is where Claude Code reads managed (policy) settings
// on this system.
func ManagedSettingsPath() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	return "/etc/claude-code/managed-settings.json"
}

// Layout is where things live for one project.
type Layout struct {
	Home         string // agent home, absolute
	HomeSource   string // "flag", "MEMDIR_HOME", "CLAUDE_CONFIG_DIR" or "default"
	ProjectRoot  string
	ProjectVia   string // "git" or "cwd"
	ProjectKey   string // Sanitize(ProjectRoot)
	MemoryDir    string // no trailing separator
	MemorySource string // "default", "MEMDIR_MEMORY_DIR", "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "user-settings" or "global"
	SynthesisDir string // <Home>/memory
	// UserDir is the user's global memory folder, <Home>/memory/user: the
	// memories about the person (type user) that follow them into every
	// project. Recall reads it beside the project's folder; with --global
	// (Env.Global) it is the memory folder itself. It may not exist.
	UserDir string
	// WorkTree is the checkout the working directory is in: ProjectRoot,
	// or a linked worktree of it (git worktree add), which shares its
	// memory folder but has files, and a team folder, of its own.
	WorkTree string
	// TeamDir is the project's team memory folder, committed with the
	// code (TeamFolder under WorkTree); it may not exist.
	TeamDir string
	// TeamMount is the folder name the team memories take in Claude
	// Code's layout: <MemoryDir>/team/<TeamMount>.
	TeamMount   string
	Disabled    bool   // automatic memory is off
	DisabledWhy string // e.g. "MEMDIR_DISABLE=1"
}

// UserFolder is the user's global memory folder's name under
// Layout.SynthesisDir.
const UserFolder = "user"

// SourceGlobal is Layout.MemorySource for --global.
const SourceGlobal = "global"

// userSettings is the part of Claude Code's user settings.json memdir reads.
type userSettings struct {
	AutoMemoryDirectory string `json:"autoMemoryDirectory"`
	AutoMemoryEnabled   *bool  `json:"autoMemoryEnabled"`
}

// Resolve computes the layout. It returns an error for an unusable home, a
// malformed user settings file (naming it), or an override that
// ValidateOverride refuses (naming where it came from): a refused override
// is reported, never silently replaced by the default.
func Resolve(env Env) (Layout, error) {
	var l Layout
	cwd := env.Cwd
	if cwd == "" || !filepath.IsAbs(cwd) {
		return l, fmt.Errorf("working directory %q is not absolute", cwd)
	}
	home, src, err := resolveHome(env)
	if err != nil {
		return l, err
	}
	l.Home, l.HomeSource = home, src
	l.SynthesisDir = filepath.Join(home, "memory")
	l.UserDir = filepath.Join(l.SynthesisDir, UserFolder)

	start := cwd
	if env.ProjectFlag != "" {
		start = absFrom(cwd, expandTilde(env.ProjectFlag, env.UserHome))
	}
	l.ProjectRoot, l.ProjectVia = ProjectRoot(start)
	l.ProjectKey = Sanitize(l.ProjectRoot)
	l.WorkTree = WorkTreeRoot(start)
	l.TeamDir = filepath.Join(l.WorkTree, filepath.FromSlash(TeamFolder))
	l.TeamMount = TeamMount(l.ProjectRoot)
	l.MemoryDir = filepath.Join(home, "projects", l.ProjectKey, "memory")
	l.MemorySource = "default"

	settingsPath := filepath.Join(home, "settings.json")
	settings, err := readUserSettings(settingsPath)
	if err != nil {
		return l, err
	}
	allowed := []string{env.UserHome, home}
	for _, r := range filepath.SplitList(env.Getenv("MEMDIR_ALLOWED_ROOTS")) {
		if r != "" {
			allowed = append(allowed, r)
		}
	}
	override := func(source, value string, tilde bool) error {
		if tilde {
			value = expandTilde(value, env.UserHome)
		}
		p, err := ValidateOverride(value, allowed)
		if err == nil {
			err = notAHome(p, []string{env.UserHome, home})
		}
		if err != nil {
			return fmt.Errorf("%s: %w", source, err)
		}
		l.MemoryDir, l.MemorySource = p, source
		return nil
	}
	switch {
	case env.Getenv("MEMDIR_MEMORY_DIR") != "":
		err = override("MEMDIR_MEMORY_DIR", env.Getenv("MEMDIR_MEMORY_DIR"), true)
	case env.Getenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE") != "":
		err = override("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", env.Getenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"), false)
	case settings.AutoMemoryDirectory != "":
		if e := override("user-settings", settings.AutoMemoryDirectory, true); e != nil {
			err = fmt.Errorf("autoMemoryDirectory in %s: %w", settingsPath, errors.Unwrap(e))
		}
	}
	if err != nil {
		return l, err
	}
	if env.Global {
		// The global folder is the agent home's, as the default project
		// folders are: the same link rule applies.
		l.MemoryDir, l.MemorySource = l.UserDir, SourceGlobal
		if !withinAny(allowed, l.MemoryDir) {
			return l, fmt.Errorf("%w: %s leads to %s", ErrLinkOut, l.MemoryDir, resolveExisting(l.MemoryDir))
		}
	}
	if l.MemorySource == "default" {
		// The default folder follows the same rule as an override: a
		// link under the agent home that leads out of every allowed place
		// (a project folder or memory folder replaced by a symlink) is
		// refused, not followed silently.
		if !withinAny(allowed, l.MemoryDir) {
			return l, fmt.Errorf("%w: %s leads to %s", ErrLinkOut, l.MemoryDir, resolveExisting(l.MemoryDir))
		}
		if err := notAHome(l.MemoryDir, []string{env.UserHome, home}); err != nil {
			return l, fmt.Errorf("%w: %s leads to %s", ErrLinkOut, l.MemoryDir, resolveExisting(l.MemoryDir))
		}
	}
	enabled, from := settings.AutoMemoryEnabled, settingsPath
	if e, f := scopedAutoMemory(env, l.ProjectRoot); e != nil {
		enabled, from = e, f
	}
	l.Disabled, l.DisabledWhy = disabled(env.Getenv, enabled, from)
	return l, nil
}

// scopedAutoMemory reads autoMemoryEnabled from the settings Claude Code
// ranks above the user's — managed, then the project's local and shared
// files — and returns the first set, with its file. Only this switch is
// read there: a project cannot move where memories are written. A file
// that is missing or does not parse is passed over (Claude Code reports
// those itself).
func scopedAutoMemory(env Env, projectRoot string) (*bool, string) {
	policy := env.PolicySettings
	if policy == "" {
		policy = ManagedSettingsPath()
	}
	for _, f := range []string{policy, filepath.Join(projectRoot, ".claude", "settings.local.json"), filepath.Join(projectRoot, ".claude", "settings.json")} {
		// A project's files come with a clone: never trust what is there.
		b, err := safefile.ReadFile(f, maxSettings)
		if err != nil {
			continue
		}
		var s userSettings
		if json.Unmarshal(b, &s) == nil && s.AutoMemoryEnabled != nil {
			return s.AutoMemoryEnabled, f
		}
	}
	return nil, ""
}

func resolveHome(env Env) (home, source string, err error) {
	switch {
	case env.HomeFlag != "":
		home, source = env.HomeFlag, "flag"
	case env.Getenv("MEMDIR_HOME") != "":
		home, source = env.Getenv("MEMDIR_HOME"), "MEMDIR_HOME"
	case env.Getenv("CLAUDE_CONFIG_DIR") != "":
		home, source = env.Getenv("CLAUDE_CONFIG_DIR"), "CLAUDE_CONFIG_DIR"
	case env.UserHome != "":
		return filepath.Join(env.UserHome, ".claude"), "default", nil
	default:
		return "", "", errors.New("cannot find the agent home: $HOME is not set; pass --home or set MEMDIR_HOME")
	}
	if strings.ContainsRune(home, 0) {
		return "", "", fmt.Errorf("agent home from %s contains a NUL byte", source)
	}
	return absFrom(env.Cwd, expandTilde(home, env.UserHome)), source, nil
}

// maxSettings bounds a settings file memdir reads (Claude Code's are a
// few kilobytes).
const maxSettings = 4 << 20

func readUserSettings(path string) (userSettings, error) {
	var s userSettings
	b, err := safefile.ReadFile(path, maxSettings)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return s, nil
	}
	if err := json.Unmarshal(b, &s); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(b, se.Offset-1) // Offset is just past the bad byte
			return s, fmt.Errorf("%w: %s:%d:%d: %v", ErrSettings, path, line, col, err)
		}
		return s, fmt.Errorf("%w: %s: %v", ErrSettings, path, err)
	}
	return s, nil
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// truthy is how Claude Code reads boolean environment variables.
// Truthy reads an on/off environment value as memdir does everywhere:
// 1, true, yes and on (any case) are on; anything else is off.
func Truthy(v string) bool { return truthy(v) }

func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func falsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

func disabled(getenv func(string) string, enabled *bool, from string) (bool, string) {
	if v := getenv("MEMDIR_DISABLE"); truthy(v) {
		return true, "MEMDIR_DISABLE=" + v
	}
	cc := getenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
	if truthy(cc) {
		return true, "CLAUDE_CODE_DISABLE_AUTO_MEMORY=" + cc
	}
	if falsy(cc) {
		return false, "" // Claude Code: an explicit falsy value forces it on
	}
	for _, k := range []string{"CLAUDE_CODE_SAFE_MODE", "CLAUDE_CODE_SIMPLE"} {
		if v := getenv(k); truthy(v) {
			return true, k + "=" + v
		}
	}
	if getenv("CLAUDE_CODE_REMOTE") != "" && getenv("CLAUDE_CODE_REMOTE_MEMORY_DIR") == "" && getenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE") == "" {
		return true, "CLAUDE_CODE_REMOTE without CLAUDE_CODE_REMOTE_MEMORY_DIR"
	}
	if enabled != nil && !*enabled {
		return true, "autoMemoryEnabled=false in " + from
	}
	return false, ""
}

func expandTilde(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		return filepath.Join(home, p[2:])
	}
	return p
}

func absFrom(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// ProjectRoot finds the project root for dir: the main checkout of the git
// repository holding it (through .git files and commondir, so a linked
// worktree maps to the main checkout), else dir itself. Symlinks in the
// result are resolved when possible.
func ProjectRoot(dir string) (root, via string) {
	dir = realpath(filepath.Clean(dir))
	for d := dir; ; d = filepath.Dir(d) {
		if r, ok := gitRoot(d); ok {
			return realpath(r), "git"
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return realpath(dir), "cwd"
}

// gitRoot reports the root when d holds a .git entry.
func gitRoot(d string) (string, bool) {
	dotgit := filepath.Join(d, ".git")
	info, err := os.Stat(dotgit)
	if err != nil {
		return "", false
	}
	gitdir := dotgit
	if !info.IsDir() {
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return "", false
		}
		line, _, _ := strings.Cut(string(b), "\n")
		p, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return "", false
		}
		gitdir = absFrom(d, strings.TrimSpace(p))
	}
	common := gitdir
	if b, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		common = absFrom(gitdir, strings.TrimSpace(string(b)))
	}
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common), true
	}
	return d, true // a submodule's modules/<name>, or a bare layout
}

func realpath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// ValidateOverride checks a memory folder override and returns it cleaned,
// without trailing separators. It refuses an empty value, NUL bytes, a
// relative path, one shorter than 3 characters, a drive (C: or C:\), a UNC
// path, the filesystem root, and a path outside every allowed base (symlinks
// resolved where they exist). Errors wrap ErrInvalidOverride.
func ValidateOverride(p string, allowedBases []string) (string, error) {
	bad := func(why string) (string, error) {
		return "", fmt.Errorf("%w %q: %s", ErrInvalidOverride, p, why)
	}
	switch {
	case p == "":
		return bad("empty")
	case strings.ContainsRune(p, 0):
		return bad("contains a NUL byte")
	case strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//"):
		return bad("UNC paths are not allowed")
	case len(p) == 2 && p[1] == ':' || len(p) == 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
		return bad("a drive root is not allowed")
	case !filepath.IsAbs(p):
		return bad("relative path; give an absolute one")
	}
	clean := filepath.Clean(p)
	if clean == string(filepath.Separator) || filepath.Dir(clean) == clean {
		return bad("the filesystem root is not allowed")
	}
	if len(clean) < 3 {
		return bad("too short")
	}
	for _, base := range allowedBases {
		if base == "" || !filepath.IsAbs(base) {
			continue
		}
		if ok, err := Within(base, clean); err == nil && ok {
			return clean, nil
		}
	}
	return bad("outside your home folder (add its parent to MEMDIR_ALLOWED_ROOTS to allow it)")
}

// notAHome refuses a memory folder that is a home folder or one of its
// parents: every markdown file there (CLAUDE.md, notes) would be read as a
// memory, and a forget would move it.
func notAHome(p string, homes []string) error {
	rp := resolveExisting(p)
	for _, h := range homes {
		if h == "" || !filepath.IsAbs(h) {
			continue
		}
		if ok, err := Within(rp, h); err == nil && ok {
			return fmt.Errorf("%w %q: it is %s or one of its parents, not a folder of its own", ErrInvalidOverride, p, h)
		}
	}
	return nil
}

// withinAny reports whether p stays inside one of bases.
func withinAny(bases []string, p string) bool {
	for _, b := range bases {
		if b == "" || !filepath.IsAbs(b) {
			continue
		}
		if ok, err := Within(b, p); err == nil && ok {
			return true
		}
	}
	return false
}

// Within reports whether target stays inside base once symlinks are
// resolved: fully for paths that exist, and for a path that does not exist
// yet through its longest existing parent.
func Within(base, target string) (bool, error) {
	b, err := filepath.EvalSymlinks(base)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		b = resolveExisting(filepath.Clean(base))
	}
	t := resolveExisting(filepath.Clean(target))
	rel, err := filepath.Rel(b, t)
	if err != nil {
		return false, nil
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// resolveExisting resolves the symlinks of p's longest existing prefix and
// appends the rest unchanged.
func resolveExisting(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(resolveExisting(parent), filepath.Base(p))
}
