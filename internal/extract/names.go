package extract

import (
	"strings"
	"unicode"
)

// This file makes a memory's name: a short title, never a cut-off
// sentence (issue 17).

// title makes a memory name from a rule: its first words, up to 6.
func title(rule string) string {
	for _, lead := range []string{"from now on", "going forward", "in general", "also", "ok", "so", "heads up:", "fyi", "btw", "remember that", "remember to"} {
		if len(rule) > len(lead) && strings.EqualFold(rule[:len(lead)], lead) && !isWordByte(rule[len(lead)]) { // "so", not "Solver"
			rule = strings.TrimLeft(rule[len(lead):], " ,:;")
		}
	}
	// The first clause, when it says enough on its own: "Never push
	// directly to main; always open a PR" is "Never push directly to main".
	if i := clauseBreak(rule); i > 0 && len(strings.Fields(rule[:i])) >= 3 {
		rule = rule[:i]
	}
	// Slashes become spaces before the count: "commit/push" is two words
	// of the title.
	rule = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || unicode.IsControl(r) {
			return ' '
		}
		return r
	}, rule)
	words := strings.Fields(rule)
	for len(words) > 0 && (strings.EqualFold(words[0], "please") || strings.EqualFold(words[0], "so") || strings.EqualFold(words[0], "ok")) {
		words = words[1:]
	}
	if len(words) > 6 {
		words = words[:6]
		// Not ending on a word that leads into the rest.
		for len(words) > 3 && danglingWords[strings.ToLower(words[len(words)-1])] {
			words = words[:len(words)-1]
		}
	}
	t := strings.Trim(strings.Join(words, " "), " ,;:—–-")
	// A name is a title, never a path: no "..", no leading dot.
	for strings.Contains(t, "..") {
		t = strings.ReplaceAll(t, "..", ".")
	}
	t = strings.Join(strings.Fields(strings.TrimLeft(t, ". ")), " ")
	if t == "" {
		t = "Note"
	}
	return capitalize(t)
}

// danglingWords are words a cut-off title should not end on.
var danglingWords = map[string]bool{"a": true, "an": true, "the": true, "to": true, "of": true, "and": true, "or": true,
	"for": true, "with": true, "in": true, "on": true, "at": true, "by": true, "from": true, "into": true, "our": true,
	"my": true, "your": true, "is": true, "are": true, "be": true, "that": true, "which": true, "when": true, "if": true,
	"till": true, "until": true, "before": true, "after": true, "through": true, "thru": true, "via": true, "than": true, "as": true, "per": true}
