package extract

import (
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads the clauses of a sentence that says nothing worth
// keeping as a whole: people put a standing rule in the middle of a run-on
// message ("the wave numbers are in notion, so plain monobehaviours unless
// i specifically say otherwise, oh and …"). A clause is a rule by its
// structure, wherever it stands: a deontic verb (has to, must, needs), a
// word that makes it hold every time (always, never, every, no
// exceptions, non-negotiable, unless I say otherwise), or an imperative
// that does, or a contrast ("X, not Y") after an imperative or "we".

var (
	// reRuleCue is what makes a clause hold every time.
	reRuleCue = gate(lazyre.New(`(?i)\b(?:keep (?:it|them|things|everything|(?:all )?[\w-]+s|[\w-]+ [\w-]+s) (?:dead )?(?:minimal|simple|short|small|lean|consistent|readable|tidy|focused|boring|stable)|always|never|every(?:where| time| single)?|whenever|non-negotiable|no exceptions|at all times|by default|unless (?:i|we|you) (?:\w+ )?(?:say|ask)|is a no|are a no|not allowed|(?:is|are|'s|been) (?:banned|forbidden|off[- ]limits)|only (?:ever )?(?:from|via|through|in|on|with))\b`))
	// reStrongCue and reStrongDeontic are what make a statement about a
	// thing a rule: a clause with its own subject needs more than "every"
	// or "should".
	reStrongCue     = gate(lazyre.New(`(?i)\b(?:always|never|non-negotiable|no exceptions|at all times|by default|unless (?:i|we|you) (?:\w+ )?(?:say|ask)|is a no|are a no|not allowed|(?:is|are|'s|been) (?:banned|forbidden|off[- ]limits)|only (?:ever )?(?:from|via|through))\b`))
	reStrongDeontic = gate(lazyre.New(`(?i)\b(?:has to|have to|must(?: not)?|needs (?:to|sign-?off|approval|review)|(?:is|are) required|goes through|go through)\b`))
	// reAlternative is "X, not Y", "instead of", "rather than", "over".
	reAlternative = gate(lazyre.New(`(?i)(?:,\s*not\b|\bnot on\b|\bnot in\b|\binstead of\b|\brather than\b|\bover (?:the )?\w+ (?:ones?|version)\b)`))
	// reNotRuleClause is a clause that is about now or the past, or asks.
	reNotRuleClause = gate(lazyre.New(`(?i)\b(?:is|are) (?:always|never) (?:so |too |really |super )?(?:flaky|red|slow|broken|late|cold|down|failing|smooth|annoying|weird|bad|messy|noisy|painful|a pain|a mess)\b|\b(?:used to|yet|i guess|i think|maybe|probably|never mind|never again|never heard|never touched|never used|never done|never worked|never seen|never had|never been|never got|never did|i never|don'?t (?:be surprised|ask (?:me )?why)|can you|could you|would you|can we|could we|for now|right now|today|tonight|this (?:time|once|week)|just this|last (?:time|week|year|month|night)|ago|yesterday)\b`))
)

// clauseRules are the rules the clauses of s state (see above): each with
// the reason the sentence gives (because, since, what went wrong), once.
// A sentence whose clauses state none gives nil.
func clauseRules(s, next string, at time.Time) []Candidate {
	if len(s) > maxClauseText || reQuestion.MatchString(s) || reToAgents.MatchString(s) || reDerivable.MatchString(s) {
		return nil
	}
	cuts := clauseCuts(s)
	lower := asciiLower(s)
	for _, sep := range []string{" so ", " but ", " and we ", " and i "} {
		n := len(sep)
		if strings.HasPrefix(sep, " and ") {
			n = len(" and ") // the clause keeps its subject: "…and i dont want to go thru that again"
		}
		for off := 0; ; {
			i := strings.Index(lower[off:], sep)
			if i < 0 {
				break
			}
			at := off + i
			if at > 0 && s[at-1] != ',' && s[at-1] != ';' {
				cuts = append(cuts, cut{at, n})
			}
			off = at + len(sep)
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	var out []Candidate
	prev, prevRule := "", -1       // the clause before, and out's rule of it
	reasoned := hasReason(s, next) // once a sentence, not once a clause
	skipNext := false              // the clause was read as the list the rule before it goes on with
	skipped := false               // the clause before was such a list: prev is not right before this one
	for k := range cuts {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		if end < cuts[k].at+cuts[k].n || skipNext {
			skipped, skipNext = skipNext, false
			continue
		}
		rawClause := strings.TrimSpace(s[cuts[k].at+cuts[k].n : end])
		c := trimClauseLead(rawClause)
		contrast := false // "round on the invoice total, never per line"
		if lone := strings.Trim(asciiLower(c), " .!"); (lone == "always" || lone == "every time" || lone == "everywhere") && prev != "" {
			// "write the incident notes in UTC, always, half the team…"
			c = prev + ", " + lone
			if prevRule >= 0 {
				out = out[:prevRule]
			}
		} else if pred := predicateOf(prev); pred != "" && bareModal(strings.Fields(asciiLower(strings.TrimRight(c, ".! ")))) {
			// "it has to go through the LeavePolicy gate, every approval
			// action must": every approval action must go through it.
			c = strings.TrimRight(c, ".! ") + " " + pred
			if prevRule >= 0 {
				out = out[:prevRule]
			}
		} else if bareModal(strings.Fields(asciiLower(strings.TrimRight(c, ".! ")))) {
			prev, prevRule = "", -1
			continue // "…, , every PR should": its verb is nowhere
		} else if elliptical(c) && prev != "" {
			contrast = true
			// "applied only from atlantis, never from a laptop": the
			// clause before says what is never from a laptop; and before a
			// list without a verb, the clause that has one ("we page on
			// symptoms, error rate and latency burn, not on causes").
			c = prev + ", " + c
			if prevRule >= 0 {
				out = out[:prevRule]
			}
			for kk := k - 1; kk > 0 && verbless(prev); kk-- {
				e, ok := clauseAt(s, cuts[:kk+1], kk-1)
				if !ok {
					break // two cuts overlap: "x, - y"
				}
				earlier := trimClauseLead(strings.TrimSpace(e))
				c, prev = earlier+", "+c, earlier
			}
			if i := strings.LastIndex(c, ": "); i > 0 && len(strings.Fields(c[i+2:])) >= 4 {
				c = c[i+2:] // "finance rule, from Hannah: round on the total, never per line"
			}
		}
		// "the api group stays tenants.platform.acme.io, dont rename it":
		// a prohibition that points back at the clause before; "prompts
		// live in prompts/ as .md files, never inline strings": the clause
		// before says where they go instead.
		lw := strings.Fields(asciiLower(c))
		prohibits := len(lw) >= 2 && (lw[0] == "never" || lw[0] == "dont" || lw[0] == "don't" || lw[0] == "do" && lw[1] == "not")
		thatWay := len(lw) >= 3 && lw[0] == "keep" && strings.HasSuffix(strings.TrimRight(asciiLower(c), ".! "), "that way") // "…, keep suggesting it that way"
		backed := (prohibits || thatWay) && prevRule < 0 && prev != "" && len(strings.Fields(prev)) >= 3 && (declarative(prev) || len(locVerbEnds(prev)) > 0 || thatWay) && !reQuestion.MatchString(prev) &&
			!rePast.MatchString(prev) && !reNowOnly.MatchString(prev) && !reNowOnly.MatchString(c) && !mayHold(c, []string{" yet", " until ", " till ", " for now"}) && !mayHold(prev, []string{" mess", "broken", "flaky"}) &&
			(thatWay || pointsBack(lw) && (namedPlace(prev) || len(strings.Fields(prev)) <= 10 && declarative(prev) && (mayHold(c, everyTime) || lw[0] == "never")) || !pointsBack(lw) && len(locVerbEnds(prev)) > 0)
		var said string // the reason the clause before gave, its subject put in the rule
		if backed && pointsBack(lw) && reComplaint.MatchString(prev) {
			// "e2e is slow and hogs my laptop, dont run it locally": the
			// rule names what "it" is, and the complaint is its reason.
			if subj := subjectOf(prev); subj != "" {
				if r, ok := namedFor(c, subj); ok {
					c, said, backed = r, strings.TrimRight(prev, ".!"), false
				}
			}
		}
		if backed {
			c = prev + ", " + c
		}
		joined := prevRule >= 0 && prev != "" && (noPhrase(c) || !skipped && insteadDo(prev, c))
		skipped = false
		if joined {
			// "keep the gdscript dead simple, no clever one-liners": more
			// of the rule before; "…, no exceptions" too.
			c = prev + ", " + c
			out = out[:prevRule]
		}
		prev, prevRule = c, -1
		// "whatever we do keep the gdscript dead simple": an imperative
		// said for whatever is done.
		whatever := strings.HasPrefix(asciiLower(rawClause), "whatever we do ") || strings.HasPrefix(asciiLower(rawClause), "whatever you do ")
		// "X, never Y" names both sides of a standing choice, said of no
		// subject ("the api is slow, never the db" reports).
		first, _, _ := strings.Cut(asciiLower(c), " ")
		contrast = contrast && strings.HasPrefix(strings.TrimLeft(asciiLower(rawClause), " "), "never ") && !subjects()[first] && !rePast.MatchString(c) && !reQuestion.MatchString(c)
		if !joined && !backed && !contrast && !ruleLike(c, reasoned) && !(whatever && imperatives()[first]) {
			continue
		}
		if so := strings.TrimSpace(s[cuts[k].at:cuts[k].at+cuts[k].n]) == "so" || strings.HasPrefix(asciiLower(rawClause), "so "); so && reNowOnly.MatchString(s[:cuts[k].at]) {
			continue // "I'm on call this week so keep answers short": for now
		}
		prevRule = len(out)
		if k+1 < len(cuts) && strings.TrimSpace(s[cuts[k+1].at:cuts[k+1].at+cuts[k+1].n]) == "," {
			// "never put real patient data in fixtures, tests or log
			// lines": the list the rule goes on with is the rule's.
			nextEnd := len(s)
			if k+2 < len(cuts) {
				nextEnd = cuts[k+2].at
			}
			if item := strings.TrimSpace(s[cuts[k+1].at+cuts[k+1].n : nextEnd]); listTail(item) {
				c, end, skipNext = c+", "+item, nextEnd, true
			}
		}
		why := reasonOf(s, next)
		if why == "" {
			why = said
		}
		if why == "" && end < len(s) {
			if rest := strings.TrimLeft(s[end:], " ,;—–-"); len(strings.Fields(rest)) >= 3 && declarative(rest) && !ruleLike(trimClauseLead(rest), false) && !aside(rest) {
				why = strings.TrimRight(rest, ".!")
			}
		}
		if why == "" && k > 0 {
			// "we did a jobs rewrite … and shipped nothing, so plain
			// monobehaviours": what went wrong, or what the rule follows
			// from, before it.
			before := strings.TrimRight(strings.TrimSpace(s[:cuts[k].at]), ",;")
			if m := reCausal.FindStringSubmatch(before); m != nil && len(strings.Fields(m[1])) >= 3 {
				why = strings.TrimRight(m[1], ".!,; ")
			} else if so := strings.TrimSpace(s[cuts[k].at:cuts[k].at+cuts[k].n]) == "so" || strings.HasPrefix(asciiLower(rawClause), "so "); so && len(strings.Fields(before)) >= 3 && declarative(before) {
				why = before
			} else if k == 1 && !strings.Contains(asciiLower(c), asciiLower(before)) && len(strings.Fields(before)) >= 4 && declarative(before) && !ruleLike(trimClauseLead(before), false) && (aboutRule(before, c) || statesNow(before)) && !reQuestion.MatchString(before) && !aside(before) {
				// "the editors there are not technical at all, every block
				// needs a help text": one statement, then the rule it
				// explains.
				why = before
			}
		}
		if n := strings.TrimSpace(next); why == "" && len(strings.Fields(n)) >= 4 && declarative(n) && !reQuestion.MatchString(n) &&
			!reFeedback.MatchString(n) && !reRuleStart.MatchString(n) && !ruleLike(trimClauseLead(n), false) && !aside(n) && aboutRule(n, c) {
			// "… never from a laptop. someone applied from their laptop in
			// march and wiped half the alert rules."
			why = strings.TrimRight(n, ".!")
		}
		if p := predicateOf(why); p != "" && strings.HasSuffix(asciiLower(c), asciiLower(p)) {
			why = "" // "it has to go through the gate, every approval action must": the rule took its verb, not a reason
		}
		if i := strings.Index(asciiLower(c), asciiLower(why)); i == 0 || i > 0 && len(strings.Fields(c[:i])) < 2 {
			// A why the rule opens with leaves no rule; one inside it
			// ("…has to stay at 5 minutes ttl because merchandising…")
			// is cut out of it by build.
			why = ""
		}
		typ := "feedback"
		if reOwner.MatchString(c) || reProject.MatchString(c) {
			typ = "project"
		}
		out = append(out, build(typ, c, why, at))
	}
	return out
}

// trimClauseLead drops the words that join a clause to the one before it.
func trimClauseLead(c string) string {
	for {
		l := asciiLower(c)
		trimmed := false
		for _, lead := range []string{"and ", "but ", "so ", "also ", "please ", "pls ", "plz ", "oh ", "then ", "yes ", "yeah ", "ok ", "tho ", "though ", "whatever we do ", "whatever you do "} {
			if strings.HasPrefix(l, lead) {
				c, trimmed = strings.TrimSpace(c[len(lead):]), true
				break
			}
		}
		if !trimmed {
			return read(c).text
		}
	}
}

// reportedLead is the length of a lead that says who gave the rule that
// follows ("oskar said in standup we always use…", "my lead told us to
// never…"), or 0: the rule is what is kept. A decision ("ingrid decided
// we migrate…") keeps who made it.
func reportedLead(l string) int {
	for _, p := range []string{"as i said ", "as i said, ", "like i said ", "like i said, ", "as i mentioned ", "as i mentioned, ", "as mentioned, "} {
		if strings.HasPrefix(l, p) && len(l) > len(p) {
			return len(p)
		}
	}
	off := 0
	next := func() string { // the next word of l, and off past it
		for off < len(l) && l[off] == ' ' {
			off++
		}
		start := off
		for off < len(l) && l[off] != ' ' {
			off++
		}
		return l[start:off]
	}
	w := next()
	if w == "my" || w == "our" || w == "the" {
		w = next()
		if w2 := next(); w2 != "said" && w2 != "told" {
			w = w2 // "our tech lead said"
		} else {
			off -= len(w2)
		}
	}
	switch {
	case w == "" || strings.ContainsAny(w, ",.:;!?"):
		return 0
	case w == "we" || w == "i" || w == "you" || w == "u":
		return 0 // "we decided to version the api in the url": a decision, told as one
	}
	switch verb := next(); verb {
	case "said":
	case "told":
		if o := next(); o != "me" && o != "us" {
			return 0
		}
	default:
		return 0
	}
	at := off
	w = next()
	if w == "in" || w == "at" || w == "on" { // "in standup", "in the retro"
		if w = next(); w == "the" {
			next()
		}
		at = off
		w = next()
	}
	if w == "that" {
		at = off
	}
	for at < len(l) && l[at] == ' ' {
		at++
	}
	// Only a rule is unwrapped: its first or second word says always or
	// never ("we always use…", "to never…", "dont…").
	rest := strings.Fields(l[at:min(len(l), at+40)])
	if len(rest) < 3 || !slices.ContainsFunc(rest[:2], func(w string) bool {
		return w == "always" || w == "never" || w == "dont" || w == "don't" || w == "not"
	}) {
		return 0
	}
	switch rest[0] {
	case "to": // "told us to always squash"
		return off + 1
	case "we", "always", "never", "dont", "don't", "do", "you", "u":
		return at
	}
	return 0
}

// everyTime are the words that make "don't do it" a rule for every
// time, not a step of this task: "dont run it locally each time".
var everyTime = []string{"each time", "every time", " ever", "anymore", "any more", "in general", "unless"}

// ruleLike reports a clause that states a standing rule by its structure;
// reasoned says the sentence gives a reason for it.
func ruleLike(c string, reasoned bool) bool {
	if !mayHold(c, ruleWords) {
		return false // the cheap test first: most clauses hold none of a rule's words
	}
	words := strings.Fields(strings.ToLower(c))
	if len(words) < 3 || reNotRuleClause.MatchString(c) || reOneOff.MatchString(c) || reNowOnly.MatchString(c) ||
		reAnaphor.MatchString(c) || pointsBack(words) && !prohibition(words) { // "no automations that make noise": a relative "that"
		return false
	}
	cue := reRuleCue.MatchString(c)
	if cue && gerundCue(c) {
		cue = false // "our plan hinges on the app tier never seeing a raw PAN": a noun phrase, no rule
	}
	if reGuess.MatchString(c) && !cue {
		return false // "we should add an index", "the runner must have run out of disk"
	}
	if reRuleStart.MatchString(c) {
		return true
	}
	if firstPersonNeed(words) {
		return false
	}
	imperative := imperatives()[strings.Trim(words[0], "\"'`")] && words[0] != "just" && words[0] != "only" && words[0] != "see"
	we := words[0] == "we" || words[0] == "we're" || words[0] == "everyone" || words[0] == "nobody"
	switch {
	case imperative:
		// "use srun, not mpirun, mpirun bypasses the cgroup binding": an
		// alternative counts with a reason; "keep the old colors, not the
		// new palette" alone is this task's.
		return cue || reAlternative.MatchString(c) && reasoned || prohibition(words)
	case we:
		return (cue || reAlternative.MatchString(c)) && !rePast.MatchString(c)
	default:
		// A subject and a rule: "every read of a patient resource has to
		// write an AuditEvent", "terraform always gets planned in the PR".
		// Not "every color" in what is going to happen, not what a task's
		// thing "should" do, not what a system always or never does ("the
		// api always returns 500").
		return (reStrongCue.MatchString(c) && reRuleVerb.MatchString(c) || reStrongDeontic.MatchString(c) || thingOnly(c)) && !rePast.MatchString(c) && !pronounSubject(words[0])
	}
}

// gerundCue reports a clause whose only rule cue is "never" or "always"
// before a gerund in the middle of a noun phrase: "the app tier never
// seeing a raw PAN". Not at the clause's start ("never pushing to main,
// ok?"), and not "never bring", "never ping".
func gerundCue(c string) bool {
	w := strings.Fields(asciiLower(c))
	found := false
	for i := 1; i+1 < len(w); i++ {
		if w[i] != "never" && w[i] != "always" {
			continue
		}
		next := strings.Trim(w[i+1], ".,;!")
		if len(next) < 6 || !strings.HasSuffix(next, "ing") || next == "string" || next == "spring" {
			return false
		}
		found = true
	}
	if !found {
		return false
	}
	return !reRuleCue.MatchString(reNeverIng.ReplaceAllString(c, ""))
}

// reNeverIng is "never" or "always" and the gerund after it.
var reNeverIng = gate(lazyre.New(`(?i)\b(?:never|always) \w+ing\b`))

var (
	// reGuess is a clause that guesses or suggests for now.
	reGuess = gate(lazyre.New(`(?i)\b(?:must (?:have|be \w+ing)|(?:we|you) (?:should|need to|have to|could|might)|should probably)\b`))
	// reRuleVerb is "always"/"never" with what people do to a thing, or
	// a prohibition: "terraform always gets planned", "openmp is a no
	// here", "non-negotiable".
	reRuleVerb = gate(lazyre.New(`(?i)\b(?:always|never|only) (?:gets?|goes?|go|is|are|be|has|have|needs?|lives?|happens?|runs? (?:through|on|in|via)|uses?|comes? (?:in )?(?:through|from|via)|from|in|on|by|via|through|into|under)\b|\b(?:non-negotiable|no exceptions|at all times|unless (?:i|we|you) \w+|is a no|are a no|not allowed|banned|forbidden|off[- ]limits|only (?:ever )?(?:from|via|through))\b|\b(?:is|are) (?:always|never) [^,;.]{1,60}\bhere\b`))
)

// noPhrase is "no" and a noun phrase, which after a rule says more of it
// and joins it: "keep the gdscript dead simple, no clever one-liners or
// chained ternaries", "…, no exceptions"; not "no worries", not "no
// caching needed".
// insteadDo reports a short imperative after a prohibition that says what
// to do instead: "don't guess court rules, check the actual practice
// direction". Not a rule of its own ("…, always run X"), not a step now.
func insteadDo(prev, c string) bool {
	p := strings.Fields(asciiLower(prev))
	w := strings.Fields(asciiLower(strings.TrimRight(c, ".!")))
	if len(p) < 2 || len(w) < 2 || len(w) > 8 || !(p[0] == "don't" || p[0] == "dont" || p[0] == "never" || p[0] == "do" && p[1] == "not") {
		return false
	}
	switch w[0] {
	case "always", "never", "dont", "don't", "do", "just", "only", "see", "let's", "lets", "please", "tell", "ping", "ask", "wait", "stop":
		return false
	}
	return imperatives()[w[0]] && !reNowOnly.MatchString(c) && !reQuestion.MatchString(c)
}

func noPhrase(c string) bool {
	words := strings.Fields(asciiLower(strings.TrimRight(c, ".!")))
	if len(words) < 2 || len(words) > 8 || words[0] != "no" || notRule()[words[1]] || statusNouns()[words[1]] || reNowOnly.MatchString(c) {
		return false
	}
	return !slices.ContainsFunc(words[1:], func(w string) bool { return finiteVerbs()[w] }) && !(len(words) > 2 && strings.HasSuffix(words[2], "ed"))
}

// verbless reports a clause with no finite verb, no past participle and no
// imperative first: a list item or a noun phrase ("error rate and latency
// slo burn").
// reQuoted is a quoted name after a space: "'TabNest Support'", not the
// "'t" of "don't".
var reQuoted = gate(lazyre.New(`(?:^|\s)(?:'[^']{1,60}'|"[^"]{1,60}"|\x60[^\x60]{1,60}\x60)`))

func verbless(c string) bool {
	if strings.ContainsAny(c, "'\"\x60") {
		c = reQuoted.ReplaceAllString(c, " x") // "mailbox 'TabNest Support'": a name holds no verb
	}
	words := strings.Fields(asciiLower(c))
	if len(words) == 0 || imperatives()[words[0]] || subjects()[words[0]] {
		return false
	}
	for _, w := range words {
		w = strings.Trim(w, ".,;:!\"'`()")
		if finiteVerbs()[w] || len(w) >= 6 && strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "n't") {
			return false
		}
	}
	return true
}

// pronounSubject is a subject that points back at what was said before:
// "that's the one thing the CFO checks every morning" is a reason.
func pronounSubject(w string) bool {
	switch w {
	case "it", "it's", "its", "that", "that's", "thats", "this", "this's", "which", "there", "there's", "he", "she", "they", "they're":
		return true
	}
	return false
}

// elliptical is a clause that leaves its verb to the one before it: "never
// from a laptop", "not on causes", "never straight into the app", "always
// in UTC".
func elliptical(c string) bool {
	words := strings.Fields(strings.ToLower(strings.TrimRight(c, ".!")))
	if len(words) < 2 || len(words) > 6 {
		return false
	}
	switch words[0] {
	case "never", "not", "always", "only":
	default:
		return false
	}
	w := words[1]
	if words[0] == "never" && len(words) <= 4 && w != "mind" && w != "again" && w != "ever" && !strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "en") && !imperatives()[w] && verbless(strings.Join(words[1:], " ")) {
		return true // "…, never rw", "…, never per line"
	}
	if w == "straight" || w == "directly" || w == "ever" || w == "just" {
		if len(words) < 3 {
			return false
		}
		w = words[2]
	}
	return prepositions()[w] || w == "into" || w == "via" || w == "through" || w == "public" || w == "the" || w == "a" || w == "an"
}

// ruleWords are the words one of which every clause ruleLike accepts
// holds (reRuleStart's, reRuleCue's, reStrongDeontic's, reAlternative's).
var ruleWords = []string{"never", "always", "don", "do not", "avoid", "no new", "can", "when", "if you", "every", "we ", "you ",
	"non-negotiable", "no exceptions", "by default", "unless", "a no", "not allowed", "banned", "forbidden", "off", "only",
	"has to", "have to", "must", "need", "require", "go through", "goes through", "not ", ", not", "instead of", "rather than", "over ", "at all times",
	"keep ", "no "}

// firstPersonNeed is "I need to…", "need to sign off", "you need to…":
// the speaker's own to-do, or what is asked of the agent now.
func firstPersonNeed(words []string) bool {
	switch words[0] {
	case "i", "i'm", "im", "i'll", "you", "need", "gotta", "got", "have":
		return len(words) > 1
	}
	return false
}

// aboutRule reports whether the sentence after a rule tells why: it shares
// a word with the rule, or tells what went wrong; never chat, a place, a
// secret or text aimed at agents ("my cat just walked across the
// keyboard lol", "the password for argo is in 1password").
func aboutRule(n, rule string) bool {
	if reToAgents.MatchString(n) || isWhere(n) || len(secretKinds(n)) > 0 || mayHold(n, chatWords) || reNowOnly.MatchString(n) ||
		mayHold(n, []string{"password", "token", "secret", "api key", "credential"}) {
		return false
	}
	if reCausal.MatchString(n) || reBurned.MatchString(n) || rePast.MatchString(n) && mayHold(n, harmWords) || mayHold(n, worseWords()) && declarative(n) {
		return true
	}
	ruleWords := map[string]bool{}
	for _, w := range strings.FieldsFunc(asciiLower(rule), notWordByte) {
		if len(w) >= 4 && !confirmFillers()[w] {
			ruleWords[w] = true
		}
	}
	words := strings.FieldsFunc(asciiLower(n), notWordByte)
	for _, w := range words {
		if ruleWords[w] {
			return true
		}
	}
	// A short statement in the present that points back at the rule's
	// things: "The team in Porto reads them too". Not "our office dog is
	// called Rex", not "it was a long week", not one that holds a value
	// that could be a credential.
	if len(words) > 14 || !declarative(n) || rePast.MatchString(n) || mayHold(n, []string{" was ", " were ", " had "}) || holdsToken(n) {
		return false
	}
	for _, w := range words {
		switch w {
		case "them", "they", "those", "these":
			return true
		}
	}
	return false
}

// worseWords are what went worse, which explains a rule: "hybrid runs
// gave us worse scaling than pure MPI"; not a comparison of today ("the
// coffee here is worse"). Built on use: a hook's start-up pays for none.
func worseWords() []string {
	return []string{" gave us worse", " gave us slower", " made it worse", " made it slower", " made things worse", " made everything slower",
		" was worse", " were worse", " was slower", " were slower", " got worse", " got slower", " cost us ", " costs us "}
}

// reComplaint is a clause that says what is wrong with a thing: why a rule
// after it keeps away from it.
var reComplaint = gate(lazyre.New(`(?i)\b(?:is|are)\s+(?:(?:so|too|really|super|very|kinda|pretty|still)\s+)?(?:slow|flaky|huge|heavy|expensive|broken|fragile|brittle|noisy|unstable|costly|shared)\b|\b(?:hogs|eats up|takes \d+ ?(?:min|mins|minutes|hours|h))\b`))

// subjectOf is the noun phrase a clause opens with, up to its verb: "the
// integration suite" of "the integration suite is flaky"; "" when the
// clause opens with a pronoun or has no verb in its first five words.
func subjectOf(clause string) string {
	w := strings.Fields(clause)
	for i := 1; i < len(w) && i <= 4; i++ {
		if v := asciiLower(strings.Trim(w[i], ".,;:!")); finiteVerbs()[v] || v == "takes" || v == "hogs" {
			if subjects()[asciiLower(w[0])] && !determiners()[asciiLower(w[0])] || pronounSubject(asciiLower(w[0])) {
				return ""
			}
			return strings.Join(w[:i], " ")
		}
	}
	return ""
}

// namedFor puts subj where rule says "it" or "them": "dont run it
// locally" → "dont run e2e locally".
func namedFor(rule, subj string) (string, bool) {
	w := strings.Fields(rule)
	for i, x := range w {
		if i > 0 && i <= 3 {
			if t := strings.ToLower(strings.TrimRight(x, ".,;!")); t == "it" || t == "them" {
				w[i] = subj + x[len(t):]
				return strings.Join(w, " "), true
			}
		}
	}
	return "", false
}

// statesNow reports a short statement of how things are, in the present,
// with nothing in it that must not be kept: "our CI runners are tiny" in
// "our CI runners are tiny, please don't add parallel jobs" is why the
// rule after it holds, though they share no word.
func statesNow(n string) bool {
	w := strings.Fields(asciiLower(n))
	if len(w) == 0 || slices.Contains([]string{"that", "that's", "thats", "this", "it", "it's", "its"}, w[0]) || slices.Contains(w, "want") || slices.Contains(w, "wants") {
		return false // "that's exactly how we want it": an approval, not a reason
	}
	return len(w) <= 14 && declarative(n) && !rePast.MatchString(n) && !mayHold(n, []string{" was ", " were ", " had "}) && !holdsToken(n) &&
		!isWhere(n) && !reNowOnly.MatchString(n) && !reToAgents.MatchString(n) && len(secretKinds(n)) == 0 && !mayHold(n, chatWords) &&
		!slices.ContainsFunc(w, func(x string) bool { return firstPerson(x) || x == "now" || x == "today" })
}

// harmWords are what a past event that explains a rule did.
var harmWords = []string{"wiped", "broke", "lost", "deleted", "leaked", "crashed", "took down", "outage", "incident", "bill", "burned", "corrupt", "quit", "fired", "wasted", "dinged", "failed"}

// hasReason reports whether a sentence gives a reason: a causal word, a
// clause that says what went wrong, or a trailing clause that states
// something.
func hasReason(s, next string) bool {
	return reasonOf(s, next) != "" || causalReason(s) != ""
}

// reAside is a clause that is an aside, not a reason: "the standup moved
// to 10am btw".
var reAside = gate(lazyre.New(`(?i)\b(?:btw|fyi|by the way|unrelated|anyway|oh and|also)\b`))

// aside reports a clause that is an aside or a fact of its own with a
// day or a time in it.
func aside(c string) bool {
	if reAside.MatchString(c) {
		return true
	}
	_, dated := AbsoluteDates(c, time.Time{})
	return dated || reClock.MatchString(c)
}

var reClock = gate(lazyre.New(`(?i)\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b`))

// pointedRule reads a fact and, in the clause after it, a rule that points
// back at the fact's day: "the osm import runs every sunday, don't
// schedule heavy queries then" is the rule "don't schedule heavy queries
// on sundays", because of the fact. The pointer is resolved against the
// fact's own date (or its weekday, for a weekly one), so the rule stands
// alone; ok is false when there is no such rule, or nothing to resolve
// its pointer against.
func pointedRule(s string, at time.Time) (rule, why string, ok bool) {
	if len(s) > maxClauseText {
		return "", "", false
	}
	cuts := clauseCuts(s)
	if i := strings.LastIndex(asciiLower(s), " so "); i > 0 && i > cuts[len(cuts)-1].at {
		cuts = append(cuts, cut{i, len(" so ")}) // "…is on december 18 so we're trying to…"
	}
	if len(cuts) < 2 {
		return "", "", false
	}
	last := cuts[len(cuts)-1]
	head := strings.TrimRight(strings.TrimSpace(s[:last.at]), ",;")
	tail := strings.TrimRight(strings.TrimSpace(s[last.at+last.n:]), ".! ")
	so := strings.TrimSpace(asciiLower(s[last.at:last.at+last.n])) == "so" || strings.HasPrefix(asciiLower(tail), "so ")
	tail = trimClauseLead(tail)
	words := strings.Fields(asciiLower(tail))
	if len(words) < 3 || len(strings.Fields(head)) < 3 || !declarative(head) || reQuestion.MatchString(head) {
		return "", "", false
	}
	// A standing rule, or after "so" what follows from the fact ("so
	// we're trying to show lower credits before then"), not what once did;
	// not a task ("set up her laptop before then"), not a rule said under a
	// condition ("…, if the build is red, don't merge then").
	if !reRuleStart.MatchString(tail) && words[0] != "no" && !(so && declarative(tail) && !rePast.MatchString(tail)) || saidOfThePast(words) {
		return "", "", false
	}
	if hc := clauseCuts(head); len(hc) > 1 {
		if w := strings.Fields(asciiLower(head[hc[len(hc)-1].at+hc[len(hc)-1].n:])); len(w) > 0 && (w[0] == "if" || w[0] == "when" || w[0] == "whenever" || w[0] == "unless") {
			return "", "", false
		}
	}
	loc := reAnaphor.FindStringIndex(tail)
	if loc == nil {
		return "", "", false
	}
	pointer := strings.TrimRight(asciiLower(tail[loc[0]:]), ".! ")
	if pointer == "then" || pointer == "that day" {
		// "before then", "until that day": the word before says which side.
		before := strings.Fields(asciiLower(tail[:loc[0]]))
		if n := len(before); n > 0 && (before[n-1] == "before" || before[n-1] == "after" || before[n-1] == "by" || before[n-1] == "until" || before[n-1] == "till") {
			pointer = before[n-1] + " that"
			loc[0] = strings.LastIndex(asciiLower(tail[:loc[0]]), before[n-1])
		}
	}
	dated, _ := AbsoluteDates(head, at)
	days := reISODate.FindAllString(dated, -1) // as AbsoluteDates writes them
	recurring := reRecurringDays.FindString(head)
	if len(days) == 1 && recurring != "" || strings.Contains(dated, "(next ") || strings.Contains(asciiLower(recurring), " other ") {
		// A day and a weekly one, a monthly day, every other week: no one
		// day the pointer names (nor a range, "june 1 to june 15", below).
		return "", "", false
	}
	when := ""
	if len(days) == 1 {
		d := days[0]
		switch pointer {
		case "then", "that day":
			when = "on " + d
		case "after that", "after it":
			when = "after " + d
		case "before that", "before it":
			when = "before " + d
		case "by then", "by that":
			when = "by " + d
		case "until then", "until that", "till that":
			when = "until " + d
		}
	} else if recurring != "" && (pointer == "then" || pointer == "that day") && !strings.ContainsAny(recurring, ",/&") && !strings.Contains(asciiLower(recurring), " and ") && !strings.Contains(asciiLower(recurring), " or ") {
		f := strings.Fields(asciiLower(recurring))
		when = "on " + f[len(f)-1] + "s" // "every sunday": on sundays
	}
	if when == "" {
		return "", "", false
	}
	return strings.TrimSpace(tail[:loc[0]]) + " " + when, datedConjunct(head, at), true
}

// datedConjunct is the last of the clauses s joins with "and" that holds
// a day, the one a "before that" points at: "the timer drifts in the
// background and the app store submission is on friday" is "the app
// store submission is on friday". s stays whole when no later one does.
func datedConjunct(s string, at time.Time) string {
	l := asciiLower(s)
	for end := len(l); ; {
		i := strings.LastIndex(l[:end], " and ")
		if i <= 0 {
			return s
		}
		part := s[i+len(" and "):]
		if _, dated := AbsoluteDates(part, at); dated && len(strings.Fields(part)) >= 3 && declarative(part) {
			return part
		}
		end = i
	}
}

// personalWords mark what is private about someone, which is never a rule's
// reason: "sarah is going through a divorce", "my dad is in hospital"; not
// "the HL7 feed from the hospital".
func personalWords() []string {
	return []string{"divorce", "in hospital", "in the hospital", "at the hospital", "to the hospital", "sick", "illness", "pregnan", "funeral", "therapy", "diagnos", "cancer", "passed away", "surgery", "grief"}
}

// withReasonBefore gives a rule without a reason the sentence before it as
// its Why, when that sentence states what the rule follows from: one that
// "so" opens follows from it ("…our whole plan hinges on the app tier
// never seeing a raw PAN. so every new endpoint goes through the
// tokenization proxy"); another, when that sentence saved nothing of its
// own (saved says it did) and is about the rule's thing ("the output
// format is a stable interface, people parse it in scripts. any change to
// the default output means a major version").
func withReasonBefore(c *Candidate, prev, s string, saved bool, at time.Time) {
	if c.Type != "feedback" || strings.Contains(c.Body, "**Why:**") {
		return
	}
	p := strings.TrimRight(strings.TrimSpace(read(prev).text), ".!")
	words := strings.Fields(asciiLower(p))
	// "… we had a strange bug because of that. so no float in the ISR": a
	// rule said to follow from it has it as its reason, though it reads as
	// a rule or tells of a bug (not of what was merged: history).
	so := strings.HasPrefix(asciiLower(strings.TrimSpace(s)), "so ") && !soMoving(s) // not "so anyway, …"
	if len(p) > maxClauseText || len(words) < 4 || !declarative(p) || notAReason(p) || reQuestion.MatchString(p) || reOwnPlan.MatchString(p) ||
		!so && ruleLike(trimClauseLead(p), false) || aside(p) || len(secretKinds(p)) > 0 || reNowOnly.MatchString(p) ||
		rePast.MatchString(p) && !mayHold(p, harmWords) && !(so && mayHold(p, []string{" bug", "problem"}) && mayHold(p, []string{"because of", "due to", "caused by", "that's why", "thats why"})) || mayHold(p, personalWords()) ||
		slices.ContainsFunc(words, func(w string) bool { return firstPerson(w) || w == "my" || w == "me" || w == "now" }) {
		// Not what the speaker is, did or feels, not a status of today,
		// nothing private, no request: those are no reason for a rule.
		return
	}
	if !so && (saved || !aboutRule(p, c.Description)) {
		return
	}
	p, _ = AbsoluteDates(p, at)
	c.Body = strings.TrimRight(c.Body, "\n") + "\n\n**Why:** " + capitalize(p) + ".\n**How to apply:** " + howTo(c.Type) + "\n"
}

// saidOfThePast reports words that tell what someone did, not what holds:
// "we never restarted the db then".
func saidOfThePast(words []string) bool {
	for i := 1; i < len(words); i++ {
		switch words[i-1] {
		case "never", "always", "we", "they", "i", "also", "just":
			if w := words[i]; len(w) >= 6 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") {
				return true
			}
		}
	}
	return false
}

// listTail reports a clause that ends a list the clause before began:
// "tests or log lines", "staging and prod"; a few words, no verb, joined
// by "or" or "and".
func listTail(c string) bool {
	w := strings.Fields(asciiLower(strings.TrimRight(c, ".!")))
	if len(w) < 2 || len(w) > 6 || !verbless(c) {
		return false
	}
	return slices.Contains(w[1:], "or") || slices.Contains(w[1:], "and")
}

// Imperative reports whether a clause opens with a verb that tells what
// to do: "hold BOOT0 high", "attach J-Link and read RTT".
func Imperative(clause string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(clause, " .!,;:")))
	return len(words) > 0 && imperatives()[strings.Trim(words[0], "\"'`")]
}
