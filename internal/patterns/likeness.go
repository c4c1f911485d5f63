package patterns

import (
	_ "embed"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/memdir/memdir/internal/textclf"
)

// This file holds the learned likeness of two lesson lines: a linear
// model over what the two share (words, how common those words are, the
// lexicon's concepts, error signatures, their sections, their projects)
// that says how likely two lines of two tasks say one lesson. Cosine
// over words alone weighs every shared word by its rarity; the model has
// learned from labelled diaries which kinds of sharing mean one lesson
// (a shared concept of the lexicon, "n-plus-one" or "time-zone", a word
// strong in both lines) and which rarely do ("test", a word common to
// the whole project).
//
// It is trained on the tuning sets only (internal/patterns/testdata:
// tune, tune2, tune3…) by `go run ./cmd/memdir-bench patterns --train`.

//go:embed likeness.txt
var likenessText []byte

// likenessModel is the embedded model, read on first use. One that does
// not parse (a broken build, which TestLikeness_Embedded catches) links
// nothing.
var likenessModel = textclf.Embedded(likenessText)

// corpus is what the likeness of two lines is read against: in how many
// diaries each word is, of how many.
type corpus struct {
	df map[string]int
	n  int
}

// minDiaries is the fewest diaries word counts are read against: the
// labelled sets the model learned from have 38 to 40.
const minDiaries = 40

// likeness is the model's probability that lines a and b say one lesson.
func likeness(m *textclf.Model, c corpus, a, b *Line) float64 {
	return probability(m.Score(pairFeatures(c, a, b)))
}

func probability(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// Buckets of the numbers pairFeatures names.
var (
	cosSteps = []float64{0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5}
	lenSteps = []float64{4, 8, 14}
	dfSteps  = []float64{0.03, 0.06, 0.1, 0.2, 0.4}
	idfSteps = []float64{1, 2, 3, 4, 5, 6, 8, 10}
)

// pairFeatures names what lines a and b share, for the likeness model.
func pairFeatures(c corpus, a, b *Line) []string {
	f := make([]string, 0, 24)
	f = append(f,
		"cos:"+strconv.Itoa(step(lineCosine(a, b), cosSteps...)),
		"ev:"+strconv.Itoa(min(evidence(a.vec, b.vec), 4)))
	ka, kb := string(a.Kind), string(b.Kind)
	if ka > kb {
		ka, kb = kb, ka
	}
	f = append(f, "k:"+ka+"|"+kb)
	if a.Project != "" && a.Project == b.Project {
		f = append(f, "proj:same")
	}
	la, lb := step(float64(len(a.words)), lenSteps...), step(float64(len(b.words)), lenSteps...)
	f = append(f, "len:"+strconv.Itoa(min(la, lb))+strconv.Itoa(max(la, lb)))
	// A feature two shared words both give ("sdf:2", two words of one
	// rarity) is named twice. Training (textclf) learns from whether a
	// feature is there; Score and the scorer add its weight each time it
	// is named, so two rare shared words weigh twice one. Leaving one
	// tuning set out, this found 30 of 139 planted patterns with 2
	// coincidences at 0.85, against 24 with 2 for a model trained on the
	// counts themselves and 20 with 1 for features named once.
	// In a handful of diaries every shared word looks common: how common
	// a word is counts as in minDiaries diaries at least.
	n := float64(max(c.n, minDiaries))
	shared, idf := 0, 0.0
	for k, t := range a.words {
		if j, ok := slices.BinarySearch(b.words, t); ok {
			shared++
			idf += math.Log(n / float64(max(c.df[t], 1)))
			ra, rb := a.ranks[k], b.ranks[j]
			f = append(f, "s:"+t,
				"sdf:"+strconv.Itoa(step(float64(c.df[t])/n, dfSteps...)),
				"top:"+strconv.Itoa(int(min(ra, rb)))+strconv.Itoa(int(max(ra, rb))))
		}
	}
	f = append(f, "ns:"+strconv.Itoa(min(shared, 5)), "idf:"+strconv.Itoa(step(idf, idfSteps...)))
	for _, x := range a.concepts {
		if slices.Contains(b.concepts, x) {
			f = append(f, "sc:"+x, "sc")
		}
	}
	for _, x := range a.areas {
		if slices.Contains(b.areas, x) {
			f = append(f, "sa:"+x)
		}
	}
	for _, x := range a.sigs {
		if slices.Contains(b.sigs, x) {
			f = append(f, "ssig")
		}
	}
	return f
}

// strengths ranks each of l's words among the features of its vector: 0
// its strongest, 1 among its three strongest, 2 among those it is
// compared by, 3 not among them.
func strengths(l *Line) []int8 {
	out := make([]int8, len(l.words))
	for k, t := range l.words {
		x, ok := l.vec[t]
		if !ok {
			out[k] = 3
			continue
		}
		above := 0
		for _, y := range l.vec {
			if y > x {
				above++
			}
		}
		out[k] = int8(step(float64(above), 1, 3))
	}
	return out
}

// step is the index of the first bound x is under: a number as a feature.
func step(x float64, bounds ...float64) int {
	for i, b := range bounds {
		if x < b {
			return i
		}
	}
	return len(bounds)
}

// PairExamples are the training examples a labelled set gives the
// likeness model: every two lesson lines of two different diaries, as
// their pairFeatures, positive when the key gives both to one lesson
// (a planted pattern, a coincidence, or the two sides of a conflict,
// which Find splits by what they ask, not by what they are about).
func PairExamples(docs []Doc, key Labels) []textclf.Example {
	_, lines, c := prepare(docs, Options{})
	label := labelLines(lines, key)
	var out []textclf.Example
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			if lines[i].Diary == lines[j].Diary {
				continue
			}
			out = append(out, textclf.Example{
				Features: pairFeatures(c, &lines[i], &lines[j]),
				Positive: label[i] != "" && label[i] == label[j],
			})
		}
	}
	return out
}

// labelLines gives each line the id of the key's lesson it says, or ""
// (the second side of a conflict takes the first side's id).
func labelLines(lines []Line, key Labels) []string {
	side := map[string]string{}
	for _, c := range key.Conflicts {
		side[c[1]] = c[0]
	}
	out := make([]string, len(lines))
	for _, ls := range [][]Labelled{key.Patterns, key.Coincidences, key.OneOffs} {
		for _, l := range ls {
			id := l.ID
			if s, ok := side[id]; ok {
				id = s
			}
			for _, q := range l.Support {
				for i, ln := range lines {
					if ln.Diary == q.Diary && strings.Contains(ln.Text, q.Quote) {
						out[i] = id
					}
				}
			}
		}
	}
	return out
}

// scorer is pairFeatures and the model's Score in one, without naming a
// feature: the weights of the features that depend on one word, concept
// or number are looked up once, not once a pair. Like Score, it adds a
// feature named twice twice (see pairFeatures). scorer.z equals
// m.Score(pairFeatures(c, a, b)) (TestScorer_SameAsFeatures).
type scorer struct {
	m        *textclf.Model
	n        float64   // diaries word counts are read against
	cos      []float64 // by step of the cosine
	ev       [5]float64
	length   [4][4]float64
	top      [4][4]float64
	ns       [6]float64
	sdf      []float64 // by step of a shared word's share of diaries
	idfSum   []float64 // by step of the shared words' idf
	kinds    map[[2]string]float64
	word     map[string]sharedWeight
	concepts map[string]float64
	areas    map[string]float64
}

// sharedWeight is what sharing one word weighs: its own weight, the step of how
// common it is, and its idf.
type sharedWeight struct {
	w    float64
	step int
	idf  float64
}

func newScorer(m *textclf.Model, c corpus) *scorer {
	w := func(f string) float64 { return m.Weights[f] }
	s := &scorer{m: m, n: float64(max(c.n, minDiaries)), kinds: map[[2]string]float64{},
		word: map[string]sharedWeight{}, concepts: map[string]float64{}, areas: map[string]float64{}}
	for i := range len(cosSteps) + 1 {
		s.cos = append(s.cos, w("cos:"+strconv.Itoa(i)))
	}
	for i := range s.ev {
		s.ev[i] = w("ev:" + strconv.Itoa(i))
	}
	for i := range 4 {
		for j := range 4 {
			s.length[i][j] = w("len:" + strconv.Itoa(i) + strconv.Itoa(j))
			s.top[i][j] = w("top:" + strconv.Itoa(i) + strconv.Itoa(j))
		}
	}
	for i := range s.ns {
		s.ns[i] = w("ns:" + strconv.Itoa(i))
	}
	for i := range len(dfSteps) + 1 {
		s.sdf = append(s.sdf, w("sdf:"+strconv.Itoa(i)))
	}
	for i := range len(idfSteps) + 1 {
		s.idfSum = append(s.idfSum, w("idf:"+strconv.Itoa(i)))
	}
	return s
}

// sharedWord is what sharing word t, in df diaries, weighs.
func (s *scorer) sharedWord(t string, df int) sharedWeight {
	x, ok := s.word[t]
	if !ok {
		x = sharedWeight{w: s.m.Weights["s:"+t], step: step(float64(df)/s.n, dfSteps...), idf: math.Log(s.n / float64(max(df, 1)))}
		s.word[t] = x
	}
	return x
}

func (s *scorer) cached(m map[string]float64, prefix, name string) float64 {
	x, ok := m[name]
	if !ok {
		x = s.m.Weights[prefix+name]
		m[name] = x
	}
	return x
}

// z is the model's log-odds that a and b say one lesson.
func (s *scorer) z(c corpus, a, b *Line) float64 {
	z := s.m.Bias + s.cos[step(lineCosine(a, b), cosSteps...)] + s.ev[min(evidence(a.vec, b.vec), 4)]
	ka, kb := string(a.Kind), string(b.Kind)
	if ka > kb {
		ka, kb = kb, ka
	}
	kw, ok := s.kinds[[2]string{ka, kb}]
	if !ok {
		kw = s.m.Weights["k:"+ka+"|"+kb]
		s.kinds[[2]string{ka, kb}] = kw
	}
	z += kw
	if a.Project != "" && a.Project == b.Project {
		z += s.project()
	}
	la, lb := step(float64(len(a.words)), lenSteps...), step(float64(len(b.words)), lenSteps...)
	z += s.length[min(la, lb)][max(la, lb)]
	n, idf := 0, 0.0
	for k, t := range a.words {
		j, ok := slices.BinarySearch(b.words, t)
		if !ok {
			continue
		}
		n++
		x := s.sharedWord(t, c.df[t])
		z += x.w + s.sdf[x.step] + s.top[min(a.ranks[k], b.ranks[j])][max(a.ranks[k], b.ranks[j])]
		idf += x.idf
	}
	z += s.ns[min(n, 5)] + s.idfSum[step(idf, idfSteps...)]
	for _, x := range a.concepts {
		if slices.Contains(b.concepts, x) {
			z += s.cached(s.concepts, "sc:", x) + s.m.Weights["sc"]
		}
	}
	for _, x := range a.areas {
		if slices.Contains(b.areas, x) {
			z += s.cached(s.areas, "sa:", x)
		}
	}
	for _, x := range a.sigs {
		if slices.Contains(b.sigs, x) {
			z += s.m.Weights["ssig"]
		}
	}
	return z
}

func (s *scorer) project() float64 { return s.m.Weights["proj:same"] }
