package workspace

import (
	"context"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/usage"
)

// Untyped is the type filter that keeps the memories without a type.
const Untyped = "untyped"

// ListMemories lists st's memories of type typ ("" for all, Untyped for
// those without one), grouped by type in memdir.Types' order (untyped
// last), then by file; problems are the files that could not be parsed.
// It parses every file and holds them all: List streams from the
// snapshot instead.
func ListMemories(st *memdir.Store, typ string) (mems []memdir.Memory, problems []error, err error) {
	mems, problems, err = st.List()
	if err != nil {
		return nil, nil, err
	}
	mems = slices.DeleteFunc(mems, func(m memdir.Memory) bool {
		return typ != "" && string(m.Type) != strings.TrimPrefix(typ, Untyped)
	})
	slices.SortStableFunc(mems, func(x, y memdir.Memory) int {
		if c := typeRank(x.Type) - typeRank(y.Type); c != 0 {
			return c
		}
		return strings.Compare(x.File, y.File)
	})
	return mems, problems, nil
}

func typeRank(t memdir.Type) int {
	if i := slices.Index(memdir.Types, t); i >= 0 {
		return i
	}
	return len(memdir.Types)
}

// List is the folder's memories in list order, from its recall snapshot
// (made fresh): the files are stat'ed, not parsed, unless they changed.
// problems are the files that could not be parsed, as ListMemories
// reports them.
func List(ctx context.Context, st *memdir.Store) (*Listing, []error, error) {
	snap, problems, err := snapshot.Fresh(ctx, st)
	if err != nil {
		return nil, problems, err
	}
	l, err := NewListing(snap)
	return l, problems, err
}

// Listing is a snapshot's memories in list order: grouped by type in
// memdir.Types' order (untyped and unknown types last, together), then by
// file, as ListMemories orders them. It holds five bytes per memory (its
// place in the snapshot and its type), never the memories: they are
// decoded from the snapshot one at a time. A Listing does not change once
// made (and given its Stats); it is safe for concurrent use.
type Listing struct {
	snap  *recall.Snapshot
	order []int32 // order[p] is the snapshot's index of the memory at place p
	kind  []uint8 // kind[p]: its type's index in memdir.Types, or kindUntyped, kindOther
	// Stats is the evidence of use by memory file (AddStats); nil: not
	// shown.
	Stats map[string]usage.Record
	// first[r] is the first place of rank r (kinds above len(Types) share
	// the last rank); first[len(first)-1] is the end.
	first []int
}

var (
	kindUntyped = uint8(len(memdir.Types))     // no type
	kindOther   = uint8(len(memdir.Types) + 1) // a type memdir does not know
)

func rankOf(k uint8) int { return min(int(k), len(memdir.Types)) }

func kindOf(t string) uint8 {
	if t == "" {
		return kindUntyped
	}
	if i := slices.Index(memdir.Types, memdir.Type(t)); i >= 0 {
		return uint8(i)
	}
	return kindOther
}

// NewListing orders snap's memories. A snapshot in file order (as a
// listing of the folder makes it) is grouped in one pass; any other is
// sorted.
func NewListing(snap *recall.Snapshot) (l *Listing, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer mappedFault(&err)
	n := snap.Len()
	kinds := make([]uint8, n)
	sorted := true
	prev := ""
	for i := range n {
		m, _, err := snap.Memory(i)
		if err != nil {
			return nil, err
		}
		kinds[i] = kindOf(m.Type)
		if i > 0 && m.File < prev {
			sorted = false
		}
		prev = m.File
	}
	l = &Listing{snap: snap, order: make([]int32, n), kind: make([]uint8, n), first: make([]int, len(memdir.Types)+2)}
	ranks := len(l.first) - 1
	if sorted {
		// A counting sort by rank keeps file order within each.
		count := l.first
		for _, k := range kinds {
			count[rankOf(k)+1]++
		}
		for r := 1; r <= ranks; r++ {
			count[r] += count[r-1]
		}
		next := slices.Clone(count)
		for i, k := range kinds {
			p := next[rankOf(k)]
			next[rankOf(k)]++
			l.order[p], l.kind[p] = int32(i), k
		}
		return l, nil
	}
	files := make([]string, n)
	for i := range n {
		l.order[i] = int32(i)
		files[i] = snap.File(i)
	}
	slices.SortFunc(l.order, func(a, b int32) int {
		if c := rankOf(kinds[a]) - rankOf(kinds[b]); c != 0 {
			return c
		}
		return strings.Compare(files[a], files[b])
	})
	for p, i := range l.order {
		l.kind[p] = kinds[i]
		l.first[rankOf(kinds[i])+1]++
	}
	for r := 1; r <= ranks; r++ {
		l.first[r] += l.first[r-1]
	}
	return l, nil
}

// Snapshot is the snapshot the listing orders.
func (l *Listing) Snapshot() *recall.Snapshot { return l.snap }

// span is the places a type filter covers ("" all, Untyped, or a type
// memdir.ParseType accepts) and the kind that must match within them
// (-1: any).
func (l *Listing) span(typ string) (lo, hi, kind int) {
	switch typ {
	case "":
		return 0, len(l.order), -1
	case Untyped:
		r := len(memdir.Types)
		return l.first[r], l.first[r+1], int(kindUntyped)
	}
	k := int(kindOf(typ))
	if k >= len(memdir.Types) {
		return 0, 0, k
	}
	return l.first[k], l.first[k+1], k
}

// Count is how many memories of type typ there are.
func (l *Listing) Count(typ string) int {
	lo, hi, kind := l.span(typ)
	if kind < 0 || kind < len(memdir.Types) {
		return hi - lo
	}
	n := 0
	for p := lo; p < hi; p++ {
		if int(l.kind[p]) == kind {
			n++
		}
	}
	return n
}

// Key is a place in list order: a memory's type and file. The zero Key
// comes before every memory.
type Key struct {
	Type, File string
}

// IsZero reports whether k is the start of the list.
func (k Key) IsZero() bool { return k == Key{} }

// after is the first place in [lo, hi) that comes after k.
func (l *Listing) after(k Key, lo, hi int) int {
	if k.IsZero() {
		return lo
	}
	r := rankOf(kindOf(k.Type))
	return lo + sort.Search(hi-lo, func(i int) bool {
		p := lo + i
		if c := rankOf(l.kind[p]) - r; c != 0 {
			return c > 0
		}
		return l.snap.File(int(l.order[p])) > k.File
	})
}

// Listed is a memory in a listing, and its place in the snapshot.
type Listed struct {
	recall.Memory
	Doc int
}

// All yields the memories of type typ that come after k, in list order,
// decoded one at a time from the snapshot. A snapshot that cannot be
// decoded (cut short in place under its mapping) ends it with an error.
func (l *Listing) All(typ string, k Key) iter.Seq2[Listed, error] {
	return func(yield func(Listed, error) bool) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		lo, hi, kind := l.span(typ)
		var m recall.Memory
		var err error
		var start int
		func() {
			defer mappedFault(&err)
			start = l.after(k, lo, hi)
		}()
		if err != nil {
			yield(Listed{}, err)
			return
		}
		for p := start; p < hi; p++ {
			if kind >= 0 && int(l.kind[p]) != kind {
				continue
			}
			func() {
				defer mappedFault(&err)
				m, _, err = l.snap.Memory(int(l.order[p]))
			}()
			if err != nil {
				yield(Listed{}, err)
				return
			}
			if !yield(Listed{Memory: m, Doc: int(l.order[p])}, nil) {
				return
			}
		}
	}
}

// Page is up to limit memories of type typ after k, and whether more
// follow. Paging by key, not by position, means a memory added or removed
// between two pages moves no other memory: pages neither skip nor repeat
// the memories that stayed.
func (l *Listing) Page(typ string, k Key, limit int) (mems []Listed, more bool, err error) {
	for m, err := range l.All(typ, k) {
		if err != nil {
			return nil, false, err
		}
		if len(mems) == limit {
			return mems, true, nil
		}
		mems = append(mems, m)
	}
	return mems, false, nil
}

// Key is m's place in list order.
func (m Listed) Key() Key { return Key{Type: m.Type, File: m.File} }

// mappedFault, deferred with debug.SetPanicOnFault on, turns a fault
// while reading a mapped snapshot (its file cut short in place under the
// mapping) into an error instead of a crash. Any other panic goes on.
func mappedFault(err *error) {
	if r := recover(); r != nil {
		if re, ok := r.(runtime.Error); ok {
			if _, ok := re.(interface{ Addr() uintptr }); ok {
				*err = fmt.Errorf("%s changed while it was read: %v", snapshot.File, re)
				return
			}
		}
		panic(r)
	}
}
