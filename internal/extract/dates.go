package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

var months = map[string]time.Month{"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
	"oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}

var (
	reRelDay  = gate(lazyre.New(`(?i)\b(today|tonight|tomorrow|yesterday)\b`))
	reWeekday = gate(lazyre.New(`(?i)\b(?:(next|this coming|coming|this|on|by|until|till|before|after|from|every|each|other|first|second|third|fourth|last)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)('s)?\b( \d{4}-\d\d-\d\d\b)?`))
	// reWeekdayAbbr is a weekday cut short after a word that puts it on
	// the calendar: "next wed", "by fri". Not "on sat", not "sun" alone.
	// So is one that is no word of its own ("tue", "thurs", "fri",
	// "weds") after "to" or "for", or with a time of day: "pushed to
	// weds", "fri afternoon", "thurs at 10".
	reWeekdayAbbr = gate(lazyre.New(`(?i)(?:\b(next|this coming|this|by|until|till|before|after|from|on|to|for|til|thru|through)\s+)?\b(mon|tues?|wed|weds|thu|thur|thurs|fri|sat|sun)\b\.?(\s+(?:morning|afternoon|evening|night|eod|at\s+\d+|\d{1,2}(?::\d\d)?\s*(?:am|pm))\b)?`))
	// reNFrom is "two weeks from friday", "3 days after monday".
	reNFrom = gate(lazyre.New(`(?i)\b(\d+|one|two|three|four|five|six|a)\s+(day|week|fortnight)s?\s+(?:from|after)\s+(?:next\s+|this\s+coming\s+|coming\s+|this\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|now)\b( \d{4}-\d\d-\d\d\b)?`))
	// reWeekdayNth is "wednesday the 18th", "saturday night the 18th": the
	// 18th, which the weekday only confirms.
	reWeekdayNth   = gate(lazyre.New(`(?i)\b(?:(on|by|until|till|before|after|from)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(\s+(?:night|morning|evening|afternoon))?,?\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b`))
	reEndNextMonth = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+next\s+month\b`))
	// reNthNextMonth is "the 16th of next month".
	reNthNextMonth = gate(lazyre.New(`(?i)\b(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?(?:the\s+)?(?:(\d{1,2})(?:st|nd|rd|th)|(first|second|third))\s+of\s+next\s+month\b`))
	// reOffset is "three days before", "a week after": counted from the
	// date said before it in the sentence.
	reOffset = gate(lazyre.New(`(?i)\b(\d+|one|two|three|four|five|six|seven|a|the)\s+(day|week)s?\s+(before|after|earlier|later)\b(?:\s+that\b)?`))
	// reWeekdayAround is a weekday dated already and said "before" or
	// "after": counted from the date said before it, not from today ("the
	// audit is 2026-03-20, docs due the friday before").
	reWeekdayAround = gate(lazyre.New(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday) (\d{4}-\d\d-\d\d) (before|after)\b(?:\s+(?:it|that)\b)?`))
	// reWeekdayOfWeek is a weekday said of a week: "thursday the week of
	// 2026-03-16" is that week's Thursday.
	reWeekdayOfWeek = gate(lazyre.New(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday) (\d{4}-\d\d-\d\d),? (?:of |in )?the week of (\d{4}-\d\d-\d\d)`))
	// reInN is "in 3 days", "in two weeks", "in a fortnight"; not "in a
	// week" (ten times in a week is how often) nor "in a day or two".
	reInN      = gate(lazyre.New(`(?i)\bin\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a)\s+(day|week|fortnight)s?\b(\s+or\b)?`))
	reNextWeek = gate(lazyre.New(`(?i)\bnext\s+week\b`))
	// reEndWeek is "end of the week", "end of next week": its Friday.
	reEndWeek = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(the\s+|this\s+|next\s+)?week(\s+after\s+next)?\b`))
	// reNthWeekdayOf is "the first tuesday of every month", "the first
	// weekend of december": a weekday counted in a month.
	reNthWeekdayOf = gate(lazyre.New(`(?i)\b(?:the\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|(?:business|working|work)\s+day|weekday)\s+(?:of|in)\s+(every\s+month|each\s+month|the\s+month|next\s+month|this\s+month|jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\b(?:,?\s+(\d{4})\b)?`))
	reEndMonth     = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b`))
	reMonthDay     = gate(lazyre.New(`(?i)\b(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(,?\s+(?:(?:19|20)\d\d|'\d\d)\b)?`))
	reDayMonth     = gate(lazyre.New(`(?i)\b(?:the\s+)?(\d{1,2}|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|fifteenth|twentieth|thirtieth)(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\b(,?\s+(?:(?:19|20)\d\d|'\d\d)\b)?`))
	// reEndOfMonth is "end of september", "the end of jan": its last day,
	// in a project fact (periodEnds).
	reEndOfMonth = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\b`))
	reEndQuart   = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:(?:the\s+|this\s+)?quarter|q([1-4]))\b`))
	reTheNth     = gate(lazyre.New(`(?i)\b(on|by|until|till|til|before|after|from|starting|starts|begins|ends|through|thru|week of|due|ships|lands|launches|to) the (\d{1,2})(?:st|nd|rd|th)\b`))
	reISODate    = gate(lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`))
	// reIsTheNth is "next one is the 12th" at a clause's end: not "the
	// 2nd biggest line", not "the 1st of every month".
	reIsTheNth = gate(lazyre.New(`(?i)\bis the (\d{1,2})(?:st|nd|rd|th)(?:\s*[,.;!]|\s*$|\s+(?:and|so|but)\b)`))
)

var abbrDays = map[string]string{"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "weds": "wednesday", "thu": "thursday",
	"thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday"}

// smallNumber is the number a word up to twelve names ("ten": 10), or 0.
func smallNumber(w string) int {
	i := slices.Index([]string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}, strings.ToLower(w))
	return i + 1
}

// daysOf is the days in a unit of reNFrom and reInN.
var daysOf = map[string]int{"day": 1, "week": 7, "fortnight": 14}

// AbsoluteDates rewrites the relative dates in s as absolute ones, counted
// from at (the message's own time): "next Friday" becomes "Friday
// 2026-11-27", "tomorrow" "2026-11-21", "Dec 3" "2026-12-03". It reports
// whether s names a date at all.
func AbsoluteDates(s string, at time.Time) (string, bool) {
	if !mayHoldDate(s) {
		return s, false
	}
	// classify asks the same of one sentence up to four times.
	if c := lastDates.Load(); c != nil && c.s == s && c.at == at {
		return c.out, c.found
	}
	masked, spans := protect(s) // never a date inside a path, a URL or a code span
	out, found := absoluteDates(masked, at)
	out = restore(out, spans)
	lastDates.Store(&datesMemo{s: s, at: at, out: out, found: found})
	return out, found
}

// datesMemo is AbsoluteDates's last answer.
type datesMemo struct {
	s     string
	at    time.Time
	out   string
	found bool
}

var lastDates atomic.Pointer[datesMemo]

func absoluteDates(s string, at time.Time) (string, bool) {
	found := reISODate.MatchString(s)
	s = shortDates(s, at, &found)
	s = dayRanges(s)
	s = replaceEach(s, reWeekdayCalendar, monthHints, func(s string, m []int) string { return group(s, m, 1) })
	s = gated(s, reNFrom, []string{" from ", " after "}, func(m string) string {
		found = true
		g := reNFrom.FindStringSubmatch(m)
		if g[4] != "" {
			return m // "a week after monday 2026-05-25": written out already
		}
		n, err := strconv.Atoi(g[1])
		switch {
		case err != nil && isDigits(g[1]):
			return m // too large a number to be a day
		case err != nil:
			n = max(smallNumber(g[1]), 1) // "a week from friday"
		}
		if n > 3650 {
			return m // no plan of a team's is that far off
		}
		n *= daysOf[strings.ToLower(g[2])]
		from := at
		switch w := strings.ToLower(g[3]); w {
		case "tomorrow":
			from = at.AddDate(0, 0, 1)
		case "today", "now":
		default:
			from = at.AddDate(0, 0, (int(weekdays[w])-int(at.Weekday())+7)%7)
		}
		return day(from.AddDate(0, 0, n))
	})
	s = gated(s, reWeekdayAbbr, []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}, func(m string) string {
		g := reWeekdayAbbr.FindStringSubmatch(m)
		abbr, pre := strings.ToLower(g[2]), strings.ToLower(g[1])
		full := abbrDays[abbr]
		word := abbr == "sat" || abbr == "sun" || abbr == "mon" || abbr == "wed" // "we sat at 5", "c'mon", "to wed"
		switch {
		case full == "" || pre == "" && (g[3] == "" || word):
			return m // "wed", "sun" alone: a word
		case word && g[3] == "" && (pre == "to" || pre == "for" || pre == "til" || pre == "thru" || pre == "through" || pre == "on" && (abbr == "sat" || abbr == "sun")):
			return m // "sat on it", "on sun", "to wed": not a day
		case pre == "":
			return full + g[3] // "fri afternoon"
		}
		return g[1] + " " + full + g[3]
	})
	s = afterNext(s, at, &found)
	s = endOfDay(s, at, &found)
	s = gated(s, reRelDay, []string{"today", "tonight", "tomorrow", "yesterday"}, func(m string) string {
		found = true
		switch strings.ToLower(m) {
		case "tomorrow":
			return day(at.AddDate(0, 0, 1))
		case "yesterday":
			return day(at.AddDate(0, 0, -1))
		}
		return day(at)
	})
	s = gated(s, reNthNextMonth, []string{"next month"}, func(m string) string {
		g := reNthNextMonth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[1])
		if g[2] != "" {
			d = map[string]int{"first": 1, "second": 2, "third": 3}[strings.ToLower(g[2])] // "the first of next month"
		}
		first := time.Date(at.Year(), at.Month()+1, 1, 0, 0, 0, 0, at.Location())
		if t := first.AddDate(0, 0, d-1); d >= 1 && t.Month() == first.Month() {
			found = true
			return day(t)
		}
		return m
	})
	s = gated(s, reWeekdayNth, digits, func(m string) string {
		g := reWeekdayNth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[4])
		if t, ok := weekdayNth(at, weekdays[strings.ToLower(g[2])], d); ok {
			found = true
			if g[1] != "" && !strings.EqualFold(g[1], "on") {
				return g[1] + " " + day(t) + g[3]
			}
			return day(t) + g[3] // "saturday night the 18th": 2026-04-18 night
		}
		return m
	})
	s = weekdayBare(s, at, &found)
	s = gated(s, reEndNextMonth, []string{"month"}, func(string) string {
		found = true
		return day(time.Date(at.Year(), at.Month()+2, 0, 0, 0, 0, 0, at.Location()))
	})
	s = gated(s, reEndWeek, []string{"week"}, func(m string) string {
		found = true
		g := reEndWeek.FindStringSubmatch(m)
		d := (int(time.Friday) - int(at.Weekday()) + 7) % 7 // this week's Friday, or the coming one
		if strings.Contains(strings.ToLower(g[1]), "next") || g[2] != "" {
			d = (8-int(at.Weekday()))%7 + 4 // the coming Monday's Friday, from a weekend too
			if d == 4 {
				d = 11 // said on a Monday: the next one's
			}
			if g[2] != "" {
				d += 7 // "the week after next"
			}
		}
		return day(at.AddDate(0, 0, d))
	})
	s = gated(s, reNextWeek, []string{"next"}, func(string) string {
		found = true
		d := (8 - int(at.Weekday())) % 7 // the coming Monday
		if d == 0 {
			d = 7
		}
		return "the week of " + day(at.AddDate(0, 0, d))
	})
	s = gated(s, reEndMonth, []string{"month"}, func(string) string {
		found = true
		end := time.Date(at.Year(), at.Month()+1, 0, 0, 0, 0, 0, at.Location())
		return day(end)
	})
	s = endOfYear(s, at, &found)
	s = weekends(s, at, &found)
	s = holidays(s, at, &found)
	s = gated(s, reEndQuart, []string{"quarter", "end of q"}, func(m string) string {
		found = true
		q := (int(at.Month())-1)/3*3 + 3 // the quarter's last month
		if g := reEndQuart.FindStringSubmatch(m); g[1] != "" {
			q = int(g[1][0]-'0') * 3 // "end of Q2": June's end, this year's or, long past, next year's
			if end := time.Date(at.Year(), time.Month(q)+1, 0, 0, 0, 0, 0, at.Location()); end.Before(at.AddDate(0, 0, -60)) {
				return day(time.Date(at.Year()+1, time.Month(q)+1, 0, 0, 0, 0, 0, at.Location()))
			}
		}
		return day(time.Date(at.Year(), time.Month(q)+1, 0, 0, 0, 0, 0, at.Location()))
	})
	s = gated(s, reInN, []string{"in "}, func(m string) string {
		found = true
		g := reInN.FindStringSubmatch(m)
		if g[3] != "" || strings.EqualFold(g[1], "a") && !strings.EqualFold(g[2], "fortnight") {
			return m // "in a day or two", "ten times in a week": no one day
		}
		n, err := strconv.Atoi(g[1])
		switch {
		case err != nil && isDigits(g[1]):
			return m // too large a number to be a day
		case err != nil:
			n = max(smallNumber(g[1]), 1) // "in a fortnight"
		}
		if n > 3650 {
			return m // no plan of a team's is that far off
		}
		return "by " + day(at.AddDate(0, 0, n*daysOf[strings.ToLower(g[2])])) + g[3]
	})
	s = gated(s, reNthWeekdayOf, []string{" of ", " in "}, func(m string) string {
		g := reNthWeekdayOf.FindStringSubmatch(m)
		year, _ := strconv.Atoi(g[4]) // "the first monday of june 2027"; 0 when none is said
		t, every, ok := nthWeekdayOf(at, strings.ToLower(g[1]), strings.ToLower(strings.Join(strings.Fields(g[2]), " ")), strings.ToLower(strings.Join(strings.Fields(g[3]), " ")), year)
		if !ok {
			return m
		}
		found = true
		if every {
			return m + " (next " + day(t) + ")" // "the first tuesday of every month (next 2026-08-04)"
		}
		return day(t)
	})
	s = outside(s, reRecurringDays, func(s string) string { return weekdayDates(s, at, &found) })
	s = nextOfWeekly(s, at, &found)
	monthDay := func(m string, mon time.Month, d int, year string) string {
		y, err := strconv.Atoi(strings.TrimLeft(year, ", '"))
		switch {
		case err != nil:
			y = at.Year()
		case y < 100:
			y += 2000 // "Jul 4, '27"
		}
		t := time.Date(y, mon, d, 0, 0, 0, 0, at.Location())
		if t.Day() != d {
			return m // "Feb 30" is no date: leave it as written
		}
		if year == "" && t.Before(at.AddDate(0, 0, -60)) { // "Jan 5" said in December is next year's
			t = t.AddDate(1, 0, 0)
		}
		return day(t)
	}
	s = replaceEach(s, reMonthDay, monthHints, func(s string, m []int) string {
		if m[1]+1 < len(s) && s[m[1]] == ':' && s[m[1]+1] >= '0' && s[m[1]+1] <= '9' && group(s, m, 3) == "" {
			return s[m[0]:m[1]] // "Sat 17 Oct 01:00": a time after the day, not the 1st
		}
		found = true
		d, _ := strconv.Atoi(group(s, m, 2))
		return monthDay(s[m[0]:m[1]], months[strings.ToLower(group(s, m, 1))], d, group(s, m, 3))
	})
	s = replaceEach(s, reDayMonth, monthHints, func(s string, m []int) string {
		if m[0] > 0 && s[m[0]-1] == '-' {
			return s[m[0]:m[1]] // "monday 2026-01-19 of february": a date's day, not one of its own
		}
		d, err := strconv.Atoi(group(s, m, 1))
		if err != nil {
			// "the first of may": a day said as a word, only with "the" and
			// "of" ("a second of may", "the fifth may" are no date).
			if w := asciiLower(s[m[0]:m[1]]); !strings.HasPrefix(w, "the ") || !strings.Contains(w, " of ") {
				return s[m[0]:m[1]]
			}
			d = ordinalWord(strings.ToLower(group(s, m, 1)))
		}
		found = true
		return monthDay(s[m[0]:m[1]], months[strings.ToLower(group(s, m, 2))], d, group(s, m, 3))
	})
	s = outside(s, reRecurringNth, func(s string) string { return nthDates(s, at, &found) })
	s = coarseDates(s, at) // last: "the first monday of next month" is a day
	if found {
		s = offsetDates(s)
		s = anchoredWeekdays(s)
		s = restated(s)
		s = rangeEnds(s)
	}
	return s, found
}

// periodEnds writes "by end of september" in a project fact as the
// month's last day: this year's, or next year's when this year's is long
// past (as dream's dates do). Not in a rule ("avoid releases at the end
// of december") nor in what recurs ("every year the certs expire at the
// end of march"): AbsoluteDates leaves a named month's end alone.
func periodEnds(s string, at time.Time) string {
	if reYearly.MatchString(s) {
		return s
	}
	return gated(s, reEndOfMonth, []string{"end of"}, func(m string) string {
		mon := months[strings.ToLower(reEndOfMonth.FindStringSubmatch(m)[1])]
		end := time.Date(at.Year(), mon+1, 0, 0, 0, 0, 0, at.Location())
		if end.Before(at.AddDate(0, 0, -60)) {
			end = time.Date(at.Year()+1, mon+1, 0, 0, 0, 0, 0, at.Location())
		}
		return day(end)
	})
}

// reYearly is a thing that comes back every year.
var reYearly = gate(lazyre.New(`(?i)\b(?:every|each|per|a) year\b|\b(?:annual|annually|yearly|recurring)\b`))

// reByRestated is a counted "in four weeks" written as "by" its day, then
// the day itself said in parentheses: "by 2026-11-18 (wednesday
// 2026-11-18)".
var reByRestated = gate(lazyre.New(`\bby (\d{4}-\d\d-\d\d) \((?:((?:(?:mon|tues|wednes|thurs|fri|satur|sun)day )?)(\d{4}-\d\d-\d\d)|the (\d{1,2})(?:st|nd|rd|th))\)`))

// restated keeps the day a person named over the one counted from a
// rough span: "is in four weeks (wednesday the 18th)" is on the 18th.
// A named day more than a week from the count is left as it was said.
func restated(s string) string {
	return replaceEach(s, reByRestated, []string{"by "}, func(s string, m []int) string {
		counted, _ := time.Parse(time.DateOnly, s[m[2]:m[3]])
		var named time.Time
		if nth := group(s, m, 4); nth != "" {
			// "(the 10th)": that day of the counted day's month, or of
			// the month either side of it.
			d, _ := strconv.Atoi(nth)
			for k := -1; k <= 1 && named.IsZero(); k++ {
				first := time.Date(counted.Year(), counted.Month()+time.Month(k), 1, 0, 0, 0, 0, time.UTC)
				if t := first.AddDate(0, 0, d-1); t.Month() == first.Month() && t.Sub(counted).Abs() <= 7*24*time.Hour {
					named = t
				}
			}
		} else {
			named, _ = time.Parse(time.DateOnly, s[m[6]:m[7]])
		}
		if named.IsZero() || named.Sub(counted).Abs() > 7*24*time.Hour {
			return s[m[0]:m[1]]
		}
		return "on " + group(s, m, 2) + day(named)
	})
}

// offsetDates writes "three days before" after a date as the date it
// counts to: "the release is 2026-07-06 and feature freeze is three days
// before" → "… feature freeze is 2026-07-03 (three days before)".
func offsetDates(s string) string {
	if !mayHold(s, []string{" before", " after", " earlier", " later"}) || !mayHold(s, []string{"day", "week"}) {
		return s
	}
	locs := reOffset.FindAllStringSubmatchIndex(s, -1)
	isos := reISODate.FindAllStringIndex(s, -1)
	for i := len(locs) - 1; i >= 0; i-- {
		m := locs[i]
		var last []int
		if a := eventDay(s[m[1]:]); a != nil && !strings.HasSuffix(asciiLower(s[:m[0]]), "for ") {
			last = []int{m[1] + a[0], m[1] + a[1]} // "filed 10 days before the hearing, hearing's 2027-01-14"
		} else if !clauseEndsAt(s[m[1]:]) {
			continue // "kept for 30 days after deletion": a duration, not a day
		}
		for _, a := range isos {
			if a[1] <= m[0] {
				last = a
			}
		}
		if last == nil {
			continue
		}
		if last[1] <= m[0] && strings.TrimSpace(s[last[1]:m[0]]) == "(" {
			continue // written out already: "2026-07-03 (three days before)"
		}
		from, err := time.Parse(time.DateOnly, s[last[0]:last[1]])
		if err != nil {
			continue
		}
		if strings.EqualFold(s[m[2]:m[3]], "the") && strings.EqualFold(s[m[4]:m[5]], "week") {
			continue // "the week before": a week, not a day
		}
		n, err := strconv.Atoi(s[m[2]:m[3]])
		if err != nil {
			n = max(smallNumber(s[m[2]:m[3]]), 1) // "a week before", "the day after"
		}
		if strings.EqualFold(s[m[4]:m[5]], "week") {
			n *= 7
		}
		if n > 3650 {
			continue
		}
		if dir := strings.ToLower(s[m[6]:m[7]]); dir == "before" || dir == "earlier" {
			n = -n
		}
		s = s[:m[0]] + from.AddDate(0, 0, n).Format(time.DateOnly) + " (" + s[m[0]:m[1]] + ")" + s[m[1]:]
	}
	return s
}

// anchoredWeekdays corrects a weekday dated from today that the sentence
// counts from another day: "the friday before" a date said earlier, "the
// monday after" it, "thursday the week of" a day.
func anchoredWeekdays(s string) string {
	if !mayHold(s, []string{"day 20"}) || !mayHold(s, []string{" before", " after", "week of"}) {
		return s
	}
	s = replaceEach(s, reWeekdayOfWeek, []string{"week of"}, func(s string, m []int) string {
		week, err := time.Parse(time.DateOnly, group(s, m, 3))
		if err != nil {
			return s[m[0]:m[1]]
		}
		monday := week.AddDate(0, 0, -(int(week.Weekday())+6)%7)
		d := monday.AddDate(0, 0, (int(weekdays[strings.ToLower(group(s, m, 1))])+6)%7)
		return group(s, m, 1) + " " + d.Format(time.DateOnly) + s[m[5]:m[1]]
	})
	return replaceEach(s, reWeekdayAround, []string{" before", " after"}, func(s string, m []int) string {
		whole := s[m[0]:m[1]]
		anchors := reISODate.FindAllString(s[:m[0]], -1)
		if a := reNamedDay.FindStringSubmatch(s[m[1]:]); a != nil {
			anchors = []string{a[1]} // "the friday before thanksgiving 2026-11-26"
		} else if d := dateSoonAfter(s[m[1]:]); d != "" {
			anchors = []string{d} // "the friday before 2026-06-08", "the friday before the lab test on 2026-03-16"
		} else if !clauseEndsAt(s[m[1]:]) {
			if strings.HasSuffix(asciiLower(s[:m[0]]), "the ") && strings.EqualFold(group(s, m, 3), "before") {
				// "by the Wednesday before the change": that week's, a day
				// the text does not give ("the Monday after launch" is the
				// coming one, launch being this week).
				return group(s, m, 1) + s[m[5]:m[1]]
			}
			return whole // "friday 2026-03-06 before the demo": the coming friday, which is before it
		}
		if len(anchors) == 0 {
			return whole
		}
		from, err := time.Parse(time.DateOnly, anchors[len(anchors)-1])
		if err != nil {
			return whole
		}
		wd := weekdays[strings.ToLower(group(s, m, 1))]
		var d time.Time
		if strings.EqualFold(group(s, m, 3), "before") {
			d = from.AddDate(0, 0, -((int(from.Weekday())-int(wd)+6)%7 + 1))
		} else {
			d = from.AddDate(0, 0, (int(wd)-int(from.Weekday())+6)%7+1)
		}
		return group(s, m, 1) + " " + d.Format(time.DateOnly) + s[m[5]:m[1]]
	})
}

// weekdayNth is the day d of a month that falls on wd nearest to at, up to
// two weeks back ("monday the 25th" said on Wednesday the 27th is two days
// ago) and two months ahead; else the next day d, the weekday a slip.
func weekdayNth(at time.Time, wd time.Weekday, d int) (time.Time, bool) {
	if d < 1 || d > 31 {
		return time.Time{}, false
	}
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	// One ahead first: "monday the 16th" said on monday 2 March is 16
	// March, though 16 February was a Monday too; then one just past.
	for _, back := range []bool{false, true} {
		for k := -1; k <= 2; k++ {
			first := time.Date(at.Year(), at.Month()+time.Month(k), 1, 0, 0, 0, 0, at.Location())
			t := first.AddDate(0, 0, d-1)
			if t.Month() == first.Month() && t.Weekday() == wd && (!back && !t.Before(today) || back && !t.Before(today.AddDate(0, 0, -14))) {
				return t, true
			}
		}
	}
	return nextNth(at, d)
}

// nextNth is the next day d of a month, this month's if it is still ahead.
func nextNth(at time.Time, d int) (time.Time, bool) {
	if d < 1 || d > 31 {
		return time.Time{}, false
	}
	for k := 0; k < 12; k++ {
		first := time.Date(at.Year(), at.Month()+time.Month(k), 1, 0, 0, 0, 0, at.Location())
		t := first.AddDate(0, 0, d-1)
		if t.Month() == first.Month() && !t.Before(time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())) {
			return t, true
		}
	}
	return time.Time{}, false
}

// digits gate the patterns that need one.
var digits = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// toLowerCached is strings.ToLower(s), kept for the next call: a date's
// gates lower the same sentence one after the other.
func toLowerCached(s string) string {
	if c := lastToLower.Load(); c != nil && c.s == s {
		return c.lower
	}
	lower := strings.ToLower(s)
	lastToLower.Store(&lowered{s, lower})
	return lower
}

var lastToLower atomic.Pointer[lowered]

type lowered struct{ s, lower string }

// monthHints are the month names' common stem.
var monthHints = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// gated runs a date pattern's replacement only when s holds one of its
// hints: most sentences name no date, and the patterns are costly.
func gated(s string, re *gatedRe, hints []string, f func(string) string) string {
	lower := toLowerCached(s)
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return re.ReplaceAllStringFunc(s, f)
		}
	}
	return s
}

// dateWords are the word parts every date AbsoluteDates reads holds, one at
// least, when it holds no digit: a cheap test before its patterns run.
var dateWords = []string{"day", "tonight", "tomorrow", "week", "month", "quarter", " mon", " tue", " wed", " thu", " fri", " sat", " sun", "jan", "feb", "mar", "apr", "may",
	"jun", "jul", "aug", "sep", "oct", "nov", "dec", "tmr", "tmw", "tomo", "tomm", "2mo", "eod", "eow", "eom", "eoq", "eoy", "wk", "cob", "close of", "year",
	"christmas", "xmas", "new year", "nye", "fortnight"}

// mayHoldDate reports whether s might name a date at all.
func mayHoldDate(s string) bool {
	if strings.ContainsAny(s, "0123456789") {
		return true
	}
	lower := toLowerCached(s)
	for _, w := range dateWords {
		if strings.Contains(lower, w) || w[0] == ' ' && strings.HasPrefix(lower, w[1:]) {
			return true
		}
	}
	return false
}

// nthWeekdayOf is the nth ("first"…"fourth", "last") weekday, weekend's
// Saturday, or business day, of month: a month's name (of year when it is not 0, else this
// year's, or next year's when it is long past), "next month", or every
// month (the next one on or after at; every says so).
func nthWeekdayOf(at time.Time, nth, weekday, month string, year int) (t time.Time, every bool, ok bool) {
	wd, isDay := weekdays[weekday]
	business := weekday == "business day" || weekday == "working day" || weekday == "work day" || weekday == "weekday"
	if weekday == "weekend" || business {
		wd, isDay = time.Saturday, true
	}
	n := map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}[nth]
	if !isDay || n == 0 {
		return time.Time{}, false, false
	}
	in := func(y int, mon time.Month) time.Time {
		if business {
			// "the first business day of december": the nth (or last) day
			// from Monday to Friday; holidays are not known here.
			d, step, want := time.Date(y, mon, 1, 0, 0, 0, 0, at.Location()), 1, n
			if n < 0 {
				d, step, want = time.Date(y, mon+1, 0, 0, 0, 0, 0, at.Location()), -1, 1
			}
			for k := 0; ; d = d.AddDate(0, 0, step) {
				if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
					if k++; k == want {
						return d
					}
				}
			}
		}
		if n < 0 {
			last := time.Date(y, mon+1, 0, 0, 0, 0, 0, at.Location())
			return last.AddDate(0, 0, -((int(last.Weekday()) - int(wd) + 7) % 7))
		}
		first := time.Date(y, mon, 1, 0, 0, 0, 0, at.Location())
		return first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
	}
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	switch month {
	case "every month", "each month", "the month":
		t = in(at.Year(), at.Month())
		if t.Before(today) {
			t = in(at.Year(), at.Month()+1)
		}
		return t, true, true
	case "next month":
		return in(at.Year(), at.Month()+1), false, true
	case "this month":
		return in(at.Year(), at.Month()), false, true
	}
	mon, named := months[month]
	if !named {
		return time.Time{}, false, false
	}
	if year > 0 {
		return in(year, mon), false, true
	}
	t = in(at.Year(), mon)
	if t.Before(today.AddDate(0, 0, -60)) { // "the first weekend of january" said in december
		t = in(at.Year()+1, mon)
	}
	return t, false, true
}

// weekdayDates writes each weekday of s as the date it names (see
// absoluteDates), setting *found when one was read. A weekday in a clause
// about the past ("we shipped it on monday") is left as said.
func weekdayDates(s string, at time.Time, found *bool) string {
	if !strings.Contains(toLowerCached(s), "day") {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range reWeekday.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		last = m[1]
		b.WriteString(weekdayDate(s, m, b.String(), at, found))
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// weekdayDate is reWeekday's match m in s as the date it names; before
// is s up to the match as rewritten so far.
func weekdayDate(s string, m []int, before string, at time.Time, found *bool) string {
	whole, pre, name := s[m[0]:m[1]], group(s, m, 1), group(s, m, 2)
	if group(s, m, 4) != "" {
		return whole // "Thursday 2026-11-26": written out already
	}
	if group(s, m, 3) != "" && pre == "" {
		return whole // "tuesday's outage": an event named by its day, past as often as not
	}
	if pluralPartOfDay(s[m[1]:]) && !strings.EqualFold(pre, "next") && !strings.EqualFold(pre, "this") {
		return whole // "on sunday nights", "friday afternoons": every such day
	}
	if pre == "" {
		switch strings.ToLower(lastWordOf(tail(before, 20))) {
		case "that", "same":
			return whole // "by that thursday": one said before, which this sentence does not name
		case "a", "any", "each", "every":
			return whole // "nothing goes to prod on a friday": every friday, no one day
		case "black", "cyber":
			// "the black friday promo": the shopping days after
			// thanksgiving, not the coming friday.
			*found = true
			if pastClause(before) {
				return whole
			}
			return whole + " " + day(shoppingDay(at, strings.EqualFold(name, "monday")))
		case "good", "casual", "freaky", "manic", "easter", "ash", "super", "patch":
			return whole // a day's name ("good friday", "patch tuesday"), not the coming one
		}
	}
	switch p := strings.ToLower(pre); p {
	case "first", "second", "third", "fourth", "last":
		// "the first tuesday of…" (read before), "last friday", "the
		// first monday after the holidays": a day, though not the
		// coming one.
		*found = true
		return whole
	case "", "on", "from":
		if pastClause(before) {
			*found = true
			return whole
		}
	}
	*found = true
	wd := weekdays[strings.ToLower(name)]
	d := (int(wd) - int(at.Weekday()) + 7) % 7
	if next := strings.ToLower(pre); d == 0 && (next == "next" || strings.HasSuffix(next, "coming")) {
		d = 7 // "next Friday" said on a Friday is a week away; "Friday" is today
	}
	if start, ok := rangeStart(before, at); ok {
		for at.AddDate(0, 0, d).Before(start) {
			d += 7 // "from monday 2026-04-20 to friday": the friday after it
		}
	}
	prefix := ""
	if pre != "" && !strings.EqualFold(pre, "next") && !strings.EqualFold(pre, "this") && !strings.HasSuffix(strings.ToLower(pre), "coming") {
		prefix = pre + " "
	}
	return fmt.Sprintf("%s%s %s", prefix, name, at.AddDate(0, 0, d).Format(time.DateOnly))
}

// rangeStart is the day a range began with, when before ends with "to",
// "till" or a dash after a date: "from monday 2026-04-20 to".
func rangeStart(before string, at time.Time) (time.Time, bool) {
	before = tail(before, 120) // "from monday 2026-04-20 to": the range is short
	w := strings.Fields(asciiLower(before))
	if len(w) == 0 {
		return time.Time{}, false
	}
	switch w[len(w)-1] {
	case "to", "till", "until", "thru", "through", "-", "–":
	default:
		return time.Time{}, false
	}
	dates := reISODate.FindAllString(before, -1)
	if len(dates) == 0 {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(time.DateOnly, dates[len(dates)-1], at.Location())
	return t, err == nil
}

// reRecurringDays are weekdays that come back every week, one or a list:
// "every saturday and sunday", "each monday, wednesday and friday".
var reRecurringDays = gate(lazyre.New(`(?i)\b(?:(?:every|each)\s+(?:other\s+)?|(?:weekly|biweekly|fortnightly)\s+on\s+)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:(?:\s*[,/&]\s*|\s+and\s+|\s+or\s+)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))*\b`))

// reWeeklyDay is a day said as every week's: "on tuesdays", "every
// tuesday", "weekly on tuesday".
var reWeeklyDay = gate(lazyre.New(`(?i)\b(?:(?:every|each)\s+|weekly\s+on\s+|on\s+)(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(s)?\b`))

// reNextOne is "the next one", "the next session": the coming one of a
// weekly thing.
var reNextOne = gate(lazyre.New(`(?i)\b(?:the|for the|before the) next (?:one|session|meeting|review|sync|call)\b`))

// nextOfWeekly writes "the next one" of a thing held on one weekday every
// week as that coming day: "a capacity review on tuesdays, i need the
// numbers for the next one (tuesday 2026-09-08)".
func nextOfWeekly(s string, at time.Time, found *bool) string {
	loc := reNextOne.FindStringIndex(s)
	if loc == nil {
		return s
	}
	var wd string
	for _, m := range reWeeklyDay.FindAllStringSubmatch(s, -1) {
		if !strings.EqualFold(m[0][:3], "on ") || m[2] != "" { // "on tuesday" alone is one day, not every week's
			if wd != "" && !strings.EqualFold(wd, m[1]) {
				return s // two days: which one is next is not said
			}
			wd = strings.ToLower(m[1])
		}
	}
	if wd == "" {
		return s
	}
	d := (int(weekdays[wd])-int(at.Weekday())+6)%7 + 1 // the coming one, not today's
	*found = true
	return s[:loc[1]] + " (" + wd + " " + day(at.AddDate(0, 0, d)) + ")" + s[loc[1]:]
}

// outside applies f to the parts of s that re does not match, leaving
// its matches as they are.
func outside(s string, re *gatedRe, f func(string) string) string {
	if !re.may(s) {
		return f(s)
	}
	locs := re.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return f(s)
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		b.WriteString(f(s[last:l[0]]))
		b.WriteString(s[l[0]:l[1]])
		last = l[1]
	}
	b.WriteString(f(s[last:]))
	return b.String()
}
