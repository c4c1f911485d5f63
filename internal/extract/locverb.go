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
		if kind := locVerbKind(strings.ToLower(s[p:q])); q < len(s) && isSpace(s[q]) && kind != 0 {
			if end := locVerbRest(s, q, kind); end > 0 {
				ends = append(ends, end)
				p = end
				continue
			}
		}
		p = q
	}
	return ends
}

// locVerbRest matches what follows a location verb of the given kinds
// at i (whitespace first) and returns where it ends, or 0.
func locVerbRest(s string, i int, kinds verbKind) int {
	if kinds&upIn != 0 {
		// "shows up in": the particle, then a place's preposition.
		j := skipSpace(s, i)
		if hasPrefixFold(s[j:], "up") && j+2 < len(s) && isSpace(s[j+2]) {
			if end := locPrep(s, skipSpace(s, j+2), upPreps); end > 0 {
				return end
			}
		}
	}
	preps := placePreps
	if kinds&fromTo != 0 {
		preps = sourcePreps
	}
	i = skipSpace(s, i)
	if kinds&(at|fromTo) != 0 {
		for _, obj := range []string{"it", "them"} {
			if j := i + len(obj); hasPrefixFold(s[i:], obj) && j < len(s) && isSpace(s[j]) {
				if end := locRest(s, skipSpace(s, j), kinds, preps); end > 0 {
					return end
				}
			}
		}
	}
	return locRest(s, i, kinds, preps)
}

// locRest is the preposition after a location verb (and its object).
func locRest(s string, i int, kinds verbKind, preps []string) int {
	if kinds&(at|fromTo) != 0 {
		return locPrep(s, i, preps)
	}
	return 0
}

var (
	placePreps  = []string{"in", "at", "on", "to", "under"}
	upPreps     = []string{"in", "at", "on", "under"}
	sourcePreps = []string{"in", "at", "on", "to", "under", "from", "into", "through", "thru", "via"}
)

// locPrep matches one of preps ending a word at i.
func locPrep(s string, i int, preps []string) int {
	for _, prep := range preps {
		if end := i + len(prep); hasPrefixFold(s[i:], prep) && !wordAt(s, end) {
			return end
		}
	}
	return 0
}

// verbKind is what may follow a location verb: a place's preposition
// ("lives in"), "up in" ("shows up in"), or a source's preposition too
// ("generated from").
type verbKind uint8

const (
	at verbKind = 1 << iota
	upIn
	fromTo
)

// locVerbKind is what may follow a location verb, or 0 for a word that
// is none (a switch, not a map: a hook's start-up pays for no table).
func locVerbKind(w string) verbKind {
	switch w {
	case "live", "lives", "is", "are", "sit", "sits", "happen", "happens", "land", "lands", "go", "goes", "posted",
		"tracked", "tracking", "track", "tracks", "kept", "stored", "deployed", "hosted", "filed", "pinned", "published",
		"reported", "managed", "maintained", "documented", "booked", "recorded", "listed", "saved", "post", "posts":
		return at
	case "show", "shows", "turn", "turns":
		return upIn
	case "generated", "pulled", "synced", "exported", "uploaded", "dumped", "mirrored", "sent", "come", "comes", "fed":
		return fromTo
	}
	return 0
}

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
