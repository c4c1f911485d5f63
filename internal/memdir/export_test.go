package memdir

import (
	"context"
	"testing"
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

// OneLineForTest is how a save makes a description one line.
func OneLineForTest(s string) string { return oneLine(s) }

// WrittenLogMaxForTest bounds each generation of the written log at n
// bytes for the length of the test.
func WrittenLogMaxForTest(tb testing.TB, n int64) {
	old := writtenLogMax
	writtenLogMax = n
	tb.Cleanup(func() { writtenLogMax = old })
}
