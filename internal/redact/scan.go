package redact

import (
	"fmt"
	"strings"
)

// A text is the string being redacted with what the rules derive from it.
type text struct {
	s      string
	hits   [][]span // per anchor list (see listOf), its anchors in s, in order; set on demand
	marks  []span   // the markers in s
	marked bool     // marks is set
}

type span struct{ lo, hi int }

// anchorHits returns r's anchors in t.s, in order.
func (t *text) anchorHits(r *rule) []span {
	if t.hits == nil {
		t.hits = scanAnchors(t.s)
	}
	return t.hits[anchors.listOf[r.index]]
}

// replace replaces the secrets of ms, which are in order and do not
// overlap, with marker. It keeps the anchors found outside the secrets
// (moved to their new offsets) and drops those that overlapped one: a
// marker holds no anchor that can start a match, so no rescan is needed.
func (t *text) replace(ms []match, marker string) {
	var b strings.Builder
	b.Grow(len(t.s) + len(ms)*len(marker))
	last := 0
	for _, m := range ms {
		b.WriteString(t.s[last:m.lo])
		b.WriteString(marker)
		last = m.hi
	}
	b.WriteString(t.s[last:])
	if t.hits != nil {
		for r, hs := range t.hits {
			kept, k, shift := hs[:0], 0, 0
			for _, h := range hs {
				for k < len(ms) && ms[k].hi <= h.lo {
					shift += len(marker) - (ms[k].hi - ms[k].lo)
					k++
				}
				if k < len(ms) && ms[k].lo < h.hi {
					continue // overlaps the secret ms[k]
				}
				kept = append(kept, span{h.lo + shift, h.hi + shift})
			}
			t.hits[r] = kept
		}
	}
	t.s, t.marks, t.marked = b.String(), nil, false
}

// An anchor is one anchor of the anchor list with the given index.
type anchor struct {
	list int
	lit  string
	fold bool
	near func(s string, i int) bool // the rule's anchorNear
}

// The anchors of all rules, found in one pass over the text. pairs has
// the bit b0<<8|b1 set for the first two bytes of every anchor, in every
// case (one load a byte in the scan), and bigrams[b0<<8|b1] indexes groups,
// the anchors starting with b0 b1, bytes lower-cased.
type anchorTable struct {
	pairs   [1 << 16 / 64]uint64
	bigrams [1 << 16]uint8
	groups  [][]anchor
	// listOf maps a rule to its anchor list: rules with the same anchors
	// (the five "secret" rules, the four "pass" ones) share one, so that
	// the scan records each hit once.
	listOf []int
	nLists int
}

// anchors is the table of rules, built with their regexps by compileRules.
var anchors *anchorTable

// buildAnchors builds the anchor table of rs and numbers them.
func buildAnchors(rs []rule) *anchorTable {
	at := &anchorTable{groups: [][]anchor{nil}}
	lists := map[string]int{}
	for i := range rs {
		r := &rs[i]
		r.index = i
		key := fmt.Sprint(r.anchors, r.fold)
		if r.anchorNear != nil {
			key = fmt.Sprint(i) // a filter of its own: a list of its own
		}
		if l, ok := lists[key]; ok {
			at.listOf = append(at.listOf, l)
			continue
		}
		lists[key] = at.nLists
		at.listOf = append(at.listOf, at.nLists)
		at.nLists++
		for _, a := range r.anchors {
			b0, b1 := lowerByte(a[0]), lowerByte(a[1])
			k := int(b0)<<8 | int(b1)
			if at.bigrams[k] == 0 {
				if len(at.groups) > 255 {
					panic("redact: too many anchor bigrams")
				}
				at.bigrams[k] = uint8(len(at.groups))
				at.groups = append(at.groups, nil)
			}
			at.groups[at.bigrams[k]] = append(at.groups[at.bigrams[k]], anchor{at.listOf[i], a, r.fold, r.anchorNear})
			for _, c0 := range []byte{b0, upper(b0)} {
				for _, c1 := range []byte{b1, upper(b1)} {
					k := uint(c0)<<8 | uint(c1)
					at.pairs[k>>6] |= 1 << (k & 63)
				}
			}
		}
	}
	return at
}

// scanAnchors returns, per anchor list, its anchors in s, in order. The
// hits of all lists are gathered in one slice and then laid out by list in
// one array: two allocations that grow, not one per list.
func scanAnchors(s string) [][]span {
	at := anchors
	found := make([]anchorHit, 0, len(s)/512+8)
	count := make([]int, at.nLists)
	for i := 0; i+1 < len(s); i++ {
		if k := uint(s[i])<<8 | uint(s[i+1]); at.pairs[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		b0, b1 := lowerByte(s[i]), lowerByte(s[i+1])
		first := len(found)
		for _, a := range at.groups[at.bigrams[int(b0)<<8|int(b1)]] {
			rest := s[i:]
			if (a.fold && hasPrefixFold(rest, a.lit) || !a.fold && strings.HasPrefix(rest, a.lit)) &&
				(a.near == nil || a.near(s, i)) && !repeats(found[first:], a.list) {
				// (A repeat is the same list at the same offset.)
				found = append(found, anchorHit{a.list, span{i, i + len(a.lit)}})
				count[a.list]++
			}
		}
	}
	hits := make([][]span, at.nLists)
	all := make([]span, len(found))
	off := 0
	for r, n := range count {
		hits[r] = all[off : off : off+n]
		off += n
	}
	for _, h := range found {
		hits[h.list] = append(hits[h.list], h.span)
	}
	return hits
}

type anchorHit struct {
	list int
	span
}

// repeats reports whether hs, the hits at one offset, hold one of list.
func repeats(hs []anchorHit, list int) bool {
	for _, h := range hs {
		if h.list == list {
			return true
		}
	}
	return false
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// hasPrefixFold reports whether s starts with prefix, which is lower case,
// ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerByte(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// overlapsMarker reports whether s[lo:hi] overlaps a [REDACTED:kind] marker.
func (t *text) overlapsMarker(lo, hi int) bool {
	if !t.marked {
		t.marks, t.marked = markers(t.s), true
	}
	for _, m := range t.marks {
		if m.lo < hi && lo < m.hi {
			return true
		}
	}
	return false
}

// markers returns the spans of the markers in s.
func markers(s string) []span {
	var out []span
	for from := 0; ; {
		i := strings.Index(s[from:], markerPrefix)
		if i < 0 {
			return out
		}
		lo := from + i
		j := lo + len(markerPrefix)
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '-') {
			j++
		}
		if j > lo+len(markerPrefix) && j < len(s) && s[j] == ']' {
			out = append(out, span{lo, j + 1})
			from = j + 1
		} else {
			from = lo + 1
		}
	}
}
