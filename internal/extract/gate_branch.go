package extract

import (
	"regexp"
	"strings"
	"sync"
)

// A pattern of many top-level branches ("a|b|c", as most of this
// package's are) matches where one of its branches does, so MatchString
// asks each branch behind its own gate: the few whose literals a sentence
// holds run, each a small regexp Go can backtrack, instead of the whole
// alternation stepping an automaton over every byte (issue 17: 70 µs a
// sentence for reProjectFact alone).

// branchGate is one top-level branch of a gated pattern.
type branchGate struct {
	hints  []string // as gateTests'
	starts []string
	split  *splitMatcher
	re     func() *regexp.Regexp // compiled on first use
}

// may reports whether s may hold a match of the branch, as match does
// without running its regexp.
func (b *branchGate) may(s string) bool {
	if b.starts != nil && !startsWithOne(s, b.starts) {
		return false
	}
	if b.split != nil {
		return b.split.matchString(s)
	}
	return b.hints == nil || mayHold(s, b.hints)
}

// match is the branch's MatchString on s, which holds neither the long s
// nor the Kelvin sign.
func (b *branchGate) match(s string) bool {
	if !b.may(s) {
		return false
	}
	return b.split != nil || b.re().MatchString(s)
}

// branchGates returns a gate for each top-level branch of pattern, or nil
// when it has one branch or cannot be split by its text.
func branchGates(pattern string) []*branchGate {
	flags, parts := topBranches(pattern)
	if len(parts) < 2 {
		return nil
	}
	out := make([]*branchGate, len(parts))
	for i, p := range parts {
		src := flags + p
		re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
		out[i] = &branchGate{
			hints:  requiredLiterals(src),
			starts: anchoredPrefixes(src),
			split:  newSplitMatcher(src, re),
			re:     re,
		}
	}
	return out
}

// topBranches splits pattern at its top-level bars. flags is a leading
// flag group ("(?i)"), which holds for every branch; parts is nil when
// the text is not one this reader knows to split: a flag group elsewhere
// at the top level, a \Q quote, an unbalanced group.
func topBranches(pattern string) (flags string, parts []string) {
	if strings.HasPrefix(pattern, "(?") {
		if end := strings.IndexByte(pattern, ')'); end > 2 && strings.Trim(pattern[2:end], "imsU-") == "" {
			flags, pattern = pattern[:end+1], pattern[end+1:]
		}
	}
	if strings.Contains(pattern, `\Q`) {
		return "", nil
	}
	depth, start := 0, 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '[':
			end := classEnd(pattern, i)
			if end < 0 {
				return "", nil
			}
			i = end
		case '(':
			if depth == 0 && strings.HasPrefix(pattern[i:], "(?") {
				// "(?i)" at the top level changes the branches after it.
				if j := strings.IndexAny(pattern[i+2:], ":)"); j < 0 || pattern[i+2+j] == ')' {
					return "", nil
				}
			}
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "", nil
			}
		case '|':
			if depth == 0 {
				parts = append(parts, pattern[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return "", nil
	}
	return flags, append(parts, pattern[start:])
}

// classEnd returns the index of the bracket that closes the character
// class opening at i, or -1.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++ // a first ']' is a literal
	}
	for ; j < len(p); j++ {
		switch {
		case p[j] == '\\':
			j++
		case strings.HasPrefix(p[j:], "[:"):
			end := strings.Index(p[j+2:], ":]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 1
		case p[j] == ']':
			return j
		}
	}
	return -1
}
