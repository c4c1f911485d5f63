// Package lexicon maps the words engineers use to the concepts they mean
// ("--reset-cache", "clear the cache" → cache clearing; "exit code 137",
// "OOMKilled" → out of memory), so that two texts that say one thing in
// other words meet: lessons of two task diaries (internal/patterns), two
// memories told twice (internal/consolidate).
package lexicon

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
)

// lexiconText is the lexicon: "concept: term, term, …" lines under "# area"
// headings. It was written for the whole field, without sight of the
// labelled diaries or folders the engines are measured on.
//
//go:embed lexicon.txt
var lexiconText string

// lexicon is the parsed lexiconText: phrases by their first word.
type lexicon struct {
	byFirst map[string][]phrase
}

type phrase struct {
	words   []string
	concept string
	area    string
}

// lex is parsed on first use: every memdir process links this package.
var lex = sync.OnceValue(func() lexicon { return parseLexicon(lexiconText) })

func parseLexicon(text string) lexicon {
	l := lexicon{byFirst: map[string][]phrase{}}
	area := ""
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		if a, ok := strings.CutPrefix(line, "#"); ok {
			if a = strings.TrimSpace(a); !strings.Contains(a, ":") && a != "" {
				area = a
			}
			continue
		}
		concept, terms, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		concept = strings.TrimSpace(concept)
		for t := range strings.SplitSeq(terms, ",") {
			ws := words(t)
			if len(ws) == 0 {
				continue
			}
			l.byFirst[ws[0]] = append(l.byFirst[ws[0]], phrase{words: ws, concept: concept, area: area})
		}
	}
	// Longest phrases first, so "exit code 137" wins over "exit code".
	for k, ps := range l.byFirst {
		for i := 1; i < len(ps); i++ {
			for j := i; j > 0 && len(ps[j].words) > len(ps[j-1].words); j-- {
				ps[j], ps[j-1] = ps[j-1], ps[j]
			}
		}
		l.byFirst[k] = ps
	}
	return l
}

// words lower-cases text and splits it on everything that is not a
// letter or a digit, as the lexicon's terms are written.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Concepts returns the concepts and areas text names, each once, in the
// order met, the longest phrase winning at each word.
func Concepts(text string) (concepts, areas []string) { return lex().concepts(text) }

// concepts is Concepts on a parsed lexicon.
func (l lexicon) concepts(text string) (concepts, areas []string) {
	ws := words(text)
	seenC, seenA := map[string]bool{}, map[string]bool{}
	for i := 0; i < len(ws); i++ {
		for _, p := range l.byFirst[ws[i]] {
			if i+len(p.words) > len(ws) || !equal(ws[i:i+len(p.words)], p.words) {
				continue
			}
			if !seenC[p.concept] {
				seenC[p.concept] = true
				concepts = append(concepts, p.concept)
			}
			if p.area != "" && !seenA[p.area] {
				seenA[p.area] = true
				areas = append(areas, p.area)
			}
			i += len(p.words) - 1
			break
		}
	}
	return concepts, areas
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
