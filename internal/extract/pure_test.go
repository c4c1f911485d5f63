package extract

import (
	gobuild "go/build"
	"strings"
	"testing"
)

// TestPure: extract decides and reads nothing, so it imports none of the
// layers that do I/O on memdir's files or talk to a model, directly or
// through another of memdir's packages.
func TestPure(t *testing.T) {
	forbidden := []string{"internal/memdir", "internal/workspace", "internal/llm", "internal/sessions",
		"internal/synthesis", "internal/atomicfile", "internal/lockfile", "net/http", "os/exec"}
	seen := map[string]bool{}
	var walk func(path, dir string, chain []string)
	walk = func(path, dir string, chain []string) {
		if seen[path] {
			return
		}
		seen[path] = true
		pkg, err := gobuild.Import(path, dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			for _, f := range forbidden {
				if strings.HasSuffix(imp, f) {
					t.Errorf("extract imports %s (via %s)", imp, strings.Join(append(chain, path), " → "))
				}
			}
			if strings.HasPrefix(imp, "github.com/memdir/memdir/") {
				walk(imp, pkg.Dir, append(chain, path))
			}
		}
	}
	walk(".", ".", nil)
}
