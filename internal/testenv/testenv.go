// Package testenv gives end-to-end tests the real programs memdir works
// with, installed on demand: the Claude Code CLI from npm, pinned.
//
// A test that needs a tool which cannot be had skips on a developer's
// machine but fails under CI=true: a silent skip in CI would hide a hole.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// ClaudeCodeVersion is the pinned npm version of @anthropic-ai/claude-code.
// Its native binary runs under Node 20; without a login it still fires the
// SessionStart, UserPromptSubmit and SessionEnd hooks and writes a transcript.
const ClaudeCodeVersion = "2.1.328"

// Unavailable skips the test, or fails it under CI=true.
func Unavailable(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("required under CI=true: "+format, args...)
	}
	tb.Skipf(format, args...)
}

// Claude returns the path of the pinned claude CLI, installing it with npm
// into a cache folder shared by all test processes (under a lock) the first
// time.
func Claude(tb testing.TB) string {
	tb.Helper()
	modules := NodeModules(tb, "@anthropic-ai/claude-code@"+ClaudeCodeVersion, "claude-code-"+ClaudeCodeVersion)
	bin := filepath.Join(modules, ".bin", "claude")
	if _, err := os.Stat(bin); err != nil {
		Unavailable(tb, "npm installed no %s", bin)
	}
	return bin
}

// ClaudeEnv is a minimal environment for running claude under a throwaway
// HOME: no inherited Claude or memdir settings, no update checks.
func ClaudeEnv(home string, extra ...string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// memdir's hooks would start a detached extraction that can outlive
		// the test and race its temporary folder's removal.
		"MEMDIR_EXTRACT=off",
	}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMPDIR=") || strings.HasPrefix(kv, "LANG=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// RunClaude makes a temporary home and git repo (see TempRepo), runs the
// claude CLI there with prompt (see RunClaudeIn), and returns both.
func RunClaude(tb testing.TB, claude, rel, prompt string) (home, repo string) {
	tb.Helper()
	home, repo = TempRepo(tb, rel)
	RunClaudeIn(tb, claude, home, repo, prompt)
	return home, repo
}

// TempRepo makes a temporary root holding a home folder and a git repo at
// root/rel. Paths are free of symlinks, as Claude Code records them.
func TempRepo(tb testing.TB, rel string) (home, repo string) {
	tb.Helper()
	root, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	home, repo = filepath.Join(root, "home"), filepath.Join(root, rel)
	for _, d := range []string{home, repo} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v\n%s", err, out)
	}
	return home, repo
}

// RunClaudeIn runs claude -p prompt in repo under HOME=home. Without a
// login it exits 1, after firing the hooks and writing its transcript.
func RunClaudeIn(tb testing.TB, claude, home, repo, prompt string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", prompt)
	cmd.Dir = repo
	cmd.Env = ClaudeEnv(home)
	out, _ := cmd.CombinedOutput() // exits 1: not logged in
	tb.Logf("claude -p %q: %s", prompt, out)
}

// MCPSDKVersion is the pinned npm version of @modelcontextprotocol/sdk.
const MCPSDKVersion = "1.32.2"

// NodeModules returns a node_modules folder holding the npm package spec
// (name@version), installed on first use into the shared cache folder
// memdir-e2e/<folder> (default: the spec), under a lock so that parallel
// test processes install it once. Without Node and npm it skips, or fails
// under CI=true.
func NodeModules(tb testing.TB, spec string, folder ...string) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("end-to-end test with Node")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			Unavailable(tb, "%s is not installed: cannot install %s", tool, spec)
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil || cache == "" {
		cache = os.TempDir()
	}
	name := strings.NewReplacer("/", "_", "@", "-").Replace(spec)
	if len(folder) > 0 {
		name = folder[0]
	}
	dir := filepath.Join(cache, "memdir-e2e", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	lock := flock.New(filepath.Join(dir, ".install.lock"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, 100*time.Millisecond); !ok {
		tb.Fatalf("lock the npm cache %s: %v", dir, err)
	}
	defer lock.Unlock()
	modules := filepath.Join(dir, "node_modules")
	pkg := spec[:strings.LastIndex(spec, "@")]
	if _, err := os.Stat(filepath.Join(modules, filepath.FromSlash(pkg), "package.json")); err == nil {
		return modules
	}
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", spec)
	if out, err := cmd.CombinedOutput(); err != nil {
		Unavailable(tb, "npm install %s: %v\n%s", spec, err, out)
	}
	return modules
}
