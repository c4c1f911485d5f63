package extract

import (
	"slices"
	"strings"
	"time"
)

// This file joins the two halves of one rule said in two sentences: what
// not to do, then what to do instead ("no Process.sleep in tests. use
// assert_receive with a timeout").

// otherSide reports whether rule c, said right after rule prev, is prev
// from the other side: one forbids, the other asks, and both name one
// thing ("never backfill from a laptop. backfills go through the airflow
// dag"), or the first forbids and the second says what to do instead.
// Two rules of two things ("resources go in the cluster profile. don't
// clean up the intermediate bams") stay two.
func otherSide(prev, c Candidate) bool {
	if prev.Type != "feedback" || c.Type != "feedback" || bannedRule(prev.Description) == bannedRule(c.Description) {
		return false
	}
	// A rule that opens as one ("always run the tests", "never push to
	// main", "no PII in logs") is another rule, unless the two share more than a word ("use
	// the staging bucket for fixtures. never write fixtures into the prod
	// bucket").
	w := strings.Fields(asciiLower(strings.TrimSpace(c.Description)))
	shared := sharedStems(prev.Description, c.Description)
	switch strings.Trim(w[0], ",") {
	case "always", "never", "don't", "dont", "no":
		return shared >= 2
	case "also", "and", "btw", "oh", "plus", "run", "make", "check":
		return false
	}
	if shared > 0 {
		return true
	}
	// "no Process.sleep in tests. use assert_receive with a timeout": what
	// to do instead, said in a few words ("use …"), as what the team does
	// ("we write the aeson instances by hand", "everything goes through
	// argo"), or with "instead"; with no "not", "but" or "only" of its own
	// ("pg_repack is ok but only inside the maintenance window" is a rule
	// of its own).
	neg, _ := Polarity(c.Description)
	insteadOf := (w[0] == "use" || w[0] == "return" || w[0] == "prefer") && len(w) <= 6 || w[0] == "we" || w[0] == "everything" || w[0] == "all" || w[0] == "anything" ||
		mayHold(asciiLower(c.Description), []string{"instead"})
	return bannedRule(prev.Description) && len(neg) == 0 && insteadOf && !mayHold(asciiLower(c.Description), []string{" but ", "only "})
}

// insteadShort reports two words that say what to use: "return
// std::expected.", "use pnpm." A sentence on its own, for the rule before
// it to take in.
func insteadShort(s string) bool {
	w := strings.Fields(asciiLower(s))
	return len(w) == 2 && (w[0] == "use" || w[0] == "return" || w[0] == "prefer")
}

// insteadOfBan folds into a rule that forbids (rule) the sentence said
// right after it when that sentence, no rule on its own, says in a few
// words what to do instead: "no Process.sleep in tests, they are flaky.
// use assert_receive with a timeout", "no exceptions in the engine.
// return std::expected."
func insteadOfBan(rule *Candidate, s string, at time.Time) bool {
	w := strings.Fields(asciiLower(strings.TrimRight(s, ".! ")))
	if len(w) < 2 || len(w) > 8 || w[0] != "use" && w[0] != "return" && w[0] != "prefer" && !slices.Contains(w, "instead") ||
		reQuestion.MatchString(s) || reNowOnly.MatchString(s) || reOneOff.MatchString(s) || oneOffUse(w) {
		return false // "use the fixture I sent", "use lodash for this one": this task's
	}
	if !bansThing(rule.Description) {
		return false // "don't push directly to main. use conventional commits": two rules
	}
	if why := whyOfBody(rule.Body); why != "" && strings.Contains(asciiLower(why), strings.Join(w, " ")) {
		return false // the reason said after the rule: its Why already
	}
	c := build("feedback", s, "", at)
	if !otherSide(*rule, c) {
		return false
	}
	*rule = foldRules([]Candidate{*rule, c})[0]
	return true
}

// bansThing reports a rule that forbids a thing, which what to use
// instead replaces ("no Process.sleep in tests", "never use moment.js",
// "avoid mocks"), not an act ("don't push directly to main").
func bansThing(desc string) bool {
	w := strings.Fields(asciiLower(desc))
	if len(w) < 2 {
		return false
	}
	switch strings.Trim(w[0], ",.!") {
	case "no", "avoid":
		return true
	case "dont", "don't", "never", "not":
		return w[1] == "use" || w[1] == "add" || w[1] == "import" || w[1] == "pull"
	}
	return false
}

// oneOffUse reports words that tie what to use to this task or to what
// the speaker made: "use the query I pasted above", "use my sandbox
// account", "use lodash for this one", "use the new one, thanks".
func oneOffUse(w []string) bool {
	for i, x := range w {
		switch x {
		case "i", "i've", "ive", "i'd", "my", "me", "thanks", "thx", "today", "above", "pasted", "sent", "attached", "here":
			return true
		case "this", "that":
			if i > 0 && (w[i-1] == "for" || w[i-1] == "in") {
				return true
			}
		}
	}
	return false
}

// routeAfterBan folds into a rule that forbids (rule) the route said right
// after it as where everything of the kind goes, when that sentence gave
// the place as a reference: "no rake task, we dont run rake in prod.
// anything one-off goes through the admin ops console, the runbook is
// …". The reference stays a memory of its own.
func routeAfterBan(rule *Candidate, cands []Candidate, s string, at time.Time) {
	if !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Type == "reference" }) || slices.ContainsFunc(cands, func(c Candidate) bool { return c.Type == "feedback" }) {
		return
	}
	clause, _, _ := strings.Cut(s, ", ")
	w := strings.Fields(asciiLower(clause))
	if len(w) < 4 || len(w) > 14 || w[0] != "anything" && w[0] != "everything" { // not "all dashboards live in grafana": a place of its own
		return
	}
	if !slices.ContainsFunc(w[1:4], func(v string) bool {
		switch v {
		case "goes", "go", "comes", "come", "lives", "live", "belongs", "belong":
			return true
		}
		return false
	}) {
		return
	}
	if c := build("feedback", clause, "", at); otherSide(*rule, c) {
		*rule = foldRules([]Candidate{*rule, c})[0]
	}
}
