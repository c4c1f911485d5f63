//go:build unix

package snapshot_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// TestFresh_InodeComesBack: a memory the store replaced twice between two
// looks can get its old inode back (ext4 hands a freed inode out again at
// once), so the listing alone would trust it; the store's log of what it
// wrote makes the look stat it, and the new text is ranked.
func TestFresh_InodeComesBack(t *testing.T) {
	st := MustOpen(t, t0)
	f := save(t, st, "Deploy target", "deploys go to the gamma cluster", "Ask ops first.")
	ino := func() uint64 {
		fi, err := os.Stat(st.Path(f))
		if err != nil {
			t.Fatal(err)
		}
		return uint64(fi.Sys().(*syscall.Stat_t).Ino)
	}
	first := ino()
	if _, _, err := snapshot.Fresh(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	// The snapshot is from long before the saves below: nothing is racy.
	snapshot.DateForTest(t, st, time.Now().Add(-time.Hour))
	var word string
	for i := range 60 {
		word = fmt.Sprintf("zeta%02d", i)
		save(t, st, "Deploy target", "deploys go to the "+word+" hosts", "Ask ops first.")
		if ino() == first {
			break
		}
		if i == 59 {
			t.Skip("this file system gave the file a new inode on each of 60 saves: the case cannot be built here")
		}
	}
	if got := search(t, st, word); len(got) != 1 || got[0] != f {
		t.Fatalf("after a save that gave %s its old inode back, recall finds %v", f, got)
	}
}

// TestRecall_HeldSnapshotDoesNotUndoNewer: a caller that holds an older
// snapshot (the MCP server between events) and injects a memory changed
// in place must not write its note over the newer snapshot on disk.
func TestRecall_HeldSnapshotDoesNotUndoNewer(t *testing.T) {
	st := MustOpen(t, t0)
	f := save(t, st, "Deploy window", "deploys happen on tuesdays", "Ask the release manager.")
	held, _, err := snapshot.Fresh(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	// Another process saves a memory and refreshes the snapshot on disk.
	g := save(t, st, "Grafana board", "latency dashboards on grafana", "Under ops/latency.")
	if _, _, err := snapshot.Fresh(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	// The held snapshot's caller injects f, changed in place meanwhile.
	raw, err := os.ReadFile(st.Path(f))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(st.Path(f), []byte(strings.Replace(string(raw), "tuesdays", "thursdays", 1)), 0o600)
	rec, _ := snapshot.From(st, held, t.TempDir(), "when do deploys happen", recall.DefaultPolicy, time.Now())
	if !strings.Contains(rec.Text, "thursdays") {
		t.Fatalf("the injected memory is not read from its file: %q", rec.Text)
	}
	onDisk := snapshot.SnapshotForTest(st)
	found := false
	for i := range onDisk.Len() {
		found = found || onDisk.File(i) == g
	}
	if !found {
		t.Fatalf("the held snapshot's note replaced the newer one on disk: %s is gone from it", g)
	}
}
