package recall

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

var topkNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// eligibleTop is what TopGroups must return: SearchGroups' ranking, the
// documents selection's gate turns away left out, cut to k.
func eligibleTop(ix *Index, terms []string, groups []int, k int, threshold float64) []Scored {
	var out []Scored
	for _, s := range ix.SearchGroups(terms, groups) {
		if eligible(s, threshold) && len(out) < k {
			out = append(out, s)
		}
	}
	return out
}

// checkTop compares TopGroups with the exhaustive ranking, floats bit for
// bit.
func checkTop(t *testing.T, ix *Index, terms []string, groups []int, k int, threshold float64) {
	t.Helper()
	want := eligibleTop(ix, terms, groups, k, threshold)
	got := ix.TopGroups(terms, groups, k, threshold)
	if !slices.Equal(got, want) {
		t.Fatalf("TopGroups(%q, %v, k=%d, threshold=%v):\n got %+v\nwant %+v", terms, groups, k, threshold, got, want)
	}
}

// randomWords are a small vocabulary, so that documents share terms, with
// identifiers, so that prompts have words of several parts.
var randomWords = strings.Fields(`deploy friday freeze release cache loader payments retry backoff
	token session migrate index search query postgres redis docker test mock flaky ci pipeline
	parseConfig loadUser rate_limiter HTTPServer go make lint vet warn never always`)

// randomMemories makes n memories of random words; a few are copies of
// another, so that scores tie and the lower document must win.
func randomMemories(r *rand.Rand, n int) Memories {
	text := func(lo, hi int) string {
		ws := make([]string, lo+r.IntN(hi-lo+1))
		for i := range ws {
			ws[i] = randomWords[r.IntN(len(randomWords))]
		}
		return strings.Join(ws, " ")
	}
	types := []string{"feedback", "project", "reference", "user"}
	ms := make(Memories, n)
	for i := range ms {
		if i > 0 && r.IntN(8) == 0 {
			ms[i] = ms[r.IntN(i)]
		} else {
			ms[i] = Memory{Name: text(1, 4), Description: text(0, 8), Body: text(0, 40), Type: types[r.IntN(4)]}
		}
		ms[i].File = fmt.Sprintf("m%04d.md", i)
		ms[i].Saved = topkNow.Add(-time.Duration(r.IntN(400*24)) * time.Hour)
		if r.IntN(5) == 0 {
			ms[i].SupersededBy = fmt.Sprintf("m%04d.md", r.IntN(n))
		}
	}
	return ms
}

// snapshotIndex encodes ms as a snapshot and opens its index: the path a
// hook takes.
func snapshotIndex(t testing.TB, ms Memories) *Index {
	entries := make([]Entry, len(ms))
	for i, m := range ms {
		entries[i] = NewEntry(m, nil, int64(len(m.Body)), m.Saved.UnixNano())
	}
	snap, err := Open(Encode(entries, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return snap.DefaultIndex()
}

func randomPrompt(r *rand.Rand) string {
	ws := make([]string, 1+r.IntN(7))
	for i := range ws {
		if r.IntN(10) == 0 {
			ws[i] = "unknownword" // a part no memory holds
		} else {
			ws[i] = randomWords[r.IntN(len(randomWords))]
		}
	}
	return strings.Join(ws, " ")
}

func TestTopGroups_SameAsSearchGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for store := range 40 {
		ms := randomMemories(r, 1+r.IntN(400))
		for _, ix := range []*Index{snapshotIndex(t, ms), NewIndex(analyseAll(ms), DefaultParams)} {
			for range 40 {
				terms, groups := Default.Prompt(randomPrompt(r))
				k := 1 + r.IntN(30)
				threshold := []float64{0, 0.2, 0.4, 0.7, 1}[r.IntN(5)]
				checkTop(t, ix, terms, groups, k, threshold)
				checkTop(t, ix, terms, nil, k, threshold) // every term a word
			}
		}
		_ = store
	}
}

func analyseAll(ms Memories) []Doc {
	docs := make([]Doc, len(ms))
	for i, m := range ms {
		docs[i] = Analyse(m)
	}
	return docs
}

// TestTopGroups_Params: other BM25F parameters (LoCoMo's one field, no
// length normalisation) rank the same; parameters the bounds do not hold
// for fall back to the exhaustive ranking.
func TestTopGroups_Params(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2))
	ms := randomMemories(r, 300)
	docs := analyseAll(ms)
	for _, p := range []Params{
		{K1: 1.2, B: [NumFields]float64{0, 0, 0.75}, W: [NumFields]float64{0, 0, 1}},
		{K1: 2, B: [NumFields]float64{0, 0, 0}, W: [NumFields]float64{1, 1, 1}},
		{K1: 0.1, B: [NumFields]float64{1, 1, 1}, W: [NumFields]float64{5, 0, 0.5}},
		{K1: -1, B: [NumFields]float64{0.75, 0.75, 0.75}, W: [NumFields]float64{3, 2, 1}},
	} {
		ix := NewIndex(docs, p)
		for range 100 {
			terms, groups := Default.Prompt(randomPrompt(r))
			checkTop(t, ix, terms, groups, 1+r.IntN(20), 0.4)
		}
	}
}

// TestTopGroups_Generated checks realistic folders (memgen's) with
// memgen's prompts, relevant and unrelated, and prompts made of other
// memories' words.
func TestTopGroups_Generated(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 3_000
	}
	g := generated(t, n)
	ix := g.snap.DefaultIndex()
	r := rand.New(rand.NewPCG(13, 3))
	for i := range 200 {
		q := benchQueries(n, i%2 == 0)[i%64]
		if i%4 == 3 {
			m := g.ms[r.IntN(n)]
			q = m.Name + " " + strings.Join(strings.Fields(m.Body)[:3], " ")
		}
		terms, groups := Default.Prompt(q)
		for _, k := range []int{1, 5, 20, 80} {
			checkTop(t, ix, terms, groups, k, 0.4)
		}
	}
}

// policySource is a Source whose memories are superseded, excluded or
// over the budget often enough that selection must look beyond the first
// few eligible documents; it records what it was asked for.
type policySource struct {
	ms    Memories
	asked []memoKey
}

func (s *policySource) Memory(doc int, full bool) Memory {
	s.asked = append(s.asked, memoKey{doc, full})
	m := s.ms[doc]
	if !full {
		m.Body = ""
	}
	return m
}

// checkSelect compares SearchSelect with Select over the whole ranking:
// the kept candidates, whole, and the rendering. It says whether a kept
// memory lay beyond the first top-k SearchSelect asks for (a retry).
func checkSelect(t *testing.T, ix *Index, ms Memories, query string, p Policy) (retried bool) {
	t.Helper()
	terms, groups := Default.Prompt(query)
	fullSrc, topSrc := &policySource{ms: ms}, &policySource{ms: ms}
	all := Select(fullSrc, ix.SearchGroups(terms, groups), p, topkNow)
	got := SearchSelect(ix, topSrc, terms, groups, p, topkNow)
	keptOf := func(cs []Candidate) []Candidate {
		var out []Candidate
		for _, c := range cs {
			if c.Kept {
				out = append(out, c)
			}
		}
		return out
	}
	if w, g := keptOf(all), keptOf(got); !reflect.DeepEqual(g, w) {
		t.Fatalf("%q %+v: SearchSelect kept\n%+v\nwant\n%+v", query, p, g, w)
	}
	if w, g := Render(all), Render(got); g != w {
		t.Fatalf("%q %+v: SearchSelect renders\n%s\nwant\n%s", query, p, g, w)
	}
	// Each memory is read once, and those the full walk reads.
	slices.SortFunc(fullSrc.asked, func(a, b memoKey) int { return a.doc*2 + boolInt(a.full) - b.doc*2 - boolInt(b.full) })
	slices.SortFunc(topSrc.asked, func(a, b memoKey) int { return a.doc*2 + boolInt(a.full) - b.doc*2 - boolInt(b.full) })
	if !slices.Equal(topSrc.asked, fullSrc.asked) {
		t.Fatalf("%q %+v: SearchSelect read %v, want %v", query, p, topSrc.asked, fullSrc.asked)
	}
	k := cmpOrInt(p.K, DefaultPolicy.K)
	elig := eligibleTop(ix, terms, groups, ix.Len(), p.Threshold)
	for _, c := range keptOf(all) {
		if slices.IndexFunc(elig, func(s Scored) bool { return s.Doc == c.Doc }) >= 4*k {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOrInt(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

func randomPolicy(r *rand.Rand, ms Memories) Policy {
	p := Policy{K: r.IntN(8), Budget: []int{0, MinBudget(), 300, 700, 1500}[r.IntN(5)],
		Threshold: []float64{0, 0.2, 0.4, 0.7}[r.IntN(4)]}
	if r.IntN(3) == 0 {
		p.Tools = []string{randomWords[r.IntN(len(randomWords))], "go"}
	}
	for range r.IntN(3) * len(ms) / 10 {
		p.Exclude = append(p.Exclude, ms[r.IntN(len(ms))].File)
	}
	return p
}

func TestSearchSelect_SameAsSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 4))
	retries := 0
	for range 60 {
		ms := randomMemories(r, 1+r.IntN(300))
		ix := snapshotIndex(t, ms)
		for range 30 {
			if checkSelect(t, ix, ms, randomPrompt(r), randomPolicy(r, ms)) {
				retries++
			}
		}
	}
	if retries == 0 {
		t.Error("no case kept a memory beyond the first top-k: the retry is untested")
	}
	t.Logf("%d cases needed a retry", retries)
}

// TestSearchSelect_Generated: memgen's folder with a third of it
// superseded and a seventh already given, so selection skips many of the
// best documents.
func TestSearchSelect_Generated(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 3_000
	}
	g := generated(t, n)
	ms := slices.Clone(g.ms)
	var exclude []string
	for i := range ms {
		if i%3 == 0 {
			ms[i].SupersededBy = ms[(i+1)%n].File
		}
		if i%7 == 0 {
			exclude = append(exclude, ms[i].File)
		}
	}
	ix := g.snap.DefaultIndex()
	retries := 0
	for i := range 100 {
		p := DefaultPolicy
		switch i % 4 {
		case 1:
			p.Exclude = exclude
		case 2:
			p.Budget, p.Tools = 400, []string{"docker", "go", "make"}
		case 3:
			p.K, p.Threshold = 3, 0.7
		}
		if checkSelect(t, ix, ms, benchQueries(n, i%2 == 0)[i%64], p) {
			retries++
		}
	}
	t.Logf("%d cases needed a retry", retries)
}

// FuzzTopGroups: any prompt over a random folder ranks the same as the
// exhaustive search.
func FuzzTopGroups(f *testing.F) {
	f.Add(uint64(1), "deploy on friday? parseConfig cache", 5)
	f.Add(uint64(2), "HTTPServer rate_limiter loadUser loadUser", 1)
	f.Add(uint64(3), "", 3)
	f.Fuzz(func(t *testing.T, seed uint64, prompt string, k int) {
		r := rand.New(rand.NewPCG(seed, 5))
		ms := randomMemories(r, 1+r.IntN(200))
		ix := snapshotIndex(t, ms)
		terms, groups := Default.Prompt(prompt)
		checkTop(t, ix, terms, groups, k%50, 0.4)
	})
}

// TestIndex_LengthsInPlace: an index that reads the snapshot's length
// table in place ranks as the one that copies it.
func TestIndex_LengthsInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 6))
	ms := randomMemories(r, 300)
	entries := make([]Entry, len(ms))
	for i, m := range ms {
		entries[i] = NewEntry(m, nil, int64(len(m.Body)), m.Saved.UnixNano())
	}
	snap, err := Open(Encode(entries, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	inPlace := snap.Index(DefaultParams)
	if inPlace.lensLE == nil {
		t.Fatal("a snapshot of one segment copies its lengths")
	}
	copied := *inPlace
	copied.lensLE, copied.lens = nil, make([][NumFields]int32, copied.n)
	for d := range copied.lens {
		for f := range NumFields {
			copied.lens[d][f] = inPlace.docLen(int32(d), f)
		}
	}
	for range 200 {
		terms, groups := Default.Prompt(randomPrompt(r))
		if got, want := inPlace.SearchGroups(terms, groups), copied.SearchGroups(terms, groups); !slices.Equal(got, want) {
			t.Fatalf("%q: in place %+v, copied %+v", terms, got, want)
		}
		if got, want := inPlace.TopGroups(terms, groups, 5, 0.4), copied.TopGroups(terms, groups, 5, 0.4); !slices.Equal(got, want) {
			t.Fatalf("%q: in place %+v, copied %+v", terms, got, want)
		}
	}
}

// TestTopGroups_SameAsSearchGroups_Delta: on a snapshot with tombstones
// and a delta, whose postings are filtered and renumbered as they are
// decoded (into TopGroups' pooled buffer, after other terms'), the top k
// are still the exhaustive ranking's, and the exhaustive ranking is a
// fresh index's over the same live memories.
func TestTopGroups_SameAsSearchGroups_Delta(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	for range 20 {
		base := randomMemories(r, 2+r.IntN(300))
		added := randomMemories(r, 1+r.IntN(40))
		entries := func(ms Memories) []Entry {
			out := make([]Entry, len(ms))
			for i, m := range ms {
				out[i] = NewEntry(m, nil, int64(len(m.Body)), m.Saved.UnixNano())
			}
			return out
		}
		b := Encode(entries(base), 0, 0)
		bs, err := Open(b)
		if err != nil {
			t.Fatal(err)
		}
		var tombs []int
		var live Memories
		for i, m := range base {
			if r.IntN(4) == 0 {
				tombs = append(tombs, i)
				continue
			}
			live = append(live, m)
		}
		live = append(live, added...)
		snap, err := OpenSegments(b, EncodeDelta(bs.Header(), bs.Header(), tombs, entries(added)))
		if err != nil {
			t.Fatal(err)
		}
		ix, fresh := snap.DefaultIndex(), NewIndex(analyseAll(live), DefaultParams)
		for range 30 {
			terms, groups := Default.Prompt(randomPrompt(r))
			k := 1 + r.IntN(30)
			checkTop(t, ix, terms, groups, k, 0.4)
			if got, want := ix.SearchGroups(terms, groups), fresh.SearchGroups(terms, groups); !slices.Equal(got, want) {
				t.Fatalf("%q: the delta's ranking differs from a fresh index's:\n got %+v\nwant %+v", terms, got, want)
			}
		}
	}
}
