package main

import (
	"encoding/json"
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
	const prompt = "remember that deploys happen on tuesdays only"
	home, repo := testenv.RunClaude(t, claude, "repo", prompt)

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
