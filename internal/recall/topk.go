package recall

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// A prompt's top k, without scoring every match: SearchGroups scores every
// document that holds a query term, and at 100,000 memories a prompt in
// everyday words matches half of them, of which a handful are shown.
// TopGroups walks the postings document at a time (they are sorted by
// document), keeps the k best eligible documents in a heap and, as Lucene
// and Tantivy do (MaxScore, Turtle and Flood 1995), skips documents that
// cannot beat the heap's worst: each term's score is bounded, the terms
// whose bounds together cannot reach the k-th score are "non-essential",
// and a document holding none of the others is never looked at; the
// others' documents are scored fully only while they can still make it.
// Scores are added in SearchGroups' order, so they are the same floats.

// cursor walks one query term's postings.
type cursor struct {
	ps     []posting
	pos    int
	weight float64 // qtf·idf: the term's score is weight·saturate
	ub     float64 // a bound on weight·saturate over every posting
	word   int     // the prompt word the term is part of
	idf    float64 // what the term is worth to its word's coverage
}

// doc is the cursor's current document, or past every one when done.
func (c *cursor) doc() int32 {
	if c.pos < len(c.ps) {
		return c.ps[c.pos].doc
	}
	return math.MaxInt32
}

// seek moves the cursor to its first posting at or after doc, galloping
// then bisecting: a non-essential term is only probed at the few
// documents that may enter the top k.
func (c *cursor) seek(doc int32) {
	ps := c.ps
	lo := c.pos
	if lo >= len(ps) || ps[lo].doc >= doc {
		return
	}
	step := 1
	hi := lo + step
	for hi < len(ps) && ps[hi].doc < doc {
		lo = hi
		step *= 2
		hi = lo + step
	}
	hi = min(hi, len(ps))
	// ps[lo].doc < doc; the answer is in (lo, hi].
	c.pos = lo + 1 + sortSearch(hi-lo-1, func(i int) bool { return ps[lo+1+i].doc >= doc })
}

// sortSearch is sort.Search without the import's indirection.
func sortSearch(n int, f func(int) bool) int {
	i, j := 0, n
	for i < j {
		h := int(uint(i+j) >> 1)
		if !f(h) {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// boundSlack widens the bounds so that adding them in another order than
// the scores (rounding differently, by an ulp or so) can never prune a
// document that belongs in the top k.
const boundSlack = 1e-9

// TopGroups returns the k best documents for query, as SearchGroups ranks
// them, among those that pass selection's relevance gate: coverage of at
// least threshold, and two words of a prompt of three or more. It is
// SearchGroups' list with the others left out, cut to k: the same
// documents in the same order with the same Score, Coverage, Matched and
// Of. Fewer than k means there are no more.
func (ix *Index) TopGroups(query []string, groups []int, k int, threshold float64) []Scored {
	qs := distinct(query)
	if len(qs) == 0 || ix.n == 0 || k <= 0 {
		return nil
	}
	if !ix.boundable() {
		// Bounds rest on non-negative, saturating scores; parameters
		// outside that range get the exhaustive ranking, filtered.
		var out []Scored
		for _, s := range ix.SearchGroups(query, groups) {
			if eligible(s, threshold) && len(out) < k {
				out = append(out, s)
			}
		}
		return out
	}
	// The words, and each distinct term's cursor, in SearchGroups' order:
	// words by first appearance, a word's terms in query order.
	wordOf, words := termWords(qs, query, groups)
	known := make([]float64, len(words))
	var cs []cursor
	// The cursors' postings go into one pooled buffer; no posting is
	// used once TopGroups returns.
	bufp := postingBufs.Get().(*[]posting)
	buf := (*bufp)[:0]
	defer func() {
		if cap(buf) <= maxPooledPostings {
			*bufp = buf[:0]
			postingBufs.Put(bufp)
		}
	}()
	for wi, wd := range words {
		for i, q := range qs {
			if wordOf[i] != wd {
				continue
			}
			var ps []posting
			ps, buf = ix.postingsInto(q.t, buf)
			n, df := ix.stats(q.t, len(ps))
			w := idf(n, max(df, 1)) // an unseen part counts as df=1
			known[wi] = max(known[wi], w)
			if len(ps) == 0 {
				continue
			}
			weight := q.qtf * idf(n, df)
			// saturate < k1+1 for every posting.
			cs = append(cs, cursor{ps: ps, weight: weight, ub: weight * (ix.p.K1 + 1), word: wi, idf: w})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	slices.SortFunc(known, func(a, b float64) int { return cmp.Compare(b, a) })
	var denom float64
	for _, w := range known[:min(len(known), coverageTerms)] {
		denom += w
	}

	// byBound orders the cursors by bound, smallest first; prefix[i] is
	// the (widened) sum of the first i bounds. The first ne of them are
	// non-essential: together they cannot lift a document past the heap.
	byBound := make([]int, len(cs))
	for i := range byBound {
		byBound[i] = i
	}
	slices.SortStableFunc(byBound, func(a, b int) int { return cmp.Compare(cs[a].ub, cs[b].ub) })
	prefix := make([]float64, len(cs)+1)
	for i, c := range byBound {
		prefix[i+1] = prefix[i] + cs[c].ub
	}
	for i := range prefix {
		prefix[i] *= 1 + boundSlack
	}
	// Documents holding only the first terms by bound may also be unable
	// to pass the gate, whatever their score: terms of one word, in a
	// prompt of three or more, or of words that cannot cover threshold of
	// it (the words of an unrelated prompt that memories do hold are
	// often of this kind).
	ne := 0
	for ne < len(cs) && !canPass(cs, byBound[:ne+1], len(words), denom, threshold) {
		ne++
	}

	h := topHeap{k: k}
	contrib := make([]float64, len(cs))
	has := make([]bool, len(cs))
	for {
		// The next document any essential term holds.
		d := int32(math.MaxInt32)
		for _, c := range byBound[ne:] {
			d = min(d, cs[c].doc())
		}
		if d == math.MaxInt32 {
			break
		}
		clear(has)
		var partial float64
		for _, c := range byBound[ne:] {
			if cur := &cs[c]; cur.doc() == d {
				contrib[c] = float64(cur.weight * ix.saturate(cur.ps[cur.pos]))
				has[c] = true
				partial += contrib[c]
				cur.pos++
			}
		}
		// The non-essential terms, biggest bound first, while the
		// document can still beat the heap.
		theta, full := h.worst()
		skip := false
		for i := ne - 1; i >= 0; i-- {
			if full && partial*(1+boundSlack)+prefix[i+1] <= theta.Score {
				skip = true
				break
			}
			c := byBound[i]
			cur := &cs[c]
			cur.seek(d)
			if cur.doc() == d {
				contrib[c] = float64(cur.weight * ix.saturate(cur.ps[cur.pos]))
				has[c] = true
				partial += contrib[c]
			}
		}
		if skip || full && partial*(1+boundSlack) <= theta.Score {
			continue
		}
		s := ix.scoreDoc(d, cs, contrib, has, denom, len(words))
		if !eligible(s, threshold) || !h.push(s) {
			continue
		}
		if theta, full = h.worst(); full {
			for ne < len(cs) && prefix[ne+1] <= theta.Score {
				ne++
			}
		}
	}
	return h.sorted()
}

// scoreDoc adds up a document's parts as SearchGroups does: the score
// term by term in its order, the coverage word by word, each word worth
// its best part.
func (ix *Index) scoreDoc(d int32, cs []cursor, contrib []float64, has []bool, denom float64, of int) Scored {
	var score, covered, best float64
	matched, word := 0, -1
	for i := range cs {
		if !has[i] {
			continue
		}
		score += contrib[i]
		if cs[i].word != word {
			covered += best
			best, word = 0, cs[i].word
			matched++
		}
		best = max(best, cs[i].idf)
	}
	covered += best
	return Scored{Doc: int(d), Score: score, Coverage: min(1, covered/denom), Matched: matched, Of: of}
}

// canPass says whether a document holding only the terms sel of cs could
// pass selection's gate.
func canPass(cs []cursor, sel []int, of int, denom, threshold float64) bool {
	var words []int
	var cover float64
	for _, c := range sel {
		if !slices.Contains(words, cs[c].word) {
			words = append(words, cs[c].word)
		}
	}
	if of >= 3 && len(words) < 2 {
		return false
	}
	for _, w := range words {
		best := 0.0
		for _, c := range sel {
			if cs[c].word == w {
				best = max(best, cs[c].idf)
			}
		}
		cover += best
	}
	return min(1, cover*(1+boundSlack)/denom) >= threshold
}

// eligible is selection's relevance gate (see Select).
func eligible(s Scored, threshold float64) bool {
	return s.Coverage >= threshold && !(s.Of >= 3 && s.Matched < 2)
}

// boundable says the parameters keep every term's score in [0, weight·(k1+1)).
func (ix *Index) boundable() bool {
	if !(ix.p.K1 > 0) || math.IsInf(ix.p.K1, 0) {
		return false
	}
	for f := range NumFields {
		if !(ix.p.W[f] >= 0) || !(ix.p.B[f] >= 0 && ix.p.B[f] <= 1) {
			return false
		}
	}
	return true
}

// better says a ranks before b: higher score, then lower document.
func better(a, b Scored) bool {
	return a.Score > b.Score || a.Score == b.Score && a.Doc < b.Doc
}

// topHeap keeps the k best of the documents pushed, the worst at the root.
type topHeap struct {
	k int
	s []Scored
}

// worst returns the k-th best so far and whether there are k.
func (h *topHeap) worst() (Scored, bool) {
	if len(h.s) < h.k {
		return Scored{}, false
	}
	return h.s[0], true
}

// push adds s if it is among the k best, and says whether it was.
func (h *topHeap) push(s Scored) bool {
	if len(h.s) < h.k {
		h.s = append(h.s, s)
		for i := len(h.s) - 1; i > 0; {
			p := (i - 1) / 2
			if !better(h.s[p], h.s[i]) {
				break
			}
			h.s[p], h.s[i] = h.s[i], h.s[p]
			i = p
		}
		return true
	}
	if !better(s, h.s[0]) {
		return false
	}
	h.s[0] = s
	for i := 0; ; {
		w, l, r := i, 2*i+1, 2*i+2
		if l < len(h.s) && better(h.s[w], h.s[l]) {
			w = l
		}
		if r < len(h.s) && better(h.s[w], h.s[r]) {
			w = r
		}
		if w == i {
			break
		}
		h.s[i], h.s[w] = h.s[w], h.s[i]
		i = w
	}
	return true
}

// sorted returns the heap's documents best first.
func (h *topHeap) sorted() []Scored {
	slices.SortFunc(h.s, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return h.s
}

// TopRanker gives a prompt's k best eligible documents, as
// Index.TopGroups does: an Index, or a Merged ranking of several.
type TopRanker interface {
	TopGroups(query []string, groups []int, k int, threshold float64) []Scored
}

// SearchSelect is Select over SearchGroups' ranking for a prompt's terms,
// without ranking every match: it selects from the top few times p.K
// eligible documents and, when selection dropped enough of them
// (superseded, already given, over the budget) that it kept fewer than
// p.K from a full list, looks further, up to every eligible document. The
// kept candidates, their texts and so Render's output are those of
// Select(src, ix.SearchGroups(terms, groups), p, now); the candidates it
// returns are the eligible ones it looked at, not every match (reports
// that list every candidate use SearchGroups and Select).
func SearchSelect(ix TopRanker, src Source, terms []string, groups []int, p Policy, now time.Time) []Candidate {
	k := p.K
	if k <= 0 {
		k = DefaultPolicy.K
	}
	// Each memory is read once however many times selection runs.
	memo := &memoSource{src: src}
	for want := 4 * k; ; want *= 4 {
		top := ix.TopGroups(terms, groups, want, p.Threshold)
		cands := Select(memo, top, p, now)
		kept := 0
		for _, c := range cands {
			if c.Kept {
				kept++
			}
		}
		if kept >= k || len(top) < want {
			return cands
		}
	}
}

// memoSource is a Source that asks its own for each memory once.
type memoSource struct {
	src  Source
	seen map[memoKey]Memory
}

type memoKey struct {
	doc  int
	full bool
}

func (m *memoSource) Memory(doc int, full bool) Memory {
	key := memoKey{doc, full}
	if got, ok := m.seen[key]; ok {
		return got
	}
	got := m.src.Memory(doc, full)
	if m.seen == nil {
		m.seen = map[memoKey]Memory{}
	}
	m.seen[key] = got
	return got
}
