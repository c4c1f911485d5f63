package memdir

import (
	"context"
	"encoding/binary"
	"os"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
)

// HoldLockForTest takes st's lock as another process would, and returns the
// func that releases it (also called at the end of the test).
func HoldLockForTest(tb testing.TB, st *Store) (release func()) {
	tb.Helper()
	unlock, err := st.Lock(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			unlock()
		}
	}
	tb.Cleanup(release)
	return release
}

// BeforeReplaceForTest installs fn to run just before the store re-reads a
// file to check that nobody changed it, for the length of the test.
func BeforeReplaceForTest(tb testing.TB, fn func(file string)) {
	testOnlyBeforeReplace = fn
	tb.Cleanup(func() { testOnlyBeforeReplace = nil })
}

// SnapshotBuiltForTest returns when st's recall snapshot on disk was built.
func SnapshotBuiltForTest(tb testing.TB, st *Store) time.Time {
	tb.Helper()
	b, err := os.ReadFile(st.Path(RecallIndexFile))
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := recall.Open(b)
	if err != nil {
		tb.Fatal(err)
	}
	return time.Unix(0, snap.Built())
}

// DateSnapshotForTest rewrites the build time in st's recall snapshot on
// disk, as if its look at the folder had begun at t.
func DateSnapshotForTest(tb testing.TB, st *Store, t time.Time) {
	tb.Helper()
	p := st.Path(RecallIndexFile)
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[16:], uint64(t.UnixNano())) // the header's build time
	if snap, err := recall.Open(b); err != nil || snap.Built() != t.UnixNano() {
		tb.Fatalf("the snapshot's layout moved: %v", err)
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// OneLineForTest is how a save makes a description one line.
func OneLineForTest(s string) string { return oneLine(s) }
