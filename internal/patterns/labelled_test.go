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

// TestLabelledSets keeps the offline engine from getting worse on either
// half of the labelled set than docs/benchmarks.md reports. The bar
// (0.8 of the planted patterns found, no coincidence nor one-off proposed)
// is reported there, not asserted here: the offline engine does not reach
// it on paraphrased lessons.
func TestLabelledSets(t *testing.T) {
	floors := map[string]struct {
		recall             float64
		coincidences, ones int
	}{
		"tune":    {0.66, 1, 0},
		"tune2":   {0.60, 0, 0},
		"heldout": {0.30, 1, 0},
		"fresh":   {0.40, 1, 0},
	}
	for _, half := range []string{"tune", "tune2", "heldout", "fresh"} {
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
		f := floors[half]
		if s.Recall < f.recall || s.Coincidences > f.coincidences || s.OneOffs > f.ones {
			t.Errorf("%s got worse: recall %.2f (floor %.2f), coincidences proposed %d (at most %d), one-offs proposed %d (at most %d)",
				half, s.Recall, f.recall, s.Coincidences, f.coincidences, s.OneOffs, f.ones)
		}
	}
}
