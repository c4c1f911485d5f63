package consolidate

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lexicon"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/textclf"
)

// The caps the heuristic engine keeps to (Claude Code's own).
const (
	maxDescription = 150    // runes of an index hook
	maxIndexLines  = 200    // lines of MEMORY.md loaded
	maxIndexChars  = 25_000 // characters of MEMORY.md loaded
	maxEvidence    = 160    // runes of one quoted line of evidence
	unusedDays     = 90     // days without use before prune considers a memory
	neverUsedDays  = 180    // days a memory never injected is kept before prune proposes it, whatever it says
)

// Heuristic plans what can be decided without a model: near-duplicates of
// one type and scope merged, contradicting pairs superseded by the newer,
// relative dates made absolute, ended project facts expired, long-unused
// or long-superseded memories pruned, hooks and the index shortened. What
// it finds similar but cannot decide it leaves for a model.
//
// A memory is retired by one operation at most, and edited by one at most:
// retiring operations are planned first (prune, expire, supersede, merge),
// and a date rewrite of a memory a merge keeps is folded into the merge.
func Heuristic(in Input) Plan { return HeuristicWith(in, nil) }

// HeuristicWith is Heuristic with another sameness model (nil: the
// embedded one), for training and measuring it.
func HeuristicWith(in Input, model *textclf.Model) Plan {
	p := newPlanner(in, model)
	p.computeDates()
	p.expire()
	p.pairs()
	p.prune()
	p.dates()
	p.shortenDescriptions()
	p.shortenIndex()
	return p.plan()
}

// plan is what the planner decided, in a stable order. A merge's text
// takes in the date rewrite of the memory it keeps after it was planned:
// each op is validated again as it now stands.
func (p *planner) plan() Plan {
	p.ops = slices.DeleteFunc(p.ops, p.refused)
	slices.SortFunc(p.ops, func(a, b Op) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(p.left, func(a, b Candidate) int {
		switch {
		case a.scored != b.scored:
			if b.scored {
				return -1
			}
			return 1
		case a.odds != b.odds:
			return cmp.Compare(b.odds, a.odds)
		}
		return strings.Compare(opID(a.Kind, a.Files), opID(b.Kind, b.Files))
	})
	return Plan{Ops: p.ops, LeftForModel: p.left}
}

// planner holds what the heuristic engine has read of its input and what
// it has planned so far.
type planner struct {
	in        Input
	items     []item
	byFile    map[string]int
	idf       map[string]float64 // of each stem, over the folder: rare stems weigh more
	retired   map[string]bool    // retired by an op already
	edited    map[string]bool    // kept by an op already: one op per memory
	ops       []Op
	shortened map[string]bool // files whose description a shorten op cuts
	left      []Candidate
	model     *textclf.Model     // sameness: are two memories one
	itemMap   map[string]Item    // by file, for validating an op before it is added
	same      map[[2]int]float64 // the sameness of each pair weighed, lower index first
	facets    []*facets          // per memory, what sameness reads, made on first use
}

// item is an Item with what the planner reads from it once.
type item struct {
	Item
	terms map[string]bool // content stems of name, description and body
	dated string          // body with relative dates made absolute; "" when none
	sents []sentence      // of description and body
	moves []move          // changes it reports
	owns  []owned         // who it says owns what
	subj  map[string]bool // what its name says it is about (subject)
	ideas map[string]bool // the lexicon's concepts it names
	grams map[string]bool // pairs of content stems in a row
	// Asked of every pair, so read once: whether its name or description
	// states an exception or an override (narrowsOf), whether its
	// description or body does (exceptText), and its words as nameWords
	// reads them, name included.
	narrow, exceptText bool
	words              map[string]bool
	excepts            bool // reException in description or body
	// routine: it tells of something that comes back ("every timetable
	// change, the roster freezes 14 days before"); instance: a project
	// fact on a day written out, which no routine is.
	routine, instance bool
	vals              map[string]bool // the values of name, description and body
}

// move is a change a sentence reports: "moved from X to Y", "X was
// retired" (to "").
type move struct {
	from, to         string // stemmed
	fromText, toText string // as written
	sentence         string
	ofSeveral        bool // from is one stem of a name of several words
	weak             bool // said so that it counts only between memories on one topic
	rule             bool // a rule dropped: its word need not be rare
	slug             bool // from is a channel's or a slug's whole name ("hl-deploys"), found as written
}

// sentence is one sentence of a memory and its content stems.
type sentence struct {
	text     string
	terms    map[string]bool
	neg, aff map[string]bool // stems a negation governs, and the others
}

func newPlanner(in Input, model *textclf.Model) *planner {
	if model == nil {
		model = sameness()
	}
	p := &planner{in: in, model: model, same: map[[2]int]float64{}, facets: make([]*facets, len(in.Items)), byFile: map[string]int{}, retired: map[string]bool{}, edited: map[string]bool{}, shortened: map[string]bool{}}
	for i, it := range in.Items {
		x := item{Item: it, terms: termSet(it.Name + "\n" + it.Description + "\n" + it.Body), ideas: map[string]bool{}}
		x.grams = bigrams(it.Description + "\n" + it.Body)
		x.narrow, x.exceptText = narrowsOf(it), reNarrows().MatchString(it.Description+"\n"+it.Body)
		x.words = nameWords(it.Name + " " + it.Description + " " + it.Body)
		x.excepts = reException().MatchString(it.Description + "\n" + it.Body)
		x.vals = values(it.Name + " " + it.Description + " " + it.Body)
		cs, _ := lexicon.Concepts(it.Name + "\n" + it.Description + "\n" + it.Body)
		for _, c := range cs {
			x.ideas[c] = true
		}
		for _, s := range sentences(it.Description + "\n\n" + it.Body) {
			s = unlabelled(s)
			neg, aff := polarity(s)
			x.sents = append(x.sents, sentence{text: s, terms: termSet(s), neg: neg, aff: aff})
			for _, mv := range moves(s) {
				// "ONNX Runtime Mobile was backed out": each stem of a name of
				// several words may be the one the older memory holds.
				if slug := slugOf(mv.from); slug != "" {
					// "#hl-deploys has been archived": one name, not its stems.
					x.moves = append(x.moves, move{from: slug, to: stem(mv.to), fromText: mv.from, toText: mv.to, sentence: s, weak: mv.weak, slug: true})
					continue
				}
				froms := termSet(mv.from)
				for _, from := range slices.Sorted(maps.Keys(froms)) {
					x.moves = append(x.moves, move{from: from, to: stem(mv.to), fromText: mv.from, toText: mv.to, sentence: s, ofSeveral: len(froms) > 1, weak: mv.weak, rule: mv.rule})
				}
			}
		}
		x.owns = owners(x)
		x.subj = subjectOf(x)
		x.routine = recurs(it.Description) // what it is, not an aside ("daily agenda in the offsite doc")
		x.instance = !x.routine && it.Type == "project" && isoDate.MatchString(it.Description+"\n"+it.Body)
		p.items = append(p.items, x)
		p.byFile[it.File] = i
		if it.ReadOnly {
			p.edited[it.File] = true // never changed here: only a merge or supersede may keep it
		}
	}
	df := map[string]int{}
	for _, x := range p.items {
		for t := range x.terms {
			df[t]++
		}
	}
	p.idf = make(map[string]float64, len(df))
	for t, n := range df {
		p.idf[t] = math.Log(float64(len(p.items)+1) / float64(n))
	}
	for i := range p.items {
		x := &p.items[i]
		// A common word of a name of several words is no name, unless a
		// rule is dropped and the memory's own name holds it: then only an
		// older memory naming it too is read (contradiction).
		name := termSet(x.Name)
		x.moves = slices.DeleteFunc(x.moves, func(mv move) bool { return mv.ofSeveral && !p.rare(mv.from) && !(mv.rule && name[mv.from]) })
	}
	return p
}

// add records an op, its ID derived from its kind and files. An op the
// validator would refuse (a merge whose text turns a fact around) is left
// for a model or a person instead, with the validator's reason: one such
// op must not make the whole plan fail.
func (p *planner) add(op Op) {
	op.ID = opID(op.Kind, op.Files)
	if p.refused(op) {
		return
	}
	for _, f := range op.Retire {
		p.retired[f] = true
	}
	if op.Keep != "" {
		p.edited[op.Keep] = true
	}
	p.ops = append(p.ops, op)
}

// refused validates one op as Validate would, and when it fails leaves
// it for a model or a person with the validator's reason.
func (p *planner) refused(op Op) bool {
	if p.itemMap == nil {
		p.itemMap = make(map[string]Item, len(p.items))
		for _, it := range p.items {
			p.itemMap[it.File] = it.Item
		}
	}
	err := validateOp(p.in, p.itemMap, op, func(format string, a ...any) error { return fmt.Errorf(format, a...) })
	if err != nil {
		p.left = append(p.left, Candidate{Kind: op.Kind, Files: op.Files,
			Why: fmt.Sprintf("planned, but %v: for a model or a person to write", err)})
	}
	return err != nil
}

// free reports whether a file is neither retired nor edited by an op yet.
func (p *planner) free(file string) bool { return !p.retired[file] && !p.edited[file] }

// opID is an operation's stable ID: its kind and its files, sorted.
func opID(k Kind, files []string) string {
	fs := slices.Sorted(slices.Values(files))
	return string(k) + ":" + strings.Join(fs, "+")
}

// termSet is the set of content stems of s, as recall reads them.
func termSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range recall.Default.Terms(s, nil) {
		m[t] = true
	}
	return m
}

// quote cuts a line of evidence to maxEvidence runes, on a word boundary.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxEvidence {
		return s
	}
	r := []rune(s)[:maxEvidence-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > maxEvidence/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// day formats a time as a date.
func day(t time.Time) string { return t.Format(time.DateOnly) }

// sentences splits text into its sentences: lines, and within a line the
// parts ended by ". ", "! ", "? " or "; ". Markdown list marks and headings
// are left out of the sentence; empty ones are dropped.
func sentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "-*+#> ")
		if line == "" {
			continue
		}
		start := 0
		for i := 0; i < len(line)-1; i++ {
			switch line[i] {
			case '.', '!', '?', ';':
				if line[i+1] == ' ' && !abbreviation(line[start:i]) {
					if s := strings.TrimSpace(line[start : i+1]); s != "" {
						out = append(out, s)
					}
					start = i + 1
				}
			}
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// unwrapped joins the lines of a hard-wrapped paragraph: a line that ends
// mid-sentence and a next that goes on in lower case ("… for the next
// two\nsprints (we run …"). List items, headings and quotes keep their
// lines.
func unwrapped(text string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	out := lines[:1:1]
	for _, l := range lines[1:] {
		prev := strings.TrimRight(out[len(out)-1], " ")
		t := strings.TrimLeft(l, " ")
		if prev != "" && t != "" && (t[0] >= 'a' && t[0] <= 'z' || endsOnFunctionWord(prev)) && !strings.ContainsRune(".!?;:", rune(prev[len(prev)-1])) && !strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, "* ") {
			out[len(out)-1] = prev + " " + t
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// endsOnFunctionWord reports a line that stops on a word no sentence ends
// with: "… (the" goes on in the next line whatever its case.
func endsOnFunctionWord(line string) bool {
	i := strings.LastIndexByte(line, ' ')
	switch strings.ToLower(strings.TrimLeft(line[i+1:], "(")) {
	case "the", "a", "an", "of", "to", "in", "on", "at", "for", "with", "and", "or", "by", "from", "is", "are", "was", "our", "your", "their", "its":
		return true
	}
	return false
}

// slugOf is a move's from when it is one name written with dashes or
// underscores, or a channel ("#hl-deploys", "pfl-rewards"), lower-cased
// and without its '#'; "" otherwise.
func slugOf(from string) string {
	f := strings.ToLower(strings.Trim(from, "`'\"()"))
	if strings.ContainsAny(f, " \t") || !strings.ContainsAny(f, "-_") {
		return ""
	}
	f = strings.TrimLeft(f, "#@")
	if len(f) < 4 || strings.Trim(f, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != "" {
		return ""
	}
	return f
}

// mentionsSlug reports whether text names slug as a whole word.
func mentionsSlug(text, slug string) bool {
	l := strings.ToLower(text)
	for i := strings.Index(l, slug); i >= 0; {
		end := i + len(slug)
		before, after := i == 0 || !slugRune(l[i-1]), end == len(l) || !slugRune(l[end])
		if before && after {
			return true
		}
		j := strings.Index(l[i+1:], slug)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func slugRune(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// unlabelled is a sentence less the label Claude Code opens a feedback
// memory's lines with ("**Why:**", "**How to apply:**"): words every such
// memory shares, which say nothing of what it is about.
func unlabelled(s string) string {
	t := strings.TrimLeft(s, "*_ ")
	for _, l := range []string{"why:", "how to apply:"} {
		if len(t) >= len(l) && strings.EqualFold(t[:len(l)], l) {
			return strings.TrimSpace(strings.TrimLeft(t[len(l):], "*_ "))
		}
	}
	return s
}

// abbreviation reports whether text before a full stop ends in one that
// does not end a sentence ("e.g", "i.e", "etc", "vs").
func abbreviation(before string) bool {
	lower := strings.ToLower(before)
	for _, a := range []string{"e.g", "i.e", "etc", "vs", "cf"} {
		if strings.HasSuffix(lower, a) {
			return true
		}
	}
	return false
}

// covered is the share of the content stems of sentence s found in terms:
// how much of a fact a text still states.
func covered(s string, terms map[string]bool) float64 {
	ts := termSet(s)
	if len(ts) == 0 {
		return 1
	}
	n := 0
	for t := range ts {
		if terms[t] {
			n++
		}
	}
	return float64(n) / float64(len(ts))
}

// factKept is the share of a fact's stems a merged text must hold.
const factKept = 0.8
