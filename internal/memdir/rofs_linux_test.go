package memdir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestForget_FullDisk: on a full disk, forget fails whole — the memory file
// stays where it was and its index line too — and once there is room a
// retry by name finishes it. Before, the file moved to .forgotten while
// MEMORY.md could not be written, and the retry said "not found".
func TestForget_FullDisk(t *testing.T) {
	mnt := t.TempDir()
	if err := syscall.Mount("none", mnt, "tmpfs", 0, "size=512k"); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	st, err := memdir.Open(filepath.Join(mnt, "memory"), memdir.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, purge := range []bool{false, true} {
		file := save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
		save(t, st, "Other note", "Something else to keep the index busy", strings.Repeat("words ", 50))
		// Fill the disk: the next write of MEMORY.md fails with ENOSPC.
		filler := filepath.Join(mnt, "filler")
		f, _ := os.Create(filler)
		for {
			if _, err := f.Write(make([]byte, 4096)); err != nil {
				break
			}
		}
		f.Close()
		if _, err := st.Forget(context.Background(), "Deploy freeze", purge); err == nil {
			t.Fatalf("purge=%v: forget on a full disk succeeded", purge)
		}
		if _, err := os.Stat(st.Path(file)); err != nil {
			t.Errorf("purge=%v: the memory file is gone after a failed forget: %v", purge, err)
		}
		if ix, _ := os.ReadFile(st.Path(memdir.IndexFile)); !strings.Contains(string(ix), "("+file+")") {
			t.Errorf("purge=%v: the index line is gone after a failed forget", purge)
		}
		os.Remove(filler)
		res, err := st.Forget(context.Background(), "Deploy freeze", purge)
		if err != nil || !res.Removed || !res.IndexRemoved {
			t.Fatalf("purge=%v: the retry: %+v %v", purge, res, err)
		}
		if _, err := os.Stat(st.Path(file)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("purge=%v: the file is still there after the retry", purge)
		}
	}
}
