package extract

import (
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads how people state a lasting rule without "always" or
// "never" (issue 17), and what a rule's reason sounds like when no
// "because" introduces it.

var (
	// reRuleSaid is a rule stated by its form: "the convention is…", "our
	// rule is…", "nobody deploys there on fridays", "quit adding…", "next time no need…", "I'd prefer if…",
	// "please not amend…", "is better you use…", "you should never…",
	// "all images need…", "before you say something is done, run…", "it's
	// podman here, not docker".
	reRuleSaid = gate(lazyre.New(`(?i)\b(?:the|our) (?:convention|rule|policy|standard|norm)s? (?:here |in this [\w-]+ )?(?:is|are)\b` +
		`|(?:^|[—–:]\s*)(?:and\s+)?(?:nobody|no one|no-one|noone) (?:ever )?(?:deploys|pushes|force-pushes|merges|commits|touches|edits|changes|deletes|drops|runs|ships|releases|restarts|reboots|modifies|writes|migrates)\b` +
		`|^(?:(?:ok|so|also|and|pls|please|plz|but)[,!]?\s+)*(?:quit [\w-]+ing|no more [\w-]+|next time,? (?:no|don'?t|dont|please|pls|just|ask|use|skip|avoid|always|never)\b|no need (?:to )?(?:ask|explain|summari[sz]e|apologi[sz]e|recap|repeat|confirm|check with me)\b|(?:please|pls|plz) not (?:use|add|push|amend|rebase|merge|commit|change|touch|delete|remove|run|paste|write|put|call|create|make)\b)` +
		`|^not (?:use|add|push|amend|rebase|merge|commit|change|touch|delete|remove|paste|write|put|call|create)\b` +
		`|^(?:wrong|nope)[,.!—–-]+\s*(?:use|always|never|don'?t|do not)\b|^(?:can|could) (?:you|u) not\b` +
		`|^(?:shorter|longer|smaller|fewer|terse|terser|brief|briefer|simpler|conventional|structured|typed|short|concise) [\w-]+(?: [\w-]+)? (?:pls|please|plz)\b` +
		`|^(?:bullets|bullet points|bullet lists?|tables|numbered (?:steps|lists)|one-liners|code blocks|code only|plain text|no emojis?|no headers|no headings)(?: only)?(?:,? (?:pls|please|plz))?\s*(?:[,.!;—–]|$)` +
		`|\bi(?:'d| would) prefer\b|^(?:it'?s |it is |is )?better (?:to|you|if you|that you)\b|\byou (?:should|must) (?:never|always|not)\b|\byou (?:shouldn'?t|mustn'?t)\b` +
		`|^(?:before|after|when|whenever) (?:you|u) (?:push|commit|merge|deploy|release|ship|say|tell|claim|mark|report|open a pr)\b[^,]{0,80},\s*(?:(?:always|please|pls|actually|just|first)\s+)?[\w-]+` +
		`|\b(?:it'?s|is|are|we do|we use) [^,]{1,40}? here,?\s*not\s+\S` +
		`|^we (?:always |only |usually )?(?:do|use|run|write|keep|name|put|prefer|squash|rebase|merge|deploy|test|pin|prefix|tag|call|ship|build|format|lint|store|log|review|release|vendor) [\w-]+(?: [\w-]+){0,3} here\b` +
		`|^(?:in|for) [\w./-]+(?: [\w./-]+)? we (?:always |only |usually )?(?:do|use|run|write|keep|name|put|prefer|squash|rebase|merge|deploy|test|pin|prefix|tag|call|ship|build|format|lint|store|log|review|release|vendor)\b` +
		`|^(?:it'?s|its) [^,]{1,30},? not [^,]{1,30},? (?:in|for|on) (?:the|our|all|every|any)\b` +
		`|^(?:(?:always|pls|please)\s+)?(?:ask|check with) (?:me |us )?(?:first )?before\b|\b(?:can|may|could|should|feel free to|go ahead and)\b[^.]{0,60}\bwithout (?:asking|checking with me|my ok)\b` +
		`|^only (?:use|run|merge|squash|deploy|push|test|write|call|import|log|ship|release|commit|rebase|[\w-]+ (?:into|via|through))\b|\b(?:it'?s|is) important (?:that you|to always|to never)\b|^for me (?:it )?is important\b` +
		`|^[\w./-]+(?: [\w./-]+){0,3} (?:belongs?|go(?:es)?|lives?|stays?) (?:in|into|next to|under|inside)\b[^,]*,\s*not\b` +
		`|,\s*always have\b|\b[\w-]+s here (?:get|go|need|must|stay)\b|\b(?:needs?|has|have) to (?:be|go|stay|use)\b[^,]*,\s*not\b`))
	// reEveryThing is a rule for every thing of a kind: "all images need
	// alt text", "so any change to requirements.txt gets its own PR";
	// everyKind keeps "all three failing tests need fixing", "any idea why…".
	reEveryThing = gate(lazyre.New(`(?i)(?:^|\bso )(any|every|each|all) ([\w./-]+)(?: [\w./-]+){0,5}? (?:gets?|needs?|must|should|has to|have to|goes|go|stays?|requires?|go(?:es)? through)\b`))
	// reNotRule is a message that looks like a rule and is not one: "never
	// mind", a rule someone else keeps saying or a post says, a request
	// after a day ("tomorrow can you look…").
	reNotRule = gate(lazyre.New(`(?i)^(?:never ?mind|nvm)\b[.,!—–-]*\s*(?:i |it |found|that|thanks|forget|ok|$)|(?:^|[^i] )(?:saying|says|said|keeps? saying|recommends?|recommended|suggests?|claims?|told me)\b[^.?!]{0,40}?['"]?(?:you should |we should |to )?(?:always|never|don'?t)\b|^(?:(?:tomorrow|today|tonight|later|then|also|and|so|ok)\s*,?\s+)+(?:can|could|would|will) (?:you|u)\b|^first,? (?:show|tell|let me|i want|check|run|look)\b|\b(?:check|run|do|try|test) it once\b|\bjust once\b|^(?:\w+,? )?don'?t (?:be surprised|ask (?:me )?why|get me started|judge me|laugh)\b`))
	// reWhenYou is the recurring moment an instruction is for: "run go vet
	// before you push", "double-check timezones when you touch the
	// scheduler".
	reWhenYou = gate(lazyre.New(`(?i)\b(?:before|after|when|whenever|every time) (?:you|u|we) (?:push|commit|merge|deploy|release|open a pr|ship|tag|touch|change|edit|add)\b`))
	// reStepOnly is an instruction for this step of the task: "wait, not
	// run the tests now", "dont push yet", "… for this, not prod".
	reStepOnly = gate(lazyre.New(`(?i)^(?:(?:ok|so|no)[,!]?\s+)?(?:wait|hold on|hang on)\b|\b(?:yet|for the moment|in this step|for this step|until (?:i'?m|im|i am|we'?re) (?:back|done|out))\b|\bfor this\s*(?:[,.;!]|$)|\b(?:tests?|it|them|that) now\b`))
	// reException is a clause that allows what a rule does not cover:
	// "anyhow is fine in the bins".
	reException = gate(lazyre.New(`(?i)\b(?:is|are|'s)\s+(?:totally\s+|perfectly\s+)?(?:fine|ok|okay|allowed|acceptable)\b`))
)

// saysRule reports whether s states a lasting rule by its form (see
// reRuleSaid), or as an instruction set against its other: "run tests
// with nx affected, not the whole workspace", "wrap errors with %w, not
// %v"; as "keep …" a standing state: "keep PRs under ~400 lines"; or
// as what to do whenever something happens: "when you give me shell
// commands, put each in its own code block".
func saysRule(s string) bool {
	if reRuleSaid.MatchString(s) && !reTrouble.MatchString(s) || conditionalRule(s) || everyKind(s) {
		return true // not "the bug lives in the parser, not the lexer"
	}
	w := strings.Fields(asciiLower(s))
	for len(w) > 2 && (w[0] == "pls" || w[0] == "please" || w[0] == "plz" || w[0] == "also" || w[0] == "and") {
		w = w[1:]
	}
	if universalBare(s) {
		return true
	}
	if len(w) > 4 && w[0] == "hold" && w[1] == "off" && w[2] == "on" && strings.HasSuffix(w[3], "ing") && !determiners()[w[4]] &&
		!reNowOnly.MatchString(s) && !reOneOff.MatchString(s) && hasReason(s, "") {
		return true // "hold off on renaming existing columns, looker explores reference them": not "hold off on merging the PR"
	}
	if len(w) > 3 && (w[0] == "for" || w[0] == "in") {
		// "for tests use the database WMS_TEST, not the dev one": the
		// instruction after its scope.
		for k := 2; k <= 4 && k < len(w)-1; k++ {
			if imperatives()[w[k]] && !determiners()[w[k-1]] {
				w = w[k:]
				break
			}
		}
	}
	if len(w) < 3 || !imperatives()[w[0]] && !ruleVerbs()[w[0]] || oneOffVerbs()[w[0]] || mayHold(s, taskWords) || mayHold(s, []string{" again", "first"}) {
		return false // "use the v2 endpoint here, not v1", "rename the file to utils.ts, not helpers.ts": this task's
	}
	if mayHold(s, []string{"your answers", "your replies", "your responses", "your messages", "your explanations", "your summaries"}) || reWhenYou.MatchString(s) {
		return true // "skip the summary at the end of your answers", "run go vet before you push"
	}
	if w[0] == "use" && slices.ContainsFunc(w[2:], func(x string) bool { return x == "for" }) && strings.HasSuffix(strings.Trim(w[len(w)-1], ".,!"), "s") {
		return true // "use kebab-case for file names": a kind of thing, every time
	}
	if w[0] == "keep" {
		switch strings.Trim(w[1], ",.!") {
		case "me", "an", "it", "this", "that", "at", "on", "up", "in":
			return false // "keep me posted", "keep an eye on it"
		case "the":
			// "keep the python boring so i can read it in a year"; not "keep
			// the tab open, the login is slow": a session's state.
			return reasoned(s, w) && !slices.ContainsFunc(w, func(x string) bool { return sessionStates()[strings.Trim(x, ",.;!")] })
		}
		if strings.HasSuffix(w[1], "ing") {
			return false // "keep following the logs": go on with the task
		}
		return true
	}
	if reasoned(s, w) {
		return true
	}
	if determiners()[w[1]] {
		return false // "use the red button, not the blue one": one thing, this time
	}
	for i := 2; i < len(w)-1; i++ {
		if next := w[i+1]; w[i] == "not" && strings.HasSuffix(w[i-1], ",") && next != "only" && next != "just" && next != "even" {
			return true
		}
	}
	return false
}

// universalBare reports a first clause without a verb that asks for a
// thing everywhere: "type hints everywhere", "pydantic models for every
// FHIR resource we touch".
func universalBare(s string) bool {
	head := s
	if i := strings.IndexAny(head, ",;—"); i > 0 {
		head = head[:i]
	}
	lower := asciiLower(head)
	at := -1
	for _, m := range []string{" everywhere", " for every ", " in every ", " on every ", " for all ", " in all ", " on all "} {
		if i := strings.Index(lower, m); i > 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 || reQuestion.MatchString(s) || mayHold(head, []string{"error", "warning", "bug", "crash", "fail", "broken", "same", "weird", "red ", "leak", "timeout"}) {
		return false // "same warning everywhere in the logs": what is seen, not asked for
	}
	w := strings.Fields(lower[:at]) // what is asked for, before where: "type hints"
	if len(w) < 2 || len(w) > 6 {
		return false
	}
	for _, x := range w {
		if subjects()[x] || x == "you" || x == "u" {
			return false // "we use it everywhere": a statement
		}
	}
	return verbless(head[:at])
}

// reasoned reports an instruction given with its reason, which makes it a
// lesson for next time: "use the real database in integration tests
// because mocks hid a broken migration". w are s's words, its lead gone.
func reasoned(s string, w []string) bool {
	return reasonedVerbs()[w[0]] && !pointsBack(w) && !reNowOnly.MatchString(s) && !reStepOnly.MatchString(s) && !reOneOff.MatchString(s) && hasReason(s, "")
}

// everyKind reports reEveryThing's rule for a kind of thing, not for
// these or three of them: "all the files in the legacy folder need to be
// deleted", "each of these functions needs a docstring".
func everyKind(s string) bool {
	m := reEveryThing.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	w := strings.ToLower(m[2])
	if determiners()[w] || w == "of" || w == "idea" || isDigits(w) || smallNumber(w) > 0 || w == "three" || w == "four" || w == "five" {
		return false
	}
	return !reQuestion.MatchString(s)
}

// conditionalRule reports an instruction for whenever something holds:
// "if you change anything in the feature pipeline, bump FEATURE_VERSION",
// "when you're not sure about something, say so", "if a function runs in
// ISR context, no malloc".
func conditionalRule(s string) bool {
	head, tail, ok := strings.Cut(asciiLower(s), ", ")
	if !ok {
		return false
	}
	h := strings.Fields(head)
	// "before changing more than one file, ask me first": any time one
	// does it, unless a pointer names this one ("before merging this").
	gerund := len(h) >= 2 && (h[0] == "before" || h[0] == "after") && strings.HasSuffix(h[1], "ing") &&
		!slices.ContainsFunc(h[2:], func(w string) bool { return w == "this" || w == "that" || w == "it" || w == "these" || w == "those" })
	if !reConditionHead.MatchString(head) && !gerund || mayHold(s, hereWords) || reStepOnly.MatchString(s) || reNoCondition.MatchString(head) {
		return false
	}
	if (h[0] == "before" || h[0] == "after") && !reWhenYou.MatchString(head) && !gerund {
		return false // "after you fix the import, rerun the build": this task's order
	}
	w := strings.Fields(tail)
	for len(w) > 1 && (w[0] == "always" || w[0] == "please" || w[0] == "pls" || w[0] == "then" || w[0] == "just") {
		w = w[1:]
	}
	if len(w) < 2 {
		return false
	}
	switch w[0] {
	case "no", "never", "always", "don't", "dont":
		return true
	}
	v := strings.Trim(w[0], ".,;:!")
	// A base form that is also a finite verb ("we use…") is an
	// imperative after a condition: "when you compare options, use a
	// table". Not "check" or "run": "if the build fails, check the logs"
	// is a recipe for now.
	base := v == "use" || v == "do"
	if oneOffVerbs()[v] || subjects()[v] || determiners()[v] || finiteVerbs()[v] && !base || pronounSubject(v) {
		return false
	}
	// An imperative: a verb of the lists, or a bare word that is no
	// form of one ("regenerate the client", "quarantine it").
	return imperatives()[v] || ruleVerbs()[v] || !strings.HasSuffix(v, "ed") && !strings.HasSuffix(v, "ing") && !strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ly")
}

// reNoCondition is a head that names no case, only this task's moment:
// "when you're done", "if you want", "if you could".
var reNoCondition = gate(lazyre.New(`(?i)^(?:if|when|once|after) (?:you|u)(?:'re| are)? (?:done|finished|ready|free|back|want|like|could|can|get a chance|have (?:a )?(?:time|sec|minute|moment)|see this|wish|prefer|think so|agree)\b`))

// reConditionHead opens a condition about any case: "if you…", "when a
// test…", "whenever the schema…".
var reConditionHead = gate(lazyre.New(`(?i)^(?:if|when|whenever|every time|any ?time|before|after) (?:you|u|you're|youre|a|an|the|any|we)\b`))

var (
	// harmVerbs say what went wrong, in a clause that is a rule's reason:
	// "fp16 kept overflowing", "GC spikes drop us below 60fps".
	harmVerbs = sync.OnceValue(func() map[string]bool {
		return wordSet(`kept hid blew ate lost fell spent froze burnt drop drops dropped crash crashes crashed hang hangs
		hung leak leaks leaked flake flakes flaked overflow overflows overflowed choke chokes choked mangle mangles
		mangled bloat bloats bloated wipe wipes wiped hides kill kills killed slows slowed break breaks broke breaking`)
	})
	// ruleVerbs open an instruction, as imperatives() do, though they
	// are not ones declarative() should refuse: "wrap errors with %w, not
	// %v", "mock at the http boundary, not individual functions".
	ruleVerbs = sync.OnceValue(func() map[string]bool {
		return wordSet(`wrap mock format prefix name store route send throw raise import export cache type annotate
		sort quote escape validate sanitize hash encrypt build deploy install pass handle emit commit branch answer reply respond
		say flag bump mark tag label loop ping flash compile configure install point connect mount query fetch load seed link bundle serve retry paginate stub`)
	})
	// oneOffVerbs act on one thing, and do not make a rule of an
	// instruction: "rename the file to utils.ts, not helpers.ts".
	// reasonedVerbs open an instruction that, given with its reason, is
	// a lesson for next time: how things are done, not a step of the
	// task ("check the logs, the deploy failed" is a step).
	reasonedVerbs = sync.OnceValue(func() map[string]bool {
		return wordSet(`use keep write put pin prefer stick hit test name store wrap format document comment default target follow log match flash compile cache mock`)
	})
	// sessionStates are what a step keeps a thing in for now.
	sessionStates = sync.OnceValue(func() map[string]bool {
		return wordSet(`open running alive up going warm connected attached`)
	})
	oneOffVerbs = sync.OnceValue(func() map[string]bool {
		return wordSet(`no just only please rename change fix move delete remove update revert undo open close`)
	})
	// qualifiers open a clause that narrows a rule rather than says why:
	// "…, not scattered around", "…, even for typos".
	qualifiers = sync.OnceValue(func() map[string]bool {
		return wordSet(`not never instead rather except unless even only especially including like e.g. i.e. but actually just first also`)
	})
)

// tellsHarm reports whether a clause says what went wrong, a thing doing
// harm in its first three words: "fp16 kept overflowing in the attention
// layers", "GC spikes drop us below 60fps", "retries hid a real race".
func tellsHarm(clause string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(clause, " .!,;:")))
	if len(words) < 3 || imperatives()[words[0]] || qualifiers()[words[0]] {
		return false
	}
	for _, w := range words[1:3] {
		if harmVerbs()[strings.Trim(w, ".,;:!")] {
			return true
		}
	}
	return false
}

// whyOf is the reason the user gave for a rule: a causal word's clause
// (reasonOf), else a clause that says what went wrong or states what the
// rule rests on (causalReason).
func whyOf(s, next string) string {
	if r := reasonOf(s, next); r != "" {
		return r
	}
	if r := causalReason(s); r != "" {
		return r
	}
	if r := colonReason(s); r != "" {
		return r
	}
	// The sentence after the rule, when it states something rather than
	// asks for something: "never hardcode hex values. the rebrand is going
	// to change basically every color".
	n := strings.TrimSpace(next)
	if newTopic(n) {
		return "" // "…, never. Also when the solver says…": something else
	}
	if len(strings.Fields(n)) >= 4 && (declarative(n) || tellsHarm(n) || reCausal.MatchString(n) && causalSubject(n)) && !isWhere(n) && len(secretKinds(n)) == 0 && !reQuestion.MatchString(n) && !reFeedback.MatchString(n) && !reRuleStart.MatchString(n) && !reToAgents.MatchString(n) && !reYourWork.MatchString(n) && !givesRule(n) {
		return strings.TrimRight(n, ".!")
	}
	return ""
}

// givesRule reports a sentence whose later clause is a rule of its own:
// "the dates are UTC, don't convert them" is another rule and what it
// rests on, not the reason of the rule before it.
func givesRule(s string) bool {
	if len(s) > maxClauseText {
		return false
	}
	cuts := clauseCuts(s)
	for k := 1; k < len(cuts); k++ {
		if c, ok := clauseAt(s, cuts, k); ok && reRuleStart.MatchString(strings.TrimSpace(c)) {
			return true
		}
	}
	return false
}

// colonReason is a reason said after a colon, once the rule is whole:
// "we keep the two-compartment model, not three: we discussed in the
// group and the data have not enough points", not "rule: never…".
func colonReason(s string) string {
	head, tail, ok := strings.Cut(s, ": ")
	if !ok || len(strings.Fields(head)) < 4 || len(strings.Fields(tail)) < 4 || strings.Contains(head, "://") || contextLabel(head) || ruleLabel(head) || labelledPlace(s) {
		return ""
	}
	if !declarative(tail) && !declarative(afterLead(tail)) && !rePast.MatchString(tail) || reRuleStart.MatchString(tail) || ruleLike(trimClauseLead(tail), false) || isWhere(tail) || reQuestion.MatchString(tail) || len(secretKinds(tail)) > 0 {
		return ""
	}
	return strings.TrimRight(tail, ".! ")
}

// afterLead is a clause less the phrase of time or place it opens with:
// "in the last report we wrote compliant" is "we wrote compliant".
func afterLead(clause string) string {
	w := strings.Fields(clause)
	if len(w) < 3 || !prepositions()[asciiLower(w[0])] {
		return clause
	}
	for i := 1; i < min(len(w), 6); i++ {
		if subjects()[asciiLower(w[i])] {
			return strings.Join(w[i:], " ")
		}
	}
	return clause
}

// newTopic reports a sentence that opens on something else: "also …",
// "btw …", "another thing: …".
func newTopic(s string) bool {
	l := asciiLower(s)
	for _, w := range []string{"also ", "also, ", "and also ", "btw", "by the way", "oh and ", "another thing", "other thing", "unrelated", "anyway", "fyi "} {
		if strings.HasPrefix(l, w) {
			return true
		}
	}
	return false
}

// holdsToken reports a word of s that could be a credential: a made-up
// value ("Xk29fLq8ZmP3", "deploy:Xk29fLq8ZmP3", "Tr0ub4dor&3").
func holdsToken(s string) bool {
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ".,;:!?()\"'")
		if _, v, ok := strings.Cut(w, ":"); ok && v != "" && !strings.HasPrefix(v, "//") {
			w = v // "deploy:Xk29…": the value after the user
		}
		if tokenLike(w) || passwordLike(w) {
			return true
		}
	}
	return false
}

// asked reports a request said with a please: "logging via defmt pls".
func asked(raw string) bool {
	for _, w := range strings.Fields(asciiLower(raw[:min(len(raw), 200)])) {
		switch strings.Trim(w, ",.!") {
		case "pls", "please", "plz":
			return true
		}
	}
	return false
}

// choiceHead is what a choice says before its reason: up to a dash, or
// the comma after the other thing.
func choiceHead(s string) string {
	if i := strings.IndexAny(s, ";—–"); i > 0 {
		s = s[:i]
	}
	l := asciiLower(s)
	for _, w := range []string{" not ", " over "} {
		if i := strings.Index(l, w); i > 0 {
			if j := strings.Index(l[i:], ", "); j > 0 {
				return s[:i+j]
			}
		}
	}
	return s
}

// choice reports a clause that picks one thing over another, and how:
// asked for ("launch files in python pls not xml", "`with` chains over
// nested case pls"), told ("report the median not the mean"), or what
// the team holds to ("we stick with hermite 4th order not leapfrog", a
// project fact).
func choice(s string, asked bool) (typ string, told, ok bool) {
	l := asciiLower(s)
	if strings.HasSuffix(strings.TrimSpace(l), "?") {
		return "", false, false
	}
	head := l
	if i := strings.IndexAny(head, ";—–"); i > 0 {
		head = head[:i]
	}
	w := strings.Fields(strings.NewReplacer(",", " ", ".", " ", "!", " ").Replace(head))
	for len(w) > 0 {
		switch w[0] {
		case "ok", "okay", "yes", "yeah", "yep", "sure", "nice", "good", "and", "but", "also", "so", "oh", "then", "btw":
			w = w[1:]
			continue
		}
		break
	}
	at := -1 // where the other thing is named
	for i := 1; i+1 < len(w) && at < 0; i++ {
		switch w[i] {
		case "not", "over":
			switch w[i-1] {
			case "do", "does", "did", "is", "are", "was", "were", "can", "could", "should", "would", "will", "am", "have", "has", "had", "just", "and", "or", "if", "but", "why", "i'm", "it's", "that's", "its", "whether", "game", "all", "it", "that", "this", "hand", "take", "taking", "took", "run", "roll", "rolled", "switch", "moved", "move":
				continue
			}
			switch w[i+1] {
			case "to", "at", "in", "on", "for", "with":
				if !slices.Contains(w[1:i], w[i+1]) {
					continue // "not in scope"; but "in deno kv, not in memory": the same place word, the other thing
				}
			case "sure", "yet", "now", "needed", "working", "really", "a", "an", "much", "so", "that", "this", "it", "there", "here", "ready", "done", "good", "great", "bad", "all", "only", "even":
				continue
			case "the":
				if w[i] == "over" {
					continue // "over the weekend"
				}
			}
			at = i
		}
	}
	if at < 0 || at > 12 {
		return "", false, false
	}
	told = imperatives()[w[0]] || len(w) > 2 && (determiners()[w[1]] || w[1] == "w/" || w[1] == "with" || w[1] == "per") && !determiners()[w[0]] && !subjects()[w[0]] && !pronounSubject(w[0]) && !strings.HasSuffix(w[0], "ing")
	switch {
	case len(w) > 2 && w[0] == "we" && (w[1] == "stick" || w[1] == "stay" || w[1] == "keep"):
		return "project", false, true
	case len(w) > 3 && (w[0] == "we're" && w[1] == "on" || w[0] == "we" && w[1] == "are" && w[2] == "on") && strings.Contains(s, " NOT "):
		// "we're on vue 3 + pinia, NOT vuex": what the code is written
		// with, said with the weight of capitals; "we're on the release
		// branch, not main" is where the work is now.
		return "feedback", false, true
	case asked && !(w[0] == "can" || w[0] == "could" || w[0] == "would"):
		return "feedback", false, true
	case told && !pointsBack(w[:at]):
		return "feedback", true, true
	}
	return "", false, false
}

// taskScope reports a word that names what a request covers, not a thing
// of the project: "typos only, no rewording", "answer only, no code".
func taskScope(w string) bool {
	switch w {
	case "typos", "typo", "edits", "edit", "changes", "change", "fixes", "fix", "answer", "answers", "review", "comments", "comment", "diff", "code", "question", "questions", "opinion", "summary", "feedback", "look", "read", "check", "test":
		return true
	}
	return false
}

// reOnlyNot is a thing said as the only one, and what is not: "managed
// policies only, no inline", "C++ only, not Python nodes".
var reOnlyNot = gate(lazyre.New(`(?i)^([\w.+#/-]+(?: [\w.+#/-]+){0,3}) only,? (?:no|not|never) [\w.+#/-]+`))

// reThingOnly is a thing said with the only place or way it has, or the
// way it always has: "production orders only in plant 1100", "emails
// always as queued Mailables".
var reThingOnly = gate(lazyre.New(`(?i)^[\w.+#/-]+(?: [\w.+#/-]+){0,3} (?:only (?:ever )?(?:in|on|with|via|from|through|as|at)|always (?:as|in|on|with|via|through|[\w-]*_[\w-]*)) \S`))

// keepVerb reports an order to keep things as they are, which a
// redirect makes standing ("keep table materialization"); an order to do
// something ("add an index", "generate a new one") fixes this task.
func keepVerb(w string) bool {
	switch w {
	case "keep", "stay", "stick", "leave", "use", "prefer":
		return true
	}
	return false
}

// orderAfterReason is a sentence that states something and then, in its
// last clause, tells what to do: "the tables are small, 200 thousand
// rows, keep table materialization".
func orderAfterReason(s string) (rule, why string, ok bool) {
	cuts := clauseCuts(s)
	if len(cuts) < 2 {
		return "", "", false
	}
	last := cuts[len(cuts)-1]
	rule = strings.TrimRight(strings.TrimSpace(s[last.at+last.n:]), ".! ")
	why = strings.TrimSpace(s[:last.at])
	w := strings.Fields(asciiLower(rule))
	if len(w) < 2 || len(w) > 10 || !keepVerb(w[0]) || pointsBack(w) || w[len(w)-1] == "one" || w[len(w)-1] == "ones" || !declarative(why) || reQuestion.MatchString(s) || rePast.MatchString(why) || reAnaphor.MatchString(rule) {
		return "", "", false
	}
	return rule, why, true
}

// prohibition reports a clause that bans a kind of thing, said in
// capitals or with what the things do: "NO automations that make noise
// between 8am and 4pm"; not "no idea", "no response from the api".
func prohibition(words []string) bool {
	if len(words) < 4 || words[0] != "no" {
		return false
	}
	n := strings.Trim(words[1], ".,;:!")
	if !(len(n) >= 4 && strings.HasSuffix(n, "s") && !strings.HasSuffix(n, "ss") && !notRule()[n] && !statusNouns()[n]) {
		return false
	}
	switch words[2] {
	case "that", "which":
		// What the banned things do, not what some did: "no users that
		// signed up got the email", "no tests that we wrote cover this".
		return !subjects()[words[3]] && !pronounSubject(words[3]) && !rePast.MatchString(strings.Join(words, " "))
	case "in", "on", "during", "before", "after":
		// Where no such things go, not what none there do: "no rows in
		// the orders table have a null id", "no users on the free tier
		// can export".
		return !rePast.MatchString(strings.Join(words, " ")) && !reportsState(strings.Join(words[1:], " "))
	}
	return false
}

// thingOnly reports a clause that names a thing and the one way it is
// done, with no verb before it: "emails always as queued Mailables".
func thingOnly(c string) bool {
	loc := reThingOnly.FindStringIndex(c)
	if loc == nil {
		return false
	}
	l := asciiLower(c)
	i := strings.Index(l, " only ")
	if j := strings.Index(l, " always "); i < 0 || j >= 0 && j < i {
		i = j
	}
	return i > 0 && verbless(c[:i]) && !determiners()[strings.Fields(l)[0]] && !reportsState(l)
}

// reportsState reports a clause naming what happens, not how a thing is
// to be done: a symptom first ("crashes only on android 14"), or a verb
// after where it happens ("tests only in the auth package are failing",
// "users only on the free plan see the banner").
func reportsState(l string) bool {
	if head, _, _ := strings.Cut(l, ","); head != "" {
		l = head
	}
	w := strings.Fields(l)
	if len(w) == 0 || symptoms(w[0]) && strings.Contains(l, " only ") { // not "errors always as RFC 7807 problem+json"
		return true
	}
	for _, x := range w[1:] {
		x = strings.Trim(x, ".,;:!")
		if x == "that" || x == "which" || x == "who" {
			break // "builds only on the ci box that has the gpu": a relative clause's verb
		}
		if finiteVerbs()[x] || stateVerbs(x) {
			return true
		}
	}
	return false
}

// symptoms reports what goes wrong, said as a noun.
func symptoms(w string) bool {
	switch w {
	case "crashes", "crash", "errors", "error", "failures", "bugs", "bug", "issues", "warnings", "problems", "timeouts", "exceptions", "glitches", "leaks":
		return true
	}
	return false
}

// stateVerbs reports what a thing does or what is seen of it.
func stateVerbs(w string) bool {
	switch w {
	case "see", "sees", "get", "gets", "show", "shows", "fail", "fails", "failing", "break", "breaks", "crash", "happen", "happens", "appear", "appears", "work", "works", "can", "cannot", "can't", "will", "won't", "have", "has":
		return true
	}
	return false
}

// bareModal reports a clause of a quantified subject and a modal with
// its verb left out, said after the clause that has it: "every approval
// action must", "all of them have to".
func bareModal(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "every", "each", "all", "any":
	default:
		return false
	}
	n := len(words)
	last := words[n-1]
	return last == "must" || last == "should" || n >= 3 && last == "to" && (words[n-2] == "has" || words[n-2] == "have" || words[n-2] == "needs" || words[n-2] == "need")
}

// predicateOf is what a clause says must be done, after its modal: "go
// through the LeavePolicy gate" of "it has to go through the LeavePolicy
// gate"; "" when it has no modal.
func predicateOf(clause string) string {
	l := asciiLower(clause)
	for _, m := range []string{" has to ", " have to ", " must ", " needs to ", " need to ", " should "} {
		if i := strings.Index(l, m); i >= 0 && len(strings.Fields(clause[i+len(m):])) >= 2 {
			return strings.TrimRight(clause[i+len(m):], ".! ")
		}
	}
	return ""
}
