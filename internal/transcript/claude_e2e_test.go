package transcript_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	const prompt = "we always use tabs for indentation in this repo"
	home, repo := testenv.RunClaude(t, claude, rel, prompt)

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
