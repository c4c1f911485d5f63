package extract

import (
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// reExplainDepth is a request about how much to explain: "explain the
// celery bits", "skip the k8s basics", "assume i know the quote editor".
var reExplainDepth = gate(lazyre.New(`(?i)\b(?:explain(?:ing)?|explanations?|basics|101|assume (?:i|that i) know|walk me through|spell (?:it|things|them) out|eli5|like i'?m (?:5|five))\b`))

// reWhenReachable is when the person can be reached, a fact of who they
// are: "dont expect me after 17:00", "don't expect quick replies during
// the day".
var reWhenReachable = gate(lazyre.New(`(?i)\b(?:don'?t|dont|do not) expect (?:me\b|(?:quick |fast |immediate |same-day )?(?:replies|answers|responses|an? (?:answer|reply|response))\b(?:\s+from\s+(\w+))?)`))

// reachable reports a rule that says when the speaker can be reached:
// "dont expect me after 17:00", not "dont expect an answer from the
// pricing api under 2s".
func reachable(rule string) bool {
	m := reWhenReachable.FindStringSubmatch(rule)
	return m != nil && (m[1] == "" || strings.EqualFold(m[1], "me"))
}

// oneProfile joins what one message says of the person into one user
// memory, where the first of them stands: "im an RSE at the uni hpc
// center, i know slurm inside out but C++ templates make my eyes glaze
// over" is one person, read months later as a whole.
func oneProfile(cs []Candidate) []Candidate {
	at := -1
	for i := range cs {
		if cs[i].Type != "user" || strings.Contains(cs[i].Body, "**Why:**") {
			continue // a fact with its reason stays whole
		}
		if at < 0 {
			at = i
			continue
		}
		if strings.Contains(cs[at].Body, "**Why:**") {
			continue
		}
		joinProfile(&cs[at], cs[i])
		cs[i].Type = ""
	}
	if at >= 0 {
		// "i'm a lawyer turned dev. dont explain legal basics to me": how
		// to explain to this person is part of who they are, as the seeds'
		// own example has it; a rule given with its own reason stays one
		// ("…, so keep explanations of the widget tree short").
		// When they can be reached is who they are, whatever it follows
		// from ("i'm in lisbon and do this after 9pm, so don't expect
		// quick replies during the day"): its rule joins, less the Why.
		for i := range cs {
			reachable := cs[i].Type == "feedback" && reachable(cs[i].Description)
			if !reachable && (cs[i].Type != "feedback" || !reExplainDepth.MatchString(cs[i].Description) || strings.Contains(cs[i].Body, "**Why:**")) {
				continue
			}
			c := cs[i]
			rule, _, _ := strings.Cut(c.Body, "\n\n")
			c.Body = strings.TrimRight(rule, "\n") + "\n"
			joinProfile(&cs[at], c)
			cs[i].Type = ""
		}
	}
	return slices.DeleteFunc(cs, func(c Candidate) bool { return c.Type == "" })
}

// joinProfile adds what c says of the person to the profile p, a fact
// per line.
func joinProfile(p *Candidate, c Candidate) {
	p.Description = oneLine(p.Description+"; "+c.Description, 140)
	p.Body = strings.TrimRight(p.Body, "\n") + "\n" + c.Body
}

// moreOfProfile reports a sentence after a self-description in the same
// message that says more of who the person is: how to explain to them
// ("explain pandas in terms of dplyr if you can"), or what they know
// ("finance terms are fine but spark is still fuzzy").
func moreOfProfile(s string) bool {
	w := strings.Fields(asciiLower(s))
	if len(w) < 3 || reQuestion.MatchString(s) || reNowOnly.MatchString(s) || len(secretKinds(s)) > 0 {
		return false
	}
	switch w[0] {
	case "explain", "please", "pls", "skip", "assume", "walk", "spell":
		return reExplainDepth.MatchString(s)
	}
	return reStillFuzzy.MatchString(s)
}

// reStillFuzzy is what the person finds fine and what not, said after who
// they are: "finance terms are fine but spark is still fuzzy".
var reStillFuzzy = gate(lazyre.New(`(?i)\b(?:is|are) (?:fine|ok|okay|easy|no problem)\b.{0,40}\bbut\b.{0,40}\b(?:is|are) (?:still |kinda |a bit |pretty |totally )?(?:fuzzy|hard|confusing|new|a mystery|magic)\b`))
