package extract

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// The assistant's proposal is what a short reply refers to: "yes please,
// keep doing that" confirms it, "I'd rather not for the batch jobs"
// refuses it for some case. The proposal is read for that context only:
// a memory never holds the assistant's words as the user's, and says
// whose they are.

// reConfirm is a reply that confirms what the assistant did or proposed,
// with nothing of its own: "yes please, that's really helpful, keep doing
// that", "great, that's exactly what I wanted".
var reConfirm = gate(lazyre.New(`(?i)^(?:(?:yes|yeah|yep|great|perfect|nice|exactly|good|cool|love it|please|ok|okay|this is (?:great|perfect|good|nice))[,!.]?\s*)*(?:that'?s (?:exactly what i (?:wanted|meant)|(?:really |very |super )?(?:helpful|useful|great|perfect|what i wanted))|keep (?:doing (?:that|this|it)|it (?:that|this) way|it like (?:that|this)|it that simple)|(?:do|please do) (?:that|this) (?:every time|always|from now on))\b`))

// confirmsOffer reports a short yes that names part of the offer as right
// ("yes sendrecv is right" to "I'll use MPI_Sendrecv") or keeps it ("yes
// multiwindow burn rate, keep it."), with no word of refusal: not "neither
// is right", "rollback is the way to go", "nah, keep it", "i wouldn't keep
// it".
func confirmsOffer(s, offer string) bool {
	if offer == "" || reQuestion.MatchString(s) || reToAgents.MatchString(s) || reRefusal.MatchString(s) || read(s).correction {
		return false
	}
	if m := reConfirmThat.FindStringSubmatch(s); m != nil {
		return len(m[1]) >= 3 && strings.Contains(asciiLower(offer), asciiLower(m[1]))
	}
	l := strings.TrimRight(asciiLower(strings.TrimSpace(s)), " .!")
	return strings.HasSuffix(l, "keep it") && reYesFirst.MatchString(l)
}

var (
	// reRefusal is a word that refuses, wherever it stands.
	reRefusal = gate(lazyre.New(`(?i)\b(?:not|no|nah|nope|never|don'?t|dont|wouldn'?t|won'?t|shouldn'?t|neither|nothing|nobody|why|delete|drop|remove|revert|undo|instead|rather)\b`))
	// reYesFirst is a reply that opens with a yes.
	reYesFirst = gate(lazyre.New(`(?i)^(?:yes|yeah|yep|yup|ok|okay|great|perfect|nice|good|cool|sure)\b`))
)

// reConfirmThat is a confirmation that names what it confirms as right:
// "yes sendrecv is right", "standard test PANs is the right call".
var reConfirmThat = gate(lazyre.New(`(?i)^(?:(?:yes|yeah|yep)[,!.]?\s*)?([\w.-]+) (?:is|was) (?:right|correct|the right (?:call|approach|way|choice)|the way to go)\b`))

// reElided is a correction whose object is left out: it refuses what the
// assistant proposed without naming it.
var reElided = gate(lazyre.New(`(?i)\b(?:rather not|not for (?:the )?\w+|not like that|not that one|don'?t do that|not this time)\b`))

// reProposal is the assistant announcing what it will do.
var reProposal = gate(lazyre.New(`(?i)^(?:ok(?:ay)?[,.]?\s+|sure[,.]?\s+|got it[,.]?\s+)?(?:(?:for|in|on) [^,]{3,60}?,?\s+)?(?:i'?ll|i will|i'?m going to|let me|i can)\s+(.{8,200}?)[.!]?$`))

// proposal is what an assistant message proposed or reported doing,
// as a rule would say it, or the zero proposal.
type proposal struct {
	text string
	did  bool // reported as done ("I also put the regen in the same PR"), not proposed
}

// proposalOf is what an assistant message offers a reply to confirm: its
// first sentence when it says what the assistant will do ("I'll explain
// each git command as I run it" → "explain each git command as I run
// it"), else the last sentence that reports a choice it made ("I also
// put the regen and the fix in a single PR" → "put the regen and the fix
// in a single PR"), else nothing.
func proposalOf(text string) proposal {
	sents := sentences(text)
	if len(sents) == 0 {
		return proposal{}
	}
	if m := reProposal.FindStringSubmatch(strings.TrimSpace(sents[0])); m != nil {
		return proposal{text: m[1]}
	}
	if p := reportedChoice(sents); p.text != "" {
		return p
	}
	if reQuestion.MatchString(text) {
		return proposal{} // "Should I delete the stale branches? I'll wait for your go-ahead."
	}
	for _, s := range sents[1:] {
		// "Understood, COMMON blocks stay. For the halo exchange I'll
		// replace the paired calls with MPI_Sendrecv.": a later sentence
		// that says what the assistant will do, not a closing ("Let me
		// know if…", "I can also open a PR if you want", "I'll stop here").
		if m := reProposal.FindStringSubmatch(strings.TrimSpace(s)); m != nil && !reClosing.MatchString(s) {
			return proposal{text: m[1]}
		}
	}
	return proposal{}
}

// reClosing is an assistant's closing line, no proposal.
var reClosing = gate(lazyre.New(`(?i)\b(?:let me (?:know|check|see|look)|if you (?:want|like|prefer|need)|i'?ll (?:stop|wait|pause)|happy to|anything else)\b`))

// reportedChoice is the last sentence that reports a choice the assistant
// made, as a proposal done, or the zero proposal.
func reportedChoice(sents []string) proposal {
	for i := len(sents) - 1; i >= 0; i-- {
		m := reReported.FindStringSubmatch(strings.TrimSpace(sents[i]))
		if m == nil || reQuestion.MatchString(sents[i]) {
			continue
		}
		verb, ok := baseForm(strings.ToLower(m[3]))
		if !ok {
			continue
		}
		if m[2] == "" && (findingVerbs()[verb] || m[4][0] >= '0' && m[4][0] <= '9') {
			// "Checked the logs, the timeout is from the upstream", "Changed
			// 3 files": a finding or a tally, not a choice.
			continue
		}
		// "…MapView.svelte and explained each bit inline": two things done.
		rest := reAndDid.ReplaceAllStringFunc(m[4], func(and string) string {
			v, ok := baseForm(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(and, " ,"), "and"))))
			if !ok {
				return and
			}
			return ", and " + v
		})
		rule := verb + " " + rest
		if m[1] != "" {
			rule = m[1] + ", " + rule
		}
		return proposal{text: rule, did: true}
	}
	return proposal{}
}

// reReported is an assistant's sentence reporting a choice it made: an
// optional lead ("Separately, for the schema change"), "I" (often left
// out: "Added .env to .gitignore as well"), a verb in the past, and what
// it did.
var reReported = gate(lazyre.New(`(?i)^(?:(?:also|separately|then|finally|additionally|plus|and|done)[,.]?\s+)*(?:(for [^,]{3,60}?),?\s+)?(?:(i)\s+(?:also\s+)?)?([a-z]+ed|put|set|ran|wrote|made|kept|split|built|chose|left)\s+(.{6,200}?)[.!]?$`))

// reAndDid is " and" and a second verb in the past, in a sentence
// reReported read.
var reAndDid = gate(lazyre.New(`(?i),?\s+and\s+(?:[a-z]+ed|put|set|ran|wrote|made|kept|split|built|chose|left)\b`))

// irregularPast maps the irregular past forms reReported takes to their
// base forms.
var irregularPast = map[string]string{"put": "put", "set": "set", "ran": "run", "wrote": "write", "made": "make", "kept": "keep",
	"split": "split", "built": "build", "chose": "choose", "left": "leave"}

// choiceVerbs are the verbs, in their base form, of the choices an
// assistant reports doing in a coding session: what a "keep doing that"
// can make a standing rule of. A reported verb outside them ("noticed",
// "wanted", "tried") is no choice, or is not read: nothing is saved.
var choiceVerbs = sync.OnceValue(func() map[string]bool {
	return wordSet(`add use move remove rename update create delete merge squash rebase bump pin cache scope wire store parse
		release ignore declare define handle toggle resolve upgrade downgrade prune clone reduce label cancel open edit order
		filter render refactor restore configure compute execute enable disable replace change regenerate generate migrate
		validate separate isolate invoke type pipe mock stub test lint format document comment log wrap extract inline batch
		retry skip drop revert reset commit push pull tag deploy swap split group sort name annotate explain describe link
		list note mark flag guard check verify pass return throw catch raise wrap unwrap export import include exclude
		vendor bundle compress encode decode escape quote sanitize normalize seed stage queue schedule limit throttle
		paginate index partition shard replicate lock unlock close copy fill keep leave choose build write make set put run
		call embed force`)
})

// findingVerbs are what an assistant reports having looked at, not chosen:
// without its "I", "Checked the logs, …" is a finding.
var findingVerbs = sync.OnceValue(func() map[string]bool {
	return wordSet(`check verify test run confirm review read find investigate inspect look trace profile measure compare`)
})

// baseForm turns a verb in the past into its base form when the base form
// is a choiceVerbs verb: "swapped" → "swap", "added" → "add",
// "regenerated" → "regenerate", "copied" → "copy", "scoped" → "scope". ok
// is false for any other word.
func baseForm(v string) (string, bool) {
	if b, ok := irregularPast[v]; ok {
		return b, true
	}
	b, ok := strings.CutSuffix(v, "ed")
	if !ok {
		return "", false
	}
	cands := []string{b, b + "e", strings.TrimSuffix(v, "d")}
	if y, ok := strings.CutSuffix(b, "i"); ok {
		cands = append(cands, y+"y") // copied
	}
	if n := len(b); n >= 2 && b[n-1] == b[n-2] {
		cands = append(cands, b[:n-1]) // swapped, committed, labelled
	}
	for _, c := range cands {
		if choiceVerbs()[c] {
			return c, true
		}
	}
	return "", false
}

// reHabitConfirm is a confirmation that asks for the same again, not only
// thanks for it: what a choice the assistant reported needs to become a
// rule ("perfect" after "I fixed the typo" is no rule).
var reHabitConfirm = gate(lazyre.New(`(?i)\b(?:keep (?:doing|it)|every time|from now on|going forward|always|do (?:that|this|it) (?:again|every time|always))\b`))

// reOnlyNow is a confirmation for this once: "just this once", "for now",
// "until friday".
var reOnlyNow = gate(lazyre.New(`(?i)\b(?:just this once|this once|this time|for now|for today|until|till|for the moment)\b`))

// reSpecific is an offer about one thing: a version, an issue or PR
// number, a file being edited, or a credential.
var reSpecific = gate(lazyre.New(`(?i)#\d+|\bv?\d+\.\d+(?:\.\d+)?\b|\b(?:passwords?|passphrases?|passwd|tokens?|secrets?|api[ _-]?keys?|access[ _-]?keys?|private[ _-]?keys?|credentials?)\b`))

// resolveReferences fills in what a reply refers to (see reConfirm and
// reElided): a confirmation becomes the rule it confirms, or nothing when
// the assistant proposed nothing nameable (a bare "that's exactly what I
// wanted" is no memory); a refusal without its object names it.
func resolveReferences(s, next string, cands []Candidate, offer proposal, at time.Time) []Candidate {
	if confirms(s) || confirmsOffer(s, offer.text) {
		// The reply's own rules stay ("keep doing that, but always use
		// British spelling"); its bare thanks do not.
		var own, named []Candidate
		for _, c := range cands {
			switch {
			case !confirms(c.Description) && !reConfirm.MatchString(read(c.Description).text):
				own = append(own, c)
			case c.Type == "feedback" && len(named) == 0 && namesItsOwn(read(s).text):
				// The rule, when the assistant's words give none, in the
				// user's words less their thanks.
				if rule := ownWords(read(s).text); readsAsRule(rule) {
					named = append(named, build("feedback", rule, "", at))
				}
			}
		}
		if len(named) == 0 && !slices.ContainsFunc(own, func(c Candidate) bool { return c.Type == "feedback" }) {
			if c, ok := keptOwnWay(s, at); ok {
				named = append(named, c) // "common_test suites with one group per message type, keep doing that"
			}
		}
		switch {
		case offer.text == "",
			reOnlyNow.MatchString(s),                                            // "keep doing that for now"
			offer.did && !reHabitConfirm.MatchString(s),                         // "perfect" after "I fixed the typo": thanks, no rule
			reSpecific.MatchString(offer.text),                                  // a version, a PR, a credential: one thing
			reOneOff.MatchString(offer.text), reNowOnly.MatchString(offer.text): // "for now", "this file"
			if reOnlyNow.MatchString(s) {
				return own
			}
			return append(own, named...)
		}
		scoped := scopeOffer(s, offer.text)
		if scoped == "" {
			return own // the confirmation excludes every part of it
		}
		rule := strings.NewReplacer(" I run ", " you run ", " I'm ", " you're ", " I'll ", " you'll ", " I ", " you ", " my ", " your ", " me ", " the user ").Replace(" " + scoped + " ")
		c := build("feedback", strings.TrimSpace(rule), confirmedWhy(s, next, scoped), at)
		how := "proposed it"
		if offer.did {
			how = "did it"
		}
		c.Body = strings.TrimSuffix(c.Body, "\n") + "\n\nThe user confirmed this approach when the assistant " + how + " (\"" + oneLine(s, 120) + "\").\n"
		return append(own, c)
	}
	// The object is left out of what remains once the redirect's head is
	// read ("no, not like that — don't mock the db" names its object), in
	// a reply that redirects.
	if offer.text != "" && read(s).correction && reElided.MatchString(s) && reElided.MatchString(read(s).text) {
		what := "the assistant's proposal to " + offer.text
		if offer.did {
			what = "what the assistant did: " + offer.text
		}
		for i, c := range cands {
			if c.Type == "feedback" {
				cands[i].Description = oneLine(c.Description+" (refusing "+what+")", 200)
				cands[i].Body = strings.TrimSuffix(c.Body, "\n") + "\n\nWhat it refuses: " + what + ".\n"
			}
		}
	}
	return cands
}

// scopeOffer is the part of an offer a confirmation points at, when it
// points at some of it: "multi-stage yes, keep doing that" confirms only
// the clause about a multi-stage build of "switch the base to alpine, and
// use a multi-stage build"; "the inline explanations are what I need"
// only the clause that explains inline. The clauses that share the most
// words with the confirmation are kept; one that shares none with any
// clause, or as many with each, confirms it all.
func scopeOffer(confirmation, offer string) string {
	var named, excluded []string
	words := strings.FieldsFunc(asciiLower(confirmation), notWordByte)
	for i, w := range words {
		if len(w) < 3 || confirmFillers()[w] {
			continue
		}
		// "except the alpine switch", "but skip the alpine part", "without alpine"
		if slices.ContainsFunc(words[max(0, i-3):i], func(x string) bool { return excluding()[x] }) {
			excluded = append(excluded, w)
			continue
		}
		named = append(named, w)
	}
	clauses := reOfferClause.Split(offer, -1)
	if len(excluded) > 0 {
		clauses = slices.DeleteFunc(clauses, func(c string) bool {
			cw := strings.FieldsFunc(asciiLower(c), notWordByte)
			return slices.ContainsFunc(excluded, func(w string) bool {
				return slices.ContainsFunc(cw, func(t string) bool { return sameStem(w, t) })
			})
		})
		if len(clauses) == 0 {
			return ""
		}
		offer = strings.Join(clauses, ", and ")
	}
	if len(named) == 0 || len(clauses) < 2 {
		return offer
	}
	score := make([]int, len(clauses))
	best := 0
	for i, c := range clauses {
		words := strings.FieldsFunc(asciiLower(c), notWordByte)
		for _, w := range named {
			if slices.ContainsFunc(words, func(t string) bool { return sameStem(w, t) }) {
				score[i]++
			}
		}
		best = max(best, score[i])
	}
	var kept []string
	for i, c := range clauses {
		if score[i] == best {
			kept = append(kept, strings.TrimSpace(c))
		}
	}
	if best == 0 || len(kept) == len(clauses) {
		return offer
	}
	return strings.Join(kept, " and ")
}

// excluding are the words that take what follows them out of a
// confirmation: "keep doing that, except the alpine switch".
var excluding = sync.OnceValue(func() map[string]bool {
	return wordSet(`except excluding without skip skipping not no revert undo minus drop dropping but-not`)
})

// confirmedWhy is the reason a confirmation gives for what it confirms:
// its own causal clause, else the next sentence when it gives a reason
// ("reviewers hate it when the regen comes in a separate PR") and is about
// the rule (shares a word with it), not about something else ("I'm on
// call this week") nor against it ("…was a mistake though").
func confirmedWhy(s, next, rule string) string {
	if r := reasonOf(read(s).text, ""); r != "" {
		return r
	}
	// "yes exactly, stream it from a job, we had OOM kills on the web
	// dyno": a clause after the confirmation that states why; not one
	// that only approves ("…, the single PR was right"), nor the
	// speaker's own plan ("…, i will merge it after lunch").
	if r := clauseReason(read(s).text); r != "" && !reNowOnly.MatchString(r) && !reApproval.MatchString(r) {
		if w := strings.Fields(asciiLower(r)); !firstPerson(w[0]) || mayHold(r, harmWords) {
			return r
		}
	}
	n := asciiLower(next)
	if next == "" || reContrast.MatchString(n) || reNowOnly.MatchString(n) {
		return ""
	}
	rw := strings.FieldsFunc(asciiLower(rule), notWordByte)
	shares := slices.ContainsFunc(strings.FieldsFunc(n, notWordByte), func(w string) bool {
		return len(w) >= 4 && !confirmFillers()[w] && slices.ContainsFunc(rw, func(t string) bool { return sameStem(w, t) })
	})
	if !shares && !reReason.MatchString(n) && !strings.Contains(n, " bc ") {
		return ""
	}
	return whyOf("", next)
}

// reApproval is a clause that only approves: "the single PR was right".
var reApproval = gate(lazyre.New(`(?i)\b(?:is|was|are|were|'s|looks?|sounds?|seems?) (?:(?:exactly|totally|so|really|just) )?(?:right|good|great|fine|perfect|correct|better|nice|the right (?:call|way|move)|what i (?:wanted|meant))\b`))

// reContrast is a sentence that turns against what came before it.
var reContrast = gate(lazyre.New(`(?i)\b(?:though|however|but|mistake|wrong|bad idea|not ideal)\b`))

// notWordByte splits text into words of letters, digits and hyphens.
func notWordByte(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') }

// sameStem reports two words that start alike for five letters, or are
// equal: "explanations" and "explained".
func sameStem(a, b string) bool {
	if a == b {
		return true
	}
	return len(a) >= 5 && len(b) >= 5 && a[:5] == b[:5]
}

// reOfferClause cuts an offer into the things it does: "switch the base to
// alpine, and use a multi-stage build" is two.
var reOfferClause = gate(lazyre.New(`(?i),?\s+and then\s+|,\s+and\s+|;\s+|,\s+then\s+`))

// confirms reports a reply that confirms what the assistant did or
// proposed: reConfirm, or "…, keep doing that" not denied or asked about
// ("please don't keep doing that", "why do you keep doing that?"). Never
// a question, nor text aimed at agents.
func confirms(s string) bool {
	if reQuestion.MatchString(s) || reToAgents.MatchString(s) {
		return false
	}
	if reConfirm.MatchString(s) {
		return !read(s).correction // "no, keep it that way": a refusal of the change, not a yes
	}
	l := asciiLower(s)
	i := strings.Index(l, "keep doing th")
	if i < 0 {
		i = strings.Index(l, "keep doing it")
	}
	if i < 0 {
		return false
	}
	before := l[:i]
	for _, no := range []string{"don't", "dont", "do not", "stop", "why", "if ", "never", "not ", "no,", "no ", "quit"} {
		if strings.Contains(before, no) {
			return false
		}
	}
	return true
}

// namesItsOwn reports a confirmation that says in its own words what it
// confirms: "that was the right approach — a guard instead of
// force-unwrapping, keep doing that in swift code" is a rule however the
// assistant put it; "perfect, keep doing that" is not.
func namesItsOwn(s string) bool {
	n := 0
	for _, w := range strings.Fields(asciiLower(reConfirmPhrase.ReplaceAllString(s, " "))) {
		if w = strings.Trim(w, ".,;:!?—–-\"'`()"); len(w) > 1 && !confirmFillers()[w] {
			n++
		}
	}
	return n >= 3
}

// ownWords is a confirmation less its phrases that name nothing:
// "that was the right approach — a guard instead of force-unwrapping,
// keep doing that in swift code" → "a guard instead of
// force-unwrapping, in swift code".
func ownWords(s string) string {
	var parts []string
	for _, p := range strings.FieldsFunc(reConfirmPhrase.ReplaceAllString(s, ","), func(r rune) bool { return r == ',' || r == ';' || r == '—' || r == '–' }) {
		if p = strings.Trim(p, " .!-"); p != "" && !pronounSubject(asciiLower(p)) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// keptOwnWay is the rule a "keep doing it that way" names in the user's
// own words when they describe what was done: "yes thats right,
// ReplacingMergeTree with `_ingested_at` as the version column, keep doing
// it that way for new tables". A clause about it ("it helps me learn")
// is its reason.
func keptOwnWay(s string, at time.Time) (Candidate, bool) {
	text := read(s).text
	if !strings.Contains(asciiLower(text), "keep doing") || !namesItsOwn(text) || reOnlyNow.MatchString(s) {
		return Candidate{}, false
	}
	var rule, why []string
	for _, p := range strings.Split(ownWords(text), ", ") {
		w := strings.Fields(asciiLower(p))
		switch {
		case len(w) == 0:
		case pronounSubject(w[0]) && len(w) >= 3:
			why = append(why, p)
		case len(rule) == 0 && yesWord(w[0]) && len(w) <= 2: // "yesss", "perfect"
		default:
			rule = append(rule, read(p).text)
		}
	}
	r := strings.Join(rule, ", ")
	words := strings.Fields(asciiLower(r))
	if len(words) < 3 || rePast.MatchString(r) || mayHold(r, chatWords) || firstPerson(words[0]) || words[0] == "when" || words[0] == "if" || words[0] == "because" {
		return Candidate{}, false
	}
	return build("feedback", r, strings.Join(why, ", "), at), true
}

// yesWord reports a word that says yes and names nothing: "yesss",
// "perfect".
func yesWord(w string) bool {
	w = strings.TrimRight(w, ",.!")
	switch w {
	case "yup", "perfect", "exactly", "ok", "okay", "great", "nice", "cool", "right":
		return true
	}
	if t := strings.TrimRight(w, "h"); t == "yea" || strings.TrimRight(w, "p") == "ye" && strings.HasSuffix(w, "p") {
		return true // "yeah", "yeahh", "yep", "yepp"
	}
	t := strings.TrimLeft(w, "y")
	if len(t) == len(w) {
		return false
	}
	u := strings.TrimLeft(t, "e")
	return len(u) < len(t) && len(u) > 0 && strings.Trim(u, "s") == "" // "yes", "yesss", "yyeess"
}

// readsAsRule reports whether a confirmation's own words ask for
// something ("a guard instead of force-unwrapping, in swift code"), not
// chat ("my PM is finally off my back", "the release went out clean").
func readsAsRule(rule string) bool {
	words := strings.Fields(asciiLower(rule))
	if len(words) < 3 || rePast.MatchString(rule) {
		return false
	}
	switch strings.Trim(words[0], ",") {
	case "when", "whenever", "if", "because", "since", "my", "you're", "youre", "i'm", "im":
		return false
	}
	return reFeedback.MatchString(rule) || reAlternative.MatchString(rule) || imperatives()[words[0]]
}

// reConfirmPhrase is a phrase that confirms and names nothing.
var reConfirmPhrase = gate(lazyre.New(`(?i)\b(?:(?:that|this|it)(?:'s|s| was| is) (?:(?:exactly|just|really|definitely) )?(?:the right (?:approach|call|way|move|choice|fix)|(?:exactly )?(?:it|right|(?:what|how) i (?:wanted|meant|asked for)(?: (?:it|them|the \w+))?)|(?:really |very |super )?(?:helpful|useful|great|perfect|nice|good))|keep doing (?:that|this|it)(?: (?:that|this) way)?|(?:yes )?exactly (?:that|this) way(?: with)?|keep it (?:that|this) (?:way|simple)|keep it like (?:that|this)|do (?:that|this|it) (?:again|every time|always|from now on)|(?:it )?worked|in this (?:repo|repository|project|codebase|code))\b`))

// confirmFillers are the words of a confirmation that name nothing.
var confirmFillers = sync.OnceValue(func() map[string]bool {
	return wordSet(`the this that these those and but also yes yeah yep sure okay please thanks thank great good nice cool perfect exactly right was were is are it its you your one part keep doing what need needed want wanted just really very stuff thing things how here there from now always`)
})
