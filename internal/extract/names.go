package extract

import (
	"strings"
	"sync"
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
	// "Ask me first please" is "Ask me first", "I'm mech eng btw" "I'm
	// mech eng".
	for len(words) > 2 {
		switch strings.ToLower(strings.Trim(words[len(words)-1], ".,!")) {
		case "please", "pls", "plz", "thanks", "thx", "btw", "fyi", "tbh", "lol":
			words = words[:len(words)-1]
			continue
		}
		break
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

// withoutTalkClauses is s less the clauses that open it and talk about
// the talk, which name nothing: "Sorry I was wrong before, TÜV moved us,
// the lab test starts …".
func withoutTalkClauses(s string) string {
	for i := clauseBreak(s); i > 0 && talkClause(s[:i]) && len(strings.Fields(s[i+1:])) >= 3; i = clauseBreak(s) {
		s = strings.TrimLeft(s[i+1:], " ,;:—–-")
	}
	return s
}

// withoutTalkLabel is s less a label that opens it and announces what
// comes without naming it ("the big one: the line gets the new labeller
// …", "news just in: go-live slipped …", "deadline wise: the campaign
// starts …"), which a title would otherwise be made of. A label that
// names a topic ("crash reports: ios is in sentry") stays.
func withoutTalkLabel(s string) string {
	i := strings.IndexAny(s, ":,")
	if i <= 0 || len(strings.Fields(s[i+1:])) < 3 {
		return s
	}
	w := strings.Fields(asciiLower(s[:i]))
	if len(w) == 0 || len(w) > 4 {
		return s
	}
	if l := w[len(w)-1]; len(w) <= 2 && (l == "wise" || l == "thing") {
		return strings.TrimLeft(s[i+1:], " ") // "deadline wise: …", "budget thing: …"
	}
	for _, x := range w {
		switch x {
		case "the", "a", "one", "more", "big", "news", "tho", "though", "just", "in", "thing", "wise", "timing", "on", "first",
			"rule", "quick", "another", "last", "also", "actually", "now", "update", "reminder", "important", "re", "ps", "and", "oh":
		default:
			return s
		}
	}
	return strings.TrimLeft(s[i+1:], " ")
}

// talkClause reports a clause that tells of the talk, not of the work:
// an apology, a correction announced, an "important" before the thing.
func talkClause(c string) bool {
	w := strings.Fields(asciiLower(c))
	if len(w) == 0 || len(w) > 6 {
		return false
	}
	switch strings.Trim(w[0], ".,!:") {
	case "sorry", "apologies", "oops", "whoops", "ps":
		return true
	case "correction", "update", "important", "note":
		return len(w) == 1 // "update the changelog, then tag": an order
	case "my":
		return len(w) > 1 && w[1] == "bad"
	case "also", "and", "oh", "ah":
		return len(w) > 1 && (w[1] == "important" || w[1] == "sorry")
	}
	return false
}

// danglingWords are words a cut-off title should not end on.
var danglingWords = map[string]bool{"a": true, "an": true, "the": true, "to": true, "of": true, "and": true, "or": true,
	"for": true, "with": true, "in": true, "on": true, "at": true, "by": true, "from": true, "into": true, "our": true,
	"my": true, "your": true, "is": true, "are": true, "be": true, "that": true, "which": true, "when": true, "if": true,
	"till": true, "until": true, "before": true, "after": true, "through": true, "thru": true, "via": true, "than": true, "as": true, "per": true}

// headline shortens words to at most n as a title reads: without
// articles and filler, "has to" as "must", then cut where a phrase ends
// ("Anything touching the rules engine needs a ticket before merge" is
// "Anything touching rules engine needs ticket"), never inside one
// ("… needs a"). min is the fewest words a cut may keep.
func headline(words []string, n, min int) []string {
	if len(words) <= n {
		return words
	}
	words = squeeze(words)
	if len(words) <= n {
		return words
	}
	if q := strings.ToLower(words[0]); (q == "any" || q == "every" || q == "each" || q == "all") && len(words) > 2 {
		// "Any grpc api change must be announced in #api-changes": the
		// thing and what holds for it, without the "any".
		if cut := phraseCut(words[1:], n, 3); cut != nil {
			return cut
		}
	}
	if cut := phraseCut(words, n, min); cut != nil {
		return cut
	}
	return words[:n] // no phrase ends early enough: the caller trims what dangles
}

// phraseCut is the longest run of at most n of words, and at least min,
// that ends where a phrase ends (see headline), or nil.
func phraseCut(words []string, n, min int) []string {
	if len(words) <= n {
		return words
	}
	top := n
	for j := min; j < n && j < len(words); j++ {
		if subordinators()[strings.ToLower(words[j])] && phraseEnds(words, j) {
			top = j // not past a clause left unfinished: "Use multi-stage build so compiler toolchain"
			break
		}
	}
	for k := n; k >= min; k-- {
		if k > top && !strings.ContainsAny(words[k-1][len(words[k-1])-1:], ",;:") {
			continue // past the clause, only where a comma closes it: "Compile with -fcheck=bounds when debugging,"
		}
		if phraseEnds(words, k) && !inQuote(words[:k]) {
			return words[:k]
		}
	}
	return nil
}

// squeeze drops what a headline goes without: articles, filler, "has to"
// said as "must".
func squeeze(words []string) []string {
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(strings.Trim(words[i], ",;:.!?"))
		next := ""
		if i+1 < len(words) {
			next = strings.ToLower(words[i+1])
		}
		switch {
		case (w == "a" || w == "an" || w == "the") && !measureNouns()[next] && i+1 < len(words) && words[i] == strings.TrimRight(words[i], ",;:.!?"):
			continue // "A" alone before a comma is a letter, not an article
		case titleFiller()[w] && len(words) > 1:
			continue
		case (w == "has" || w == "have" || w == "need" || w == "needs") && next == "to" && i > 0 && !negation(strings.ToLower(words[i-1])):
			// not "you dont have to ask": no "dont must"
			out = append(out, "must")
			i++
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// phraseEnds reports whether the first k words end a phrase: the word
// after them opens one (a preposition, a conjunction, a relative word, a
// verb after its subject), or a comma or bracket falls between, and the
// last kept word is none that leads into the rest.
func phraseEnds(words []string, k int) bool {
	if k <= 0 || k >= len(words) {
		return k == len(words)
	}
	last := strings.ToLower(strings.Trim(words[k-1], "\"'"))
	if strings.HasSuffix(last, ",") || strings.HasSuffix(last, ";") || strings.HasSuffix(last, ":") || strings.HasSuffix(last, ")") {
		last = strings.TrimRight(last, ",;:)")
		return !leadsOn(last)
	}
	if leadsOn(last) || participle(words[k-1]) && k > 1 && !auxiliary(strings.ToLower(words[k-2])) {
		return false // "Nightly dbt run moved": a participle after a noun asks for more
	}
	raw := words[k]
	next := strings.ToLower(strings.Trim(raw, "\"'`"))
	return phraseOpeners()[next] || endsOrOpens()[next] || strings.ContainsAny(raw[:1], "(—–'\"`") || strings.HasPrefix(raw, "—") || strings.HasPrefix(raw, "–") ||
		len(next) > 4 && strings.HasSuffix(next, "ly") && !leadsOn(next) || // "must never import ortools | directly"
		k >= 3 && participle(next) && !leadsOn(next) || // "requests go through the google form | pinned in #dev-productivity"
		reISODate.MatchString(next) // "index rebuild is scheduled for tuesday | 2026-12-01": a name, a date said again
}

// inQuote reports whether words end inside a quoted name: "Follow a 'last
// two" is cut inside 'last two go releases'.
func inQuote(words []string) bool {
	open := false
	for _, w := range words {
		for _, q := range []string{"'", "\"", "`"} {
			starts, ends := strings.HasPrefix(w, q), strings.HasSuffix(strings.TrimRight(w, ",;:.!?)"), q)
			switch {
			case !open && starts && !(ends && len(w) > 1):
				open = true
			case open && ends:
				open = false
			}
		}
	}
	return open
}

// leadsOn reports a word a title cannot end on: it needs what comes after
// it ("the", "into", "has", "me" after a verb, "goes").
func leadsOn(w string) bool {
	w = strings.Trim(w, ",;:.!?()\"'")
	return danglingWords[w] || titleDangling[w] || phraseOpeners()[w] || needsMore()[w] || ordinals()[w]
}

// titleFiller are words a headline drops.
var titleFiller = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"really": true, "just": true, "actually": true, "basically": true, "honestly": true,
		"literally": true, "kinda": true, "pls": true, "please": true, "btw": true, "definitely": true, "probably": true, "me": true}
})

// subordinators open a clause a title does not reach into.
var subordinators = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"so": true, "because": true, "cause": true, "cuz": true, "since": true, "when": true,
		"whenever": true, "if": true, "unless": true, "until": true, "till": true, "while": true, "whereas": true, "that": true,
		"which": true, "who": true, "where": true, "otherwise": true, "once": true}
})

// phraseOpeners open a phrase of their own: a title may stop before them.
var phraseOpeners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"in": true, "on": true, "at": true, "for": true, "with": true, "by": true, "from": true,
		"into": true, "onto": true, "to": true, "through": true, "thru": true, "via": true, "under": true, "over": true,
		"against": true, "without": true, "about": true, "across": true, "between": true, "during": true, "after": true,
		"before": true, "until": true, "till": true, "since": true, "per": true, "within": true, "outside": true, "inside": true,
		"instead": true, "except": true, "unless": true, "and": true, "or": true, "but": true, "so": true, "because": true,
		"cause": true, "cuz": true, "as": true, "than": true, "while": true, "whereas": true, "when": true, "whenever": true,
		"if": true, "once": true, "where": true, "which": true, "who": true, "that": true, "that's": true, "thats": true,
		"otherwise": true, "then": true, "plus": true, "like": true, "not": true, // "hermite 4th order | not leapfrog"
		// a verb after its subject: "the perf audit by the security team | starts …"
		"is": true, "are": true, "was": true, "were": true, "will": true, "would": true, "must": true, "can": true, "cannot": true,
		"can't": true, "cant": true, "should": true, "has": true, "have": true, "had": true, "needs": true, "gets": true, "goes": true,
		"lives": true, "live": true, "sits": true, "comes": true, "come": true, "go": true, "get": true, "stays": true,
		"coming": true, "working": true, "based": true, "using": true, "doing": true, "starting": true, "ending": true,
		"only": true, "doesn't": true, "doesnt": true, "don't": true, "dont": true, "isn't": true, "isnt": true, "aren't": true,
		"arent": true, "won't": true, "wont": true, "shouldn't": true, "mustn't": true, "didn't": true, "wasn't": true,
		"haven't": true, "hasn't": true, "happens": true, "happen": true, "ships": true, "runs": true, "launches": true,
		"begins": true, "opens": true, "closes": true, "expires": true, "starts": true, "ends": true, "moves": true,
		"switches": true, "lands": true, "next": true, "every": true, "each": true, "even": true}
})

// endsOrOpens are words a title may stop before or end on, days: "closed
// beta | tuesday 2026-09-01", "scheduled for tuesday".
var endsOrOpens = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
		"saturday": true, "sunday": true, "today": true, "tomorrow": true, "tonight": true}
})

// measureNouns keep their "a": "a bit", "a lot".
var measureNouns = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"bit": true, "lot": true, "while": true, "few": true, "little": true, "couple": true}
})

// needsMore are verbs and words that ask for what follows them: a title
// does not end on them ("Vendor drops files in", "Customer bug reports come").
var needsMore = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"says": true, "tells": true, "told": true, "wants": true, "want": true,
		"pulls": true, "takes": true, "gives": true, "give": true, "puts": true, "put": true, "keeps": true, "makes": true,
		"shows": true, "show": true, "sends": true, "follow": true, "follows": true, "compares": true, "starts": true,
		"land": true, "lands": true, "drops": true, "moves": true, "more": true, "less": true, "most": true, "much": true,
		"many": true, "very": true, "also": true, "not": true, "no": true, "new": true, "one": true, "some": true, "any": true, "each": true, "its": true,
		"their": true, "his": true, "do": true, "does": true, "did": true, "be": true, "been": true, "being": true,
		"could": true, "may": true, "might": true, "shall": true, "need": true, "got": true, "gotta": true, "going": true,
		"happen": true, "happens": true}
})

// ordinals lead into a day or a thing mid-sentence ("on the first |
// tuesday"), yet end one well ("run it on the sample first").
var ordinals = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"first": true, "last": true, "second": true, "third": true}
})

// mainClause is the clause after a leading condition or scope ("if you
// ever need more gpu hours, allocation requests go through the hpc-alloc
// board"), when it says enough alone: three words or more, none pointing
// back at the condition ("if you add alerts, route them to …").
func mainClause(s string) (string, bool) {
	first, _, _ := strings.Cut(asciiLower(s), " ")
	switch first {
	case "if", "when", "whenever", "for", "once":
	case "before", "after":
		if second := strings.Fields(asciiLower(s)); len(second) < 2 || !strings.HasSuffix(second[1], "ing") {
			return "", false // "before changing X, ask me first", not "before the release, …"
		}
	default:
		return "", false
	}
	cond, main, ok := strings.Cut(s, ", ")
	w := strings.Fields(asciiLower(main))
	if !ok || len(w) < 3 || pointsBack(append([]string{""}, w...)) || subjects()[w[0]] && w[0] != "we" || reQuestion.MatchString(main) {
		return "", false
	}
	switch w[0] {
	case "but", "and", "or", "not", "no", "so", "then":
		return "", false // "for tests use WMS_TEST, not the dev one": more of what came before
	}
	cw := strings.Fields(asciiLower(cond))
	if len(cw) > 7 {
		return "", false // "when ur done post the hw test results in #bench, …": the rule is before the comma
	}
	for _, c := range cw[min(2, len(cw)):] {
		switch c {
		case "post", "give", "run", "send", "use", "put", "write", "add", "make", "keep", "tell", "ping", "check":
			return "", false // "for tests use WMS_TEST, …": so is this one
		}
	}
	return main, true
}

// participle is a word that reads as a past participle: "pinned", "moved".
func participle(w string) bool {
	w = strings.Trim(w, ",;:.!?()\"'")
	if w == "" || w[0] >= 'A' && w[0] <= 'Z' {
		return false // a name: "Unreleased"
	}
	return len(w) > 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

// auxiliary reports a word that carries a participle after it: "gets planned", "must be merged".
func auxiliary(w string) bool {
	switch w {
	case "is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "getting",
		"become", "becomes", "stay", "stays", "remain", "remains", "keep":
		return true
	}
	return false
}

// negation reports a word that turns the verb after it around.
func negation(w string) bool {
	switch strings.Trim(w, ",;:.!?") {
	case "dont", "don't", "doesnt", "doesn't", "not", "never", "didnt", "didn't":
		return true
	}
	return false
}
