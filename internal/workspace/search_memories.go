package workspace

import (
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
)

// Untyped is the type filter that keeps the memories without a type.
const Untyped = "untyped"

// ListMemories lists st's memories of type typ ("" for all, Untyped for
// those without one), grouped by type in memdir.Types' order (untyped
// last), then by file; problems are the files that could not be parsed.
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

// MemoryHit is a line of a memory file that matches a search.
type MemoryHit struct {
	File string `json:"file"`
	Path string `json:"path"`
	Line int    `json:"line"` // 1-based
	Text string `json:"text"`
}

// SearchMemories finds the lines of st's memory files that m matches.
// Once limit hits (0: no limit) are found, each further file is read up to
// its first line only. A file that cannot be read is a warning. It also
// returns how many files there are.
func SearchMemories(st *memdir.Store, m *search.Matcher, limit int, r Report) (hits []MemoryHit, files int, err error) {
	names, err := st.Files()
	if err != nil {
		return nil, 0, err
	}
	hits = []MemoryHit{}
	for _, f := range names {
		raw, _, err := st.Raw(f)
		if err != nil {
			r.warnf("%v", err)
			continue
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if m.Match(line) {
				hits = append(hits, MemoryHit{File: f, Path: st.Path(f), Line: i + 1, Text: line})
			}
			if limit > 0 && len(hits) >= limit {
				break
			}
		}
	}
	return hits, len(names), nil
}
