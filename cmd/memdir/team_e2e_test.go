package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/testenv"
)

// TestTeam_RealClaude checks team memory against the real, pinned claude
// CLI. Claude Code 2.1.328 loads only the private MEMORY.md as AutoMem: it
// never reads <memory dir>/team/<mount>/ unless CLAUDE_MEMORY_STORES names
// a hosted store (measured; see the README's "Memory for a team"). So the
// team memories reach the agent through memdir's hooks: SessionStart lists
// them, UserPromptSubmit recalls a matching one beside the private ones,
// marked team — which is what this test reads back from claude's
// transcript. It also checks the link memdir makes where Claude Code's team
// mode looks, and records that Claude Code still does not load it, so a
// release that starts to will show here.
func TestTeam_RealClaude(t *testing.T) {
	claude := testenv.Claude(t)
	home, repo := testenv.TempRepo(t, "svc")
	agentHome := filepath.Join(home, ".claude")
	if out, err := exec.Command("git", "-C", repo, "config", "user.name", "Ana Lima").CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := memdirCmd(t, agentHome, args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("memdir %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("save", "--type", "feedback", "--name", "Integration tests hit a real database",
		"--description", "Never mock PostgreSQL in integration tests; use docker compose up db", "--body", "A mocked test once hid a broken migration.")
	run("save", "--scope", "team", "--type", "project", "--name", "Deploy flow",
		"--description", "How the service is deployed to production: make deploy from main", "--body", "make deploy tags the release and rolls it out; the canary takes ten minutes.")
	run("install", "claude")

	const prompt = "how do we deploy the service to production?"
	testenv.RunClaudeIn(t, claude, home, repo, prompt)

	memDir := filepath.Join(agentHome, "projects", paths.Sanitize(repo), "memory")
	mount := paths.TeamMount(repo)
	link := filepath.Join(memDir, "team", mount)
	if target, err := os.Readlink(link); err != nil || target != filepath.Join(repo, ".memdir", "team") {
		t.Errorf("link %s → %q (%v), want the repository's .memdir/team", link, target, err)
	}
	// Claude Code's layout: the team memories and their MEMORY.md under
	// <memory dir>/team/<mount>/.
	for f, want := range map[string]string{"deploy-flow.md": "make deploy", "MEMORY.md": "](deploy-flow.md)"} {
		if b, err := os.ReadFile(filepath.Join(link, f)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s through the link lacks %q: %v\n%s", f, want, err, b)
		}
	}
	files := mustGlob(t, filepath.Join(agentHome, "projects", paths.Sanitize(repo), "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("transcripts: %v", files)
	}
	s := parse(t, files[0])
	var start, recalled []string
	for _, in := range s.Injections {
		switch in.Event {
		case "SessionStart":
			start = append(start, in.Text)
		case "UserPromptSubmit":
			recalled = append(recalled, in.Text)
		}
	}
	got := strings.Join(recalled, "\n")
	for _, want := range []string{"team/deploy-flow.md", "make deploy", "team"} {
		if !strings.Contains(got, want) {
			t.Errorf("UserPromptSubmit context lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "integration-tests-hit-a-real-database.md") {
		t.Errorf("an unrelated private memory was recalled:\n%s", got)
	}
	if st := strings.Join(start, "\n"); !strings.Contains(st, "team/deploy-flow.md") || !strings.Contains(st, "Ana Lima") {
		t.Errorf("SessionStart does not list the team memory with its author:\n%s", st)
	}
	// What Claude Code loads itself: the private index, never the team
	// folder (no hosted store configured).
	if !slices.ContainsFunc(s.MemoryFiles, func(p string) bool { return p == filepath.Join(memDir, "MEMORY.md") }) {
		t.Errorf("Claude Code's AutoMem attachment does not carry the private MEMORY.md: %v", s.MemoryFiles)
	}
	if i := slices.IndexFunc(s.MemoryFiles, func(p string) bool { return strings.Contains(p, filepath.Join("team", mount)) }); i >= 0 {
		t.Logf("Claude Code now loads team files itself (%s): update the README's team section", s.MemoryFiles[i])
	}
	// Nothing private reached the repository.
	err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "Never mock PostgreSQL") {
			t.Errorf("a private memory's text is in the repository: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(agentHome, "memory", "logs", "hooks.log")); err == nil {
		t.Errorf("hooks logged failures:\n%s", b)
	}
}
