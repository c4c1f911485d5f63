package consolidate

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/recall"
)

// Thresholds of the pair decisions, on the Jaccard index of two memories'
// content stems (description and body).
const (
	mergeJaccard    = 0.5  // near-duplicates: merged when type and scope agree
	mergeContained  = 0.8  // or the shorter one's stems nearly all in the longer…
	mergeContainMin = 0.3  // …and this much overlap at least
	leftJaccard     = 0.3  // similar, undecided: left for a model
	sentenceTopic   = 0.25 // two sentences about the same thing, for a contradiction
)

// pair is two memories worth comparing: a older than b.
type pair struct {
	a, b    int
	jaccard float64
	contain float64
	contra  string   // how b contradicts a, or ""
	quotes  []string // the sentences that decided it
}

// candidatePairs blocks the all-pairs comparison: only memories sharing
// two rare stems (each in at most max(20, n/20) memories) are compared,
// and those where one reports a move away from a stem the other holds.
func (p *planner) candidatePairs() [][2]int {
	n := len(p.items)
	df := map[string][]int{}
	for i, it := range p.items {
		for t := range it.terms {
			df[t] = append(df[t], i)
		}
	}
	limit := max(20, n/20)
	shared := map[[2]int]int{}
	for _, ids := range df {
		if len(ids) < 2 || len(ids) > limit {
			continue
		}
		for x := 0; x < len(ids); x++ {
			for y := x + 1; y < len(ids); y++ {
				shared[[2]int{min(ids[x], ids[y]), max(ids[x], ids[y])}]++
			}
		}
	}
	for i, it := range p.items {
		for _, mv := range it.moves {
			for _, j := range df[mv[0]] {
				if j != i {
					shared[[2]int{min(i, j), max(i, j)}] += 2
				}
			}
		}
	}
	var out [][2]int
	for k, c := range shared {
		if c >= 2 || n <= limit {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

// older orders two items by created, then updated, then file: the first is
// the older.
func (p *planner) older(i, j int) bool {
	a, b := p.items[i], p.items[j]
	if !a.Created.Equal(b.Created) {
		return a.Created.Before(b.Created)
	}
	if !a.Updated.Equal(b.Updated) {
		return a.Updated.Before(b.Updated)
	}
	return a.File < b.File
}

// pairs plans supersede and merge operations, and leaves what it cannot
// decide for a model.
func (p *planner) pairs() {
	var sup, near []pair
	for _, ij := range p.candidatePairs() {
		i, j := ij[0], ij[1]
		if !p.older(i, j) {
			i, j = j, i
		}
		a, b := p.items[i], p.items[j]
		if a.SupersededBy != "" || b.SupersededBy != "" || p.retired[a.File] || p.retired[b.File] {
			continue
		}
		pr := pair{a: i, b: j, jaccard: overlapOf(a.terms, b.terms), contain: containment(a.terms, b.terms)}
		pr.contra, pr.quotes = contradiction(a, b)
		switch {
		case pr.contra != "":
			sup = append(sup, pr)
		case pr.jaccard >= leftJaccard || pr.contain >= mergeContained && pr.jaccard >= mergeContainMin:
			near = append(near, pr)
		}
	}
	p.supersede(sup)
	p.merge(near)
}

// supersede plans the strongest contradicting pairs first; a memory is
// superseded once.
func (p *planner) supersede(prs []pair) {
	slices.SortStableFunc(prs, func(x, y pair) int { return cmp.Compare(y.jaccard, x.jaccard) })
	for _, pr := range prs {
		a, b := p.items[pr.a], p.items[pr.b]
		if p.retired[a.File] || p.retired[b.File] {
			continue
		}
		files := []string{b.File, a.File}
		if a.Pinned {
			p.left = append(p.left, Candidate{Kind: Supersede, Files: files,
				Why: fmt.Sprintf("%s is newer and %s, but the older %s is pinned: a pinned memory is never retired without a person or a model", b.File, pr.contra, a.File)})
			continue
		}
		if p.edited[a.File] {
			continue
		}
		p.add(Op{Kind: Supersede, Files: files, Keep: b.File, Retire: []string{a.File}, Lossless: true,
			Reason: fmt.Sprintf("%s (created %s) contradicts the older %s (created %s): %s; the newer wins and the older stays as history.",
				b.File, day(b.Created), a.File, day(a.Created), pr.contra),
			Evidence: pr.quotes})
	}
}

// overlapOf is the Jaccard index of two stem sets.
func overlapOf(a, b map[string]bool) float64 {
	inter := intersection(a, b)
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// containment is the share of the smaller stem set found in the larger.
func containment(a, b map[string]bool) float64 {
	m := min(len(a), len(b))
	if m == 0 {
		return 0
	}
	return float64(intersection(a, b)) / float64(m)
}

func intersection(a, b map[string]bool) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// contradiction says how the newer memory b contradicts the older a, with
// the two sentences that show it, or "": a move ("moved from X to Y", "Y
// instead of X", "no longer uses X") away from what a states, or two
// sentences about the same thing that disagree (extract.Contradiction:
// opposite polarity, a reversed choice).
func contradiction(a, b item) (string, []string) {
	for _, mv := range b.moves {
		from, to := mv[0], mv[1]
		if from == to || !a.terms[from] || to != "" && a.terms[to] {
			continue
		}
		for _, o := range a.sents {
			if o.terms[from] {
				why := fmt.Sprintf("it moved from %s to %s", mv[2], mv[3])
				if to == "" {
					why = "it no longer uses " + mv[2]
				}
				return why, []string{quote(o.text), quote(mv[4])}
			}
		}
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			if overlapOf(o.terms, s.terms) < sentenceTopic {
				continue
			}
			why := extract.Contradiction(o.text, s.text)
			if why == "" || why == "only one of them is a negation" {
				continue
			}
			if !strings.HasPrefix(why, "it reverses") {
				why = polarityWhy(o.text, s.text) // extract names one word of several, at random
			}
			return why, []string{quote(o.text), quote(s.text)}
		}
	}
	return "", nil
}

// polarityWhy says, naming the first word in order, what the newer
// sentence negates that the older affirms, or the other way round.
func polarityWhy(old, new string) string {
	on, oa := polarity(old)
	nn, na := polarity(new)
	for _, w := range slices.Sorted(maps.Keys(on)) {
		if na[w] {
			return "it affirms " + w + ", which the older one negates"
		}
	}
	for _, w := range slices.Sorted(maps.Keys(nn)) {
		if oa[w] {
			return "it negates " + w + ", which the older one affirms"
		}
	}
	return "they disagree"
}

// polarity splits a sentence's stems into those a negation governs (the
// two words after not, never, don't, no, avoid, stop, without), as
// extract reads them, and the rest.
func polarity(s string) (negated, affirmed map[string]bool) {
	negated, affirmed = map[string]bool{}, map[string]bool{}
	left := 0
	for _, w := range recall.Tokenize(s) {
		switch w {
		case "not", "never", "don", "no", "stop", "avoid", "without", "t":
			left = 2
			continue
		}
		t := recall.Default.Terms(w, nil)
		if len(t) == 0 {
			continue
		}
		if left > 0 {
			negated[t[0]] = true
			left--
		} else {
			affirmed[t[0]] = true
		}
	}
	return negated, affirmed
}

var (
	reMove = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:moved|migrated|switched|changed|moving|migrating|switching|went|upgraded|upgrading|ported|porting)\s+(?:\w+\s+){0,2}?from\s+([\w.+#-]+)\s+(?:\w+\s+)?to\s+([\w.+#-]+)`)
	})
	reReplaced = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\breplac(?:ed|ing)\s+([\w.+#-]+)\s+with\s+([\w.+#-]+)`)
	})
	reInstead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([\w.+#-]+)\s+(?:instead of|rather than|over)\s+([\w.+#-]+)`)
	})
	reNoLonger = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bno longer\s+(?:use[sd]?|using|run[s]?|on|in)\s+([\w.+#-]+)`)
	})
)

// moves lists the (from, to) changes a sentence reports: "moved from X to
// Y", "replaced X with Y", "Y instead of X", "no longer uses X" (to "").
func moves(s string) [][2]string {
	var out [][2]string
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "from") && !strings.Contains(lower, "replac") && !strings.Contains(lower, "instead") &&
		!strings.Contains(lower, "rather") && !strings.Contains(lower, "over") && !strings.Contains(lower, "no longer") {
		return nil
	}
	for _, m := range reMove().FindAllStringSubmatch(s, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	for _, m := range reReplaced().FindAllStringSubmatch(s, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	for _, m := range reInstead().FindAllStringSubmatch(s, -1) {
		out = append(out, [2]string{m[2], m[1]})
	}
	for _, m := range reNoLonger().FindAllStringSubmatch(s, -1) {
		out = append(out, [2]string{m[1], ""})
	}
	return out
}

// stem is the first stem of a word (of a tool's name, "Fly.io", its first
// part), or "" when it has none (a stop word).
func stem(w string) string {
	t := recall.Default.Terms(strings.Trim(w, ".,;:"), nil)
	if len(t) == 0 {
		return ""
	}
	return t[0]
}
