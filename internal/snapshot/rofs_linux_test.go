package snapshot_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/testenv"
)

// TestRecall_ReadOnlyFileSystem: a memory folder on a read-only mount,
// with no cache folder yet, still recalls (the snapshot stays in memory).
func TestRecall_ReadOnlyFileSystem(t *testing.T) {
	var st *memdir.Store
	testenv.ReadOnlyMount(t, func(mnt string) {
		st = MustOpenIn(t, filepath.Join(mnt, "memory"))
		save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
		os.RemoveAll(st.Path(memdir.CacheDir))
	})
	snap, _, err := snapshot.Fresh(context.Background(), st)
	if err != nil {
		t.Fatalf("RecallIndex on a read-only folder: %v", err)
	}
	if snap.Len() != 1 {
		t.Fatalf("snapshot has %d memories", snap.Len())
	}
}
