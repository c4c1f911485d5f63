package recall

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"sync"
)

// Field is a part of a memory that is scored on its own.
type Field int

const (
	Name Field = iota
	Description
	Body
	NumFields
)

var fieldNames = [NumFields]string{"name", "description", "body"}

func (f Field) String() string { return fieldNames[f] }

// Params are BM25F's parameters.
type Params struct {
	K1 float64
	B  [NumFields]float64 // length normalisation per field, 0..1
	W  [NumFields]float64 // field weights
}

// DefaultParams are the shipped ranker's parameters (see the package doc).
var DefaultParams = Params{K1: 1.2, B: [NumFields]float64{0.75, 0.75, 0.75}, W: [NumFields]float64{3, 2, 1}}

// Doc is an analysed memory: the terms of each field, in order.
type Doc struct {
	Terms [NumFields][]string
}

type posting struct {
	doc int32
	tf  [NumFields]uint16
}

// Index ranks a fixed set of documents. Build it with NewIndex or load it
// from a Snapshot; it is safe for concurrent searches.
type Index struct {
	p        Params
	n        int
	avglen   [NumFields]float64
	lens     [][NumFields]int32
	postings map[string][]posting
	lookup   func(term string, dst []posting) []posting // instead of postings, for a snapshot: appends to dst
	// lensLE, when set, is read instead of lens: n × [NumFields]u32,
	// little-endian, in place (a snapshot's table), so that a process
	// that asks one query does not copy n lengths first.
	lensLE []byte
	// pool, when set, are the other indexes of a Merged ranking: idf is
	// taken over poolN documents, with a term's df summed over them all.
	pool  []*Index
	poolN int
}

// stats is what term t's idf is taken over: the number of documents and
// its document frequency, given its df here; pooled over a Merged
// ranking's indexes when ix is one of them.
func (ix *Index) stats(t string, here int) (n, df int) {
	if ix.pool == nil {
		return ix.n, here
	}
	n, df = ix.poolN, here
	for _, o := range ix.pool {
		df += len(o.postingsOf(t))
	}
	return n, df
}

// docLen is document doc's length in field f.
func (ix *Index) docLen(doc int32, f Field) int32 {
	if ix.lensLE != nil {
		return int32(binary.LittleEndian.Uint32(ix.lensLE[int(doc)*4*int(NumFields)+4*int(f):]))
	}
	return ix.lens[doc][f]
}

func (ix *Index) postingsOf(t string) []posting {
	if ix.lookup != nil {
		return ix.lookup(t, nil)
	}
	return ix.postings[t]
}

// postingsInto is term t's postings, decoded into buf's spare room when
// they are decoded at all (a snapshot's); grown is buf with them.
func (ix *Index) postingsInto(t string, buf []posting) (ps, grown []posting) {
	if ix.lookup == nil {
		return ix.postings[t], buf
	}
	grown = ix.lookup(t, buf)
	return grown[len(buf):len(grown):len(grown)], grown
}

// postingBufs holds the buffers TopGroups decodes postings into, so that a
// long-lived process (the MCP server) does not allocate a query's
// postings anew each time.
var postingBufs = sync.Pool{New: func() any { return new([]posting) }}

// maxPooledPostings bounds the buffer put back (12 bytes a posting).
const maxPooledPostings = 1 << 18

// NewIndex indexes docs; a document's number is its position.
func NewIndex(docs []Doc, p Params) *Index {
	ix := &Index{p: p, n: len(docs), lens: make([][NumFields]int32, len(docs)), postings: map[string][]posting{}}
	var total [NumFields]float64
	tf := map[string]*[NumFields]uint16{}
	for d, doc := range docs {
		clear(tf)
		var order []string
		for f := range NumFields {
			ix.lens[d][f] = int32(len(doc.Terms[f]))
			total[f] += float64(len(doc.Terms[f]))
			for _, t := range doc.Terms[f] {
				c := tf[t]
				if c == nil {
					c = new([NumFields]uint16)
					tf[t] = c
					order = append(order, t)
				}
				if c[f] < math.MaxUint16 {
					c[f]++
				}
			}
		}
		for _, t := range order {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(d), tf: *tf[t]})
		}
	}
	for f := range NumFields {
		if ix.n > 0 {
			ix.avglen[f] = total[f] / float64(ix.n)
		}
	}
	return ix
}

// Len returns the number of documents.
func (ix *Index) Len() int { return ix.n }

// IDF returns the inverse document frequency of term t.
func (ix *Index) IDF(t string) float64 { return idf(ix.stats(t, len(ix.postingsOf(t)))) }

func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Scored is one document's score for a query.
type Scored struct {
	Doc      int
	Score    float64
	Coverage float64 // share of the query's information the document matches
	Matched  int     // query words the document holds (a part of one counts)
	Of       int     // query words
}

// queryTerm is a distinct query term with its count, in order of first
// appearance.
type queryTerm struct {
	t   string
	qtf float64
}

func distinct(query []string) []queryTerm {
	var qs []queryTerm
	for _, t := range query {
		if i := slices.IndexFunc(qs, func(q queryTerm) bool { return q.t == t }); i >= 0 {
			qs[i].qtf++
			continue
		}
		qs = append(qs, queryTerm{t: t, qtf: 1})
	}
	return qs
}

// coverageTerms is how many of the query's most informative terms the
// coverage is measured against.
const coverageTerms = 8

// Search scores every document holding a query term and returns them by
// score, highest first; ties go to the lower document number. Each term
// counts as a word of its own for coverage; see SearchGroups.
func (ix *Index) Search(query []string) []Scored {
	return ix.SearchGroups(query, nil)
}

// SearchGroups is Search where groups[i] numbers the word query[i] came
// from (see Analyzer.Prompt): coverage and Matched count words, each worth
// the idf of its most informative part, so that the parts of one
// identifier do not count as several matches.
func (ix *Index) SearchGroups(query []string, groups []int) []Scored {
	qs := distinct(query)
	if len(qs) == 0 || ix.n == 0 {
		return nil
	}
	word, words := termWords(qs, query, groups)
	// Terms by word.
	byWord := map[int][]int{}
	for i := range qs {
		byWord[word[i]] = append(byWord[word[i]], i)
	}
	score := make([]float64, ix.n)
	covered := make([]float64, ix.n)
	matched := make([]uint16, ix.n)
	best := make([]float64, ix.n) // per document, the current word's best part
	seen := make([]bool, ix.n)
	var hit, touched []int32
	var known []float64 // per word, the idf of its most informative part
	for _, wd := range words {
		wordIDF := 0.0
		touched = touched[:0]
		for _, i := range byWord[wd] {
			q := qs[i]
			ps := ix.postingsOf(q.t)
			n, df := ix.stats(q.t, len(ps))
			w := idf(n, max(df, 1)) // an unseen part counts as df=1
			wordIDF = max(wordIDF, w)
			if len(ps) == 0 {
				continue
			}
			// weight·saturate, rounded on its own (no fused multiply-add),
			// is the term's part of the score, as TopGroups adds it.
			weight := q.qtf * idf(n, df)
			for _, p := range ps {
				if !seen[p.doc] {
					seen[p.doc] = true
					hit = append(hit, p.doc)
				}
				score[p.doc] += float64(weight * ix.saturate(p))
				if best[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				best[p.doc] = max(best[p.doc], w)
			}
		}
		for _, d := range touched {
			covered[d] += best[d]
			matched[d]++
			best[d] = 0
		}
		known = append(known, wordIDF)
	}
	slices.SortFunc(known, func(a, b float64) int { return cmp.Compare(b, a) })
	var denom float64
	for _, w := range known[:min(len(known), coverageTerms)] {
		denom += w
	}
	out := make([]Scored, 0, len(hit))
	for _, d := range hit {
		out = append(out, Scored{Doc: int(d), Score: score[d], Coverage: min(1, covered[d]/denom), Matched: int(matched[d]), Of: len(words)})
	}
	slices.SortFunc(out, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Doc, b.Doc)
	})
	return out
}

// termWords returns the word each distinct term belongs to (its first
// occurrence's; without groups every term is a word of its own), and the
// words in order of first appearance.
func termWords(qs []queryTerm, query []string, groups []int) (wordOf, words []int) {
	wordOf = make([]int, len(qs))
	for i, q := range qs {
		wordOf[i] = i
		if groups != nil {
			wordOf[i] = groups[slices.Index(query, q.t)]
		}
		if !slices.Contains(words, wordOf[i]) {
			words = append(words, wordOf[i])
		}
	}
	return wordOf, words
}

// Matched lists the query terms doc contains, in query order.
func (ix *Index) Matched(doc int, query []string) []string {
	var out []string
	for _, q := range distinct(query) {
		if slices.ContainsFunc(ix.postingsOf(q.t), func(p posting) bool { return int(p.doc) == doc }) {
			out = append(out, q.t)
		}
	}
	return out
}

// saturate is BM25F's tf'·(k1+1)/(tf'+k1) for one posting.
func (ix *Index) saturate(p posting) float64 {
	tfp := ix.pseudoTF(p)
	return tfp * (ix.p.K1 + 1) / (tfp + ix.p.K1)
}

func (ix *Index) pseudoTF(p posting) float64 {
	var tfp float64
	for f := range NumFields {
		tfp += ix.fieldTF(p, f)
	}
	return tfp
}

// fieldTF is field f's part of a posting's pseudo-frequency:
// w(f)·tf/B(f,d).
func (ix *Index) fieldTF(p posting, f Field) float64 {
	if p.tf[f] == 0 || ix.p.W[f] == 0 {
		return 0
	}
	norm := 1 - ix.p.B[f]
	if ix.avglen[f] > 0 {
		norm += ix.p.B[f] * float64(ix.docLen(p.doc, f)) / ix.avglen[f]
	}
	return ix.p.W[f] * float64(p.tf[f]) / norm
}

// Explain splits doc's score for query by field: each term's part of the
// score is shared among the fields in proportion to what each adds to the
// term's pseudo-frequency.
func (ix *Index) Explain(doc int, query []string) (byField [NumFields]float64) {
	for _, q := range distinct(query) {
		ps := ix.postingsOf(q.t)
		i := slices.IndexFunc(ps, func(p posting) bool { return int(p.doc) == doc })
		if i < 0 {
			continue
		}
		p := ps[i]
		part := q.qtf * idf(ix.stats(q.t, len(ps))) * ix.saturate(p)
		tfp := ix.pseudoTF(p)
		for f := range NumFields {
			byField[f] += part * ix.fieldTF(p, f) / tfp
		}
	}
	return byField
}
