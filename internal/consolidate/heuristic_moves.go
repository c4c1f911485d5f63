package consolidate

import (
	"regexp"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/recall"
)

var (
	reMove = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:moved|migrated|switched|changed|moving|migrating|switching|went|upgraded|upgrading|ported|porting)\s+(?:\w+\s+){0,2}?from\s+([\w.+#-]+)\s+(?:\w+\s+)?to\s+([\w.+#-]+)`)
	})
	reReplaced = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\breplac(?:ed|ing)\s+([\w.+#-]+)\s+with\s+([\w.+#-]+)`)
	})
	reInstead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([\w.+#-]+)\s+(?:instead of|rather than)\s+([\w.+#-]+)`)
	})
	// "the user dropped the no-Friday rule", "Friday merges are fine again"
	reRuleDropped = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:dropped|scrapped|lifted|removed|abandoned|reversed|rescinded|retired|killed|ended)\s+(?:the\s+|our\s+|its\s+|that\s+)?((?:[\w.+#-]+\s+){0,2}?[\w.+#-]+)\s+(?:rule|policy|ban|restriction|requirement)\b` +
			`|\b((?:[\w.+#-]+\s+){0,2}[\w.+#-]+)\s+(?:is|are)\s+(?:fine|ok|okay|allowed|permitted|back|on)\s+again\b`)
	})
	reRuleGone = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:rule|policy|ban|restriction|requirement)\s+(?:was\s+|is\s+|got\s+|has\s+been\s+)?(?:dropped|lifted|removed|scrapped|abandoned|reversed|rescinded|retired)\b`)
	})
	// "the fixtures refresh script is no longer needed"
	reNoLongerNeeded = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b((?:[\w.+#-]+\s+){0,2}[\w.+#-]+)` + "`?" + `\s+(?:is|are)\s+(?:no\s+longer|not)\s+(?:needed|required|necessary|used|in\s+use|supported|maintained|held|run|in\s+place|active)\b`)
	})
	reNoLonger = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bno longer\s+(?:use[sd]?\s+|using\s+|runs?\s+(?:on\s+)?|(?:go(?:es)?|goes|pass(?:es)?|routes?|gets?\s+sent|are\s+sent|is\s+sent)\s+(?:to|through|via)\s+(?:the\s+)?|on\s+|in\s+|at\s+)?([\w.+#-]+)`)
	})
	// "Don't use LocalDB for tests any more": said in passing, since what
	// is dropped may be the rest of the clause ("don't run k6 against
	// prod any more").
	reNotAnyMore = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:don't|do\s+not|never|stop|stopped|nobody|no\s+one|no-one)\s+(?:uses?|using|runs?|running|calls?|calling|deploys?|deploying)\s+(?:the\s+|our\s+|that\s+)?` + "`?" + `((?:(?:old|legacy|former|previous|shared|local|manual)\s+)?[\w.+#-]+)` + "`?" + `\b[^.;:!?]{0,40}?\b(?:any\s?more|any\s+longer)\b`)
	})
	reOff = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:moved|migrated|switched|moving|migrating|switching|ported|porting)\s+(?:\w+\s+){0,2}?(?:off|away from)\s+([\w.+#-]+)`)
	})
	// "Dana took over the EDI integration from Bo": Bo no longer.
	reTookOver = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:took|taken)\s+over\s+(?:[\w.+#-]+\s+){0,4}?from\s+([\w.+#-]+)`)
	})
	// "ignore the old advice about running migrations by hand"
	reIgnoreOld = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget)\s+(?:the\s+|my\s+)?(?:old|earlier|previous|outdated)\s+(?:\w+\s+){0,2}?(?:about|on|re|regarding|to)\s+((?:[\w.+#-]+\s+){0,2}[\w.+#-]+)`)
	})
	// "we retired the mac mini agent"
	reRetired = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)\\b(?:retired|decommissioned|removed|ditched|deprecated|killed|ripped\\s+out|got\\s+rid\\s+of)\\s+(?:the\\s+|our\\s+)?(?:old\\s+)?`?((?:[\\w.+#-]+\\s+){0,2}[\\w.+#-]+)")
	})
	// What follows "are deleted" in a policy: "after 7 days", "with two
	// minutes' notice", "when the PR closes".
	reOnCondition = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s+(?:after|with|when|whenever|if|once|within|every|unless|on\s+(?:merge|close|expiry|shutdown))\b`)
	})
	reGone = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b((?:[\w.+#-]+\s+){0,2}[\w.+#-]+)` + "`?" + `\s+(?:was|is|are|were|has been|have been|got)\s+(?:retired|removed|gone|dropped|decommissioned|replaced|shut down|turned off|backed out|ripped out|rolled back|reverted|abandoned|deprecated|sunset|deleted|terminated|end[- ]of[- ]life|EOL|obsolete)\b` +
			// said of the past only: "#acme-alerts was archived", not "closed
			// tickets are archived nightly", "debug logging is switched off in prod"
			`|\b((?:[\w.+#-]+\s+){0,2}[\w.+#-]+)` + "`?" + `\s+(?:was|were|has been|have been|got)\s+(?:archived|phased out|discontinued|switched off|shut off|sunsetted)\b`)
	})
)

// moves lists the (from, to) changes a sentence reports: "moved from X to
// Y", "replaced X with Y", "Y instead of X", "no longer uses X" (to ""). A
// weak one ("X was removed", "we retired X", "took over from X", "ignore the
// old advice about X") counts only between memories on one topic: its X
// may be any noun of the sentence.
func moves(s string) []saidMove {
	var out []saidMove
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "from") && !strings.Contains(lower, "replac") && !strings.Contains(lower, "instead") &&
		!strings.Contains(lower, "rather") && !strings.Contains(lower, "over") && !strings.Contains(lower, "no longer") &&
		!strings.Contains(lower, "off") && !strings.Contains(lower, "away") && !strings.Contains(lower, " is ") &&
		!strings.Contains(lower, " are ") && !strings.Contains(lower, " were ") && !strings.Contains(lower, "more") &&
		!strings.Contains(lower, " was ") && !strings.Contains(lower, " has been ") && !strings.Contains(lower, " got ") &&
		!strings.Contains(lower, "took") && !strings.Contains(lower, "archived") && !strings.Contains(lower, "phased") && !strings.Contains(lower, "discontinued") && !strings.Contains(lower, "switched off") && !strings.Contains(lower, "shut off") && !strings.Contains(lower, "ignore") && !strings.Contains(lower, "disregard") &&
		!strings.Contains(lower, "forget") && !strings.Contains(lower, "retired") && !strings.Contains(lower, "decommissioned") &&
		!strings.Contains(lower, "removed") && !strings.Contains(lower, "ditched") && !strings.Contains(lower, "deprecated") &&
		!strings.Contains(lower, "killed") && !strings.Contains(lower, "ripped") && !strings.Contains(lower, "rid of") &&
		!strings.Contains(lower, "again") && !strings.Contains(lower, "rule") && !strings.Contains(lower, "policy") &&
		!strings.Contains(lower, "ban") && !strings.Contains(lower, "restriction") && !strings.Contains(lower, "requirement") {
		return nil
	}
	for _, m := range reMove().FindAllStringSubmatch(s, -1) {
		out = append(out, saidMove{unstop(m[1]), unstop(m[2]), false, false})
	}
	for _, m := range reReplaced().FindAllStringSubmatch(s, -1) {
		out = append(out, saidMove{unstop(m[1]), unstop(m[2]), false, false})
	}
	for _, m := range reInstead().FindAllStringSubmatch(s, -1) {
		out = append(out, saidMove{unstop(m[2]), unstop(m[1]), false, false})
	}
	for i, re := range []func() *regexp.Regexp{reNoLonger, reOff, reGone, reTookOver, reIgnoreOld, reRetired, reNoLongerNeeded, reRuleDropped, reNotAnyMore} {
		weak := i >= 2 // from reGone on
		for _, loc := range re().FindAllStringSubmatchIndex(s, -1) {
			if i == 2 && reOnCondition().MatchString(s[loc[1]:]) && !withRelease(s[loc[1]:]) {
				continue // "preview environments are deleted after 7 days": a policy, nothing gone
			}
			if i == 2 && reAhead().MatchString(s[loc[1]:]) && presentTense(s[loc[0]:loc[1]]) {
				continue // "Node 18 is end-of-life in April 2027": not yet
			}
			m := func(g int) string {
				if 2*g+1 >= len(loc) || loc[2*g] < 0 {
					return ""
				}
				return s[loc[2*g]:loc[2*g+1]]
			}
			from := m(1)
			if from == "" {
				from = m(2) // reRuleDropped's second form
			}
			if i == 5 && withRelease(" "+from) {
				continue // "boards retired with Season 2": when, not what
			}
			out = append(out, saidMove{unstop(from), "", weak, i == 7})
		}
	}
	return out
}

// reAhead is a time after "is end-of-life" or "is deprecated" that
// says when, not that it happened: "in April 2027", "next year", "from
// 2027-04-30".
var reAhead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s+(?:in|on|by|from|after|at\s+the\s+end\s+of|next|as\s+of|starting)\s+(?:\w+\s+)?(?:\d{4}\b|next\b|` + monthRE + `\b|q[1-4]\b|\d{4}-\d\d-\d\d)`)
})

// presentTense reports "X is …" or "X are …": said of now or ahead, not
// "X was shut down on 2026-07-14".
func presentTense(m string) bool {
	l := strings.ToLower(m)
	return strings.Contains(l, " is ") || strings.Contains(l, " are ")
}

// withRelease reports a clause that opens with the release a thing went
// with ("was dropped with 3.2", "retired with Season 2"): when it went,
// not a condition of a policy.
func withRelease(rest string) bool {
	w := strings.Fields(strings.ToLower(rest))
	if len(w) < 2 || w[0] != "with" {
		return false
	}
	version := func(x string) bool {
		x = strings.TrimRight(strings.TrimPrefix(x, "v"), ".,;:")
		return x != "" && strings.Trim(x, "0123456789.") == "" && x[0] != '.' && (strings.Contains(x, ".") || strings.HasPrefix(w[1], "v"))
	}
	switch {
	case version(w[1]): // "with 3.2", "with v4"
		return true
	case len(w) > 2 && (w[1] == "release" || w[1] == "version" || w[1] == "season" || w[1] == "sprint" || w[1] == "milestone" || w[1] == "phase"):
		n := strings.TrimRight(strings.TrimPrefix(w[2], "v"), ".,;:")
		return n != "" && strings.Trim(n, "0123456789.") == "" // "with Season 2", "with release 4.1"
	case len(w) > 3 && w[1] == "the" && strings.Trim(w[3], ".,;") == "release":
		return true // "with the June release"
	}
	return false
}

// unstop is a name as a move's pattern caught it, less the full stop that
// ended its sentence ("from Bo." is Bo; "Fly.io" keeps its dot).
func unstop(name string) string { return strings.TrimRight(name, ".") }

// saidMove is a change as a sentence words it.
type saidMove struct {
	from, to string
	weak     bool
	rule     bool // a rule dropped: "dropped the no-Friday rule", "Friday merges are fine again"
}

// stem is the first stem of a word (of a tool's name, "Fly.io", its first
// part), or "" when it has none (a stop word).
func stem(w string) string {
	t := recall.Default.Terms(strings.Trim(w, ".,;:"), nil)
	if len(t) == 0 {
		return ""
	}
	return t[0]
}
