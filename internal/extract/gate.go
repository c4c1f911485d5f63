package extract

import (
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// A gatedRe is a package regexp with a cheap test before it (issue 17: a
// 4 MB transcript in a second). The literals every match must hold, one
// of them at least, are read off the pattern's syntax on first use; a
// text that holds none of them, in any case, cannot match, and the
// regexp does not run. Its answers are the regexp's own.
type gatedRe struct {
	*lazyre.Regexp
	once       sync.Once
	*gateTests // built on first use: a hook's start-up pays for none
}

type gateTests struct {
	hints []string // lower case; nil: every text may match
	// starts lists strings one of which every match starts with, at the
	// text's start (a pattern anchored by ^), lower case; nil: no such.
	starts []string
	split  *splitMatcher
	// branches, when not nil, answer MatchString one top-level branch
	// each (gate_branch.go).
	branches []*branchGate
}

// gate wraps a package regexp; like lazyre.New it is for package-level
// variables only.
func gate(re *lazyre.Regexp) *gatedRe {
	gateMu.Lock() // a onceGate makes its gate on first use, from any goroutine
	defer gateMu.Unlock()
	if nGates == len(gatePool) {
		panic("extract: more gated patterns than gatePool holds; make it bigger")
	}
	g := &gatePool[nGates]
	nGates++
	g.Regexp = re
	return g
}

// gatePool holds every gatedRe in one static block rather than an
// allocation each at start-up: a hook is a new process per prompt, and the
// package's initialisers have a budget (startup_init.txtar, issue 13).
var gatePool [208]gatedRe

// nGates is how many of gatePool are in use.
var (
	nGates int
	gateMu sync.Mutex
)

// A onceGate is a gated pattern made on its first use rather than at
// start-up: a package-level onceGate{pattern: …} is laid out by the
// linker and allocates nothing before main (the initialisers' budget,
// startup_init.txtar), where gate(lazyre.New(…)) allocates a little.
type onceGate struct {
	pattern string
	once    sync.Once
	re      *gatedRe
}

// get makes the pattern's gate on first use and returns it.
func (o *onceGate) get() *gatedRe {
	o.once.Do(func() { o.re = gate(lazyre.New(o.pattern)) })
	return o.re
}

// allGates lists every gatedRe, for the test that holds them to their
// regexps.
func allGates() []*gatedRe {
	out := make([]*gatedRe, nGates)
	for i := range out {
		out[i] = &gatePool[i]
	}
	return out
}

// may reports whether s may hold a match.
func (g *gatedRe) may(s string) bool {
	g.init()
	if g.starts != nil && !foldHazard(s) && !startsWithOne(s, g.starts) {
		return false
	}
	if g.hints == nil {
		return true
	}
	return mayHold(s, g.hints)
}

func (g *gatedRe) init() {
	g.once.Do(func() {
		g.gateTests = &gateTests{
			hints:    requiredLiterals(g.String()),
			starts:   anchoredPrefixes(g.String()),
			split:    newSplitMatcher(g.String(), g.Re),
			branches: branchGates(g.String()),
		}
	})
}

// startsWithOne reports whether s, its ASCII letters lowered, starts with
// one of the lower-case prefixes.
func startsWithOne(s string, prefixes []string) bool {
	lower := lowerCached(s)
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(lower, p) })
}

// mayHold reports whether s holds one of the hints, in any case.
func mayHold(s string, hints []string) bool {
	t := textOf(s)
	if t.hazard {
		return true
	}
	for _, h := range hints {
		if t.contains(h) {
			return true
		}
	}
	return false
}

// whole returns the split matcher when it answers for the whole pattern
// on s; else nil.
func (g *gatedRe) whole(s string) *splitMatcher {
	g.init()
	if g.split == nil || g.split.rest != nil || foldHazard(s) {
		return nil
	}
	return g.split
}

// replaceAll is the regexp's ReplaceAllStringFunc for a whole split
// matcher.
func replaceAll(m *splitMatcher, src string, repl func(string) string) string {
	var b strings.Builder
	last := 0
	m.all(lowerCached(src), func(start, end int) {
		b.WriteString(src[last:start])
		b.WriteString(repl(src[start:end]))
		last = end
	})
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}

func (g *gatedRe) MatchString(s string) bool {
	g.init()
	if g.branches != nil && !foldHazard(s) {
		return slices.ContainsFunc(g.branches, func(b *branchGate) bool { return b.match(s) })
	}
	if g.split != nil && !foldHazard(s) {
		return g.split.matchString(s)
	}
	return g.may(s) && g.Regexp.MatchString(s)
}

func (g *gatedRe) FindString(s string) string {
	if !g.may(s) {
		return ""
	}
	return g.Regexp.FindString(s)
}

func (g *gatedRe) FindStringSubmatch(s string) []string {
	if !g.may(s) {
		return nil
	}
	return g.Regexp.FindStringSubmatch(s)
}

func (g *gatedRe) FindAllString(s string, n int) []string {
	if !g.may(s) {
		return nil
	}
	return g.Regexp.FindAllString(s, n)
}

func (g *gatedRe) FindAllStringIndex(s string, n int) [][]int {
	if m := g.whole(s); m != nil && n < 0 {
		var out [][]int
		m.all(lowerCached(s), func(start, end int) { out = append(out, []int{start, end}) })
		return out
	}
	if !g.may(s) {
		return nil
	}
	return g.Regexp.FindAllStringIndex(s, n)
}

func (g *gatedRe) FindAllStringSubmatch(s string, n int) [][]string {
	if !g.may(s) {
		return nil
	}
	return g.Regexp.FindAllStringSubmatch(s, n)
}

func (g *gatedRe) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !g.may(s) {
		return nil
	}
	return g.Regexp.FindAllStringSubmatchIndex(s, n)
}

func (g *gatedRe) ReplaceAllString(src, repl string) string {
	if m := g.whole(src); m != nil && !strings.Contains(repl, "$") {
		return replaceAll(m, src, func(string) string { return repl })
	}
	if !g.may(src) {
		return src
	}
	return g.Regexp.ReplaceAllString(src, repl)
}

func (g *gatedRe) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if m := g.whole(src); m != nil {
		return replaceAll(m, src, repl)
	}
	if !g.may(src) {
		return src
	}
	return g.Regexp.ReplaceAllStringFunc(src, repl)
}

// requiredLiterals returns lower-case strings one of which every match of
// pattern holds (folded as strings.ToLower folds), or nil when it finds no
// such set.
func requiredLiterals(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil // the regexp itself will say so
	}
	return hintsOf(re.Simplify())
}

// hintsOf is requiredLiterals of a parsed and simplified pattern.
func hintsOf(re *syntax.Regexp) []string {
	set := literalsOf(re).match
	if set == nil {
		return nil
	}
	// A hint that holds another is implied by it.
	slices.SortFunc(set, func(a, b string) int { return len(a) - len(b) })
	var out []string
	for _, s := range set {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.Contains(s, o) }) {
			out = append(out, s)
		}
	}
	return out
}

// anchoredPrefixes returns lower-case strings one of which every match
// of pattern starts with, when every match starts at the text's start;
// else nil.
func anchoredPrefixes(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	set, ok := anchored(re.Simplify())
	if !ok {
		return nil
	}
	// A prefix that starts with another is implied by it.
	slices.SortFunc(set, func(a, b string) int { return len(a) - len(b) })
	var out []string
	for _, s := range set {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.HasPrefix(s, o) }) {
			out = append(out, s)
		}
	}
	return out
}

func anchored(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture:
		return anchored(re.Sub[0])
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			s, ok := anchored(sub)
			if !ok {
				return nil, false
			}
			set = append(set, s...)
		}
		return set, true
	case syntax.OpConcat:
		if re.Sub[0].Op == syntax.OpBeginText {
			return prefixes(re.Sub[1:])
		}
		return anchored(re.Sub[0])
	}
	return nil, false
}

// prefixes returns strings one of which every match of the concatenation
// subs starts with.
func prefixes(subs []*syntax.Regexp) ([]string, bool) {
	for i, sub := range subs {
		switch sub.Op {
		case syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpBeginLine:
			continue // zero width
		case syntax.OpQuest, syntax.OpStar:
			a, ok := prefixes(sub.Sub)
			if !ok {
				return nil, false
			}
			b, ok := prefixes(subs[i+1:])
			if !ok {
				return nil, false
			}
			return append(a, b...), true
		case syntax.OpRepeat:
			if sub.Min == 0 {
				return nil, false
			}
		}
		return prefixOf(sub)
	}
	return nil, false
}

func prefixOf(re *syntax.Regexp) ([]string, bool) {
	if l := literalsOf(re); l.exact != nil && !slices.Contains(l.exact, "") {
		return l.exact, true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus, syntax.OpRepeat, syntax.OpConcat:
		return prefixes(re.Sub)
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			s, ok := prefixOf(sub)
			if !ok {
				return nil, false
			}
			set = append(set, s...)
		}
		return set, true
	}
	return nil, false
}

// literals is what a regexp tells of the text it matches: exact, when
// not nil, lists every string it can match (lower case); match, when not
// nil, lists strings one of which every match holds.
type literals struct {
	exact, match []string
}

// maxExact bounds an exact set, which a concatenation multiplies.
const maxExact = 64

func exactly(set []string) literals {
	l := literals{exact: set}
	if !slices.Contains(set, "") {
		l.match = set
	}
	return l
}

func literalsOf(re *syntax.Regexp) literals {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactly([]string{""})
	case syntax.OpLiteral:
		if lit, ok := foldLiteral(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return exactly([]string{lit})
		}
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(set) >= 8 {
					return literals{}
				}
				if r == 'ſ' || r == '\u212a' {
					continue // mayHold lets a text with these through
				}
				lr := string(r) // lowerASCII keeps it
				if r < utf8.RuneSelf {
					lr = string(unicode.ToLower(r))
				}
				if !slices.Contains(set, lr) {
					set = append(set, lr)
				}
			}
		}
		if len(set) > 0 {
			return exactly(set)
		}
	case syntax.OpCapture:
		return literalsOf(re.Sub[0])
	case syntax.OpQuest:
		if sub := literalsOf(re.Sub[0]); sub.exact != nil && len(sub.exact) < maxExact {
			set := slices.Clone(sub.exact)
			if !slices.Contains(set, "") {
				set = append(set, "")
			}
			return literals{exact: set}
		}
	case syntax.OpPlus:
		return literals{match: literalsOf(re.Sub[0]).match}
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literals{match: literalsOf(re.Sub[0]).match}
		}
	case syntax.OpAlternate:
		var l literals
		exact, match := true, true
		for _, sub := range re.Sub {
			s := literalsOf(sub)
			exact = exact && s.exact != nil && len(l.exact)+len(s.exact) <= maxExact
			match = match && s.match != nil
			if exact {
				l.exact = append(l.exact, s.exact...)
			}
			if match {
				l.match = append(l.match, s.match...)
			}
		}
		if !exact {
			l.exact = nil
		}
		if !match {
			l.match = nil
		}
		if exact && l.match == nil && !slices.Contains(l.exact, "") {
			l.match = l.exact
		}
		return l
	case syntax.OpConcat:
		return concatLiterals(re.Sub)
	}
	return literals{}
}

// concatLiterals multiplies the exact sets of neighbours while they stay
// small, and keeps the most telling set that every match must hold.
func concatLiterals(subs []*syntax.Regexp) literals {
	var best []string
	consider := func(set []string) {
		if set != nil && better(set, best) {
			best = set
		}
	}
	run := []string{""} // the exact strings of the children since the last break
	whole := true       // run covers every child so far
	for _, sub := range subs {
		s := literalsOf(sub)
		consider(s.match)
		if s.exact != nil && len(run)*len(s.exact) <= maxExact {
			var next []string
			for _, a := range run {
				for _, b := range s.exact {
					if ab := a + b; !slices.Contains(next, ab) {
						next = append(next, ab)
					}
				}
			}
			run = next
			continue
		}
		if !slices.Contains(run, "") {
			consider(run)
		}
		whole = false
		run = []string{""}
		if s.exact != nil {
			run = s.exact
		}
	}
	if !slices.Contains(run, "") {
		consider(run)
	}
	if whole {
		l := exactly(run)
		if l.match != nil {
			consider(l.match)
		}
		l.match = best
		return l
	}
	return literals{match: best}
}

// better reports whether set tells more than best: its shortest string
// is longer, or as long with fewer strings.
func better(set, best []string) bool {
	if slices.Contains(set, "") {
		return false
	}
	if best == nil {
		return true
	}
	short := func(s []string) int {
		m := len(s[0])
		for _, x := range s {
			m = min(m, len(x))
		}
		return m
	}
	a, b := short(set), short(best)
	return a > b || a == b && len(set) < len(best)
}

// foldLiteral is a literal as lowerASCII leaves a text that holds it:
// ASCII letters lowered, other runes as they are. It refuses a folded
// rune with other cases outside ASCII (the long s and the Kelvin sign
// aside, which mayHold lets through).
func foldLiteral(runes []rune, fold bool) (string, bool) {
	if len(runes) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, r := range runes {
		switch {
		case r < utf8.RuneSelf:
			b.WriteByte(byte(unicode.ToLower(r)))
		case r == utf8.RuneError || fold && unicode.SimpleFold(r) != r:
			return "", false
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), true
}
