package transcript_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/testenv"
	"github.com/memdir/memdir/internal/transcript"
)

// TestClaudeCLI_Transcript runs the real, pinned claude CLI with a prompt in
// a temporary git repo under a temporary HOME. Without a login it fails, but
// it writes a real transcript: it must be where paths.Sanitize says Claude
// Code puts it, and ParseClaude must find the prompt in it with nothing
// skipped and no unknown record types.
//
// It runs twice: in a short path, and in one over 200 characters, where
// Claude Code cuts the folder name and appends a hash of the path.
func TestClaudeCLI_Transcript(t *testing.T) {
	claude := testenv.Claude(t)
	t.Run("ShortPath", func(t *testing.T) { runClaude(t, claude, "repo") })
	long := strings.Repeat("a-rather-long-folder-name/", 9) + "repo"
	t.Run("PathOver200", func(t *testing.T) { runClaude(t, claude, long) })
}

func runClaude(t *testing.T, claude, rel string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	repo := filepath.Join(root, rel)
	for _, d := range []string{home, repo} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	const prompt = "we always use tabs for indentation in this repo"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", prompt)
	cmd.Dir = repo
	cmd.Env = testenv.ClaudeEnv(home)
	out, _ := cmd.CombinedOutput() // exits 1: not logged in
	t.Logf("claude -p: %s", out)

	if rel != "repo" && len(repo) <= 200 {
		t.Fatalf("the long path is only %d characters", len(repo))
	}
	folder := filepath.Join(home, ".claude", "projects", paths.Sanitize(repo))
	files, _ := filepath.Glob(filepath.Join(folder, "*.jsonl"))
	if len(files) != 1 {
		all, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
		t.Fatalf("transcripts in %s: %v; all transcripts: %v", folder, files, all)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := transcript.ParseClaude(f, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Skipped) != 0 || s.Unknown != 0 {
		t.Errorf("skipped=%v unknown=%d (types %v)", s.Skipped, s.Unknown, s.Types)
	}
	if s.CWD != repo || s.Version != testenv.ClaudeCodeVersion || filepath.Base(files[0]) != s.ID+".jsonl" {
		t.Errorf("cwd=%s version=%s id=%s file=%s", s.CWD, s.Version, s.ID, files[0])
	}
	found := false
	for _, m := range s.Messages {
		found = found || (m.Role == "user" && m.Text == prompt && !m.Meta)
	}
	if !found {
		t.Errorf("the prompt is not among the parsed messages: %+v", s.Messages)
	}
}
