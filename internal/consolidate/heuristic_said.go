package consolidate

import (
	"fmt"
	"strings"
	"sync"
)

// This file reads what a newer memory says of an older one in words of
// its kind: one thing of another kind ("squash-merge", then
// "rebase-merge"), and another thing said so ("separately from", "ours
// stays at", "overrides the default").

// kindChanged reports whether the newer memory of pr, in a sentence on
// the older one's topic, names another kind of one thing than the older
// ("squash-merge PRs into main", then "rebase-merge PRs into main"): a
// compound word of the same head with another first part, each found in
// one memory only. If so it sets the pair's contradiction to it.
func (p *planner) kindChanged(pr *pair) bool {
	a, b := p.items[pr.a], p.items[pr.b]
	aText, bText := strings.ToLower(a.Name+" "+a.Description+" "+a.Body), strings.ToLower(b.Name+" "+b.Description+" "+b.Body)
	for _, o := range a.sents {
		for _, s := range b.sents {
			if overlapOf(o.terms, s.terms) < amountTopic {
				continue
			}
			for _, x := range compounds(o.text) {
				for _, y := range compounds(s.text) {
					if x[1] == y[1] && x[0] != y[0] && !strings.Contains(bText, x[0]+"-") && !strings.Contains(aText, y[0]+"-") {
						pr.contra = fmt.Sprintf("it changes %s-%s to %s-%s", x[0], x[1], y[0], y[1])
						pr.quotes = []string{quote(o.text), quote(s.text)}
						return true
					}
				}
			}
		}
	}
	return false
}

// compounds is a sentence's hyphenated words of two letter-only parts,
// lower-cased and split: "Squash-merge" is {squash, merge}.
func compounds(s string) [][2]string {
	var out [][2]string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ".,;:()`'\"")
		x, y, ok := strings.Cut(w, "-")
		if ok && len(x) > 2 && len(y) > 2 && onlyLetters(x) && onlyLetters(y) && !adjectiveHead(y) {
			if strings.HasSuffix(y, "ed") {
				y = strings.TrimSuffix(y, "d") // "squash-merged" is "squash-merge"
			}
			out = append(out, [2]string{x, y})
		}
	}
	return out
}

// adjectiveHead reports the second part of a compound that makes it an
// adjective ("client-side", "read-only", "real-time"): two such kinds may
// both hold ("client-side and server-side validation"), or be one said
// two ways ("read-only", "view-only").
func adjectiveHead(y string) bool {
	switch y {
	case "side", "only", "time", "level", "based", "wide", "free", "like", "safe", "aware", "ready", "specific", "driven", "facing", "proof", "bound", "first", "end", "term", "scale", "grade", "style", "way", "line":
		return true
	}
	return false
}

func onlyLetters(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 'a' || r > 'z' })
}

// saidTwoThings reports two memories one of which says it is about
// another thing than the other: "capped separately from personal gifts";
// "their standup moved to 10:30, ours stays at 9:45"; "their contract
// overrides the default retention". No likeness of their words makes them
// one.
func saidTwoThings(a, b item) bool {
	if separate(a.Description+"\n"+a.Body) && ownThing(a, b) || separate(b.Description+"\n"+b.Body) && ownThing(b, a) {
		return true
	}
	if reOverrideSaid().MatchString(a.Body) || reOverrideSaid().MatchString(b.Body) {
		return true // "AgroNorte's contract overrides the default retention": one case beside the rule
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			if staysSo(s.text, o.text) {
				return true
			}
		}
	}
	return false
}

// ownThing reports whether x's name names something other never does,
// words of a change aside: "Guild chest donation cap" beside the gift cap,
// not "Gift limit raised" beside "Gift limit".
func ownThing(x, other item) bool {
	for t := range termSet(x.Name) {
		if !other.terms[t] && !changeStems()[t] {
			return true
		}
	}
	return false
}

var changeStems = sync.OnceValue(func() map[string]bool {
	return termSet("raised new updated changed current moved now latest revised increased decreased lowered higher bumped")
})

// separate reports a memory that says it is about another thing than one
// like it: "separately from personal gifts", "independent of the web
// limit", "changing the personal limit does not touch this one".
func separate(text string) bool {
	l := strings.ToLower(text)
	for _, w := range []string{"separately from", "separate from", "independent of", "independently of", "distinct from", "not the same as", "does not touch this", "doesn't touch this", "does not affect this", "doesn't affect this"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
