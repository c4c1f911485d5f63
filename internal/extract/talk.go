package extract

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file holds what issue 17's third pass taught the reader, from
// talk as people type it: what a project is held to, decisions behind a
// label, things taken out for a reason, rules said by their form, asides
// and emoji, and the places and self-descriptions said in a clause of a
// sentence that holds other memories.

var (
	// reConstraint is what a project is held to: "we're stuck on unity
	// 2022.3", "we're pinned to node 18", "we're gdscript only".
	reConstraint = gate(lazyre.New(`(?i)^(?:we'?re|we are|the (?:team|project|app|game|service|site) is) (?:(?:still|currently|basically|kinda)\s+)?(?:stuck on|pinned (?:to|on|at)|locked (?:to|on|into|in to)|tied to|limited to|standardi[sz]ed on|committed to)\b|^(?:we'?re|we are) (?:[\w.+#-]+ ){1,2}only\b` +
		`|\b(?:we'?re|we are) not (?:moving|upgrading|migrating|switching) (?:to|off)\b|^we (?:only )?(?:move|upgrade|migrate|switch) (?:to|off) \S+(?: \S+){0,3}? only after\b` +
		`|^we have an? (?:hard |fixed |strict |tight |monthly |small )?(?:budget|spend cap|cost cap|quota)\b|^(?:the )?(?:minimum|min|max|maximum) (?:supported )?[\w.-]+(?: [\w.-]+)? (?:is|stays)\b` +
		`|^there'?s an? (?:weekly|biweekly|fortnightly|monthly|daily|quarterly) (?:[\w-]+ ){0,4}(?:review|sync|meeting|standup|demo|retro|planning|call|check-?in)\b`))
	// rePin is a thing held to a release by name: "timescaledb has to stay
	// on 2.14", "the api must stay on node 18", "the sdk is pinned to
	// 3.2" — a version with a digit within three words.
	rePin = gate(lazyre.New(`(?i)^(?:the |our )?[\w.+#/-]+(?: [\w.+#/-]+){0,5}? (?:(?:has|have|needs?) to stay|must stay|stays?|(?:is|are) pinned) (?:on|at|to) (?:[a-z][\w.+#-]* ){0,2}v?\d`))
	// reDecisionHead is a decision said behind a label: "decided last
	// week: …", "the key lesson we agreed in the review: …".
	reDecisionHead = gate(lazyre.New(`(?i)^(?:(?:we|the team|team)\s+)?(?:(?:\w+\s+){0,3}(?:we\s+)?(?:decided|agreed|voted|settled on|signed off)\b|(?:the\s+)?(?:\w+\s+)?(?:decision|lesson|takeaway|outcome|ruling|policy)\b)[^:]{0,50}:\s+(.+)$`))
	// reDropped is a thing the team took out, then what it did to them:
	// "we ripped vee-validate out in the spring, it doubled the bundle".
	reDropped    = gate(lazyre.New(`(?i)^(we (?:ripped|took|pulled|tore|threw|yanked) ([\w.@/+-]+) out\b[^,;]{0,40}|we (?:removed|dropped|got rid of|banned|moved off|migrated off) ([\w.@/+-]+)\b[^,;]{0,40})[,;—–]\s+((?:it|that|they|this)\b.{6,})$`))
	reCantKeepUp = gate(lazyre.New(`(?i)\b(?:can'?t|cannot) keep (?:up|track)\b`))
	// reFeedbackMore are rules said as what to ignore, what cannot be
	// kept, what any change means: apart from reFeedback, whose prefix
	// gate they would undo.
	reFeedbackMore = gate(lazyre.New(`(?i)^ignore (?:anything|everything|any|all)\b|^(?:(?:we|you) (?:can'?t|cannot) (?:keep|put|store|send|log|ship|commit|push|share|copy)|(?:can'?t|cannot) (?:keep|put|store|share))\b|^(?:any|every) (?:new |single )?[\w-]+(?: [\w-]+){0,5}? (?:means|requires|needs|must|has to|should|goes through|go(?:es)? via)\b`))
	// reStanding are rules that say by their form they hold every time:
	// what everything goes into, what the team never does, what names
	// follow, a practice for a kind of thing ("use example.com in
	// fixtures"), a window, a prohibition with its reason after a dash.
	reStanding = gate(lazyre.New(`(?i)^(?:everything|all (?:new )?[\w-]+) (?:goes|go|lives?) (?:in|into|through)\b|^(?:every|each) [\w-]+(?: [\w-]+)? (?:uses|gets|has|needs|must|goes) \w|\bwe (?:don'?t|dont|do not|never|only) (?:do|install|add|use|merge|deploy|ship|push|commit|touch|edit|run|write|put|store|log|call|import|upgrade|bump|rename|delete|change|release)\b|\b(?:names?|files|branches|commits|tags|labels|keys|ids|endpoints|routes|tables|columns) (?:follow|use|match) (?:the |our )?\S+ (?:style|convention|pattern|format|scheme)\b|^use [\w.@-]+(?: [\w.@-]+){0,3} (?:in|for) (?:all |every |our )?[a-z]+s\s*[.!]*$|\bonly (?:inside|during|within|outside) (?:the |our )?[\w-]+(?: [\w-]+)? (?:window|hours)\b|^no [\w.+#-]+(?: [\w.+#-]+)?\s*(?:—|–| - )\s*\w|\byou (?:don'?t|dont|do not) (?:have|need) to (?:ask|check with|wait for|ping) (?:me|us)\b`))
	reOwnNeed  = gate(lazyre.New(`(?i)^i (?:need|want|wanna|gotta|must)\b`))
	// reYourWork is a sentence about what the assistant just did, a step
	// of this task: "the test you wrote has vpn.client-zeta.com, change it".
	reYourWork = gate(lazyre.New(`(?i)\byou(?:'ve| have| just)? (?:wrote|did|made|added|used|saw|changed|removed|ran|picked|put)\b|\b(?:change|fix|revert|remove|rename|update|undo) (?:it|that|this|them)\s*[.!]*$`))
	// reThisWork is a deadline of the speaker's own piece of work: "this
	// PR has to be merged before friday".
	reThisWork = gate(lazyre.New(`(?i)\b(?:this|my) (?:pr|branch|ticket|task|commit)\b`))
	// reUseNot is a choice said against the other: "use X, not Y".
	reUseNot = gate(lazyre.New(`(?i)^(?:(?:sure|ok|okay|yes|yeah|fine|no|nope|[\w.-]+ yes),?\s+)?(?:but\s+)?use [\w.-]+(?: [\w.-]+){0,6},? not [\w.-]+`))
	// reChannelIn is a channel named as the place something goes: "dump
	// their notes in #playtest-notes".
	reChannelIn = gate(lazyre.New(`(?i)\b(?:in|into|to|on|via) #[a-z][\w-]{2,}`))
)

// reToYou is a trailing clause said to the assistant about this session:
// "…, you saw build.sc already, whatever".
var reToYou = gate(lazyre.New(`(?i),\s+you (?:saw|wrote|did|made|said|mentioned|used|had|know|already|just)\b[^,]*(?:,\s*whatever)?[.!]*\s*$|,\s*whatever[.!]*\s*$`))

// reChatAside is a trailing aside in parentheses that only chats.
var reChatAside = gate(lazyre.New(`(?i)\s*\((?:yes|yeah|yep|lol|haha|i know|ok|okay|sigh|long story|don'?t ask|ugh|fun times)\b[^()]*\)\s*[.!]*\s*$`))

// unwrapAside reads a sentence said in parentheses as the sentence it
// holds ("(bg: i'm on data platform, so go straight to the point.)"),
// and drops what it says to the assistant about this session.
func unwrapAside(s string) string {
	if strings.HasPrefix(s, "(") {
		inner := strings.TrimRight(s, ".! ")
		if close := strings.IndexByte(s, ')'); close == len(inner)-1 && strings.Count(s, "(") == 1 {
			s = strings.TrimRight(strings.TrimSpace(inner[1:close]), ".!") + "." // "(bg: i'm on data platform.)"
		} else if close > 0 && len(strings.Fields(s[:close])) <= 4 {
			s = strings.TrimSpace(s[close+1:]) // "(imo) always use early returns"
		}
	}
	if !mayHold(s, []string{", you ", "whatever"}) && !strings.HasSuffix(strings.TrimRight(s, ".! "), ")") {
		return s
	}
	if loc := reToYou.FindStringIndex(s); loc != nil && loc[0] > 0 {
		s = s[:loc[0]]
	}
	if loc := reChatAside.FindStringIndex(s); loc != nil && loc[0] > 0 && !holdsException(s[loc[0]:]) {
		s = s[:loc[0]] // "…two teams consume it (yes i know, blame sam)"
	} else if loc := reJokeAside.FindStringIndex(s); loc != nil && loc[0] > 0 && offTopicAside(s[:loc[0]], s[loc[0]:]) {
		s = s[:loc[0]] // "…are on the NAS (the robots are named after cheeses btw)"
	}
	return s
}

// reIdentifier is a host or an identifier: "logs.internal", "ci-large".
var reIdentifier = lazyre.New(`\b[a-z0-9]+(?:[-_.][a-z0-9]+)+\b`)

// offTopicAside reports an aside that says nothing of what the sentence
// before it is about: no word of it, no place, date, number or handle, no
// word that narrows or widens a rule, nothing about the speaker. "(the
// robots are named after cheeses btw)" is one; "(hotfixes are exempt
// btw)", "(grafana at logs.internal btw)", "(been doing rails since 4.2
// so dont explain activerecord to me lol)" are not.
func offTopicAside(before, aside string) bool {
	if isWhere(aside) || reURL.MatchString(aside) || strings.ContainsAny(aside, "0123456789@#/") || reIdentifier.MatchString(aside) {
		return false
	}
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(asciiLower(before), notWordByte) {
		seen[strings.TrimSuffix(w, "s")] = true
	}
	for _, w := range strings.FieldsFunc(asciiLower(aside), notWordByte) {
		switch w {
		case "except", "exempt", "excepted", "unless", "but", "not", "only", "or", "too", "also", "fine", "banned", "instead", "never", "always", "dont", "don", "i", "im", "me", "my":
			return false
		}
		if len(w) >= 4 && seen[strings.TrimSuffix(w, "s")] {
			return false // "(the changelog bot reads the squash titles btw)" after "always squash"
		}
	}
	return true
}

// reJokeAside is an aside at a sentence's end that says it is one.
var reJokeAside = lazyre.New(`(?i)\s*\([^()]*\b(?:btw|lol|haha|lmao|jk|pray for me|fun fact)\b[^()]*\)\s*[.!]*\s*$`)

// holdsException reports an aside that narrows the rule before it, in its
// first words: "(yes, but not on fridays)", not "(yes our game is called
// cardclash, marketing was not creative)".
func holdsException(aside string) bool {
	w := strings.Fields(asciiLower(strings.TrimLeft(aside, " (")))
	for i := 0; i < len(w) && i < 4; i++ {
		switch strings.Trim(w[i], ",.;:!") {
		case "except", "unless", "but", "not", "only":
			return true
		}
	}
	return false
}

// reParenAside is a parenthesised aside inside a sentence.
var reParenAside = lazyre.New(`\s*\([^()]{1,300}\)`)

// withoutSecretAsides takes out of a sentence that holds a secret the
// asides in parentheses and the trailing clauses that speak of credentials,
// and returns what is left with the kinds it held, when what is left says
// something and speaks of none: "the setup is on our lab wiki https://…
// (login is lab / hunter2! dont save that)" keeps the wiki, never the
// login. Otherwise s comes back as it is (and is never saved).
func withoutSecretAsides(s string) (string, []string) {
	if !maySayASecret(s) {
		return s, nil // most sentences: the candidates' own check still runs on what they save
	}
	kinds := secretKinds(s)
	if len(kinds) == 0 || len(s) > maxClauseText {
		return s, nil
	}
	cut := reParenAside.ReplaceAllStringFunc(s, func(a string) string {
		if len(secretKinds(a)) > 0 || credentialish(a) {
			return ""
		}
		return a
	})
	cuts := clauseCuts(cut)
	for k := 1; k < len(cuts); k++ {
		end := len(cut)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		clause := cut[cuts[k].at+cuts[k].n : max(end, cuts[k].at+cuts[k].n)]
		if len(secretKinds(clause)) == 0 && !credentialish(clause) {
			continue // "…, the read role is heap-reader, or if it fails my key is …": the role stays
		}
		if w := strings.Fields(asciiLower(clause)); len(w) > 0 && (w[0] == "unless" || w[0] == "except" || w[0] == "if" || w[0] == "when" || w[0] == "but") {
			return s, nil // "never …, unless you use the break-glass password …": no rule without its exception
		}
		cut = strings.TrimSpace(cut[:cuts[k].at])
		break
	}
	if cut == s || len(strings.Fields(cut)) < 5 || len(secretKinds(cut)) > 0 || credentialish(cut) {
		return s, nil
	}
	return cut, kinds
}

// maySayASecret is a cheap test before secretKinds: a word of eight
// characters or more with letters and digits, an address with a user in
// it, a key block, or a word for a credential. When it says no, the
// sentence is not cut; what it saves is still checked whole.
func maySayASecret(s string) bool {
	if strings.Contains(s, "://") || strings.Contains(s, "-----") || strings.Contains(s, "@") {
		return true
	}
	for w := range strings.FieldsSeq(s) {
		if len(w) < 8 {
			continue
		}
		digit, letter := false, false
		for i := 0; i < len(w) && !(digit && letter); i++ {
			c := w[i] | 0x20
			digit = digit || w[i] >= '0' && w[i] <= '9'
			letter = letter || c >= 'a' && c <= 'z'
		}
		if digit && letter {
			return true
		}
	}
	return reCredentialWord.MatchString(s)
}

// credentialish reports text that speaks of a credential: a word for one,
// or a clause that opens with a user name ("user report_ro").
func credentialish(t string) bool {
	if reCredentialWord.MatchString(t) {
		return true
	}
	w := strings.Fields(asciiLower(strings.TrimLeft(t, " ,;(—–-")))
	return len(w) > 1 && (w[0] == "user" || w[0] == "username" || w[0] == "login" || w[0] == "pw" || w[0] == "pass" || w[0] == "bearer")
}

// reCredentialWord is a word a credential is named by; not "1password".
var reCredentialWord = gate(lazyre.New(`(?i)\b(?:passwords?|passwd|passphrases?|pw|pass|secrets?|tokens?|bearer|api[ _-]?keys?|access[ _-]?keys?|client[ _-]?id|client[ _-]?secret|logins?|creds|credentials?|psk|private[ _-]?keys?|signing[ _-]?keys?|pat)\b`))

// withoutTask is a self-description less a task asked after it: "i'm a
// backend dev, write a migration for the users table" is who they are,
// then this task's step.
func withoutTask(s string) string {
	cuts := clauseCuts(s)
	if i := strings.Index(asciiLower(s), " so "); i > 0 && slices.ContainsFunc([]string{"dont ", "don't ", "do not ", "never ", "stop ", "avoid "}, func(p string) bool { return strings.HasPrefix(asciiLower(s[i+4:]), p) }) {
		// "im colorblind so dont give me …": who they are, without what
		// they forbid ("…, so please explain any git stuff" stays: how to
		// explain to them is part of who they are).
		cuts = append(cuts, cut{i, len(" so ")})
		slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	}
	for _, c := range cuts[1:] {
		w := strings.Fields(asciiLower(s[c.at+c.n:]))
		if len(w) > 1 && (w[0] == "never" || w[0] == "always" || w[0] == "only") && (prepositions()[w[1]] || w[1] == "around" || w[1] == "online" || w[1] == "available") {
			continue // "…, never in on fridays": when they are there, not a task
		}
		if len(w) > 1 && imperatives()[w[0]] && !requestVerbs()[w[0]] && len(strings.Fields(s[:c.at])) >= 3 {
			return strings.TrimSpace(s[:c.at])
		}
	}
	return s
}

// ruledHead is a rule said behind the thing it rules: "background jobs:
// never retry more than 3 times".
func ruledHead(s, next string, at time.Time) (Candidate, bool) {
	head, rest, ok := strings.Cut(s, ": ")
	if !ok || len(strings.Fields(head)) > 3 || len(strings.Fields(rest)) < 3 || !reRuleStart.MatchString(rest) || contextLabel(head) ||
		reOneOff.MatchString(head) || mayHold(head, []string{"this", "that", "for ", "now", "today"}) {
		return Candidate{}, false
	}
	return build("feedback", s, whyOf(rest, next), at), true // "tests: always lit tests, because the release team runs only check-llvm"
}

// opensSentence reports a word that opens a new sentence after an emoji:
// "…skip the basics 🙂 today: bloat on…", not "never deploy 🚀 on fridays".
func opensSentence(s string) bool {
	w := strings.Fields(asciiLower(s[:min(len(s), 60)]))
	if len(w) == 0 {
		return false
	}
	switch strings.TrimRight(w[0], ":,") {
	case "today", "anyway", "anyways", "btw", "ok", "okay", "so", "also", "now", "oh", "fwiw", "context", "thanks", "cheers",
		"i", "i'm", "im", "we", "we're", "it's", "they", "he", "she":
		return true
	}
	// "…doing both now 🙃 coffee machine is broken": a subject and its verb.
	for _, x := range w[1:min(len(w), 3)] {
		switch x {
		case "is", "are", "was", "were":
			return true
		}
	}
	return false
}

// emojiAt reports an emoji (U+1F300-U+1FAFF) at the start of s.
func emojiAt(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n == 4 && r >= 0x1F300 && r <= 0x1FAFF
}

// opensWithRule reports a sentence that opens as a rule does, though it
// names a place further on: "any change to maxOffsetsPerTrigger needs a
// heads up in #stream-ops first, …", "dont change the embedding model —
// our eval baseline is on text-embedding-3-small" are rules. "never
// deploy on fridays, the calendar is in notion under …" is a rule and a
// place, which the reference case cuts in two.
func opensWithRule(s string) bool {
	if reFeedbackMore.MatchString(s) {
		return true
	}
	head, rest, ok := strings.Cut(s, ", ")
	if ok && isWhere(rest) && !isWhere(head) {
		return false
	}
	if h, _, ok := strings.Cut(head, " — "); ok {
		head = h
	}
	return reRuleStart.MatchString(head) && !isWhere(head)
}

// taskWords mark a choice or a rule said for this task only: "use the
// v2 endpoint here, not v1", "ignore all the errors above".
var taskWords = []string{" here", "this ", " demo", " test,", " test ", "above", "below", " now", "for the migration"}

// hereWords mark a rule said for what is on screen now: "ignore all the
// errors above".
var hereWords = []string{" here", "above", "below", " demo"}

// standing is reStanding, less bug reports ("we don't call close() on the
// file in the error path", "that's why") and status said as "no X — …"
// ("no luck — same error").
func standing(s string) bool {
	if !reStanding.MatchString(s) || mayHold(s, []string{"that's why", "thats why", "in the error path", " here", "this "}) {
		return false
	}
	if w := strings.Fields(asciiLower(s)); len(w) > 1 && w[0] == "no" {
		x := strings.Trim(w[1], ",.!—–-")
		return !notRule()[x] && !statusNouns()[x]
	}
	return true
}

// decided checks a decision behind a label: the label says one was made
// ("nothing was decided:", "we havent decided yet:" do not), and what
// follows stands alone and holds ("agreed: that looks good", "agreed: go
// with option 2", "the outcome: tests are still failing", "lesson
// learned: i should have read the docs" do not).
func decided(head, rest string) bool {
	h, r := asciiLower(head), strings.Fields(asciiLower(rest))
	if mayHold(h, []string{"not", "n't", "nothing", " yet", "havent", "i signed", "my "}) || len(r) < 3 {
		return false
	}
	switch strings.Trim(r[0], ",.") {
	case "that", "this", "it", "let's", "lets", "sounds", "looks", "ok", "okay", "yes", "yeah", "sure", "go", "see", "tests", "i", "i'm", "im", "we'll":
		return false
	}
	return !rePast.MatchString(rest) && !reNowOnly.MatchString(rest) && !reQuestion.MatchString(rest) && !mayHold(rest, []string{"option ", "still "})
}

// heldTo checks what reConstraint matched: "stuck on" a version, not on
// a bug ("we're stuck on the flaky auth test"); "only" after a name, not
// after a verb ("we're testing only the login flow"); a minimum nobody
// merely saw ("the maximum i saw is 400ms").
func heldTo(lower string) bool {
	if i := strings.Index(lower, "stuck on "); i >= 0 {
		next := strings.Fields(lower[i+len("stuck on "):])
		return len(next) > 0 && strings.ContainsAny(strings.Join(next[:min(3, len(next))], " "), "0123456789")
	}
	w := strings.Fields(lower)
	if len(w) >= 3 && (w[0] == "we're" || w[0] == "were" || w[0] == "we") && slices.Contains(w[:min(5, len(w))], "only") {
		for _, x := range w[1:min(4, len(w))] {
			if strings.HasSuffix(x, "ing") {
				return false
			}
		}
	}
	if len(w) >= 3 && (strings.HasPrefix(lower, "the m") || strings.HasPrefix(lower, "m")) {
		for _, x := range w[1:min(4, len(w))] {
			if firstPerson(x) || x == "we" || x == "you" {
				return false
			}
		}
	}
	return true
}

// mayConstrain is reConstraint's cheap test: how its sentences open, or
// "not moving".
func mayConstrain(lower string) bool {
	for _, p := range []string{"we", "the ", "there", "min", "max"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return strings.Contains(lower, " not ")
}

// clauseFacts are the places and self-descriptions said in a clause of a
// sentence whose memories hold none: "finance reads orders from gold at
// 06:00, so the job has to finish before that, the SLA is tracked in the
// data-contracts sheet" is a deadline and a place.
func clauseFacts(s string, cs []Candidate, at time.Time) []Candidate {
	hasRef, hasUser := false, false
	for _, c := range cs {
		hasRef = hasRef || c.Type == "reference"
		hasUser = hasUser || c.Type == "user"
	}
	if hasRef && hasUser || len(s) > maxClauseText || !strings.Contains(s, ", ") && !strings.Contains(s, "; ") && !strings.Contains(s, " — ") && !strings.Contains(s, " – ") && !strings.Contains(s, " - ") {
		return nil // most sentences: one clause, or nothing to add
	}
	cuts := clauseCuts(s)
	var out []Candidate
	for k := range cuts {
		clause, ok := clauseAt(s, cuts, k)
		if !ok {
			continue
		}
		clause = strings.TrimSpace(clause)
		for _, lead := range []string{"and ", "but ", "so ", "also ", "oh "} {
			if len(clause) > len(lead) && strings.EqualFold(clause[:len(lead)], lead) {
				clause = clause[len(lead):]
			}
		}
		words := strings.Fields(clause)
		if len(words) < 3 {
			continue
		}
		switch {
		case !hasRef && isWhere(clause) && !isScheduled(clause, at):
			out = append(out, build("reference", clause, "", at))
			hasRef = true
		case !hasUser && firstPerson(strings.ToLower(words[0])) && isSelf(clause) && !reSelfNot.MatchString(clause) && !reNowOnly.MatchString(clause) && (k == 0 || !condition(s[:cuts[k].at])):
			out = append(out, build("user", clause, "", at))
			hasUser = true
		}
	}
	if len(out) == 0 || reQuestion.MatchString(s) || reToAgents.MatchString(s) || reDerivable.MatchString(s) {
		return nil
	}
	return out
}

// taskLabel reports a sentence headed as the task at hand: "issue today:
// entities go unavailable…", "first ticket: …", "TILDE-231: streak counter
// resets at midnight UTC".
func taskLabel(s string) bool {
	head, _, ok := strings.Cut(strings.TrimSpace(s), ": ")
	if !ok {
		return false
	}
	w := strings.Fields(asciiLower(head))
	if len(w) == 1 && ticketKey(strings.ToUpper(w[0])) && ticketKey(strings.Fields(head)[0]) {
		return true
	}
	if len(w) == 0 || len(w) > 4 {
		return false
	}
	named := false
	for _, x := range w {
		switch x {
		case "issue", "bug", "problem", "ticket", "task", "error", "todo":
			named = true
		case "today", "today's", "now", "current", "the", "my", "first", "this", "new", "next", "main", "one", "and", "so", "ok", "also":
		default:
			return false
		}
	}
	return named
}

// repro reports the steps to reproduce a bug.
func repro(s string) bool {
	l := asciiLower(strings.TrimSpace(s))
	for _, p := range []string{"to repro", "repro:", "repro steps", "to reproduce", "steps to reproduce", "how to repro"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// thingOK reports one thing said to be ok as it is, "gateway is ok"; not
// a practice allowed, "using any in tests is fine", "raw SQL is ok".
func thingOK(s string) bool {
	w := strings.Fields(strings.TrimRight(asciiLower(s), ".! "))
	return len(w) == 3 && w[1] == "is" && (w[2] == "ok" || w[2] == "okay")
}

// wentBy reports what went by, said of a scheduled thing: "the release on
// the 21st went out fine" is history, not a date to plan around.
func wentBy(clause string) bool {
	for _, w := range strings.Fields(asciiLower(clause)) {
		switch strings.Trim(w, ".,;:!") {
		case "went", "happened":
			return true
		}
	}
	return false
}

// venting reports a sentence that vents about a thing: "ugh I hate Google
// Fit so much"; not how the agent should work, "I hate when you add
// comments to every line".
func venting(s string) bool {
	l := strings.TrimRight(asciiLower(s), ".! ")
	if strings.ContainsAny(l, ",;:—") || !strings.HasPrefix(l, "ugh") && !strings.HasSuffix(l, " so much") && !strings.HasSuffix(l, " lol") {
		return false // "i hate long preambles, just give me the diff": what to do instead
	}
	w := strings.Fields(l)
	for len(w) > 0 && (strings.HasPrefix(w[0], "ugh") || w[0] == "honestly" || w[0] == "man") {
		w = w[1:]
	}
	if len(w) < 3 || w[0] != "i" {
		return false
	}
	i := 2
	switch {
	case w[1] == "hate" || w[1] == "despise":
	case (w[1] == "can't" || w[1] == "cant") && w[2] == "stand":
		i = 3
	default:
		return false
	}
	if i >= len(w) {
		return false
	}
	switch strings.Trim(w[i], ",.!") {
	case "when", "it", "that", "how", "being", "having", "seeing", "getting", "reading", "you", "your":
		return false
	}
	return true
}
