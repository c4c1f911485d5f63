package recall

import (
	"cmp"
	"math"
	"slices"
)

// Cosine is the cosine similarity of two vectors (0 when either is empty
// or their lengths differ).
func Cosine(a, b []float32) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// rrfK is reciprocal rank fusion's constant (Cormack et al., 2009).
const rrfK = 60

// Fuse merges a lexical ranking with similarities to the query's
// embedding (cos[doc]) by reciprocal rank fusion: score = 1/(60+lexical
// rank) + 1/(60+vector rank). A document passes the relevance threshold
// when its lexical coverage does, or when its similarity reaches minCos:
// its Coverage is then raised to 1. Documents under minCos with no lexical
// match are left out.
func Fuse(lexical []Scored, cos []float64, minCos float64) []Scored {
	type vr struct {
		doc int
		cos float64
	}
	var vec []vr
	for d, c := range cos {
		if c > 0 {
			vec = append(vec, vr{d, c})
		}
	}
	slices.SortFunc(vec, func(a, b vr) int {
		if c := cmp.Compare(b.cos, a.cos); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	byDoc := map[int]*Scored{}
	var order []int
	for rank, s := range lexical {
		s := s
		s.Score = 1 / float64(rrfK+rank+1)
		byDoc[s.Doc] = &s
		order = append(order, s.Doc)
	}
	for rank, v := range vec {
		s := byDoc[v.doc]
		if s == nil {
			if v.cos < minCos {
				continue
			}
			s = &Scored{Doc: v.doc}
			byDoc[v.doc] = s
			order = append(order, v.doc)
		}
		s.Score += 1 / float64(rrfK+rank+1)
		if v.cos >= minCos {
			s.Coverage, s.Matched, s.Of = 1, max(s.Matched, 2), max(s.Of, 2)
		}
	}
	out := make([]Scored, 0, len(order))
	for _, d := range order {
		out = append(out, *byDoc[d])
	}
	slices.SortFunc(out, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out
}
