package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/testenv"
)

// TestTeamHook_GitCommit installs the pre-commit hook with the real memdir
// binary and commits with the real git (issue 16): a team memory holding a
// secret is refused, also when the working file was fixed but not added
// again; a clean one passes; a commit that touches no team file passes.
func TestTeamHook_GitCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	// testscript.Main put this test binary on PATH as memdir.
	bin, err := exec.LookPath("memdir")
	if err != nil {
		t.Fatalf("memdir is not on PATH: %v", err)
	}
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+root, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=a@example.com",
		"MEMDIR_AUTHOR=Alice", "MEMDIR_LOCK_TIMEOUT=5s")
	run := func(wantOK bool, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = proj, env
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("%s %s: err=%v, want ok=%v\n%s", name, strings.Join(args, " "), err, wantOK, out)
		}
		return string(out)
	}
	git := func(wantOK bool, args ...string) string {
		return run(wantOK, "git", append([]string{"-c", "commit.gpgsign=false"}, args...)...)
	}
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(proj, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(true, "init", "-q", "-b", "main")
	run(true, bin, "--home", filepath.Join(root, ".claude"), "team", "init", "--hook")
	hook, err := os.ReadFile(filepath.Join(proj, ".git", "hooks", "pre-commit"))
	if err != nil || !strings.Contains(string(hook), "memdir_bin='"+bin+"'") {
		t.Fatalf("pre-commit hook=%q (%v), want it to call %s", hook, err, bin)
	}
	run(true, bin, "--home", filepath.Join(root, ".claude"), "save", "--scope", "team", "--type", "project",
		"--name", "Deploy flow", "--description", "How we deploy", "--body", "Run make deploy.")
	git(true, "add", ".memdir/team")
	git(true, "commit", "-q", "-m", "a clean team memory")

	secret := "---\nname: Deploy token\ndescription: the token\ntype: project\n---\nUse ghp_abcdefghijklmnopqrstuvwxyz0123456789AB to deploy.\n"
	write(".memdir/team/deploy-token.md", secret)
	git(true, "add", ".memdir/team/deploy-token.md")
	out := git(false, "commit", "-q", "-m", "a secret")
	if !strings.Contains(out, "deploy-token.md: potential secret (github-token)") || !strings.Contains(out, "memdir: hint:") {
		t.Fatalf("refused commit said %q, want the file, the label and a hint", out)
	}
	// Fixed in the working tree, not added again: still refused.
	write(".memdir/team/deploy-token.md", "---\nname: Deploy token\ndescription: the token\ntype: project\n---\nThe token is in the vault.\n")
	git(false, "commit", "-q", "-m", "a secret")
	git(true, "add", ".memdir/team/deploy-token.md")
	git(true, "commit", "-q", "-m", "fixed")

	// A commit of no team file passes, with a secret-looking file
	// elsewhere (not memdir's business).
	write("README.md", "password = hunter22x\n")
	git(true, "add", "README.md")
	git(true, "commit", "-q", "-m", "readme")
	if log := git(true, "log", "--format=%s"); log != "readme\nfixed\na clean team memory\n" {
		t.Fatalf("git log=%q", log)
	}
	if files := git(true, "ls-files", ".memdir/team"); files != ".memdir/team/.gitattributes\n.memdir/team/.gitignore\n.memdir/team/deploy-flow.md\n.memdir/team/deploy-token.md\n" {
		t.Fatalf("committed team files=%q, want the memories, the .gitignore and the .gitattributes only", files)
	}
}
