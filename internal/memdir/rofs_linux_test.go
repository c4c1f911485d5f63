package memdir_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// readOnlyStore saves one memory on a fresh tmpfs, lets prepare remove what
// the test needs gone, and remounts the tmpfs read-only. It needs root to
// mount, and skips without.
func readOnlyStore(t *testing.T, prepare func(st *memdir.Store)) *memdir.Store {
	t.Helper()
	mnt := t.TempDir()
	if err := syscall.Mount("none", mnt, "tmpfs", 0, ""); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	st, err := memdir.Open(filepath.Join(mnt, "memory"), memdir.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	prepare(st)
	if err := syscall.Mount("none", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only: %v", err)
	}
	return st
}

// TestRecall_ReadOnlyFileSystem: a memory folder on a read-only mount,
// with no cache folder yet, still recalls (the snapshot stays in memory).
func TestRecall_ReadOnlyFileSystem(t *testing.T) {
	st := readOnlyStore(t, func(st *memdir.Store) { os.RemoveAll(st.Path(memdir.CacheDir)) })
	snap, _, err := st.RecallIndex(context.Background())
	if err != nil {
		t.Fatalf("RecallIndex on a read-only folder: %v", err)
	}
	if snap.Len() != 1 {
		t.Fatalf("snapshot has %d memories", snap.Len())
	}
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
