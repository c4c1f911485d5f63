package snapshot

import (
	"encoding/binary"
	"hash/crc32"
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

// BuiltForTest returns when st's recall snapshot on disk (its base and
// delta) was built.
func BuiltForTest(tb testing.TB, st *memdir.Store) time.Time {
	tb.Helper()
	snap := readSnapshot(st.Path(File), st.Path(DeltaFile))
	if snap == nil {
		tb.Fatal("no snapshot on disk")
	}
	return time.Unix(0, snap.Built())
}

// DateForTest rewrites the build time in st's recall snapshot on disk (in
// the delta when one is read over the base), as if its look at the folder
// had begun at t.
func DateForTest(tb testing.TB, st *memdir.Store, t time.Time) {
	tb.Helper()
	p, at := st.Path(DeltaFile), 24 // the delta header's build time
	base, _ := os.ReadFile(st.Path(File))
	if delta, err := os.ReadFile(p); err != nil {
		p, at = st.Path(File), 16 // the base header's build time
	} else if _, err := recall.OpenSegments(base, delta); err != nil {
		p, at = st.Path(File), 16
	}
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[at:], uint64(t.UnixNano()))
	if at == 24 { // the delta's checksum, last
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		tb.Fatal(err)
	}
	if snap := readSnapshot(st.Path(File), st.Path(DeltaFile)); snap == nil || snap.Built() != t.UnixNano() {
		tb.Fatalf("the snapshot's layout moved")
	}
}

// SnapshotForTest reads st's recall snapshot from disk as Fresh would,
// without checking it against the folder (nil when missing or corrupt).
func SnapshotForTest(st *memdir.Store) *recall.Snapshot {
	return readSnapshot(st.Path(File), st.Path(DeltaFile))
}

// HitsForTest is how many memories r gave back instead of a read.
func (r *Reads) HitsForTest() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits
}

// FromLogForTest reports whether st's snapshot on disk was last brought up
// to date from the store's written log rather than by a look at the folder.
func FromLogForTest(st *memdir.Store) bool {
	snap := readSnapshot(st.Path(File), st.Path(DeltaFile))
	return snap != nil && snap.Built() == 0
}
