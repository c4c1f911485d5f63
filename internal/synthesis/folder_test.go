package synthesis_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/synthesis"
)

func TestFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	f := synthesis.Open(dir, lockfile.Options{})
	for _, bad := range []string{"", "../x", "/etc/passwd", "a/../../x", "a\x00b"} {
		if _, err := f.Path(bad); err == nil {
			t.Errorf("Path(%q) was accepted", bad)
		}
	}
	var v map[string]int
	if found, err := f.ReadJSON("state.json", &v); found || err != nil {
		t.Fatalf("a missing file: found=%v err=%v", found, err)
	}
	if err := f.WriteJSON("sub/state.json", map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if found, err := f.ReadJSON("sub/state.json", &v); !found || err != nil || v["a"] != 1 {
		t.Fatalf("read back: %v %v %v", found, err, v)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "sub", "state.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte("{"), 0o600)
	var ce *synthesis.CorruptError
	if _, err := f.ReadJSON("bad.json", &v); !errors.As(err, &ce) || ce.Path != filepath.Join(dir, "bad.json") {
		t.Errorf("a corrupt file: %v", err)
	}
	unlock, err := f.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// TestLongTermFile: the skill's naming; a name of which nothing is kept
// gets a short hash, so two such projects do not share a file.
func TestLongTermFile(t *testing.T) {
	for in, want := range map[string]string{
		"granada":              "granada-long-term-memory.md",
		"Claude Memory System": "claude-memory-system-long-term-memory.md",
		"my_project--v2":       "myproject-v2-long-term-memory.md",
		"--":                   "project-d8156bae-long-term-memory.md",
		"日本語":                  "project-77710aed-long-term-memory.md",
		"中文":                   "project-72726d88-long-term-memory.md",
		"Café API":             "caf-api-long-term-memory.md",
	} {
		if got := synthesis.LongTermFile(in); got != want {
			t.Errorf("LongTermFile(%q)=%q, want %q", in, got, want)
		}
	}
}

func TestFolderRotate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	f := synthesis.Open(dir, lockfile.Options{})
	if moved, err := f.Rotate("q.jsonl", 10); moved || err != nil {
		t.Fatalf("a missing file: moved=%v err=%v", moved, err)
	}
	if _, err := f.Rotate("../q.jsonl", 10); err == nil {
		t.Error("a path out of the folder was rotated")
	}
	for _, line := range []string{"0123456789", "abc"} {
		if err := f.AppendLine("q.jsonl", []byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if moved, err := f.Rotate("q.jsonl", 100); moved || err != nil {
		t.Fatalf("under the limit: moved=%v err=%v", moved, err)
	}
	if moved, err := f.Rotate("q.jsonl", 10); !moved || err != nil {
		t.Fatalf("over the limit: moved=%v err=%v", moved, err)
	}
	if b, err := f.ReadFile("q.jsonl.1"); err != nil || string(b) != "0123456789\nabc\n" {
		t.Errorf("q.jsonl.1 = %q, %v", b, err)
	}
	if _, err := f.ReadFile("q.jsonl"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("q.jsonl is still there after the rotation: %v", err)
	}
}
