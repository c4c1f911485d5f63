// What a reader may take for a reason, and what gives none (issue 17).

package extract

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/memdir/memdir/internal/lazyre"
)

// reBinds marks a fact that binds the work, whose next clause can be its
// reason: a requirement, a limit, a freeze, a decision, a change of plan.
var reBinds = gate(lazyre.New(`(?i)\b(?:has to|have to|had to|must|needs?|needed|required?|requires|only|never|no|not|don'?t|can'?t|cannot|won'?t|freeze|frozen|decided|decision|agreed|going with|went with|switch(?:ing|ed)?|moving|moved|slipped|pushed|delayed|postponed|cancell?ed|dropp(?:ed|ing)|cap|caps|capped|limit|gate|stays?|staying|keep|instead|plan is|call)\b`))

// reSequel opens a clause that tells what comes after a fact, not why it
// holds: "after that v4 gets security fixes only", "…, everything must be
// green by then".
var reSequel = gate(lazyre.New(`(?i)^(?:after (?:that|this|which|it)|from then on|until then|by then|then)\b|\b(?:by|before|until) (?:then|that)$`))

// reHarmSaid tells what went wrong or would, in words harmVerbs does not
// list as the clause's verb: "the EDI partner wasn't ready", "anything
// not in git is lost", "some clients have fragile WAFs".
var reHarmSaid = gate(lazyre.New(`(?i)\b(?:wasn'?t|weren'?t|isn'?t|aren'?t|won'?t|wont|didn'?t|doesn'?t|don'?t|can'?t|couldn'?t|never|lost|breaks?|broke|banned?|bans|expired|fails?|failed|regs|regulations?|compliance|legal|audit(?:or)?s?|incident|outage|scare|fragile|peak|revenue|expensive|costs?|fees?|slow|risk)\b`))

// notAReason reports a clause some reader took for a reason that gives
// none: an instruction ("update whatever notes you had"), praise ("you got
// it right this time"), or talk about the talk ("ive said this before",
// "actually nvm i remember — …").
func notAReason(r string) bool {
	w := strings.Fields(asciiLower(reReasonLead.ReplaceAllString(r, "")))
	if len(w) == 0 {
		return false
	}
	first := strings.Trim(w[0], ",.;:!")
	// An order names what it acts on next: "update whatever notes you
	// had", "check the grace period"; "pull requests with 40 commits are
	// unreadable", "merge on that table cost us $4k" and "test data is
	// shared with QA" name a thing by a word that could order.
	orders := len(w) > 1 && (determiners()[w[1]] || objectWord(strings.Trim(w[1], ",.;:!")))
	return (imperatives()[first] || stepVerb(first)) && !bindWord(first) && orders || reNoReason.MatchString(r)
}

// objectWord reports a word that opens what an order acts on, beside
// determiners().
func objectWord(w string) bool {
	switch w {
	case "whatever", "it", "them", "me", "us", "everything", "anything", "something", "him", "her", "yourself":
		return true
	}
	return false
}

// stepVerb reports a verb that orders a step, beside imperatives():
// "update whatever notes you had", "rerun it with --check".
func stepVerb(w string) bool {
	switch w {
	case "update", "fix", "look", "grab", "send", "rerun", "revert", "drop", "retry", "restart", "reboot", "install", "upgrade", "downgrade", "paste", "share", "post":
		return true
	}
	return false
}

// bindWord reports a word imperatives() lists that opens a reason as
// well as a rule: "only happens on linux", "no one reads the logs".
func bindWord(w string) bool {
	switch w {
	case "only", "no", "just", "always", "never":
		return true
	}
	return false
}

// reReasonLead is what opens a clause before what it says: "not so fast,
// check the grace period…" orders, for all its lead.
var reReasonLead = gate(lazyre.New(`(?i)^(?:(?:not so fast|hold on|wait|hmm+|ok(?:ay)?|also|and|so|but|oh)[,.!:]?\s+)+`))

var reNoReason = gate(lazyre.New(`(?i)^(?:thx|thanks|thank you|ty|cheers)\b|^(?:you got (?:it|that) right|(?:as )?i(?:'ve|ve| have)? said (?:this|that|it)|i(?:'ve|ve) (?:said|told you) (?:this|that|it)|actually,? (?:nvm|never ?mind)|nvm|never ?mind|(?:that'?s|thats|this is|it'?s|its) (?:exactly|just) (?:what|how) i|(?:the|your) [^,.]{0,60} (?:is|are) exactly what i)\b`))

// noFactReason reports a clause after fact s that is not why s holds: one
// with a day of its own, the speaker's own errand ("…, i need the lag
// numbers for the next one"), a plain fact and the next one ("my
// onboarding buddy is Tom, he owns the ledger service") or what follows
// from it ("V5 ships on the 2nd, after that v4 gets security fixes
// only"). A clause is the reason only of a fact that binds (a
// requirement, a freeze, a decision, a change) or when it tells what went
// wrong.
func noFactReason(s, clause string, at time.Time) bool {
	if _, dated := AbsoluteDates(clause, at); dated || reOwnPlan.MatchString(strings.TrimSpace(clause)) || reOwnNeed.MatchString(strings.TrimSpace(clause)) {
		return true
	}
	if mayNamePerson(clause) && rePerson.MatchString(clause) {
		return true // "…, Kasia is our contact on the backend team for that": who to ask, a memory of its own
	}
	head := s[:max(strings.Index(s, clause), 0)]
	return reSequel.MatchString(clause) || !reBinds.MatchString(head) && !tellsHarm(clause) && !reHarmSaid.MatchString(clause)
}

// wantedNext is the sentence after a fact when it says what someone else
// wants of it, which is why the fact matters: "we freeze the firmware one
// week before. The lab wants the binary in advance to do their
// pre-tests."
func wantedNext(next string) string {
	n := strings.TrimSpace(next)
	w := strings.Fields(asciiLower(n))
	if len(w) < 4 || len(w) > 30 || firstPerson(w[0]) || w[0] == "you" || w[0] == "u" || imperatives()[w[0]] || reQuestion.MatchString(n) || reOwnPlan.MatchString(n) || isWhere(n) || len(secretKinds(n)) > 0 {
		return ""
	}
	for _, x := range w[1:min(len(w), 5)] {
		switch x {
		case "wants", "want", "needs", "need", "requires", "require", "expects", "expect", "insists":
			return strings.TrimRight(n, ".! ")
		}
	}
	return ""
}

// reasonOf finds the reason the user gave: a because/since clause in the
// sentence, or a next sentence that tells what went wrong.
func reasonOf(s, next string) string {
	for _, m := range reReason.FindAllStringSubmatchIndex(s, -1) {
		word, rest := strings.ToLower(s[m[2]:m[3]]), s[m[1]:]
		before := strings.TrimRight(s[:m[2]], " ")
		afterPunct := strings.HasSuffix(before, ",") || strings.HasSuffix(before, ";") || strings.HasSuffix(before, "—") || strings.HasSuffix(before, "–") || strings.HasSuffix(before, "-")
		switch {
		case (word == "as" || word == "otherwise" || strings.HasPrefix(word, "or ") && word != "or else" && !orSubject(word, rest)) && !afterPunct:
			continue // "write tests as a table", "treat warnings as errors", "fix or quarantine"
		case word == "since" && reTemporal.MatchString(rest):
			continue // "since 2020", "since last week": when, not why
		case word == "because" && strings.HasPrefix(strings.ToLower(rest), "of "):
			rest = s[m[2]:] // "because of the audit" reads as the why
		case strings.HasPrefix(word, "so ") && word != "so that", strings.HasPrefix(word, "or ") && word != "or else", strings.HasPrefix(word, "that"):
			rest = s[m[2]:] // "so i can maintain it": what the rule is for; "or you leak users"; "that's when traffic is lowest"
		}
		if strings.TrimSpace(before) == "" {
			// "since matter numbers are confidential, dont put real ones
			// in fixtures": a reason said first ends where the rule starts.
			if i := strings.IndexAny(rest, ",;—–"); i > 0 {
				rest = rest[:i]
			}
		}
		if len(strings.Fields(rest)) >= 3 {
			return strings.TrimRight(rest, ".! ")
		}
	}
	if r := purposeTail(s); r != "" {
		return r
	}
	if reBurned.MatchString(strings.TrimSpace(next)) {
		return strings.TrimRight(strings.TrimSpace(next), ".!")
	}
	return ""
}

// purposeTail is the purpose said last, after a comma, as "for" and what
// it serves: "…, for reproducibility", "…, for legal reasons"; not "…, for
// the release" (a when) nor "…, for now".
func purposeTail(s string) string {
	i := strings.LastIndex(s, ", for ")
	if i < 0 {
		return ""
	}
	tail := strings.TrimRight(s[i+2:], ".! ")
	w := strings.Fields(asciiLower(tail))
	if len(w) < 2 || len(w) > 4 || determiners()[w[1]] {
		return "" // "…, for the conference": an occasion, not a purpose
	}
	last := w[len(w)-1]
	switch last {
	case "instance", "example", "once", "now", "reference", "sure":
		return ""
	}
	switch last {
	case "reasons", "security", "safety", "privacy", "compliance", "auditing", "auditors", "performance", "debugging", "accessibility":
		return tail
	}
	for _, suf := range []string{"ity", "ance", "ence", "ness"} {
		if strings.HasSuffix(last, suf) && len(last) > len(suf)+3 {
			return tail
		}
	}
	return ""
}

// orSubject reports "or" and a person after it and what befalls them,
// which opens what happens otherwise even without a comma: "… by the 28th
// or we get fined".
func orSubject(word, rest string) bool {
	if word != "or you" && word != "or we" && word != "or they" {
		return false
	}
	// What befalls them, not another way to go: "or we get fined", not
	// "or you can click through the console", "or we spin up our own".
	v, _, _ := strings.Cut(asciiLower(strings.TrimSpace(rest)), " ")
	switch v {
	case "get", "lose", "pay", "break", "leak", "fail", "miss", "risk", "end", "can't", "cant", "cannot", "won't", "wont", "will", "have", "might", "could":
		return v != "could" && v != "might" || strings.Contains(rest, " lose ") || strings.Contains(rest, " break")
	}
	return false
}

// trailingReason is clauseReason's clause that states something after
// the rule; skip, when set, passes over clauses that are facts of their
// own (a project fact's second date).
func trailingReason(s string, skip func(string) bool) string {
	if len(s) > maxClauseText {
		return ""
	}
	cuts := clauseCuts(s)
	for k := len(cuts) - 1; k >= 1; k-- {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		seg := strings.TrimSpace(s[cuts[k].at+cuts[k].n : end])
		first, _, _ := strings.Cut(asciiLower(seg), " ")
		consequence := first == "so" || first == "which" || first == "then" || first == "and" ||
			first == "if" || first == "when" || first == "whenever" || first == "unless" || // a condition, not a reason
			qualifiers()[first] || reException.MatchString(seg) // "…, not scattered around", "…, anyhow is fine in the bins"
		if len(strings.Fields(seg)) >= 3 && !consequence && (declarative(seg) || tellsHarm(seg)) && (skip == nil || !skip(seg)) && ruleBefore(s[:cuts[k].at]) {
			return strings.TrimRight(seg, ".!")
		}
	}
	return ""
}

// ruleBefore reports whether head, the text before a candidate reason,
// holds a rule of its own: three words or more once its opening markers
// ("from now on", "also") are gone. "From now on, release notes go in
// CHANGELOG.md" has none: the clause is the rule, not its reason.
func ruleBefore(head string) bool {
	h := strings.TrimSpace(strings.ToLower(head))
	for changed := true; changed; {
		changed = false
		for _, lead := range []string{"from now on", "going forward", "in general", "also", "and", "btw", "fwiw", "ok", "so", "please", "pls", "one rule:", ","} {
			if r, ok := strings.CutPrefix(h, lead); ok && (r == "" || r[0] == ' ' || r[0] == ',' || r[0] == ':') {
				h, changed = strings.TrimLeft(r, " ,:"), true
			}
		}
	}
	w := strings.Fields(h)
	return len(w) >= 3 || len(w) == 2 && (w[0] == "no" || w[0] == "never") // "no goldens — they break on every upgrade"
}

// reLaterReason is the reason for a rule said in a later message, naming
// the rule by its topic: "the jquery thing btw is because of our perf
// budget", "the no-docker rule is because the CI runners are rootless".
var reLaterReason = gate(lazyre.New(`(?i)^(?:btw,? |oh and |also,? |fyi,? )?the ([\w.+#-]+(?: [\w.+#-]+)?) (?:thing|rule|ban|bit)(?:,? btw,?)? is (?:because|bc|cuz|due to) (?:of )?(.{8,})$`))

// laterReason gives the latest rule of out without a Why that names the
// topic sentence s gives a reason for (reLaterReason) that reason, and
// reports whether s gave one.
func laterReason(out []Candidate, s string, at time.Time) bool {
	m := reLaterReason.FindStringSubmatch(strings.TrimRight(s, ".! "))
	if m == nil {
		return false
	}
	topic := asciiLower(strings.TrimPrefix(asciiLower(m[1]), "no-"))
	for i := len(out) - 1; i >= 0; i-- {
		c := &out[i]
		if c.Type != "feedback" || strings.Contains(c.Body, "**Why:**") || !slices.Contains(strings.FieldsFunc(asciiLower(c.Body), notWordRune), topic) {
			continue
		}
		if rePast.MatchString(m[2]) || mayHold(m[2], []string{"typo", "bug", "corrupt", "broken", "outdated"}) {
			return false // "the ci thing is because the cache got corrupted": a fault, not a reason for a rule
		}
		rule, _, _ := strings.Cut(c.Body, "\n")
		c.Body = build("feedback", rule, m[2], at).Body
		return true
	}
	return false
}

// notWordRune reports a rune no word of a rule holds: "ci" is no word of
// "explicit".
func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' && r != '.' && r != '+' && r != '#'
}
