package extract

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/textclf"
)

// This file holds a learned reader of what people say of themselves
// (issue 17): a linear model over a sentence's words, trained on the
// labelled sets' tuning halves by `memdir-bench selfmodel`. The rules in
// self.go read the forms they were written for; people say who they are
// in more forms than rules can list ("backend guy, 10y java", "the
// spreadsheets are my day job"), and the model reads those by the words
// such sentences share.

//go:embed selfmodel.txt
var selfModelText []byte

// selfModel is the embedded model, read on first use. A model that does
// not parse (a broken build) finds no one.
var selfModel = sync.OnceValue(func() *textclf.Model {
	m, err := textclf.Parse(selfModelText)
	if err != nil {
		return &textclf.Model{Bias: -100}
	}
	return m
})

// selfThreshold is the log-odds above which a sentence rules did not read
// is taken to say who the speaker is. It was chosen on the tuning sets.
const selfThreshold = 1.0

// selfLike reports a sentence the model reads as the speaker saying who
// they are.
func selfLike(s string, threshold float64) bool {
	return selfModel().Score(SelfFeatures(s)) >= threshold
}

// selfUnlike reports a sentence the model is sure says nothing of who
// the speaker is, though a rule read it so: "I am a genius, it was a
// missing await", "I'm an idiot, i had the wrong branch checked out".
func selfUnlike(s string) bool {
	return selfModel().Score(SelfFeatures(s)) < selfVeto
}

// selfVeto is the log-odds below which a rule's reading of a sentence as
// a self-description is not kept. It was chosen on the tuning sets.
const selfVeto = -2.0

// selfMoreThreshold is selfThreshold for a sentence after one that said
// who the speaker is, in the same message: people who start on who they
// are often go on ("sql server guy, 11 years. postgres syntax is new").
const selfMoreThreshold = 0.5

// selfSaid is what a sentence says of who the speaker is, read by the
// model: its clauses less those that say nothing lasting (a question, what
// holds only now, what they have been at for hours): "I lecture intro
// programming at a community college, and I'm grading 120 of these
// tonight" keeps its first clause.
func selfSaid(s string, threshold float64) (string, bool) {
	if reToAgents.MatchString(s) || mayHold(s, personalWords()) || quotesSomeone(s) || !selfLike(s, threshold) {
		return "", false // "the candidate said: I'm a staff engineer": someone else
	}
	cuts := clauseCuts(s)
	var kept []string
	for k := range cuts {
		c, ok := clauseAt(s, cuts, k)
		if c = strings.TrimSpace(c); !ok || c == "" {
			continue
		}
		if reQuestion.MatchString(c) || reNowOnly.MatchString(c) || lately(c) ||
			reNotWhereIWork.MatchString(c) || reAtSomePlace.MatchString(c) {
			continue // "I'm in a meeting till 3", "I'm at a coffee shop so…"
		}
		kept = append(kept, c)
	}
	said := strings.Join(kept, ", ")
	if len(strings.Fields(said)) < 2 || said != s && selfModel().Score(SelfFeatures(said)) < 0 {
		return "", false // what was left out made it read as someone's
	}
	return said, true
}

// reAtSomePlace is where the speaker is now: "I'm at a coffee shop",
// not "I'm at Stripe".
var reAtSomePlace = lazyre.New(`(?i)^(?:i'?m|i am) at (?:a|an|the|my)\b`)

// quotesSomeone reports a sentence that gives someone else's words after
// a label: "the candidate said: I'm a staff engineer with 12 years of Go".
func quotesSomeone(s string) bool {
	head, _, ok := strings.Cut(s, ": ")
	if !ok {
		return false
	}
	for _, w := range strings.Fields(asciiLower(head)) {
		switch w {
		case "said", "says", "wrote", "writes", "asked", "asks", "replied", "told":
			return true
		}
	}
	return false
}

// SelfFeatures are the names of a sentence's features for the model: its
// words and pairs of words, its first word and pair, its length in steps
// of five words, and a question mark. "I'm" and "I am" are one word,
// "im", as are "I've" and "I have"; a number is "<n>".
func SelfFeatures(s string) []string {
	w := selfWords(s)
	f := make([]string, 0, 2*len(w)+4)
	for _, x := range w {
		f = append(f, "u:"+x)
	}
	for i := 0; i+1 < len(w); i++ {
		f = append(f, "b:"+w[i]+"_"+w[i+1])
	}
	if len(w) > 0 {
		f = append(f, "s:"+w[0])
	}
	if len(w) > 1 {
		f = append(f, "s2:"+w[0]+"_"+w[1])
	}
	f = append(f, "len:"+string(rune('0'+min(len(w)/5, 6))))
	if strings.Contains(s, "?") {
		f = append(f, "q")
	}
	return f
}

// selfWords are a sentence's words, lower case: a letter and what
// follows of letters, apostrophes, "+", "#" and dots (dots at the end
// left out), or a run of digits as "<n>".
func selfWords(s string) []string {
	l := strings.ReplaceAll(asciiLower(s), "’", "'")
	var w []string
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(l) && (l[j] >= 'a' && l[j] <= 'z' || l[j] == '\'' || l[j] == '+' || l[j] == '#' || l[j] == '.') {
				j++
			}
			if x := strings.TrimRight(l[i:j], "."); x != "" {
				w = append(w, x)
			}
			i = j
		case c >= '0' && c <= '9':
			for i < len(l) && l[i] >= '0' && l[i] <= '9' {
				i++
			}
			w = append(w, "<n>")
		default:
			i++
		}
	}
	// One spelling for "I'm"/"I am" and "I've"/"I have".
	out := w[:0]
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] == "i'm":
			out = append(out, "im")
		case w[i] == "i've":
			out = append(out, "ive")
		case w[i] == "i" && i+1 < len(w) && w[i+1] == "am":
			out = append(out, "im")
			i++
		case w[i] == "i" && i+1 < len(w) && w[i+1] == "have":
			out = append(out, "ive")
			i++
		default:
			out = append(out, w[i])
		}
	}
	return out
}

// Sentences are the sentences of a user's message as the heuristic
// engine reads them: code, pasted blocks and quoted lines left out. The
// self model is trained on them.
func Sentences(text string) []string {
	return sentences(saidWords(text))
}

// saidWords is a user's message without what they pasted: code, pasted
// blocks and quoted lines are context, not what they said.
func saidWords(text string) string {
	text = reCodeFences.ReplaceAllString(text, " ")
	text = rePastedBlock.ReplaceAllString(text, " ")
	return reQuoteLine.ReplaceAllString(text, " ")
}
