package memdir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// benchFolder writes n realistic memory files and their index into a new
// folder, as n earlier saves would have left it.
func benchFolder(b *testing.B, n int) *memdir.Store {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "memory")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	types := memdir.Types
	var index strings.Builder
	for i := range n {
		m := memdir.Memory{
			File:        fmt.Sprintf("memory-%05d.md", i),
			Name:        fmt.Sprintf("Memory %05d about service %d", i, i%97),
			Description: fmt.Sprintf("The %d-th fact about the billing service and its retry policy", i),
			Type:        types[i%len(types)],
			Source:      "manual",
			Trust:       memdir.TrustUser,
			Body:        strings.Repeat("A sentence of memory body text about a decision. ", 8) + "\n\n**Why:** reasons.\n**How to apply:** always.\n",
		}
		if err := os.WriteFile(filepath.Join(dir, m.File), memdir.Format(m), 0o600); err != nil {
			b.Fatal(err)
		}
		index.WriteString(memdir.EntryLine(m) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, memdir.IndexFile), []byte(index.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkStore_Save measures one save (file, fsyncs, lock, index upsert)
// into an empty folder and into one that already holds 10,000 memories.
func BenchmarkStore_Save(b *testing.B) {
	for _, n := range []int{0, 10_000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			st := benchFolder(b, n)
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				_, err := st.Save(ctx, memdir.Memory{
					Name: fmt.Sprintf("Bench memory %d", i), Description: "a new fact about deploys",
					Type: memdir.TypeProject, Body: "Deploys go out on Tuesdays.\n",
				}, memdir.SaveOptions{})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStore_List reads and parses 10,000 memory files.
func BenchmarkStore_List(b *testing.B) {
	st := benchFolder(b, 10_000)
	for b.Loop() {
		mems, problems, err := st.List()
		if err != nil || len(problems) > 0 || len(mems) != 10_000 {
			b.Fatalf("List: %d memories, %v, %v", len(mems), problems, err)
		}
	}
}

// BenchmarkLoadIndex reads MEMORY.md from disk and applies the caps, for an
// index within the caps (150 lines) and one far over them (10,000 lines).
func BenchmarkLoadIndex(b *testing.B) {
	for _, n := range []int{150, 10_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			st := benchFolder(b, n)
			ctx := context.Background()
			for b.Loop() {
				if _, err := st.LoadIndex(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
