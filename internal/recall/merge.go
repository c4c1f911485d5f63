package recall

import (
	"cmp"
	"slices"
)

// Merged ranks several indexes (one per memory folder: the private one,
// the project's team folder) as one: document d of part i is document
// Offset(i)+d of the merged ranking, so ties between equal scores go to
// the earlier part.
//
// Scores of separate indexes are not comparable as they stand: idf is
// ln(1+(N-df+0.5)/(df+0.5)) with each folder's own N and df, so a word
// that is rare in a big private folder would outweigh the same word in a
// small team folder for no reason but the folders' sizes. Merged scores
// every part with pooled statistics instead: N is the sum of the parts'
// sizes and a term's df the sum of its df in each, the idf one index over
// all the folders would give (what a sharded search engine calls global
// statistics). Coverage, the threshold's measure, uses the same pooled
// idf, so a memory passes or fails the gate the same way whichever folder
// holds it. Length normalisation stays each folder's own (avglen per
// part): it compares a memory with its neighbours, which is what it is
// for. A Merged of one index is that index: the same floats.
type Merged struct {
	parts []*Index
	offs  []int
	n     int
}

// Merge ranks ixs as one, in this order (see Merged).
func Merge(ixs ...*Index) *Merged {
	m := &Merged{offs: make([]int, len(ixs))}
	for _, ix := range ixs {
		m.n += ix.n
	}
	for i, ix := range ixs {
		m.offs[i] = sumLens(ixs[:i])
		if len(ixs) == 1 {
			m.parts = append(m.parts, ix)
			continue
		}
		pooled := *ix
		pooled.pool = append(slices.Clone(ixs[:i]), ixs[i+1:]...)
		pooled.poolN = m.n
		m.parts = append(m.parts, &pooled)
	}
	return m
}

func sumLens(ixs []*Index) int {
	n := 0
	for _, ix := range ixs {
		n += ix.n
	}
	return n
}

// Len is the number of documents of every part.
func (m *Merged) Len() int { return m.n }

// Parts is the number of parts.
func (m *Merged) Parts() int { return len(m.parts) }

// Part returns part i, scoring with the pooled statistics (for Explain and
// Matched on a local document number).
func (m *Merged) Part(i int) *Index { return m.parts[i] }

// Offset is the merged number of part i's first document.
func (m *Merged) Offset(i int) int { return m.offs[i] }

// Locate returns the part of merged document doc and its number there.
func (m *Merged) Locate(doc int) (part, local int) {
	for i := len(m.offs) - 1; i >= 0; i-- {
		if doc >= m.offs[i] {
			return i, doc - m.offs[i]
		}
	}
	return 0, doc
}

// SearchGroups is Index.SearchGroups over every part, in merged numbers.
func (m *Merged) SearchGroups(query []string, groups []int) []Scored {
	if len(m.parts) == 1 {
		return m.parts[0].SearchGroups(query, groups)
	}
	var out []Scored
	for i, ix := range m.parts {
		out = append(out, m.shift(i, ix.SearchGroups(query, groups))...)
	}
	sortScored(out)
	return out
}

// TopGroups is Index.TopGroups over every part: the k best of the parts'
// k best, in merged numbers. Fewer than k means there are no more.
func (m *Merged) TopGroups(query []string, groups []int, k int, threshold float64) []Scored {
	if len(m.parts) == 1 {
		return m.parts[0].TopGroups(query, groups, k, threshold)
	}
	var out []Scored
	for i, ix := range m.parts {
		out = append(out, m.shift(i, ix.TopGroups(query, groups, k, threshold))...)
	}
	sortScored(out)
	return out[:min(len(out), k)]
}

// shift renumbers part i's documents into merged numbers, in place.
func (m *Merged) shift(i int, ss []Scored) []Scored {
	for j := range ss {
		ss[j].Doc += m.offs[i]
	}
	return ss
}

// sortScored orders by score, highest first, then by document.
func sortScored(ss []Scored) {
	slices.SortFunc(ss, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
}
