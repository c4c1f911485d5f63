package testenv

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Vectors runs check once per txtar file matching glob, as a subtest named
// by the file (vectors are named by the outcome they pin), with the
// archive's sections by name and its comment.
func Vectors(t *testing.T, glob string, check func(t *testing.T, sections map[string]string, comment string)) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors match %s: %v", glob, err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), func(t *testing.T) {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]string{}
			for _, s := range ar.Files {
				sections[s.Name] = string(s.Data)
			}
			check(t, sections, string(ar.Comment))
		})
	}
}
