// Months, quarters and years said relative to when they were written.

package extract

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// reCoarse is a month, quarter or year counted from now, with the
// preposition before it: "next month", "by next quarter", "in two months",
// "next year". No day is named, so none is written: the month, quarter or
// year is. "In a year" is how long, not which year ("so I can still read
// it in a year"): left as said.
var reCoarse = onceGate{pattern: `(?i)\b(?:(by|until|till|before|after|from|during|in|for)\s+)?(?:next\s+(month|quarter|year)|in\s+(a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\s+(months?|quarters?))\b('s)?`} // made on first use: start-up allocates nothing for it

// coarseDates writes reCoarse's months, quarters and years as the ones
// they are counted from at ("next month" written in November 2026 is
// "in December 2026", "next quarter" "in Q1 2027", "next year" "in 2027");
// not in a clause about the past, nor a span ("over the next month", "for
// the next year", "once a month"). They name no day, so the text is not
// dated for them (AbsoluteDates's found): a rule that holds "till next
// year" is still a rule, not a dated fact.
func coarseDates(s string, at time.Time) string {
	return replaceEach(s, reCoarse.get(), []string{"month", "quarter", "year"}, func(s string, m []int) string {
		said := s[m[0]:m[1]]
		prev := strings.Fields(strings.ToLower(tail(s[:m[0]], 60)))
		if len(prev) > 0 && group(s, m, 1) == "" && !coarseAfter(prev[len(prev)-1]) {
			// "over the next month" (a span), "the start of next month", "no
			// later than next month": rewritten, what leads to it would no
			// longer read.
			return said
		}
		next := strings.ToLower(s[m[1]:min(len(s), m[1]+12)])
		for _, w := range []string{" or ", "' time", "'s time", "s' time", " from now", " time"} {
			if strings.HasPrefix(next, w) {
				return said // "in a month or two", "in two months' time": how long, roughly
			}
		}
		if group(s, m, 3) != "" && counted(prev) {
			return said // "three migrations in a month", "1000 calls in a month": a rate
		}
		if pastTense(clauseAround(s, m)) {
			return said
		}
		unit, n := strings.ToLower(group(s, m, 2)), 1
		if unit == "" {
			unit = strings.TrimSuffix(strings.ToLower(group(s, m, 4)), "s")
			if w := strings.ToLower(group(s, m, 3)); w != "a" {
				if n = smallNumber(w); n == 0 {
					n, _ = strconv.Atoi(w)
				}
			}
			if n < 1 || n > 24 {
				return said
			}
		}
		var when string
		switch unit {
		case "month":
			when = time.Date(at.Year(), at.Month()+time.Month(n), 1, 0, 0, 0, 0, at.Location()).Format("January 2006")
		case "quarter":
			q := (int(at.Month())-1)/3 + n // quarters since this year's first
			when = fmt.Sprintf("Q%d %d", q%4+1, at.Year()+q/4)
		case "year":
			when = strconv.Itoa(at.Year() + n)
		}
		out := "in " + when
		switch prep := group(s, m, 1); {
		case group(s, m, 5) != "":
			out = when + group(s, m, 5) // "next year's budget": 2027's budget
		case prep != "" && !strings.EqualFold(prep, "in"):
			out = prep + " " + when // "by December 2026"
		}
		if said[0] >= 'A' && said[0] <= 'Z' {
			out = strings.ToUpper(out[:1]) + out[1:] // "Next month we…": "In December 2026 we…"
		}
		return out
	})
}

// coarseAfter reports a word after which "in December 2026" reads for
// "next month": a verb or a noun ("is next month", "the audit next
// month"), not a word that leads into a span or a part of one ("the", "of",
// "than", "over").
func coarseAfter(w string) bool {
	switch strings.Trim(w, ",;:(") {
	case "the", "a", "an", "every", "each", "per", "this", "that", "over", "within", "for", "during", "of", "than", "since",
		"mid", "early", "late", "end", "start", "until", "till", "by", "before", "after", "from", "to", "through", "throughout", "until:", "at":
		return false
	}
	return true
}

// counted reports words before "in a month" that count something (a
// number, "more than", "at most", "times"): then it is a rate.
func counted(prev []string) bool {
	for _, w := range prev[max(0, len(prev)-6):] {
		w = strings.Trim(w, ",;:()")
		if smallNumber(w) > 0 || w != "" && strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			return true
		}
		switch w {
		case "times", "once", "twice", "more", "less", "fewer", "most", "least", "max", "maximum", "minimum":
			return true
		}
	}
	return false
}
