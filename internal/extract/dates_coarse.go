// Months, quarters and years said relative to when they were written.

package extract

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// reCoarse is a month, quarter or year counted from now, with the
// preposition before it: "next month", "by next quarter", "in two months",
// "next year". No day is named, so none is written: the month, quarter or
// year is. "In a year" is how long, not which year ("so I can still read
// it in a year"): left as said.
var (
	coarseOnce sync.Once
	coarseRe   *gatedRe // built on first use: zero values, so start-up allocates nothing for it
)

func reCoarse() *gatedRe {
	coarseOnce.Do(func() {
		coarseRe = gate(lazyre.New(`(?i)\b(?:(by|until|till|before|after|from|during|in|for)\s+)?(?:next\s+(month|quarter|year)|in\s+(a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\s+(months?|quarters?))\b('s)?`))
	})
	return coarseRe
}

// coarseDates writes reCoarse's months, quarters and years as the ones
// they are counted from at ("next month" written in November 2026 is
// "in December 2026", "next quarter" "in Q1 2027", "next year" "in 2027");
// not in a clause about the past, nor a span ("over the next month", "for
// the next year", "once a month"). They name no day, so the text is not
// dated for them (AbsoluteDates's found): a rule that holds "till next
// year" is still a rule, not a dated fact.
func coarseDates(s string, at time.Time) string {
	return replaceEach(s, reCoarse(), []string{"month", "quarter", "year"}, func(s string, m []int) string {
		said := s[m[0]:m[1]]
		prev := strings.Fields(strings.ToLower(tail(s[:m[0]], 40)))
		if len(prev) > 0 && group(s, m, 1) == "" {
			switch prev[len(prev)-1] {
			case "the", "a", "an", "every", "each", "per", "this", "that", "over", "within", "for", "during":
				return said // "over the next month": a span, not a month
			}
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
		switch prep := group(s, m, 1); {
		case group(s, m, 5) != "":
			return when + group(s, m, 5) // "next year's budget": 2027's budget
		case prep == "" || strings.EqualFold(prep, "in"):
			return "in " + when
		default:
			return prep + " " + when // "by December 2026"
		}
	})
}
