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

// reElided is a correction whose object is left out: it refuses what the
// assistant proposed without naming it.
var reElided = gate(lazyre.New(`(?i)\b(?:rather not|not for (?:the )?\w+|not like that|not that one|don'?t do that|not this time)\b`))

// reProposal is the assistant announcing what it will do.
var reProposal = gate(lazyre.New(`(?i)^(?:ok(?:ay)?[,.]?\s+|sure[,.]?\s+|got it[,.]?\s+)?(?:i'?ll|i will|i'?m going to|let me|i can)\s+(.{8,200}?)[.!]?$`))

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
	for i := len(sents) - 1; i >= 0; i-- {
		m := reReported.FindStringSubmatch(strings.TrimSpace(sents[i]))
		if m == nil || reQuestion.MatchString(sents[i]) {
			continue
		}
		verb, ok := baseForm(strings.ToLower(m[2]))
		if !ok {
			continue
		}
		// "…MapView.svelte and explained each bit inline": two things done.
		rest := reAndDid.ReplaceAllStringFunc(m[3], func(and string) string {
			v, ok := baseForm(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(and), "and"))))
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
// optional lead ("Separately, for the schema change"), "I", a verb in the
// past, and what it did.
var reReported = gate(lazyre.New(`(?i)^(?:(?:also|separately|then|finally|additionally|plus|and|done)[,.]?\s+)*(?:(for [^,]{3,60}?),?\s+)?i\s+(?:also\s+)?([a-z]+ed|put|set|ran|wrote|made|kept|split|built|chose|left)\s+(.{6,200}?)[.!]?$`))

// reAndDid is " and" and a second verb in the past, in a sentence
// reReported read.
var reAndDid = gate(lazyre.New(`(?i)\s+and\s+[a-z]+ed\b`))

// irregularPast maps the irregular past forms reReported takes to their
// base forms.
var irregularPast = map[string]string{"put": "put", "set": "set", "ran": "run", "wrote": "write", "made": "make", "kept": "keep",
	"split": "split", "built": "build", "chose": "choose", "left": "leave"}

// baseForm turns a verb in the past into its base form, for the common
// spellings: "swapped" → "swap", "added" → "add", "regenerated" →
// "regenerate", "copied" → "copy". ok is false for a word it cannot read
// as a verb in the past ("need", "red").
func baseForm(v string) (string, bool) {
	if b, ok := irregularPast[v]; ok {
		return b, true
	}
	b, ok := strings.CutSuffix(v, "ed")
	if !ok || strings.HasSuffix(v, "eed") || len(b) < 3 && b != "us" {
		return "", false // need, speed, red
	}
	if y, ok := strings.CutSuffix(b, "i"); ok && len(y) >= 2 {
		return y + "y", true // copied, tried
	}
	n := len(b)
	if n >= 3 && b[n-1] == b[n-2] && !strings.ContainsRune("dlsfz", rune(b[n-1])) {
		return b[:n-1], true // swapped, committed, planned
	}
	for _, end := range []string{"at", "iz", "ov", "ac", "ang", "rg", "ur", "abl", "let", "am", "av", "os", "uir", "yp", "ag", "ib", "ud"} {
		if strings.HasSuffix(b, end) {
			return b + "e", true // regenerated, moved, replaced, changed, merged, configured, enabled, deleted
		}
	}
	if b == "us" || b == "reus" || strings.HasSuffix(b, "caus") {
		return b + "e", true
	}
	return b, true
}

// resolveReferences fills in what a reply refers to (see reConfirm and
// reElided): a confirmation becomes the rule it confirms, or nothing when
// the assistant proposed nothing nameable (a bare "that's exactly what I
// wanted" is no memory); a refusal without its object names it.
func resolveReferences(s, next string, cands []Candidate, offer proposal, at time.Time) []Candidate {
	if confirms(s) {
		// The reply's own rules stay ("keep doing that, but always use
		// British spelling"); its bare thanks do not.
		var own []Candidate
		for _, c := range cands {
			if !confirms(c.Description) && !reConfirm.MatchString(read(c.Description).text) {
				own = append(own, c)
			}
		}
		if offer.text == "" {
			return own
		}
		rule := strings.NewReplacer(" I run ", " you run ", " I'm ", " you're ", " I'll ", " you'll ", " I ", " you ", " my ", " your ", " me ", " the user ").Replace(" " + scopeOffer(s, offer.text) + " ")
		c := build("feedback", strings.TrimSpace(rule), whyOf(read(s).text, next), at)
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
	var named []string
	for _, w := range strings.FieldsFunc(asciiLower(confirmation), notWordByte) {
		if len(w) >= 3 && !confirmFillers()[w] {
			named = append(named, w)
		}
	}
	clauses := reOfferClause.Split(offer, -1)
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
		return true
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

// confirmFillers are the words of a confirmation that name nothing.
var confirmFillers = sync.OnceValue(func() map[string]bool {
	return wordSet(`the this that these those and but also yes yeah yep sure okay please thanks thank great good nice cool perfect exactly right was were is are it its you your one part keep doing what need needed want wanted just really very stuff thing things how here there from now always`)
})
