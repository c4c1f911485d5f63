package patterns

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/diary"
)

// loadSet reads a labelled half: its diaries and its key.
func loadSet(t testing.TB, dir string) ([]Doc, Labels) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "diaries", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no diaries in %s: %v", dir, err)
	}
	var docs []Doc
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e, err := diary.Parse(filepath.Base(f), b)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, Doc{ID: strings.TrimSuffix(filepath.Base(f), ".md"), Entry: e})
	}
	var key Labels
	b, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &key); err != nil {
		t.Fatal(err)
	}
	return docs, key
}

// TestLabelledSets holds the engine to the bar on both halves:
// at least 0.8 of the planted patterns found with their tasks, no
// coincidence and no one-off proposed.
func TestLabelledSets(t *testing.T) {
	for _, half := range []string{"tune", "heldout"} {
		dir := filepath.Join("testdata", half)
		if _, err := os.Stat(filepath.Join(dir, "labels.json")); err != nil {
			t.Errorf("%s: %v", half, err)
			continue
		}
		docs, key := loadSet(t, dir)
		res := Find(docs, Options{})
		s := Evaluate(res, key)
		out, _ := json.MarshalIndent(s, "", "  ")
		t.Logf("%s: %s", half, out)
		if s.Recall < 0.8 || s.Coincidences > 0 || s.OneOffs > 0 {
			t.Errorf("%s: recall %.2f (want >= 0.8), coincidences proposed %d, one-offs proposed %d", half, s.Recall, s.Coincidences, s.OneOffs)
		}
	}
}
