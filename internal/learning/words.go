package learning

import (
	"strings"
	"sync"
	"unicode"

	"github.com/memdir/memdir/internal/lazyre"
)

// stopwords are left out of a learning's content words. Negations and
// advice words are among them: the polarity check (contradict.go) reads
// them from the text itself.
var stopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then else is are was were be been being to of in on
for with at by from as it its this that these those not no nor don't do does did doesn't didn't never always
can cannot can't should shouldn't must will would could may might we you i me my our your they them their he she
when where which who what how why before after than so such use used using uses instead also just only very
there here into onto about over under out up down all any each every some more most less other same new now
via per without within one two get gets got has have had having make makes made let lets still yet again`) {
		m[w] = true
	}
	return m
})

// words returns the stemmed, lower-cased content words of s, in order.
func words(s string) []string {
	var out []string
	f := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "’", "'")), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\'')
	})
	for _, w := range f {
		w = strings.Trim(w, "'")
		if len(w) < 2 || stopwords()[w] {
			continue
		}
		w = strings.TrimSuffix(w, "'s")
		if st := stem(w); st != "" && !stopwords()[st] {
			out = append(out, st)
		}
	}
	return out
}

// wordSet is words(s) as a set.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words(s) {
		m[w] = true
	}
	return m
}

// stem is a small suffix stripper: enough that "fixes", "fixed" and
// "fixing" meet, and "queries" and "query" do. It is not Porter's.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "es") && strings.ContainsAny(w[n-3:n-2], "xszh"):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ied"):
		w = w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	case n > 4 && strings.HasSuffix(w, "ly"):
		w = w[:n-2]
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops a doubled final consonant ("runn" → "run").
func undouble(w string) string {
	n := len(w)
	if n > 2 && w[n-1] == w[n-2] && !strings.ContainsAny(w[n-1:], "aeiouslz") {
		return w[:n-1]
	}
	return w
}

// jaccard is |a ∩ b| / |a ∪ b| (0 for two empty sets).
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Polarity axes of a learning's text: each pair of patterns says the
// opposite of the other about the same subject. The first pattern of a
// pair is checked first ("no longer broken" is fixed, not broken).
var polarityAxes = []struct {
	pos, neg *lazyre.Regexp
}{
	{ // status: works / broken
		pos: lazyre.New(`\b(fixed|resolved|works now|now works|working now|is working|works again|no longer (broken|fails|failing|crashes|an issue|a problem|needed|required|necessary)|not needed anymore|not an issue)\b`),
		neg: lazyre.New(`\b(broken|breaks|fails|failing|failed|doesn't work|does not work|not working|crash|crashes|crashed|hangs)\b`),
	},
	{ // advice: don't use / use (negation checked first)
		pos: lazyre.New(`\b(don't|do not|never|avoid|stop using|no longer use|shouldn't|should not|no longer needed|not needed|no longer required|unnecessary)\b`),
		neg: lazyre.New(`\b(use|always|prefer|should)\b`),
	},
	{ // need: no longer needed / needed
		pos: lazyre.New(`\b(no longer needed|not needed|no longer required|not required|unnecessary|no need)\b`),
		neg: lazyre.New(`\b(needs?|needed|required?|requires|must)\b`),
	},
}

// polarity gives, per axis, +1, -1 or 0 for text.
func polarity(text string) []int {
	t := strings.ToLower(strings.ReplaceAll(text, "’", "'"))
	out := make([]int, len(polarityAxes))
	for i, ax := range polarityAxes {
		switch {
		case ax.pos.MatchString(t):
			out[i] = 1
		case ax.neg.MatchString(t):
			out[i] = -1
		}
	}
	return out
}

// flips reports whether a and b say opposite things on some axis.
func flips(a, b []int) bool {
	for i := range a {
		if a[i] != 0 && b[i] != 0 && a[i] != b[i] {
			return true
		}
	}
	return false
}

// polarityWords are left out of a subject's words.
var polarityWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`fixed resolved works working work broken breaks fails failing failed crash crashes crashed
hangs avoid stop prefer needed need needs required require requires unnecessary longer anymore issue problem again`)
})

// subject is the content words of s without polarity words.
func subject(s string) map[string]bool {
	m := wordSet(s)
	for w := range m {
		if polarityWords()[w] {
			delete(m, w)
		}
	}
	return m
}

// subjectSeq is the content words of s less polarity words, in order.
func subjectSeq(s string) []string {
	var out []string
	for _, w := range words(s) {
		if !polarityWords()[w] {
			out = append(out, w)
		}
	}
	return out
}

// verbRE matches the verb of a learning's statement, roughly: a form of
// be or have, a modal or negation, or one of the verbs learnings turn on.
var verbRE = lazyre.New(`\b(is|are|was|were|be|been|has|have|had|do|does|did|don't|doesn't|didn't|never|always|should|shouldn't|must|can|cannot|can't|will|won't|` +
	`use|uses|used|using|avoid|avoids|prefer|prefers|preferred|need|needs|needed|require|requires|required|fail|fails|failed|failing|` +
	`break|breaks|broke|broken|work|works|worked|fix|fixes|fixed|crash|crashes|crashed|hang|hangs|run|runs|ran|keep|keeps|stop|stops)\b`)

// object is the object of a learning's statement: the subject words after
// the first verb of its description ("I use vim for Go code" → vim, go,
// code), else of its title, else every subject word of both.
func object(l Learning) map[string]bool {
	for _, s := range []string{l.Description, l.Title} {
		t := strings.ToLower(strings.ReplaceAll(s, "’", "'"))
		if loc := verbRE.FindStringIndex(t); loc != nil {
			if o := subject(t[loc[1]:]); len(o) > 0 {
				return o
			}
		}
	}
	return subject(l.Title + " " + l.Description)
}
