package extract

import (
	_ "embed"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/textclf"
)

// This file holds the learned readers beside the rules (issue 17): linear
// models over a sentence's words, trained on the labelled sets' tuning
// halves by `memdir-bench models`, one for what people say of themselves
// and one for lasting facts of the project. The rules in self.go read the
// forms they were written for; people say who they are in more forms than
// rules can list ("backend guy, 10y java", "the spreadsheets are my day
// job"), and the models read those by the words such sentences share.

var (
	//go:embed selfmodel.txt
	selfModelText []byte
	//go:embed projectmodel.txt
	projectModelText []byte
)

// The embedded models, read on first use.
var (
	selfModel    = textclf.Embedded(selfModelText)
	projectModel = textclf.Embedded(projectModelText)
)

// modelled is what the models make of sentence s, given what the rules
// read in it (cands) and the memories its message gave so far (msg, where
// msg[profile] is its user memory, or profile is -1): the rules' memories
// less a user memory the self model is sure is wrong, or, when rules read
// nothing, what the self and project models read. joined reports that s
// went into the message's user memory instead. The sentence's features
// are made once, and only when a model is asked.
func modelled(s, next string, cands, msg []Candidate, profile int, at time.Time) (_ []Candidate, joined bool) {
	var feat []string
	if len(cands) > 0 {
		// What a rule read as the person where the self model is sure it
		// is not: "I'm an idiot, i had the wrong branch checked out".
		cands = slices.DeleteFunc(cands, func(c Candidate) bool {
			if c.Type != "user" {
				return false
			}
			if feat == nil {
				feat = SentenceFeatures(s)
			}
			return selfModel().Score(feat) < selfVeto
		})
		if len(cands) > 0 {
			return cands, false
		}
	}
	if feat == nil {
		feat = SentenceFeatures(s)
	}
	th := selfThreshold
	if profile >= 0 {
		th = selfMoreThreshold
	}
	if said, ok := selfSaid(s, feat, th); ok {
		// What rules did not read, said the way people say who they are:
		// one profile a message.
		c := build("user", withoutTask(read(said).text), "", at)
		if profile >= 0 {
			joinProfile(&msg[profile], c)
			return nil, true
		}
		return []Candidate{c}, false
	}
	if projectSaid(s, feat, at) {
		// A fact of the project in words no rule reads.
		fact := withoutPeopleAsides(read(s).text)
		if cs := datedFacts(fact, next, at); cs != nil {
			return cs, false
		}
		return []Candidate{build("project", fact, factWhy(fact, next, at), at)}, false
	}
	return nil, false
}

// selfThreshold is the log-odds above which a sentence rules did not read
// is taken to say who the speaker is. It was chosen by leaving one
// training set out at a time (memdir-bench models --cv): precision 0.92.
const selfThreshold = 1.0

// selfVeto is the log-odds below which a rule's reading of a sentence as
// a self-description is not kept: "I'm an idiot, i had the wrong branch
// checked out". It was chosen on the tuning sets.
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
func selfSaid(s string, feat []string, threshold float64) (string, bool) {
	if reToAgents.MatchString(s) || mayHold(s, personalWords()) || quotesSomeone(s) || selfModel().Score(feat) < threshold {
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
			reNotWhereIWork.MatchString(c) || reAtSomePlace.MatchString(c) || asksNow(c) {
			continue // "I'm in a meeting till 3", "I'm at a coffee shop so…", "could you make it a fold instead"
		}
		kept = append(kept, c)
	}
	said := strings.Join(kept, ", ")
	if len(strings.Fields(said)) < 2 || said != s && selfModel().Score(SentenceFeatures(said)) < 0 {
		return "", false // what was left out made it read as someone's
	}
	return said, true
}

// projectThreshold is the log-odds above which a sentence rules did not
// read is taken as a lasting fact of the project. It was chosen by
// leaving one training set out at a time (memdir-bench models --cv).
const projectThreshold = 1.0

// projectSaid reports a sentence the project model reads as a lasting
// fact of the project, less what is asked or aimed at agents.
func projectSaid(s string, feat []string, at time.Time) bool {
	if reQuestion.MatchString(s) || reToAgents.MatchString(s) || reNowOnly.MatchString(s) || reLogLine.MatchString(s) || reDerivable.MatchString(s) || ownErrand(s) ||
		projectModel().Score(feat) < projectThreshold {
		return false
	}
	if _, dated := AbsoluteDates(s, at); !dated && reUndatedFuture.MatchString(s) {
		return false // "the rebrand is going to change basically every color": what may come, no fact yet
	}
	return true
}

// ownErrand reports the speaker's own errand, no fact of the project: "my
// flight is on the 9th", "my dentist appointment moved".
func ownErrand(s string) bool {
	w := strings.Fields(asciiLower(s))
	if len(w) < 2 || w[0] != "my" {
		return false
	}
	switch strings.TrimSuffix(strings.Trim(w[1], ",.!"), "'s") {
	case "flight", "train", "dentist", "doctor", "appointment", "haircut", "birthday", "wedding", "gym", "lunch", "dinner",
		"kid", "kids", "son", "daughter", "wife", "husband", "partner", "mom", "mum", "dad", "parents", "sister", "brother", "dog", "cat":
		return true
	}
	return false
}

// reUndatedFuture is what is said to come, which without a date is a
// guess, not a fact to plan around.
var reUndatedFuture = lazyre.New(`(?i)\b(?:is|are|'s|'re) (?:going to|gonna)\b|\bwill (?:probably|likely|eventually|change|break)\b`)

// withoutPeopleAsides is a fact less its asides in parentheses about
// people or how the speaker feels: "the latency budget is 8 microseconds
// p99 (he thinks in microseconds even at lunch)", "half the tables have no
// primary key (legacy etl crap)". An aside that names a thing stays: "(PR
// 412)", "(the v2 endpoint)".
func withoutPeopleAsides(s string) string {
	return withoutAsides(s, func(aside string) bool {
		for _, w := range strings.Fields(asciiLower(aside)) {
			switch strings.Trim(w, ",.!?") {
			case "he", "she", "they", "i", "i'm", "im", "we", "you", "he's", "she's", "they're", "we're", "crap", "shit", "damn", "lol", "haha", "ugh", "sigh", "lmao":
				return true
			}
		}
		return false
	})
}

// asksNow reports a clause that asks for something now, or that says
// the speaker's job is the thing in front of them, which read alone says
// nothing: "could you make it a fold instead", "i do this for a living lol".
func asksNow(clause string) bool {
	w := strings.Fields(asciiLower(strings.Trim(clause, " .!")))
	for len(w) > 0 && (w[0] == "so" || w[0] == "and" || w[0] == "but" || w[0] == "just" || w[0] == "please" || w[0] == "pls") {
		w = w[1:]
	}
	if len(w) >= 6 && w[0] == "i" && (w[2] == "this" || w[2] == "that" || w[2] == "it") && strings.Join(w[3:6], " ") == "for a living" {
		return true // what "this" is stays in the conversation
	}
	return len(w) > 1 && (w[0] == "could" || w[0] == "can" || w[0] == "would") && w[1] == "you"
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

// SentenceFeatures are the names of a sentence's features for the models: its
// words and pairs of words, its first word and pair, its length in steps
// of five words, and a question mark. "I'm" and "I am" are one word,
// "im", as are "I've" and "I have"; a number is "<n>".
func SentenceFeatures(s string) []string {
	w := sentenceWords(s)
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

// sentenceWords are a sentence's words, lower case: a letter and what
// follows of letters, apostrophes, "+", "#" and dots (dots at the end
// left out), or a run of digits as "<n>".
func sentenceWords(s string) []string {
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
