package consolidate

import (
	"cmp"
	_ "embed"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/textclf"
)

// Whether two memories are one memory saved twice is decided by a small
// logistic regression (internal/textclf) over what the two share: how much
// of their weighted words, how many of the folder's rare words, their
// names, their descriptions, the values and code they quote, the rules
// they both give. Word overlap alone cannot tell "don't edit applied
// migrations" and "InconsistentMigrationHistory on deploy" (one lesson,
// few words shared) from two services built from one template (many
// words shared): the model weighs the signs together, as learned from
// labelled folders (memdir-bench dream --train).
//
//go:embed sameness.txt
var samenessText []byte

// sameness is the embedded model, parsed on first use. One that does not
// parse (a broken build, which TestSameness_Embedded catches) merges
// nothing.
var sameness = textclf.Embedded(samenessText)

// SamenessOptions are the settings the embedded model was trained with.
// They were chosen by leaving one labelled folder out at a time
// (memdir-bench dream --cv).
var SamenessOptions = textclf.Options{Epochs: 60, Rate: 0.05, L2: 1e-4, Seed: 7, Prune: 0.01}

// Thresholds on the model's log-odds, chosen on the same table by most
// merges found less twice the look-alikes merged. The model learns from
// folders where look-alikes are as many as duplicates, so even odds
// (0) would merge too much.
const (
	mergeScore = 1.5  // one memory told twice: merged when type and scope agree
	linkScore  = 1.0  // the mean sameness across two groups, for them to join
	leftScore  = -1.0 // maybe: left for a model to read
	wrongScore = -1.0 // alike enough for a newer memory to replace an older one marked wrong
	// twoThingsMargin is how much surer the model must be of two memories
	// that name different things alike (each its own value: "Staging runs
	// Postgres 15", "Production runs Postgres 16").
	twoThingsMargin = 2.0
	// weighedFolder is the fewest memories a folder needs for the model to
	// merge two things alike at all. The model reads the folder's word
	// statistics (which words are rare, what they weigh); in a folder of a
	// few memories every shared word looks rare, and the model is surest
	// where it knows least. It learned from folders of 50 to 70.
	weighedFolder = 20
	// smallFolderJaccard is the share of weighted words two memories of a
	// folder smaller than weighedFolder must have for the heuristic engine
	// to merge them: there the model's score rests on weights that mean
	// little ("The team offsite is next week" and "Quarterly planning is
	// next month", 9% of their words, scored as one memory in a folder of
	// five; two rules of one lesson share 29% in a folder of twelve).
	smallFolderJaccard = 0.2
)

// sureOfTwoThings reports whether the model may merge two memories that
// name different things alike: surer than for others, in a folder large
// enough for its word weights to mean something.
func (p *planner) sureOfTwoThings(pr pair) bool {
	return len(p.items) >= weighedFolder && pr.same >= mergeScore+twoThingsMargin && !saidTwoThings(p.items[pr.a], p.items[pr.b])
}

// steps names the thresholds of a ladder a value reaches: "j≥0.10" for
// every step up to it. Ladders rather than buckets, so that a weight
// learnt for a little overlap counts for more overlap too.
func steps(prefix string, v float64, ladder []float64) []string {
	var out []string
	for _, t := range ladder {
		if v < t {
			break
		}
		out = append(out, fmt.Sprintf("%s≥%g", prefix, t))
	}
	return out
}

var (
	fracLadder  = []float64{0.03, 0.05, 0.07, 0.09, 0.11, 0.13, 0.16, 0.2, 0.25, 0.3, 0.4, 0.5}
	shareLadder = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	countLadder = []float64{1, 2, 3, 4, 5, 6, 8, 10}
	idfLadder   = []float64{2, 4, 6, 8, 10, 13, 16, 20, 25, 30}
)

// codeRE finds what a memory quotes as code: a span in backticks, a path,
// a flag, a URL.
var codeRE = lazyre.New("`[^`\n]+`|(?:https?://|/|\\./)[^\\s`)]+|(?:^|\\s)--?[a-z][a-z0-9-]+")

// codeSet is the set of a text's code quotes, lower-cased and trimmed.
func codeSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, m := range codeRE.FindAllString(s, -1) {
		m = strings.ToLower(strings.TrimRight(strings.Trim(strings.TrimSpace(m), "`"), ".,;:"))
		if m != "" {
			out[m] = true
		}
	}
	return out
}

// bigrams is the set of pairs of content stems next to each other in s,
// line by line: phrases a memory told twice keeps ("crash-free users").
func bigrams(s string) map[string]bool {
	out := map[string]bool{}
	for line := range strings.SplitSeq(s, "\n") {
		ts := recall.Default.Terms(line, nil)
		for i := 1; i < len(ts); i++ {
			out[ts[i-1]+" "+ts[i]] = true
		}
	}
	return out
}

// facets are what sameFeatures reads of one memory, made once per plan.
type facets struct {
	name, desc  map[string]bool // content stems of the name, of the description
	vals, codes map[string]bool // values, code quotes of description and body
	words       map[string]bool // every word of description and body, as minusWords reads them
	heavy       []string        // its five stems of highest idf
}

// facetsOf is memory i's facets.
func (p *planner) facetsOf(i int) *facets {
	if f := p.facets[i]; f != nil {
		return f
	}
	it := p.items[i]
	text := it.Description + "\n" + it.Body
	f := &facets{name: termSet(it.Name), desc: termSet(it.Description), vals: values(text), codes: codeSet(text), words: nameWords(text)}
	f.heavy = slices.Collect(maps.Keys(it.terms))
	slices.SortFunc(f.heavy, func(x, y string) int { return cmp.Or(cmp.Compare(p.idf[y], p.idf[x]), strings.Compare(x, y)) })
	f.heavy = f.heavy[:min(5, len(f.heavy))]
	p.facets[i] = f
	return f
}

// heavyShare is the share of a's heaviest stems that b holds.
func heavyShare(a *facets, b item) float64 {
	if len(a.heavy) == 0 {
		return 0
	}
	n := 0
	for _, t := range a.heavy {
		if b.terms[t] {
			n++
		}
	}
	return float64(n) / float64(len(a.heavy))
}

// lacks reports whether a holds a value b neither holds nor names.
func lacks(a, b *facets) bool {
	for v := range a.vals {
		if !b.vals[v] && !b.words[v] {
			return true
		}
	}
	return false
}

// sameFeatures names the signs that the two memories of pr are one.
func (p *planner) sameFeatures(pr pair) []string {
	a, b := p.items[pr.a], p.items[pr.b]
	fa, fb := p.facetsOf(pr.a), p.facetsOf(pr.b)
	var f []string
	f = append(f, steps("j", pr.jaccard, fracLadder)...)
	f = append(f, steps("c", pr.contain, shareLadder)...)
	var rare, idf float64
	for t := range a.terms {
		if b.terms[t] {
			idf += p.idf[t]
			if p.rare(t) {
				rare++
			}
		}
	}
	f = append(f, steps("rare", rare, countLadder)...)
	f = append(f, steps("idf", idf, idfLadder)...)
	f = append(f, steps("name", float64(intersection(fa.name, fb.name)), countLadder[:3])...)
	dj, _ := p.weighted(fa.desc, fb.desc)
	f = append(f, steps("desc", dj, fracLadder)...)
	// Names against the other's whole text: one memory named for what
	// the other only says.
	_, ca := p.weighted(fa.name, b.terms)
	_, cb := p.weighted(fb.name, a.terms)
	f = append(f, steps("namein", max(ca, cb), shareLadder)...)
	va, vb := fa.vals, fb.vals
	f = append(f, steps("val", float64(intersection(va, vb)), countLadder[:5])...)
	if len(va) > 0 && len(vb) > 0 && intersection(va, vb) == 0 {
		f = append(f, "valnone")
	}
	if len(va) > 0 && len(vb) > 0 && lacks(fa, fb) && lacks(fb, fa) {
		f = append(f, "valboth") // each holds a value the other lacks: two things?
	}
	var best float64
	for _, x := range a.sents {
		for _, y := range b.sents {
			j, _ := p.weighted(x.terms, y.terms)
			best = max(best, j)
		}
	}
	f = append(f, steps("sent", best, shareLadder)...)
	xa, xb := fa.codes, fb.codes
	f = append(f, steps("code", float64(intersection(xa, xb)), countLadder[:4])...)
	if len(xa) > 0 && len(xb) > 0 && intersection(xa, xb) == 0 {
		f = append(f, "codenone")
	}
	f = append(f, steps("idea", float64(intersection(a.ideas, b.ideas)), countLadder[:5])...)
	if len(a.ideas) > 0 && len(b.ideas) > 0 && intersection(a.ideas, b.ideas) == 0 {
		f = append(f, "ideanone")
	}
	small := float64(min(len(a.terms), len(b.terms)))
	f = append(f, steps("len", small, []float64{8, 16, 32, 64})...)
	if sharedProhibition(a, b) {
		f = append(f, "sameban")
	}
	f = append(f, steps("gram", float64(intersection(a.grams, b.grams)), countLadder[:6])...)
	sa, sb := heavyShare(fa, b), heavyShare(fb, a)
	f = append(f, steps("subjmin", min(sa, sb), shareLadder)...)
	f = append(f, steps("subjmax", max(sa, sb), shareLadder)...)
	f = append(f, "type:"+a.Type)
	if a.Scope != b.Scope {
		f = append(f, "scopediff")
	}
	if pr.twoThings {
		f = append(f, "twothings")
	}
	if a.exceptText != b.exceptText {
		f = append(f, "except1") // one of the two states an exception
	}
	return f
}

// sameScore is the model's log-odds that the memories of pr are one.
func (p *planner) sameScore(pr pair) float64 {
	return p.model.Score(p.sameFeatures(pr))
}

// MergeExamples are the labelled pairs of one folder for training the
// sameness model: every pair the heuristic engine would weigh for a merge
// (compared, not contradicting), positive when the labels put both in one
// merge.
func MergeExamples(in Input, e Expected) []textclf.Example {
	p := newPlanner(in, nil)
	group := map[string]int{}
	for i, op := range e.Ops {
		if op.Kind == Merge {
			for _, f := range op.Files {
				group[f] = i + 1
			}
		}
	}
	var out []textclf.Example
	for _, pr := range p.weighable() {
		g := group[p.items[pr.a].File]
		out = append(out, textclf.Example{Features: p.sameFeatures(pr), Positive: g != 0 && g == group[p.items[pr.b].File]})
	}
	return out
}

// roundScore keeps a log-odds in a message short.
func roundScore(z float64) float64 { return math.Round(z*10) / 10 }
