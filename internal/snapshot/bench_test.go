package snapshot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/memgen"
	"github.com/memdir/memdir/internal/snapshot"
)

// benchFolder is a seeded folder of n memories with its snapshot built and
// its times settled (older than the racy window).
func benchFolder(b *testing.B, n int) *memdir.Store {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "memory")
	if err := memgen.Write(dir, 1, n); err != nil {
		b.Fatal(err)
	}
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := snapshot.Sweep(b.Context(), st); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(dir, old, old)
	if _, _, err := snapshot.Fresh(b.Context(), st); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkFresh: a prompt's freshness check in a new process's shoes (the
// snapshot read from disk each time): the folder unchanged, and the first
// check after one memory was saved through the store (listing, reading
// that memory, writing the delta). A full Sweep for comparison.
func BenchmarkFresh(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		st := benchFolder(b, n)
		b.Run(fmt.Sprintf("unchanged/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := snapshot.Fresh(b.Context(), st); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("one-change/%d", n), func(b *testing.B) {
			m, err := st.Read("m000001.md")
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				m.Body = fmt.Sprintf("%s\nEdit %d.\n", m.Body, i)
				if _, err := st.Save(b.Context(), memdir.Memory{File: m.File, Name: m.Name, Body: m.Body}, memdir.SaveOptions{MustExist: true}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, _, err := snapshot.Fresh(b.Context(), st); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("sweep/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := snapshot.Sweep(b.Context(), st); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
