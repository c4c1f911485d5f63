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

// benchMemory is the i-th memory of a benchmark folder.
func benchMemory(i int) memdir.Memory {
	return memdir.Memory{
		File:        fmt.Sprintf("memory-%06d.md", i),
		Name:        fmt.Sprintf("Memory %06d about service %d", i, i%97),
		Description: fmt.Sprintf("The %d-th fact about the billing service and its retry policy", i),
		Type:        memdir.Types[i%len(memdir.Types)],
		Source:      "manual",
		Trust:       memdir.TrustUser,
		Body:        strings.Repeat("A sentence of memory body text about a decision. ", 8) + "\n\n**Why:** reasons.\n**How to apply:** always.\n",
	}
}

// writeBenchFiles writes n realistic memory files into dir, without an index.
func writeBenchFiles(b *testing.B, dir string, n int) {
	b.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		m := benchMemory(i)
		if err := os.WriteFile(filepath.Join(dir, m.File), memdir.Format(m), 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFolder writes n realistic memory files and their index into a new
// folder, as n earlier saves would have left it.
func benchFolder(b *testing.B, n int) *memdir.Store {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "memory")
	writeBenchFiles(b, dir, n)
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.RebuildIndex(context.Background()); err != nil {
		b.Fatal(err)
	}
	return st
}

// sharedFolders are benchmark folders built once per process: 100,000
// memory files take a minute to write, and -count reruns a benchmark.
var sharedFolders = map[int]string{}

// sharedFolder returns a folder of n memories and the index memdir's own
// rebuild gives it, built on first use and removed when the tests end.
func sharedFolder(b *testing.B, n int) string {
	b.Helper()
	if dir, ok := sharedFolders[n]; ok {
		return dir
	}
	root, err := os.MkdirTemp("", "memdir-bench-")
	if err != nil {
		b.Fatal(err)
	}
	atExit = append(atExit, func() { os.RemoveAll(root) })
	dir := filepath.Join(root, "memory")
	writeBenchFiles(b, dir, n)
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := st.RebuildIndex(context.Background()); err != nil {
		b.Fatal(err)
	}
	sharedFolders[n] = dir
	return dir
}

// BenchmarkStore_Save measures one save of a new memory by name (file,
// fsyncs, lock, index line) into a folder that already holds 1,000, 10,000
// or 100,000 memories and the index memdir's rebuild left. The folder is
// built once, outside the timer; after each run the memories it saved are
// removed and MEMORY.md is put back, so every run starts from n.
func BenchmarkStore_Save(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			dir := sharedFolder(b, n)
			index, err := os.ReadFile(filepath.Join(dir, memdir.IndexFile))
			if err != nil {
				b.Fatal(err)
			}
			st, err := memdir.Open(dir, memdir.Options{})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var saved []string
			for i := 0; b.Loop(); i++ {
				res, err := st.Save(ctx, memdir.Memory{
					Name: fmt.Sprintf("Bench memory %d", i), Description: "a new fact about deploys",
					Type: memdir.TypeProject, Body: "Deploys go out on Tuesdays.\n",
				}, memdir.SaveOptions{})
				if err != nil {
					b.Fatal(err)
				}
				saved = append(saved, res.Path)
			}
			for _, p := range saved {
				if err := os.Remove(p); err != nil {
					b.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, memdir.IndexFile), index, 0o600); err != nil {
				b.Fatal(err)
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
// index within the caps (150 lines) and one far over them (10,000 lines, as
// an older memdir or a person left it).
func BenchmarkLoadIndex(b *testing.B) {
	for _, n := range []int{150, 10_000} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			st := benchFolder(b, 0)
			var index strings.Builder
			for i := range n {
				index.WriteString(memdir.EntryLine(benchMemory(i)) + "\n")
			}
			if err := os.WriteFile(st.Path(memdir.IndexFile), []byte(index.String()), 0o600); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := st.LoadIndex(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
