package recall

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memgen"
)

// genMemory is memgen's i-th memory as recall sees it (what
// snapshot.Memory makes of a memory file).
func genMemory(seed uint64, i int) Memory {
	m := memgen.Memory(seed, i)
	return Memory{File: fmt.Sprintf("m%06d.md", i), Name: m.Title(), Description: m.Summary(), Type: string(m.Type),
		Body: m.Body, Saved: m.Created}
}

// genStore is a memgen folder of n memories, encoded as a snapshot and
// opened, with the memories for a Source.
type genStore struct {
	ms   Memories
	snap *Snapshot
}

var genStores sync.Map // n → *genStore: built once per test binary

func generated(tb testing.TB, n int) *genStore {
	if g, ok := genStores.Load(n); ok {
		return g.(*genStore)
	}
	g := &genStore{ms: make(Memories, n)}
	entries := make([]Entry, n)
	for i := range n {
		g.ms[i] = genMemory(1, i)
		entries[i] = NewEntry(g.ms[i], nil, int64(len(g.ms[i].Body)), g.ms[i].Saved.UnixNano())
	}
	snap, err := Open(Encode(entries, 0, 0))
	if err != nil {
		tb.Fatal(err)
	}
	g.snap = snap
	genStores.Store(n, g)
	return g
}

// benchQueries are memgen's queries of one kind: relevant ones (words of
// a memory's description) or unrelated ones (the folder holds nothing on
// them).
func benchQueries(n int, relevant bool) []string {
	var qs []string
	for i := 0; len(qs) < 64; i++ {
		if (i%2 == 0) == relevant {
			qs = append(qs, memgen.Query(1, n, i))
		}
	}
	return qs
}

// BenchmarkRecall times one in-process recall, prompt analysis to
// rendering, over an opened snapshot: the exhaustive path (every match
// scored, sorted and walked by Select) against the top-k one. Relevant
// and unrelated prompts are reported apart: they cost very different
// amounts.
func BenchmarkRecall(b *testing.B) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{10_000, 100_000} {
		for _, kind := range []string{"relevant", "unrelated"} {
			for _, path := range []string{"exhaustive", "topk"} {
				b.Run(fmt.Sprintf("memories=%d/%s/%s", n, kind, path), func(b *testing.B) {
					g := generated(b, n)
					ix := g.snap.DefaultIndex()
					qs := benchQueries(n, kind == "relevant")
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; b.Loop(); i++ {
						terms, groups := Default.Prompt(qs[i%len(qs)])
						var cands []Candidate
						if path == "exhaustive" {
							cands = Select(g.ms, ix.SearchGroups(terms, groups), DefaultPolicy, now)
						} else {
							cands = SearchSelect(ix, g.ms, terms, groups, DefaultPolicy, now)
						}
						_ = Render(cands)
					}
				})
			}
		}
	}
}

// BenchmarkIndexOpen times what a new process pays before its first
// query: opening the snapshot's bytes and its index (the documents'
// lengths are copied out, n of them).
func BenchmarkIndexOpen(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			entries := make([]Entry, n)
			for i := range n {
				m := genMemory(1, i)
				entries[i] = NewEntry(m, nil, int64(len(m.Body)), m.Saved.UnixNano())
			}
			data := Encode(entries, 0, 0)
			b.ReportAllocs()
			for b.Loop() {
				snap, err := Open(data)
				if err != nil {
					b.Fatal(err)
				}
				_ = snap.DefaultIndex()
			}
		})
	}
}
