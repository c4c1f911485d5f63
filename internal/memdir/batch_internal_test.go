package memdir

import "testing"

// BenchmarkOpenRecover is what Open pays for batches when none is pending
// (every prompt's hook opens the store): one Lstat.
func BenchmarkOpenRecover(b *testing.B) {
	st, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		st.openRecover()
	}
}
