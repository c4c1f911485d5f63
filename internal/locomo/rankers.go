package locomo

import (
	"strings"

	"github.com/memdir/memdir/internal/recall"
)

// refStop is the reference script's stop list.
var refStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for from has have he her his i if in into is it its
me my of on or our she so that the their them they this to was we were what when where which
who why will with would you your did do does how`) {
		m[w] = true
	}
	return m
}()

// refTerms is the reference tokeniser: [0-9a-z]+ over the lower-cased
// text, optionally without the stop list.
func refTerms(s string, stop bool) []string {
	s = strings.ToLower(s)
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		alnum := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9')
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			if w := s[start:i]; !stop || !refStop[w] {
				out = append(out, w)
			}
			start = -1
		}
	}
	return out
}

// turnText is a turn as the reference script indexes it: speaker, text and
// the caption of a shared image.
func turnText(t Turn) string {
	s := t.Speaker + " " + t.Text
	if t.Caption != "" {
		s += " " + t.Caption
	}
	return s
}

type indexRanker struct {
	ix      *recall.Index
	analyse func(string) []string
}

func (r indexRanker) Rank(question string) []int {
	res := r.ix.Search(r.analyse(question))
	out := make([]int, len(res))
	for i, s := range res {
		out[i] = s.Doc
	}
	return out
}

// Reference is the plain BM25 of the reference script (k1 1.2, b 0.75, one
// field, its tokeniser and stop list), run through recall.Index with the
// body as the only field: matching its numbers checks both the harness and
// the index's arithmetic.
func Reference(stop bool) NewRanker {
	p := recall.Params{K1: 1.2, B: [recall.NumFields]float64{0, 0, 0.75}, W: [recall.NumFields]float64{0, 0, 1}}
	return func(s Sample, docs []Document) Ranker {
		analysed := make([]recall.Doc, len(docs))
		for i, d := range docs {
			var parts []string
			for _, t := range d.Turns {
				parts = append(parts, turnText(t))
			}
			analysed[i].Terms[recall.Body] = refTerms(strings.Join(parts, " "), stop)
		}
		return indexRanker{ix: recall.NewIndex(analysed, p), analyse: func(q string) []string { return refTerms(q, stop) }}
	}
}

// Shipped ranks with memdir's own ranker: each document becomes a memory
// whose name is the speaker, whose description is what was said (with the
// caption of a shared image), and whose body is the surrounding turns of
// its session (window turns each side), as a memory's body carries the
// context of its one-line description.
func Shipped(p recall.Params, window int) NewRanker {
	return func(s Sample, docs []Document) Ranker {
		analysed := make([]recall.Doc, len(docs))
		for i, d := range docs {
			var desc []string
			for _, t := range d.Turns {
				desc = append(desc, turnText(t))
			}
			a := &analysed[i]
			a.Terms[recall.Name] = recall.Default.Terms(d.Turns[0].Speaker, nil)
			a.Terms[recall.Description] = recall.Default.Terms(strings.Join(desc, " "), nil)
			if window > 0 {
				a.Terms[recall.Body] = recall.Default.Terms(context(s, d, window), nil)
			}
		}
		return indexRanker{ix: recall.NewIndex(analysed, p), analyse: func(q string) []string { return recall.Default.Terms(q, nil) }}
	}
}

// context joins the turns within window of the document's turns, in its
// session, leaving the document's own turns out.
func context(s Sample, d Document, window int) string {
	first, last := -1, -1
	for i, t := range s.Turns {
		if t.DiaID == d.IDs[0] {
			first = i
		}
		if t.DiaID == d.IDs[len(d.IDs)-1] {
			last = i
		}
	}
	var parts []string
	for i := max(0, first-window); i <= min(len(s.Turns)-1, last+window); i++ {
		if (i < first || i > last) && s.Turns[i].Session == d.Turns[0].Session {
			parts = append(parts, turnText(s.Turns[i]))
		}
	}
	return strings.Join(parts, " ")
}
