package corpus_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/corpus"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// TestGenerate: the same seed gives the same bytes, and every line is a
// record the parser knows, with nothing skipped.
func TestGenerate(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	sa, err := corpus.Generate(a, corpus.Options{Seed: 5, Bytes: 3e6, Projects: 4})
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := corpus.Generate(b, corpus.Options{Seed: 5, Bytes: 3e6, Projects: 4})
	if sa != sb || sa.Bytes < 3e6 || sa.Files < 2 {
		t.Fatalf("stats %+v and %+v", sa, sb)
	}
	files, _ := sessions.Discover(sessions.Roots{Claude: a})
	messages := 0
	for _, f := range files {
		da, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(a, f.Path)
		if db, err := os.ReadFile(filepath.Join(b, rel)); err != nil || !bytes.Equal(da, db) {
			t.Fatalf("%s differs between two runs with one seed", rel)
		}
		s, err := transcript.ParseClaude(bytes.NewReader(da), transcript.Options{})
		if err != nil || len(s.Skipped) > 0 || s.Unknown > 0 || s.ID != f.SessionID || s.CWD == "" {
			t.Fatalf("%s: err=%v skipped=%v unknown=%d id=%s cwd=%s", rel, err, s.Skipped, s.Unknown, s.ID, s.CWD)
		}
		messages += len(s.Messages)
	}
	if messages == 0 {
		t.Fatal("no messages parsed")
	}
}
