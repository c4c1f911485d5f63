package snapshot

import (
	"encoding/binary"
	"os"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// BeforeWriteForTest installs fn to run just before a snapshot is written,
// for the length of the test.
func BeforeWriteForTest(tb testing.TB, fn func(file string)) {
	testOnlyBeforeWrite = fn
	tb.Cleanup(func() { testOnlyBeforeWrite = nil })
}

// BuiltForTest returns when st's recall snapshot on disk was built.
func BuiltForTest(tb testing.TB, st *memdir.Store) time.Time {
	tb.Helper()
	b, err := os.ReadFile(st.Path(File))
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := recall.Open(b)
	if err != nil {
		tb.Fatal(err)
	}
	return time.Unix(0, snap.Built())
}

// DateForTest rewrites the build time in st's recall snapshot on
// disk, as if its look at the folder had begun at t.
func DateForTest(tb testing.TB, st *memdir.Store, t time.Time) {
	tb.Helper()
	p := st.Path(File)
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
