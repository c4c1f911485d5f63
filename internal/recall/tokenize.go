package recall

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// Default is the analyzer memories and prompts go through: identifiers
// split, stop words dropped, Snowball English stems.
var Default = &Analyzer{}

// Analyzer turns text into terms. Its stem memo makes it a value to share;
// it is safe for concurrent use.
type Analyzer struct {
	mu   sync.Mutex
	memo map[string]string
	env  *snowballstem.Env
}

// Tokenize splits text into lower-cased words, code identifiers into their
// parts (keeping the whole identifier too), without stemming or stop words.
func Tokenize(text string) []string { return appendWords(nil, text) }

// Prompt analyses a prompt: its terms, and for each the number of the
// word it came from (the parts of PostgreSQL — postgr, sql, postgresql —
// share one), so that relevance counts words, not parts.
func (a *Analyzer) Prompt(text string) (terms []string, groups []int) {
	words, gs := appendWordsGroups(nil, []int{}, text)
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, w := range words {
		if stopWord(w) {
			continue
		}
		terms = append(terms, a.stem(w))
		groups = append(groups, gs[i])
	}
	return terms, groups
}

// Terms appends the analysed terms of text to out.
func (a *Analyzer) Terms(text string, out []string) []string {
	start := len(out)
	out = appendWords(out, text)
	n := start
	a.mu.Lock()
	for _, w := range out[start:] {
		if stopWord(w) {
			continue
		}
		out[n] = a.stem(w)
		n++
	}
	a.mu.Unlock()
	return out[:n]
}

// stem returns the Snowball English stem of w, memoised: a store's
// vocabulary is small and stemming dominates indexing otherwise.
func (a *Analyzer) stem(w string) string {
	if s, ok := a.memo[w]; ok {
		return s
	}
	if a.memo == nil {
		a.memo = map[string]string{}
		a.env = snowballstem.NewEnv("")
	}
	s := w
	if len(w) > 2 && isLetters(w) {
		a.env.SetCurrent(w)
		english.Stem(a.env)
		s = a.env.Current()
	}
	if len(a.memo) < 1<<20 {
		a.memo[w] = s
	}
	return s
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// appendWords appends the words of text: runs of letters and digits,
// lower-cased. Every other character separates words, so a path or a
// dotted name gives its parts (internal/recall/index.go → internal, recall,
// index, go). An identifier — a run joined by underscores or changing case
// (snake_case_name, parseHTTPConfig) — gives its parts and then the whole
// identifier without separators (snake, case, name, snakecasename; parse,
// http, config, parsehttpconfig), so both a search for a word and one for
// the exact identifier find it.
func appendWords(out []string, text string) []string {
	out, _ = appendWordsGroups(out, nil, text)
	return out
}

// appendWordsGroups is appendWords that also appends, for each word, the
// number of the run (identifier) it came from, when groups is not nil.
func appendWordsGroups(out []string, groups []int, text string) ([]string, []int) {
	run := 0
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		// A compound: word runs joined by _ (an identifier).
		start := i
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) && !(r == '_' && i+size < len(text) && isWordStart(text[i+size:])) {
				break
			}
			i += size
		}
		before := len(out)
		out = appendCompound(out, text[start:i])
		if groups != nil {
			for range len(out) - before {
				groups = append(groups, run)
			}
		}
		run++
	}
	return out, groups
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isWordStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// appendCompound appends the parts of an identifier-like run and, when it
// has more than one part, the whole run lower-cased without separators.
func appendCompound(out []string, run string) []string {
	first := len(out)
	partStart := 0
	var prev rune
	for j, r := range run {
		if r == '_' {
			out = appendLower(out, run[partStart:j])
			partStart = j + 1
			prev = r
			continue
		}
		if j > partStart {
			next, _ := utf8.DecodeRuneInString(run[j+utf8.RuneLen(r):])
			switch {
			case unicode.IsLower(prev) && unicode.IsUpper(r): // parseHTTP: e|H
				out = appendLower(out, run[partStart:j])
				partStart = j
			case unicode.IsDigit(prev) && unicode.IsUpper(r): // v2Client: 2|C
				out = appendLower(out, run[partStart:j])
				partStart = j
			case unicode.IsUpper(prev) && unicode.IsUpper(r) && unicode.IsLower(next): // HTTPConfig: P|C
				out = appendLower(out, run[partStart:j])
				partStart = j
			}
		}
		prev = r
	}
	out = appendLower(out, run[partStart:])
	if len(out)-first > 1 {
		out = append(out, strings.ToLower(strings.ReplaceAll(run, "_", "")))
	}
	return out
}

func appendLower(out []string, s string) []string {
	if s == "" {
		return out
	}
	return append(out, strings.ToLower(s))
}

// stopWord reports whether w is on Snowball's English stop list, less the
// words that carry meaning in instructions about code: negations (no, not,
// nor, don't …) and a few that name things (off, over, up, down, again,
// same, very). A switch, not a map: nothing to build at start-up (every
// memdir process, a hook included, paid for the map), and faster to look up.
func stopWord(w string) bool {
	switch w {
	case "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
		"yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
		"they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "this", "that", "these",
		"those", "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "do",
		"does", "did", "doing", "would", "should", "could", "ought", "i'm", "you're", "he's", "she's", "it's",
		"we're", "they're", "i've", "you've", "we've", "they've", "i'd", "you'd", "he'd", "she'd", "we'd",
		"they'd", "i'll", "you'll", "he'll", "she'll", "we'll", "they'll", "let's", "that's", "who's", "what's",
		"here's", "there's", "when's", "where's", "why's", "how's", "a", "an", "the", "and", "but", "if", "or",
		"because", "as", "until", "while", "of", "at", "by", "for", "with", "about", "against", "between", "into",
		"through", "during", "before", "after", "above", "below", "to", "from", "in", "out", "on", "under", "then",
		"once", "here", "there", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more",
		"most", "other", "some", "such", "only", "own", "so", "than", "too", "s", "t", "can", "will", "just",
		"now", "d", "ll", "m", "o", "re", "ve", "y":
		return true
	}
	return false
}
