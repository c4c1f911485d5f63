package workspace

import (
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
)

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
