package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/testenv"
)

// TestTranscripts_RealClaude runs the real, pinned claude CLI with a prompt
// in a temporary git repo under a temporary HOME. It fails at login, but
// writes a real transcript: memdir must list its day as pending, extract
// the prompt under the repo's path, find it by search, and mark it done.
func TestTranscripts_RealClaude(t *testing.T) {
	claude := testenv.Claude(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, repo := filepath.Join(root, "home"), filepath.Join(root, "repo")
	for _, d := range []string{home, repo} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	const prompt = "remember that deploys happen on tuesdays only"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", prompt)
	cmd.Dir = repo
	cmd.Env = testenv.ClaudeEnv(home)
	out, _ := cmd.CombinedOutput() // exits 1: not logged in
	t.Logf("claude -p: %s", out)

	agentHome := filepath.Join(home, ".claude")
	today := time.Now().UTC().Format(time.DateOnly)
	pending := memdirOut(t, agentHome, "transcripts", "list-pending")
	if !strings.Contains(pending, today) || !strings.Contains(pending, "(repo)") {
		t.Fatalf("list-pending does not show today (%s) for the repo:\n%s", today, pending)
	}
	text := memdirOut(t, agentHome, "transcripts", "extract", today)
	if !strings.Contains(text, "[USER]") || !strings.Contains(text, prompt) || !strings.Contains(text, "project: "+repo) {
		t.Fatalf("extract does not show the prompt under the repo:\n%s", text)
	}
	var days map[string][]struct {
		SessionID string `json:"session_id"`
		Messages  []struct {
			Role, Content string
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(memdirOut(t, agentHome, "transcripts", "extract", "--json")), &days); err != nil {
		t.Fatal(err)
	}
	if s := days[today]; len(s) != 1 || len(s[0].Messages) == 0 || s[0].Messages[0].Content != prompt {
		t.Fatalf("extract --json: %+v", days)
	}
	if got := memdirOut(t, agentHome, "search", "--transcripts", "tuesdays"); !strings.Contains(got, prompt) {
		t.Fatalf("search --transcripts tuesdays: %q", got)
	}
	memdirOut(t, agentHome, "transcripts", "done", today)
	if got := memdirOut(t, agentHome, "transcripts", "list-pending"); got != "No pending transcripts.\n" {
		t.Fatalf("after done: %q", got)
	}
}
