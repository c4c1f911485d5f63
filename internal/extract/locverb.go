package extract

import "strings"

// locVerbEnds is where each match of reLocVerb ends, as its
// FindAllStringIndex finds them, read by hand: a location verb at a word
// start, whitespace, "it" or "them" and whitespace maybe, and a
// preposition that ends a word. The regexp tries every position of every
// sentence (issue 17); TestLocVerbEnds holds the two alike.
func locVerbEnds(s string) []int {
	if foldHazard(s) {
		var ends []int
		for _, m := range reLocVerb.FindAllStringIndex(s, -1) {
			ends = append(ends, m[1])
		}
		return ends
	}
	var ends []int
	for p := 0; p < len(s); {
		if !asciiLetter(s[p]) || wordAt(s, p-1) {
			p++
			continue
		}
		q := p
		for q < len(s) && asciiLetter(s[q]) {
			q++
		}
		if q < len(s) && isSpace(s[q]) && locVerbs[strings.ToLower(s[p:q])] {
			if end := locVerbRest(s, q); end > 0 {
				ends = append(ends, end)
				p = end
				continue
			}
		}
		p = q
	}
	return ends
}

// locVerbRest matches what follows a location verb at i (whitespace
// first) and returns where it ends, or 0.
func locVerbRest(s string, i int) int {
	i = skipSpace(s, i)
	for _, obj := range []string{"it", "them"} {
		if j := i + len(obj); hasPrefixFold(s[i:], obj) && j < len(s) && isSpace(s[j]) {
			if end := locPrep(s, skipSpace(s, j)); end > 0 {
				return end
			}
		}
	}
	return locPrep(s, i)
}

// locPrep matches a preposition that ends a word at i.
func locPrep(s string, i int) int {
	for _, prep := range []string{"in", "at", "on", "to", "under"} {
		if end := i + len(prep); hasPrefixFold(s[i:], prep) && !wordAt(s, end) {
			return end
		}
	}
	return 0
}

var locVerbs = map[string]bool{"live": true, "lives": true, "is": true, "are": true, "sit": true, "sits": true,
	"happen": true, "happens": true, "land": true, "lands": true, "go": true, "goes": true, "posted": true,
	"tracked": true, "tracking": true, "track": true, "tracks": true, "kept": true, "stored": true, "deployed": true,
	"hosted": true, "filed": true, "pinned": true, "published": true, "reported": true}

func asciiLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isSpace is \s: tab, newline, form feed, carriage return, space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// hasPrefixFold reports whether s starts with the lower-case ASCII
// prefix, in any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
