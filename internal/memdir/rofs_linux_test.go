package memdir_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/testenv"
)

// readOnlyStore saves one memory on a fresh tmpfs, lets prepare remove what
// the test needs gone, and remounts the tmpfs read-only. It needs root to
// mount, and skips without.
func readOnlyStore(t *testing.T, prepare func(st *memdir.Store)) *memdir.Store {
	t.Helper()
	var st *memdir.Store
	testenv.ReadOnlyMount(t, func(mnt string) {
		var err error
		st, err = memdir.Open(filepath.Join(mnt, "memory"), memdir.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
		prepare(st)
	})
	return st
}

// TestLoadIndex_ReadOnlyFileSystem: the index of a read-only folder whose
// MEMORY.md is missing ('memdir index', memdir://index) is built in memory
// instead of failing on the rebuild's write.
func TestLoadIndex_ReadOnlyFileSystem(t *testing.T) {
	st := readOnlyStore(t, func(st *memdir.Store) { os.Remove(st.Path(memdir.IndexFile)) })
	ld, err := st.LoadIndex(context.Background())
	if err != nil || !strings.Contains(ld.Text, "(deploy-freeze.md)") {
		t.Fatalf("LoadIndex on a read-only folder: %q, %v", ld.Text, err)
	}
}
