package extract

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// This file answers MatchString for the branches of a case-insensitive
// pattern that are a finite set of strings ("(?i)\b(?:deadline|due
// (?:on|by)|…)\b"): the text, its ASCII letters lowered, is searched for
// each string with strings.Index, and the word boundaries and anchors
// around it are checked by hand. The other branches stay one regexp.
// Go's regexp tries such a pattern at every position of the text, which
// costs tens of microseconds a sentence (issue 17).

// Zero-width assertions inside a marked string.
const (
	markWord    = '\x01' // \b
	markNotWord = '\x02' // \B
	markBegin   = '\x03' // \A, ^ without (?m)
	markEnd     = '\x04' // \z, $ without (?m)
	markBOL     = '\x05' // ^ with (?m)
	markEOL     = '\x06' // $ with (?m)
	// Tokens that consume: one digit, and greedy runs (one or more) of
	// digits and of \s.
	markDigit  = '\x0e'
	markDigits = '\x0f'
	markSpaces = '\x10'
)

// maxBranches bounds the marked strings of a pattern.
const maxBranches = 512

// splitMatcher is a pattern's MatchString as marked strings and, when no
// marked string matches, the pattern's regexp behind the rest's hints.
type splitMatcher struct {
	marked []string
	// prefix[i] is the bytes marked[i] starts with, to rule it out fast.
	prefix []string
	// The marked strings by the bytes they may start with: those marked
	// to start a word, and the others; each list in marked's order.
	atWord, lead [256][]int32
	// rest is the whole pattern's regexp, or nil when every branch is
	// marked. Where no marked string matches, it answers as the rest of the
	// branches would: compiling the rest of its own meant printing it, and
	// printing a case-folded class repeated 40 times took 150 ms (calcFlags
	// folds every rune of a wide class) in every process's first extraction.
	rest  func() *regexp.Regexp
	hints []string // the rest's, as gatedRe's
}

// newSplitMatcher splits pattern, whose compiled regexp whole returns, or
// returns nil when no branch is a finite set of strings.
func newSplitMatcher(pattern string, whole func() *regexp.Regexp) *splitMatcher {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	bs := branchesOf(re)
	m := &splitMatcher{}
	var rest []*syntax.Regexp
	for _, b := range bs {
		if b.re != nil {
			rest = append(rest, b.re)
			continue
		}
		if !consumes(b.marked) || !greedyIsSafe(b.marked) {
			return nil // an empty match, or a run the regexp might cut short
		}
		m.marked = append(m.marked, b.marked)
	}
	if len(m.marked) == 0 {
		return nil
	}
	for i, mk := range m.marked {
		k := 0
		for k < len(mk) && isMark(mk[k]) {
			k++
		}
		j := k
		for j < len(mk) && mk[j] >= ' ' || j < len(mk) && (mk[j] == '\t' || mk[j] == '\n' || mk[j] == '\f' || mk[j] == '\r') {
			j++
		}
		m.prefix = append(m.prefix, mk[k:j])
		for _, c := range tokenBytes(mk[k]) {
			if mk[0] == markWord && wordAt(mk, k) || mk[0] == markWord && (mk[k] == markDigit || mk[k] == markDigits) {
				m.atWord[c] = append(m.atWord[c], int32(i))
			} else {
				m.lead[c] = append(m.lead[c], int32(i))
			}
		}
	}
	if len(rest) > 0 {
		alt := &syntax.Regexp{Op: syntax.OpAlternate, Sub: rest}
		if len(rest) == 1 {
			alt = rest[0]
		}
		m.rest, m.hints = whole, hintsOf(alt)
	}
	return m
}

// matchString is the pattern's MatchString on s, which holds neither
// the long s nor the Kelvin sign.
func (m *splitMatcher) matchString(s string) bool {
	t := textOf(s)
	lower := t.lower
	if !slices.ContainsFunc(m.prefix, t.mayContain) {
		lower = "" // no marked string can start anywhere
	}
	for p := 0; p < len(lower); p++ {
		if c := lower[p]; len(m.lead[c]) == 0 && len(m.atWord[c]) == 0 {
			continue // most bytes start none of the strings
		}
		if _, ok := m.at(lower, p); ok {
			return true
		}
	}
	if m.rest == nil {
		return false
	}
	if m.hints != nil && !mayHold(s, m.hints) {
		return false
	}
	return m.rest().MatchString(s)
}

// at returns the end of the first marked string, in marked's order, that
// matches lower at p: the regexp's leftmost-first choice there.
func (m *splitMatcher) at(lower string, p int) (end int, ok bool) {
	c := lower[p]
	best := len(m.marked)
	for _, i := range m.lead[c] {
		if !strings.HasPrefix(lower[p:], m.prefix[i]) {
			continue
		}
		if e, ok := matchMarked(lower, p, m.marked[i]); ok {
			best, end = int(i), e
			break
		}
	}
	if !wordAt(lower, p-1) {
		for _, i := range m.atWord[c] {
			if int(i) >= best {
				break
			}
			if !strings.HasPrefix(lower[p:], m.prefix[i]) {
				continue
			}
			if e, ok := matchMarked(lower, p, m.marked[i]); ok {
				best, end = int(i), e
				break
			}
		}
	}
	return end, best < len(m.marked)
}

// all calls f with each match of the pattern in lower, leftmost first,
// as the regexp's FindAll finds them (none is empty).
func (m *splitMatcher) all(lower string, f func(start, end int)) {
	for p := 0; p < len(lower); {
		if c := lower[p]; len(m.lead[c]) == 0 && len(m.atWord[c]) == 0 {
			p++
			continue
		}
		if end, ok := m.at(lower, p); ok {
			f(p, end)
			p = end
			continue
		}
		p++
	}
}

// matchMarked reports whether marked matches lower at p, and where it
// ends: its bytes and runs as they come, its assertions at their places.
func matchMarked(lower string, p int, marked string) (int, bool) {
	for k := 0; k < len(marked); k++ {
		c := marked[k]
		ok := true
		switch c {
		case markWord:
			ok = wordAt(lower, p-1) != wordAt(lower, p)
		case markNotWord:
			ok = wordAt(lower, p-1) == wordAt(lower, p)
		case markBegin:
			ok = p == 0
		case markEnd:
			ok = p == len(lower)
		case markBOL:
			ok = p == 0 || lower[p-1] == '\n'
		case markEOL:
			ok = p == len(lower) || lower[p] == '\n'
		case markDigit:
			ok = p < len(lower) && isDigit(lower[p])
			p++
		case markDigits, markSpaces:
			in := isDigit
			if c == markSpaces {
				in = isSpace
			}
			ok = p < len(lower) && in(lower[p])
			for p < len(lower) && in(lower[p]) {
				p++
			}
		default:
			ok = p < len(lower) && lower[p] == c
			p++
		}
		if !ok {
			return 0, false
		}
	}
	return p, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isMark reports an assertion, which consumes nothing.
func isMark(c byte) bool { return markWord <= c && c <= markEOL }

func consumes(marked string) bool {
	for i := 0; i < len(marked); i++ {
		if !isMark(marked[i]) {
			return true
		}
	}
	return false
}

// tokenBytes lists the bytes a token may match first.
func tokenBytes(c byte) []byte {
	switch c {
	case markDigit, markDigits:
		return []byte("0123456789")
	case markSpaces:
		return []byte(" \t\n\f\r")
	}
	return []byte{c}
}

// greedyIsSafe reports whether each run in marked is followed by what
// none of its bytes can match: a byte outside its class, or the end with
// at most \b and \z between, so the longest run is the only one that can
// lead to a match, as a backtracking regexp would find.
func greedyIsSafe(marked string) bool {
	for k := 0; k < len(marked); k++ {
		c := marked[k]
		if c != markDigits && c != markSpaces {
			continue
		}
		j := k + 1
		for j < len(marked) && (marked[j] == markWord || marked[j] == markEnd) {
			j++
		}
		if j == len(marked) {
			continue
		}
		if isMark(marked[j]) {
			return false
		}
		for _, b := range tokenBytes(marked[j]) {
			for _, x := range tokenBytes(c) {
				if b == x {
					return false
				}
			}
		}
	}
	return true
}

// wordAt reports whether the byte at i is an ASCII word character, as
// \b reads them; a byte of a multi-byte rune never is.
func wordAt(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// lowerASCII lowers the ASCII letters of s and keeps every other byte.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// lowerCached is lowerASCII(s), kept for the next call: the gates of one
// sentence's patterns lower the same text one after the other.
func lowerCached(s string) string { return textOf(s).lower }

// text is what the gates read of one text, once: its ASCII letters
// lowered, whether it holds a rune that folds to an ASCII letter, and the
// pairs of bytes it holds, as bits: a string with a pair the text lacks
// is not in it, which rules out most hints without a search.
type text struct {
	s, lower string
	hazard   bool
	pairs    [pairBits / 64]uint64
}

const pairBits = 1024

func pairBit(a, b byte) uint { return (uint(a)*167 + uint(b)) % pairBits }

// mayContain reports whether t may hold sub; false is sure.
func (t *text) mayContain(sub string) bool {
	for i := 0; i+1 < len(sub); i++ {
		if k := pairBit(sub[i], sub[i+1]); t.pairs[k/64]&(1<<(k%64)) == 0 {
			return false
		}
	}
	return true
}

// contains is strings.Contains(t.lower, sub) for a lower-case sub.
func (t *text) contains(sub string) bool {
	return t.mayContain(sub) && strings.Contains(t.lower, sub)
}

func textOf(s string) *text {
	if c := lastText.Load(); c != nil && c.s == s {
		return c
	}
	t := &text{s: s, lower: lowerASCII(s)}
	t.hazard = strings.Contains(s, "ſ") || strings.Contains(s, "\u212a")
	for i := 0; i+1 < len(t.lower); i++ {
		k := pairBit(t.lower[i], t.lower[i+1])
		t.pairs[k/64] |= 1 << (k % 64)
	}
	lastText.Store(t)
	return t
}

var lastText atomic.Pointer[text]

// foldHazard reports whether s holds a rune that (?i) matches to an ASCII
// letter: the long s and the Kelvin sign.
func foldHazard(s string) bool { return textOf(s).hazard }

// branch is a marked string or, when re is not nil, a regexp.
type branch struct {
	marked string
	re     *syntax.Regexp
}

// branchesOf lists the alternatives of re: each a finite set of strings,
// or a regexp.
func branchesOf(re *syntax.Regexp) []branch {
	whole := []branch{{re: re}}
	switch re.Op {
	case syntax.OpCapture:
		return branchesOf(re.Sub[0])
	case syntax.OpAlternate:
		var out []branch
		for _, sub := range re.Sub {
			out = append(out, branchesOf(sub)...)
		}
		if countMarked(out) > maxBranches {
			return whole
		}
		return out
	case syntax.OpQuest:
		sub := branchesOf(re.Sub[0])
		if countMarked(sub) < len(sub) {
			return whole
		}
		return append(sub, branch{})
	case syntax.OpConcat:
		return concatBranches(re)
	}
	if set, ok := markedSet(re); ok {
		out := make([]branch, len(set))
		for i, s := range set {
			out[i] = branch{marked: s}
		}
		return out
	}
	return whole
}

func countMarked(bs []branch) int {
	n := 0
	for _, b := range bs {
		if b.re == nil {
			n++
		}
	}
	return n
}

// concatBranches multiplies the branches of a concatenation's parts; at
// most one part may hold a regexp branch, which comes out with the other
// parts around it.
func concatBranches(re *syntax.Regexp) []branch {
	whole := []branch{{re: re}}
	parts := make([][]branch, len(re.Sub))
	open := -1
	for i, sub := range re.Sub {
		parts[i] = branchesOf(sub)
		if countMarked(parts[i]) < len(parts[i]) {
			if open >= 0 {
				return whole
			}
			open = i
		}
	}
	out := []branch{{}}
	for _, p := range parts {
		var next []branch
		seen := branchSet{}
		for _, a := range out {
			if a.re != nil {
				next = seen.add(next, a) // it stands for every later part too
				continue
			}
			for _, b := range p {
				if b.re != nil {
					next = seen.add(next, b) // and for every earlier part
				} else {
					next = seen.add(next, branch{marked: a.marked + b.marked})
				}
			}
			if countMarked(next) > maxBranches {
				return whole // no need to build the rest of a product this big
			}
		}
		if countMarked(next) > maxBranches {
			return whole
		}
		out = next
	}
	// Each regexp branch stands for the whole concatenation with that
	// alternative in the open part.
	for k, b := range out {
		if b.re == nil {
			continue
		}
		subs := make([]*syntax.Regexp, len(re.Sub))
		copy(subs, re.Sub)
		subs[open] = b.re
		out[k].re = &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: subs}
	}
	return out
}

// branchSet is the branches appended so far, to append each once.
type branchSet struct {
	marked map[string]bool
	re     map[*syntax.Regexp]bool
}

// add appends b to bs unless it is there already.
func (set *branchSet) add(bs []branch, b branch) []branch {
	if set.marked == nil {
		set.marked, set.re = map[string]bool{}, map[*syntax.Regexp]bool{}
	}
	if b.re != nil {
		if set.re[b.re] {
			return bs
		}
		set.re[b.re] = true
	} else {
		if set.marked[b.marked] {
			return bs
		}
		set.marked[b.marked] = true
	}
	return append(bs, b)
}

// markedSet is the finite set of marked strings a leaf of the syntax
// matches, on a text lowered by lowerASCII.
func markedSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpWordBoundary:
		return []string{string(markWord)}, true
	case syntax.OpNoWordBoundary:
		return []string{string(markNotWord)}, true
	case syntax.OpBeginText:
		return []string{string(markBegin)}, true
	case syntax.OpEndText:
		return []string{string(markEnd)}, true
	case syntax.OpBeginLine:
		return []string{string(markBOL)}, true
	case syntax.OpEndLine:
		return []string{string(markEOL)}, true
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			lr, ok := exactRune(r, re.Flags&syntax.FoldCase != 0)
			if !ok {
				return nil, false
			}
			b.WriteRune(lr)
		}
		return []string{b.String()}, true
	case syntax.OpPlus:
		if re.Flags&syntax.NonGreedy != 0 {
			return nil, false
		}
		switch {
		case isClass(re.Sub[0], "09"):
			return []string{string(markDigits)}, true
		case isClass(re.Sub[0], "\t\n\f\r  "):
			return []string{string(markSpaces)}, true
		}
	case syntax.OpCharClass:
		if isClass(re, "09") {
			return []string{string(markDigit)}, true
		}
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 16 {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r == 'ſ' || r == '\u212a' {
					continue // never in a text matchString reads
				}
				if unicode.IsLetter(r) && r < utf8.RuneSelf && !classHolds(re.Rune, r^0x20) {
					return nil, false // one case only
				}
				lr, ok := exactRune(r, true)
				if !ok {
					return nil, false
				}
				if s := string(lr); !containsString(set, s) {
					set = append(set, s)
				}
				if len(set) > 8 {
					return nil, false
				}
			}
		}
		return set, len(set) > 0
	}
	return nil, false
}

// exactRune is r as a lowered text holds it: an ASCII letter lowered
// (when fold, or when it is already lower case and the text's own lower
// case is meant… which only fold allows), a rune without case as is.
func exactRune(r rune, fold bool) (rune, bool) {
	switch {
	case r < ' ' && r != '\t' && r != '\n' && r != '\f' && r != '\r':
		return 0, false // the marks, and bytes like them
	case r < utf8.RuneSelf && unicode.IsLetter(r):
		if !fold {
			return 0, false // case matters and the text is lowered
		}
		return unicode.ToLower(r), true
	case r < utf8.RuneSelf:
		return r, true
	case unicode.SimpleFold(r) == r && r != utf8.RuneError:
		return r, true // no other case: its bytes as they are
	}
	return 0, false
}

// isClass reports whether re is the class of exactly these ranges.
func isClass(re *syntax.Regexp, ranges string) bool {
	if re.Op != syntax.OpCharClass {
		return false
	}
	return string(re.Rune) == ranges
}

func classHolds(ranges []rune, r rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= r && r <= ranges[i+1] {
			return true
		}
	}
	return false
}

func containsString(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}
