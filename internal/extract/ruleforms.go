package extract

// The forms a rule takes when people say it: its reason said first or
// after "so", its topic before a colon, a dash between it and a fact, a
// verb of lasting; and what is said beside it that is no part of it (a
// joke, a chat aside).

import (
	"strings"
	"time"
)

// reasonFirst cuts a sentence that gives its reason first ("since prod
// is on 3.11, dont use 3.12 syntax") into the reason and what follows it.
func reasonFirst(s string) (reason, rest string, ok bool) {
	word, after, _ := strings.Cut(s, " ")
	if !reasonOpener(asciiLower(word)) {
		return "", "", false
	}
	reason, rest, ok = strings.Cut(after, ", ")
	if !ok || len(strings.Fields(reason)) < 3 || len(strings.Fields(rest)) < 3 || asciiLower(word) == "since" && reTemporal.MatchString(after) {
		return "", "", false
	}
	return reason, rest, true
}

// dashRule reads "X — Y" where Y, after the last dash, is a rule of its
// own and X says something else worth keeping: both, each on its own.
func dashRule(s, typ, next string, at time.Time, redirected bool) ([]Candidate, Candidate, bool) {
	i, n := -1, 0
	for _, d := range []string{" — ", " – ", " - "} {
		if j := strings.LastIndex(s, d); j > i {
			i, n = j, len(d)
		}
	}
	if i <= 0 {
		return nil, Candidate{}, false
	}
	before, after := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+n:])
	if len(strings.Fields(before)) < 3 || len(strings.Fields(after)) < 3 {
		return nil, Candidate{}, false
	}
	w := strings.Fields(asciiLower(after))
	if pointsBack(w) || namesBack(w) {
		return nil, Candidate{}, false // "… — dont paste them anywhere": the rule needs what came before
	}
	rs := classifyAll(after, next, at, redirected)
	if len(rs) != 1 || rs[0].Type != "feedback" {
		return nil, Candidate{}, false
	}
	bs := classifyAll(before, "", at, redirected)
	if len(bs) != 1 || bs[0].Type != typ {
		return nil, Candidate{}, false // what comes before reads as it did in the whole sentence
	}
	return bs, rs[0], true
}

// namesBack reports "that doc", "this file": a thing named before, which
// a rule said apart from it would lose.
func namesBack(w []string) bool {
	for i := 1; i+1 < len(w); i++ {
		switch w[i] {
		case "that", "this", "those", "these":
			if imperatives()[w[i-1]] || prepositions()[w[i-1]] || w[i-1] == "match" || w[i-1] == "matches" || w[i-1] == "follow" || w[i-1] == "follows" {
				return true
			}
		}
	}
	return false
}

// keptAs reports a rule said with a verb of lasting: "stay on the lts
// kernel, dont let it float", "stick with pnpm", "i want shutterbox to
// stay a single static binary"; not "stay on this branch", not "i want
// it to stay up tonight".
func keptAs(s string) bool {
	w := strings.Fields(asciiLower(strings.TrimRight(s, ".!")))
	if len(w) > 0 && (w[0] == "please" || w[0] == "pls" || w[0] == "and" || w[0] == "also") {
		w = w[1:]
	}
	if len(w) < 3 || reNowOnly.MatchString(s) || reOneOff.MatchString(s) || reQuestion.MatchString(s) || mayHold(s, []string{"until", "till ", "tonight", "while i"}) {
		return false
	}
	switch {
	case (w[0] == "stay" || w[0] == "stick" || w[0] == "remain") && (w[1] == "on" || w[1] == "with" || w[1] == "at"):
		switch strings.Trim(w[2], ",.") {
		case "this", "that", "it", "them", "here", "there", "me", "us", "the", "a", "an", "my", "your":
			return w[2] == "the" && len(w) > 3 && w[3] != "line" && w[3] != "call" && w[3] != "page" && w[3] != "branch" && w[3] != "task"
		}
		return true
	case (w[0] == "i" || w[0] == "we") && (w[1] == "want" || w[1] == "need"):
		for i := 3; i < len(w) && i <= 7; i++ {
			if w[i-1] == "to" && (w[i] == "stay" || w[i] == "remain") {
				return true
			}
		}
	}
	return false
}

// withoutChatAsides drops the asides in parentheses that are chat, not
// fact: "i review PRs on my phone at the gym (ironic i know)", "(don't
// ask)", "(lol)". An aside that names something stays: "(stagehand.publish
// etc)", "(KPMG)".
func withoutChatAsides(s string) string {
	return withoutAsides(s, func(aside string) bool {
		return mayHold(asciiLower(aside), []string{"i know", "lol", "haha", "lmao", "don't ask", "dont ask", "long story", "sigh", "ugh", "yes really", "i swear", "ironic", "funny enough"})
	})
}

// withoutAsides is s less each aside in parentheses after a space whose
// text (without the parentheses) chat reports.
func withoutAsides(s string, chat func(aside string) bool) string {
	for off := 0; ; {
		i := strings.Index(s[off:], " (")
		if i < 0 {
			return s
		}
		i += off
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return s
		}
		j += i
		if chat(s[i+2 : j]) {
			s = s[:i] + s[j+1:]
			off = i
			continue
		}
		off = j
	}
}

// withoutHyperbole is a reason less the joke it ends with: "renaming them
// breaks everyone's keymaps and the lighting team will riot".
func withoutHyperbole(reason string) string {
	l := asciiLower(reason)
	i := strings.LastIndex(l, " and ")
	if i <= 0 || len(strings.Fields(reason[:i])) < 3 {
		return reason
	}
	tail := l[i+len(" and "):]
	for _, h := range []string{" will riot", " would riot", " will kill me", " would kill me", " will murder me", " would murder me", " will lose it", " will lose their minds", " will freak out", " would freak out", " will scream", " will cry", " will hate me", " would hate me", " will have my head", " would have my head"} {
		if j := strings.Index(tail, h); j > 0 && len(strings.Fields(tail[:j])) <= 4 {
			return strings.TrimRight(reason[:i], " ,")
		}
	}
	return reason
}

// soRule cuts "X, so Y" where X states something: the reason X, and Y,
// which may be a rule that follows from it.
func soRule(s string) (reason, rest string, ok bool) {
	lower := asciiLower(s)
	for _, sep := range []string{", so ", "; so ", " — so "} {
		i := strings.Index(lower, sep)
		if i <= 0 {
			continue
		}
		reason, rest = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+len(sep):])
		if len(strings.Fields(reason)) < 3 || len(strings.Fields(rest)) < 3 || !declarative(reason) || reQuestion.MatchString(reason) {
			return "", "", false
		}
		return strings.TrimRight(reason, ".!"), rest, true
	}
	return "", "", false
}

// convention reports a rule said of the things it governs: "commit
// messages always start with the component", "role names are always
// <team>-<purpose>-<env>", "migrations never run at startup". What a thing
// always or never does wrong ("the build always fails on arm") is trouble,
// not a rule.
func convention(s string) bool {
	w := strings.Fields(asciiLower(strings.TrimRight(s, ".!")))
	for len(w) > 0 {
		switch strings.Trim(w[0], ",") {
		case "and", "also", "but", "so", "yes", "ok", "okay", "please", "pls", "oh", "btw", "fyi":
			w = w[1:]
			continue
		}
		break
	}
	if len(w) > 0 {
		switch w[0] {
		case "all", "our", "the", "every", "each", "any":
			w = w[1:]
		}
	}
	k := -1
	for i := 1; i < len(w) && i <= 5; i++ {
		if w[i] == "always" || w[i] == "never" || w[i] == "must" {
			k = i
			break
		}
		if strings.HasSuffix(w[i], ",") {
			return false // the subject ends before any "always"
		}
	}
	np := w[:max(k, 0)]
	if k < 0 || k+1 >= len(w) {
		return false
	}
	if last := np[len(np)-1]; last == "is" || last == "are" {
		np = np[:len(np)-1]
	}
	if len(np) == 0 || len(np) > 4 || imperatives()[np[0]] || stepVerb(np[0]) {
		return false // "write the commit messages always in English": an order, read as one
	}
	for _, x := range np {
		switch x {
		case "i", "you", "he", "she", "it", "they", "we", "this", "that", "these", "those", "there", "which", "who", "what",
			"someone", "somebody", "nobody", "everyone", "everybody", "he's", "she's", "it's", "its", "was", "were", "has", "had", "do", "does", "did",
			"ive", "i've", "im", "i'm", "weve", "we've", "we're", "youve", "you've", "you're", "theyve", "they've", "they're", "id", "i'd", "ill", "i'll":
			return false
		}
	}
	verb := strings.Trim(w[k+1], ",")
	if last := w[k-1]; last == "is" || last == "are" {
		// "role names are always <team>-<purpose>-<env>": what they are,
		// unless it is trouble ("the tests are always flaky").
		switch verb {
		case "flaky", "slow", "broken", "red", "failing", "down", "late", "wrong", "buggy", "unstable", "noisy", "empty", "stale", "full", "behind", "off":
			return false
		}
	} else if w[k] != "must" && !conventionVerb(verb) && !prepositions()[verb] { // "pupil names never in urls"; "the extension must never send …" binds whatever its verb
		return false // "users never read the docs", "the old code never checked for nil": what is, not what is done
	}
	return !rePast.MatchString(s) && !reQuestion.MatchString(s) && !reNowOnly.MatchString(s) && !reTrouble.MatchString(s) && !mayHold(s, hereWords)
}

// conventionVerb reports a verb a convention says its things do: "commit
// messages always start with …", "secrets never go in …".
func conventionVerb(v string) bool {
	for _, x := range []string{v, strings.TrimSuffix(v, "s"), strings.TrimSuffix(v, "es")} {
		switch x {
		case "start", "begin", "end", "go", "use", "need", "include", "follow", "live", "run", "stay", "contain", "carry", "match",
			"point", "land", "ship", "target", "call", "be", "have", "sit", "belong", "lead", "leave", "touch", "hit", "reach":
			return true
		}
	}
	return v == "has" || v == "carries"
}

// pastHabit reports what the team always or never did, which is history,
// not a rule: "we always had trouble with that vendor", "we never used to
// pin versions".
func pastHabit(lower string) bool {
	if strings.ContainsAny(lower, ",;") {
		return false // "we always had trouble with that vendor, never use their sdk": a rule after it
	}
	w := strings.Fields(lower)
	return len(w) > 2 && w[0] == "we" && (w[1] == "always" || w[1] == "never") && (w[2] == "used" || rePast.MatchString(w[2]))
}
