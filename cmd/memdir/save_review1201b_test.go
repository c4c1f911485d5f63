package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReview1201b_SaveByNameNeverCopiesAnotherMemory: 'memdir save --name
// N' without --type and --description updates the memory called N, and
// "a new memory needs both". FillFromStored (workspace) looks N up with Resolve, which
// also finds the file N.md whatever its title, while the save writes the
// memory titled N: with tabs.md titled "Prefer tabs", 'save --name tabs'
// makes a new memory tabs-2.md with tabs.md's type and description.
func TestReview1201b_SaveByNameNeverCopiesAnotherMemory(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	mem := filepath.Join(root, "mem")
	os.MkdirAll(mem, 0o700)
	env := map[string]string{"HOME": root, "MEMDIR_MEMORY_DIR": mem}
	os.WriteFile(filepath.Join(mem, "tabs.md"), []byte("---\nname: Prefer tabs\ndescription: Indent Go code with tabs\ntype: feedback\n---\nAlways indent with tabs.\n"), 0o600)
	if _, errs, err := runIn(root, project, env, "", "index", "--rebuild"); err != nil {
		t.Fatalf("index --rebuild: %v\n%s", err, errs)
	}
	out, errs, err := runIn(root, project, env, "", "save", "--name", "tabs", "--body", "Use spaces in YAML files.")
	if _, serr := os.Stat(filepath.Join(mem, "tabs-2.md")); serr == nil {
		b, _ := os.ReadFile(filepath.Join(mem, "tabs-2.md"))
		t.Errorf("save --name tabs (no --type, no --description) made a new memory from another one's type and description (err %v):\n%s%s\ntabs-2.md:\n%s", err, out, errs, b)
	}
	if err == nil && !strings.Contains(out, "updated") {
		t.Errorf("save --name tabs: no error and no update:\n%s%s", out, errs)
	}
}
