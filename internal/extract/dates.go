package extract

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
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
	reRelDay = gate(lazyre.New(`(?i)\b(today|tonight|tomorrow|yesterday)\b`))
	// reDayAfter is "the day after tomorrow", "the day before yesterday".
	reDayAfter = gate(lazyre.New(`(?i)\b(?:the\s+)?day\s+(after\s+tomorrow|before\s+yesterday)\b`))
	// reShort is how people shorten a date in chat: "tmrw", "eow", "next
	// wk", "this wknd", "weds".
	reShort = gate(lazyre.New(`(?i)\b(?:tmrw|tmr|tmw|tomorow|tommorow|tommorrow|2morrow|eod|eow|eom|eoq|eoy|wknd|weds)\b|\b(?:next|this|the|of|last|a)\s+wk\b`))
	// reEOD is the end of the working day, alone: "by EOD", "COB".
	reEOD     = gate(lazyre.New(`(?i)\b(?:end of (?:the )?(?:day|business)|close of business|cob)\b(\s+(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|on|this|next)\b)?`))
	reEndYear = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year\b`))
	// reWeekend is a weekend named as one: its Saturday.
	reWeekend = gate(lazyre.New(`(?i)\b(this coming|this|over the|next)\s+weekend\b`))
	// reHoliday is a day every calendar has.
	// reHoliday is a day every calendar has: named as a day, or after a
	// word that makes it one ("before christmas", not "the bug that ate
	// christmas").
	reHoliday = gate(lazyre.New(`(?i)\b((?:before|by|until|till|after|on|over|for|around|through|thru|at)\s+)?(christmas eve|christmas day|new year'?s eve|nye|new year'?s day|(?:christmas|xmas|new year'?s)\b)`))
	// reAfterNext is "the friday after next": a week after the coming one.
	reAfterNext = gate(lazyre.New(`(?i)\b(?:the\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+after\s+next\b`))
	// reRecurringNth is a day of every month: "monthly on the 15th", "the
	// 1st of every month".
	reRecurringNth = gate(lazyre.New(`(?i)\bmonthly\s+on\s+the\s+\d{1,2}(?:st|nd|rd|th)\b|\b(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)\s+of\s+(?:every|each)\s+month\b`))
	// reToTheNth is a range's end: "from wednesday to the 14th".
	reToTheNth = gate(lazyre.New(`(?i)(\bto|-|–)\s*the\s+(\d{1,2})(?:st|nd|rd|th)\b`))
	// reTheNthIs is a day of the month a sentence opens with: "the 30th is
	// our last day".
	reTheNthIs = gate(lazyre.New(`(?i)^the (\d{1,2})(?:st|nd|rd|th)\s+(is|we|i|will|works|should|they)\b`))
	reWeekday  = gate(lazyre.New(`(?i)\b(?:(next|this coming|coming|this|on|by|until|till|before|after|from|every|each|other|first|second|third|fourth|last)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)('s)?\b( \d{4}-\d\d-\d\d\b)?`))
	// reWeekdayAbbr is a weekday cut short after a word that puts it on
	// the calendar: "next wed", "by fri". Not "on sat", not "sun" alone.
	// So is one said with a time of day: "fri afternoon", "sat night",
	// "wed 2pm".
	reWeekdayAbbr = gate(lazyre.New(`(?i)(?:\b(next|this coming|this|by|until|till|before|after|from|on|to|for|til|thru|through)\s+)?\b(mon|tues?|wed|thu|thur|thurs|fri|sat|sun)\b\.?(\s+(?:morning|afternoon|evening|night|eod|at\s+\d+|\d{1,2}(?::\d\d)?\s*(?:am|pm))\b)?`))
	// reNFrom is "two weeks from friday", "3 days after monday".
	reNFrom = gate(lazyre.New(`(?i)\b(\d+|one|two|three|four|five|six|a)\s+(day|week|fortnight)s?\s+(?:from|after)\s+(?:next\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|today|now)\b( \d{4}-\d\d-\d\d\b)?`))
	// reWeekdayNth is "wednesday the 18th", "saturday night the 18th": the
	// 18th, which the weekday only confirms.
	reWeekdayNth   = gate(lazyre.New(`(?i)\b(?:(on|by|until|till|before|after|from)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(\s+(?:night|morning|evening|afternoon))?,?\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b`))
	reEndNextMonth = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+next\s+month\b`))
	// reNthNextMonth is "the 16th of next month".
	reNthNextMonth = gate(lazyre.New(`(?i)\b(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\s+of\s+next\s+month\b`))
	// reOffset is "three days before", "a week after": counted from the
	// date said before it in the sentence.
	reOffset   = gate(lazyre.New(`(?i)\b(\d+|one|two|three|four|five|six|seven|a)\s+(day|week)s?\s+(before|after|earlier|later)\b(?:\s+that\b)?`))
	reInN      = gate(lazyre.New(`(?i)\bin\s+(\d+|one|two|three|four|five|six|a)\s+(day|week|fortnight)s?\b(\s+or\b)?`))
	reNextWeek = gate(lazyre.New(`(?i)\bnext\s+week\b`))
	// reEndWeek is "end of the week", "end of next week": its Friday.
	reEndWeek = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(the\s+|this\s+|next\s+)?week(\s+after\s+next)?\b`))
	// reNthWeekdayOf is "the first tuesday of every month", "the first
	// weekend of december": a weekday counted in a month.
	reNthWeekdayOf = gate(lazyre.New(`(?i)\b(?:the\s+)?(first|second|third|fourth|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\s+(?:of|in)\s+(every\s+month|each\s+month|the\s+month|next\s+month|jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\b(?:,?\s+(\d{4})\b)?`))
	reEndMonth     = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?month\b`))
	reMonthDay     = gate(lazyre.New(`(?i)\b(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(,?\s+20\d\d\b)?`))
	reDayMonth     = gate(lazyre.New(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)\b(,?\s+20\d\d\b)?`))
	reEndQuart     = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?quarter\b`))
	reTheNth       = gate(lazyre.New(`(?i)\b(on|by|until|till|before|after|from|starting|starts|begins|ends|through|thru) the (\d{1,2})(?:st|nd|rd|th)\b`))
	reISODate      = gate(lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`))
	// reIsTheNth is "next one is the 12th" at a clause's end: not "the
	// 2nd biggest line", not "the 1st of every month".
	reIsTheNth = gate(lazyre.New(`(?i)\bis the (\d{1,2})(?:st|nd|rd|th)(?:\s*[,.;!]|\s*$|\s+(?:and|so|but)\b)`))
)

var abbrDays = map[string]string{"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "weds": "wednesday", "thu": "thursday",
	"thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday"}

var smallNumbers = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}

// daysOf is the days in a unit of reNFrom and reInN.
var daysOf = map[string]int{"day": 1, "week": 7, "fortnight": 14}

// shortDates are reShort's words written out.
var shortDates = map[string]string{"tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "tomorow": "tomorrow", "tommorow": "tomorrow",
	"tommorrow": "tomorrow", "2morrow": "tomorrow", "eod": "end of day", "eow": "end of the week", "eom": "end of the month",
	"eoq": "end of the quarter", "eoy": "end of the year", "weds": "wednesday"}

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
	out, found := absoluteDates(s, at)
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
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	found := reISODate.MatchString(s)
	s = gated(s, reShort, []string{"tmr", "tmw", "tomo", "tomm", "2mo", "eo", "wk", "weds"}, func(m string) string {
		w := strings.ToLower(m)
		if long, ok := shortDates[w]; ok {
			return long
		}
		if w == "wknd" {
			return "weekend"
		}
		return m[:len(m)-2] + "week" // "next wk"
	})
	s = gated(s, reDayAfter, []string{"day after", "day before"}, func(m string) string {
		found = true
		if strings.Contains(strings.ToLower(m), "after") {
			return day(at.AddDate(0, 0, 2))
		}
		return day(at.AddDate(0, 0, -2))
	})
	s = gated(s, reNFrom, []string{" from ", " after "}, func(m string) string {
		found = true
		g := reNFrom.FindStringSubmatch(m)
		if g[4] != "" {
			return m // "a week after monday 2026-05-25": written out already
		}
		n, err := strconv.Atoi(g[1])
		if err != nil {
			n = max(smallNumbers[strings.ToLower(g[1])], 1) // "a week from friday"
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
		full, pre := abbrDays[strings.ToLower(g[2])], strings.ToLower(g[1])
		weekend := full == "saturday" || full == "sunday"
		switch {
		case full == "" || pre == "" && g[3] == "":
			return m // "wed", "sun" alone: a word
		case g[3] == "" && weekend && (pre == "on" || pre == "to" || pre == "for" || pre == "til" || pre == "thru" || pre == "through"):
			return m // "sat on it", "on sun", "to sun": not a day
		case pre == "":
			return full + g[3] // "fri afternoon"
		}
		return g[1] + " " + full + g[3]
	})
	s = gated(s, reAfterNext, []string{"after next"}, func(m string) string {
		found = true
		g := reAfterNext.FindStringSubmatch(m)
		d := (int(weekdays[strings.ToLower(g[1])])-int(at.Weekday())+6)%7 + 1 // the first one after today
		return g[1] + " " + day(at.AddDate(0, 0, d+7))
	})
	s = gated(s, reEOD, []string{"end of", "close of", "cob"}, func(m string) string {
		if g := reEOD.FindStringSubmatch(m); g[1] != "" {
			return m // "end of day friday": the day says which
		}
		found = true
		return day(at)
	})
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
	s = gated(s, reEndYear, []string{"year"}, func(string) string {
		found = true
		return day(time.Date(at.Year(), 12, 31, 0, 0, 0, 0, at.Location()))
	})
	s = gated(s, reWeekend, []string{"weekend"}, func(m string) string {
		g := reWeekend.FindStringSubmatch(m)
		if strings.EqualFold(g[1], "over the") && pastClause(s[:strings.Index(s, m)]) {
			return m // "we fixed it over the weekend"
		}
		d := (int(time.Saturday) - int(at.Weekday()) + 7) % 7 // the coming Saturday, or today
		if at.Weekday() == time.Sunday {
			d = -1 // the weekend under way
		}
		if strings.EqualFold(g[1], "next") {
			d = (int(time.Saturday)-int(at.Weekday())+6)%7 + 1
			if at.Weekday() != time.Saturday && at.Weekday() != time.Sunday {
				d += 7
			}
		}
		found = true
		return "the weekend of " + day(at.AddDate(0, 0, d))
	})
	s = gated(s, reHoliday, []string{"christmas", "xmas", "new year", "nye"}, func(m string) string {
		g := reHoliday.FindStringSubmatch(m)
		if g[1] == "" && !strings.Contains(strings.ToLower(g[2]), " day") && !strings.Contains(strings.ToLower(g[2]), " eve") && !strings.EqualFold(g[2], "nye") {
			return m // "christmas" alone: a season, a joke's word
		}
		if strings.EqualFold(strings.TrimSpace(g[1]), "over") && pastClause(s[:strings.Index(s, m)]) {
			return m // "over christmas the pager went off"
		}
		mon, d := time.December, 25
		switch w := strings.ToLower(g[2]); {
		case strings.Contains(w, "eve") || w == "nye":
			if d = 24; !strings.HasPrefix(w, "christmas") {
				d = 31
			}
		case strings.HasPrefix(w, "new"):
			mon, d = time.January, 1
		}
		t := time.Date(at.Year(), mon, d, 0, 0, 0, 0, at.Location())
		if t.Before(time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())) {
			t = t.AddDate(1, 0, 0)
		}
		found = true
		return m + " " + day(t)
	})
	s = gated(s, reEndQuart, []string{"quarter"}, func(string) string {
		found = true
		q := (int(at.Month())-1)/3*3 + 3 // the quarter's last month
		return day(time.Date(at.Year(), time.Month(q)+1, 0, 0, 0, 0, 0, at.Location()))
	})
	s = gated(s, reInN, []string{"in "}, func(m string) string {
		found = true
		g := reInN.FindStringSubmatch(m)
		if g[3] != "" {
			return m // "in a day or two": no one day
		}
		n, err := strconv.Atoi(g[1])
		if err != nil {
			n = max(smallNumbers[strings.ToLower(g[1])], 1) // "in a week"
		}
		if n > 3650 {
			return m // no plan of a team's is that far off
		}
		return "by " + day(at.AddDate(0, 0, n*daysOf[strings.ToLower(g[2])])) + g[3]
	})
	s = gated(s, reNthWeekdayOf, []string{" of ", " in "}, func(m string) string {
		g := reNthWeekdayOf.FindStringSubmatch(m)
		year, _ := strconv.Atoi(g[4]) // "the first monday of june 2027"; 0 when none is said
		t, every, ok := nthWeekdayOf(at, strings.ToLower(g[1]), strings.ToLower(g[2]), strings.ToLower(strings.Join(strings.Fields(g[3]), " ")), year)
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
	monthDay := func(m string, mon time.Month, d int, year string) string {
		y, err := strconv.Atoi(strings.TrimLeft(year, ", "))
		if err != nil {
			y = at.Year()
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
	s = gated(s, reMonthDay, monthHints, func(m string) string {
		found = true
		g := reMonthDay.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[2])
		return monthDay(m, months[strings.ToLower(g[1])], d, g[3])
	})
	s = gated(s, reDayMonth, monthHints, func(m string) string {
		found = true
		g := reDayMonth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[1])
		return monthDay(m, months[strings.ToLower(g[2])], d, g[3])
	})
	s = outside(s, reRecurringNth, func(s string) string { return nthDates(s, at, &found) })
	if found {
		s = offsetDates(s)
	}
	return s, found
}

// nthDates writes each day of the month s names alone ("on the 14th",
// "the 30th is…", "from monday to the 14th") as its date (see
// absoluteDates), setting *found when one was read.
func nthDates(s string, at time.Time, found *bool) string {
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	s = gated(s, reIsTheNth, digits, func(m string) string {
		g := reIsTheNth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[1])
		if t, ok := nextNth(at, d); ok {
			*found = true
			return "is " + day(t) + m[strings.Index(m, g[1])+len(g[1])+2:]
		}
		return m
	})
	s = gated(s, reTheNthIs, digits, func(m string) string {
		g := reTheNthIs.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[1])
		if t, ok := nextNth(at, d); ok {
			*found = true
			return day(t) + " " + g[2]
		}
		return m
	})
	// "on the 14th": the next 14th, this month's if it is still ahead.
	s = gated(s, reTheNth, digits, func(m string) string { // and "the ", its own gate
		g := reTheNth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[2])
		if t, ok := nextNth(at, d); ok {
			*found = true
			return g[1] + " " + day(t)
		}
		return m
	})
	if !reISODate.MatchString(s) {
		return s // "up to the 3rd place": only a range's start makes it a day
	}
	return gated(s, reToTheNth, digits, func(m string) string {
		g := reToTheNth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[2])
		if t, ok := nextNth(at, d); ok {
			return g[1] + " " + day(t)
		}
		return m
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
		if rest := strings.TrimLeft(s[m[1]:], " "); rest != "" && !strings.ContainsRune(".,;:!?)—–-", rune(rest[0])) &&
			!strings.HasPrefix(strings.ToLower(rest), "and ") && !strings.HasPrefix(strings.ToLower(rest), "so ") {
			continue // "kept for 30 days after deletion": a duration, not a day
		}
		var last []int
		for _, a := range isos {
			if a[1] <= m[0] {
				last = a
			}
		}
		if last == nil {
			continue
		}
		if strings.TrimSpace(s[last[1]:m[0]]) == "(" {
			continue // written out already: "2026-07-03 (three days before)"
		}
		from, err := time.Parse(time.DateOnly, s[last[0]:last[1]])
		if err != nil {
			continue
		}
		n, err := strconv.Atoi(s[m[2]:m[3]])
		if err != nil {
			n = max(smallNumbers[strings.ToLower(s[m[2]:m[3]])], 1) // "a week before"
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

// weekdayNth is the day d of a month that falls on wd nearest to at, up to
// two weeks back ("monday the 25th" said on Wednesday the 27th is two days
// ago) and two months ahead; else the next day d, the weekday a slip.
func weekdayNth(at time.Time, wd time.Weekday, d int) (time.Time, bool) {
	if d < 1 || d > 31 {
		return time.Time{}, false
	}
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	for k := -1; k <= 2; k++ {
		first := time.Date(at.Year(), at.Month()+time.Month(k), 1, 0, 0, 0, 0, at.Location())
		t := first.AddDate(0, 0, d-1)
		if t.Month() == first.Month() && t.Weekday() == wd && !t.Before(today.AddDate(0, 0, -14)) {
			return t, true
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

// nthWeekdayOf is the nth ("first"…"fourth", "last") weekday, or weekend's
// Saturday, of month: a month's name (of year when it is not 0, else this
// year's, or next year's when it is long past), "next month", or every
// month (the next one on or after at; every says so).
func nthWeekdayOf(at time.Time, nth, weekday, month string, year int) (t time.Time, every bool, ok bool) {
	wd, isDay := weekdays[weekday]
	if weekday == "weekend" {
		wd, isDay = time.Saturday, true
	}
	n := map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1}[nth]
	if !isDay || n == 0 {
		return time.Time{}, false, false
	}
	in := func(y int, mon time.Month) time.Time {
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
		b.WriteString(weekdayDate(s, m, at, found))
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// weekdayDate is reWeekday's match m in s as the date it names.
func weekdayDate(s string, m []int, at time.Time, found *bool) string {
	group := func(i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	whole, pre, name := s[m[0]:m[1]], group(1), group(2)
	if group(4) != "" {
		return whole // "Thursday 2026-11-26": written out already
	}
	if group(3) != "" && pre == "" {
		return whole // "tuesday's outage": an event named by its day, past as often as not
	}
	switch p := strings.ToLower(pre); p {
	case "first", "second", "third", "fourth", "last":
		// "the first tuesday of…" (read before), "last friday", "the
		// first monday after the holidays": a day, though not the
		// coming one.
		*found = true
		return whole
	case "", "on", "from":
		if pastClause(s[:m[0]]) {
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
	prefix := ""
	if pre != "" && !strings.EqualFold(pre, "next") && !strings.EqualFold(pre, "this") && !strings.HasSuffix(strings.ToLower(pre), "coming") {
		prefix = pre + " "
	}
	return fmt.Sprintf("%s%s %s", prefix, name, at.AddDate(0, 0, d).Format(time.DateOnly))
}

// pastClause reports whether the clause that ends with before tells of
// the past: "we shipped the new onboarding on", "remember the auth bug
// from". A day something moved to ("got pushed to", "slipped to") is
// ahead, and so is one a clause says will come.
func pastClause(before string) bool {
	if i := strings.LastIndexAny(before, ".,;!?"); i >= 0 {
		before = before[i+1:]
	}
	words := strings.Fields(strings.ToLower(before))
	lists := pastWords()
	if n := len(words); n > 0 && lists.ahead[words[n-1]] {
		return false
	}
	past := false
	for i, w := range words {
		w = strings.Trim(w, ",'\"()")
		switch {
		case lists.future[w] || strings.HasSuffix(w, "'ll") || strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'re"):
			return false
		case lists.past[w]:
			past = true
		case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !lists.planned[w] && i > 0 && !lists.det[words[i-1]]:
			past = true // "we migrated", "the deploy failed"; not "the updated schema"
		}
	}
	return past
}

// pastWords are the word lists pastClause reads, built on first use (a
// hook's start-up pays for none).
var pastWords = sync.OnceValue(func() (w struct{ ahead, future, past, planned, det map[string]bool }) {
	w.ahead = wordSet(`to till until by for before next this coming starting starts beginning begins effective of`)
	w.future = wordSet(`will won't wont gonna going shall need needs must should is are can let's lets please pls want wants plan plans ill
	starts begins ends lands ships happens launches runs goes closes opens kicks expires falls due`)
	w.past = wordSet(`was were did had broke went fell came ran saw sent wrote made found lost took left told said heard caught began hit built forgot blew spent remember ago yesterday`)
	w.planned = wordSet(`scheduled planned expected supposed required booked slated penciled pencilled proposed reserved needed`)
	w.det = wordSet(`the a an this that our my your their its his her newly freshly`)
	return w
})

// reRecurringDays are weekdays that come back every week, one or a list:
// "every saturday and sunday", "each monday, wednesday and friday".
var reRecurringDays = gate(lazyre.New(`(?i)\b(?:(?:every|each)\s+(?:other\s+)?|(?:weekly|biweekly|fortnightly)\s+on\s+)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:(?:\s*[,/&]\s*|\s+and\s+|\s+or\s+)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))*\b`))

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
