package extract

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads dates as people shorten them in chat (issue 17):
// "tmrw", "by EOD", "this wknd", "before christmas", "the friday after
// next"; and tells a day that is ahead from one in a clause about the past.

var (
	// reShort is how people shorten a date in chat: "tmrw", "eow", "next
	// wk", "this wknd".
	reShort = gate(lazyre.New(`(?i)\b(?:tmrw|tmr|tmw|tomorow|tommorow|tommorrow|2morrow|eow|eom|eoq|eoy|wknd)\b|\b(?:next|this|the|of|last|a)\s+wk\b`))
	// reDayAfter is "the day after tomorrow", "the day before yesterday".
	reDayAfter = gate(lazyre.New(`(?i)\b(?:the\s+)?day\s+(after\s+tomorrow|before\s+yesterday)\b`))
	// reEOD is the end of a working day: "by EOD", "till close of
	// business", "EOD friday" (the day says which).
	reEOD = gate(lazyre.New(`(?i)\b(?:end of (?:the )?(?:day|business)|close of business|cob|eod)\b(\s+(?:today|tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday|on|this|next)\b)?`))
	// reEndYear is the end of this year.
	reEndYear = gate(lazyre.New(`(?i)\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?year\b`))
	// reWeekend is a weekend named as one: its Saturday.
	reWeekend = gate(lazyre.New(`(?i)\b(this coming|this|over the|next)\s+weekend\b`))
	// reHoliday is a day every calendar has: named as a day, or after a
	// word that makes it one ("before christmas", not "the bug that ate
	// christmas"); with the year or the date said after it, if any.
	reHoliday = gate(lazyre.New(`(?i)\b((?:before|by|until|till|after|on|over|for|around|through|thru|at)\s+)?(christmas eve|christmas day|new year'?s eve|nye|new year'?s day|christmas|xmas|new year'?s|thanksgiving)\b(?:( \d{4}-\d\d-\d\d\b)|,?\s+((?:19|20)\d\d)\b)?`))
	// reAfterNext is "the friday after next": a week after the coming one.
	reAfterNext = gate(lazyre.New(`(?i)\b(?:the\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+after\s+next\b`))
	// reRecurringNth is a day of every month: "monthly on the 15th", "the
	// 1st of every month", "every month on the 15th", "the 1st of the
	// month".
	reRecurringNth = gate(lazyre.New(`(?i)\b(?:monthly|every month|each month)\s+on\s+the\s+\d{1,2}(?:st|nd|rd|th)\b|\b(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)\s+of\s+(?:every|each|the)\s+month\b`))
	// reToTheNth is a range's end: "from wednesday to the 14th, only
	// hotfixes"; not "to the 2nd position", "to the 10th percentile".
	reToTheNth = gate(lazyre.New(`(?i)(\bto|-|–)\s*the\s+(\d{1,2})(?:st|nd|rd|th)\b(?:\s*[,.;!)]|\s*$|\s+(?:and|for|only|inclusive|included|incl)\b)`))
	// reNthToNth is a range of days said bare: "on leave 21st to the 4th
	// anyway", "the freeze runs 18th-2nd"; not "the 5th to 25th
	// percentile".
	reNthToNth = gate(lazyre.New(`(?i)\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\s*(to|till|until|through|thru|-|–)\s*(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b(?:\s*[,.;!)]|\s*$|\s+(?:and|for|only|inclusive|included|incl|anyway|so|but)\b)`))
	// reTheNthIs is a day of the month a sentence opens with: "the 30th is
	// our last day"; dayWords must say it is a day.
	reTheNthIs = gate(lazyre.New(`(?i)^the (\d{1,2})(?:st|nd|rd|th)\s+(is|we|i|will|works|should|they)\b`))
	// reProtect is what a date is never read inside: code spans, URLs,
	// paths and identifiers ("scripts/eod.sh", "the eod-report branch",
	// "v3.14").
	reProtect = gate(lazyre.New("`[^`\\n]*`" + `|\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\S*[/\\_]\S*|\S*[A-Za-z0-9]\.[A-Za-z0-9]\S*|\b[A-Za-z]\w*(?:-\w+)*-[A-Za-z]\w*`))
)

// shortDateWords are reShort's words written out.
var shortDateWords = map[string]string{"tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "tomorow": "tomorrow", "tommorow": "tomorrow",
	"tommorrow": "tomorrow", "2morrow": "tomorrow", "eow": "end of the week", "eom": "end of the month",
	"eoq": "end of the quarter", "eoy": "end of the year", "wknd": "weekend"}

// protect hides what reProtect matches behind a NUL each, for restore to
// put back: a date reader never sees a path or a code span.
func protect(s string) (string, []string) {
	if strings.IndexByte(s, 0) >= 0 || !reProtect.may(s) {
		return s, nil
	}
	var spans []string
	var b strings.Builder
	last := 0
	for _, m := range reProtect.FindAllStringIndex(s, -1) {
		if reISODate.MatchString(s[m[0]:m[1]]) && len(s[m[0]:m[1]]) == 10 {
			continue // a date written out stays readable: "three days before" counts from it
		}
		b.WriteString(s[last:m[0]])
		b.WriteByte(0)
		spans = append(spans, s[m[0]:m[1]])
		last = m[1]
	}
	if spans == nil {
		return s, nil
	}
	b.WriteString(s[last:])
	return b.String(), spans
}

// restore puts back what protect hid, in order.
func restore(s string, spans []string) string {
	if spans == nil {
		return s
	}
	var b strings.Builder
	for _, part := range strings.SplitAfter(s, "\x00") {
		if strings.HasSuffix(part, "\x00") && len(spans) > 0 {
			b.WriteString(part[:len(part)-1])
			b.WriteString(spans[0])
			spans = spans[1:]
			continue
		}
		b.WriteString(part)
	}
	return b.String()
}

// replaceEach is re's ReplaceAllStringFunc with the match's place: f
// reads the text around the match.
func replaceEach(s string, re *gatedRe, hints []string, f func(s string, m []int) string) string {
	lower := toLowerCached(s)
	if !mayHold(lower, hints) {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		b.WriteString(f(s, m))
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// group is submatch i of m in s, or "".
func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

// shortDates writes chat's shortened dates out, and "the day after
// tomorrow" as its day.
func shortDates(s string, at time.Time, found *bool) string {
	s = gated(s, reShort, []string{"tmr", "tmw", "tomo", "tomm", "2mo", "eo", "wk"}, func(m string) string {
		if long, ok := shortDateWords[strings.ToLower(m)]; ok {
			return long
		}
		return m[:len(m)-2] + "week" // "next wk"
	})
	return gated(s, reDayAfter, []string{"day after", "day before"}, func(m string) string {
		*found = true
		if strings.Contains(strings.ToLower(m), "after") {
			return day(at.AddDate(0, 0, 2))
		}
		return day(at.AddDate(0, 0, -2))
	})
}

// afterNext writes "the friday after next" as its day.
func afterNext(s string, at time.Time, found *bool) string {
	return gated(s, reAfterNext, []string{"after next"}, func(m string) string {
		*found = true
		g := reAfterNext.FindStringSubmatch(m)
		d := (int(weekdays[strings.ToLower(g[1])])-int(at.Weekday())+6)%7 + 1 // the first one after today
		return g[1] + " " + day(at.AddDate(0, 0, d+7))
	})
}

// endOfDay writes "by EOD", "till close of business" as today; a day
// said before or after it ("friday EOD", "EOD tomorrow") says which, and
// "at the end of the day", "the eod summary", "the cob module" are no
// day at all.
func endOfDay(s string, at time.Time, found *bool) string {
	return replaceEach(s, reEOD, []string{"end of", "close of", "cob", "eod"}, func(s string, m []int) string {
		whole := s[m[0]:m[1]]
		if group(s, m, 1) != "" {
			return whole
		}
		before := strings.Fields(asciiLower(s[:m[0]]))
		prev := ""
		if len(before) > 0 {
			prev = strings.Trim(before[len(before)-1], ",;:")
		}
		abbr := strings.EqualFold(whole, "eod") || strings.EqualFold(whole, "cob")
		after := strings.TrimLeft(s[m[1]:], " ")
		next := ""
		if f := strings.Fields(asciiLower(after)); len(f) > 0 {
			next = strings.Trim(f[0], ".,;:!?")
		}
		switch {
		case isDayWord(prev):
			return whole // "friday EOD", "2026-04-17 EOD"
		case prev == "the" || prev == "a" || prev == "an" || prev == "our" || prev == "my":
			return whole // "at the end of the day", "the eod summary"
		case !abbr && prev != "by" && prev != "until" && prev != "till" && prev != "before" && prev != "at" && prev != "for":
			return whole // "the end of day job"
		case abbr && after != "" && !strings.ContainsRune(".,;:!?)", rune(after[0])) &&
			next != "please" && next != "pls" && next != "thanks" && next != "if" && next != "so" && next != "and" && next != "or" && next != "then" && next != "latest" && next != "at":
			return whole // "eod summary", "cob module": a thing's name
		}
		*found = true
		return day(at)
	})
}

// isDayWord reports a word that names a day: a weekday, short or long,
// today or tomorrow, or a date written out.
func isDayWord(w string) bool {
	if _, ok := weekdays[w]; ok {
		return true
	}
	if _, ok := abbrDays[w]; ok {
		return true
	}
	return w == "today" || w == "tonight" || w == "tomorrow" || len(w) == 10 && reISODate.MatchString(w)
}

// endOfYear writes "by the end of the year" as this year's last day,
// unless the clause tells of the past ("we migrated everything at the end
// of the year").
func endOfYear(s string, at time.Time, found *bool) string {
	return replaceEach(s, reEndYear, []string{"year"}, func(s string, m []int) string {
		if pastTense(clauseAround(s, m)) {
			return s[m[0]:m[1]]
		}
		*found = true
		return day(time.Date(at.Year(), 12, 31, 0, 0, 0, 0, at.Location()))
	})
}

// weekends writes "this weekend", "next weekend" as the weekend of its
// Saturday; one in a clause about the past is left as said.
func weekends(s string, at time.Time, found *bool) string {
	return replaceEach(s, reWeekend, []string{"weekend"}, func(s string, m []int) string {
		if pastTense(clauseAround(s, m)) {
			return s[m[0]:m[1]] // "we fixed it over the weekend"
		}
		d := (int(time.Saturday) - int(at.Weekday()) + 7) % 7 // the coming Saturday, or today
		if at.Weekday() == time.Sunday {
			d = -1 // the weekend under way
		}
		if strings.EqualFold(group(s, m, 1), "next") {
			d = (int(time.Saturday)-int(at.Weekday())+6)%7 + 1
			if at.Weekday() != time.Saturday && at.Weekday() != time.Sunday {
				d += 7
			}
		}
		*found = true
		return "the weekend of " + day(at.AddDate(0, 0, d))
	})
}

// holidays writes christmas and new year's as their day: the next one,
// or the one of the year said after it; one in a clause about the past,
// or with its date written already, is left as said.
func holidays(s string, at time.Time, found *bool) string {
	return replaceEach(s, reHoliday, []string{"christmas", "xmas", "new year", "nye", "thanksgiving"}, func(s string, m []int) string {
		whole, pre, name := s[m[0]:m[1]], group(s, m, 1), strings.ToLower(group(s, m, 2))
		if pre == "" && !strings.HasSuffix(name, " day") && !strings.HasSuffix(name, " eve") && name != "nye" {
			return whole // "christmas" alone: a season, a joke's word
		}
		if group(s, m, 3) != "" || pastTense(clauseAround(s, m)) {
			*found = true
			return whole // "by christmas 2026-12-25"; "prod went down on christmas day"
		}
		mon, d := time.December, 25
		switch {
		case strings.Contains(name, "eve") || name == "nye":
			if d = 24; !strings.HasPrefix(name, "christmas") {
				d = 31
			}
		case strings.HasPrefix(name, "new"):
			mon, d = time.January, 1
		}
		on := func(y int) time.Time {
			if name == "thanksgiving" { // the US one: November's fourth Thursday
				first := time.Date(y, time.November, 1, 0, 0, 0, 0, at.Location())
				return first.AddDate(0, 0, (int(time.Thursday)-int(first.Weekday())+7)%7+21)
			}
			return time.Date(y, mon, d, 0, 0, 0, 0, at.Location())
		}
		var t time.Time
		if y, err := strconv.Atoi(group(s, m, 4)); err == nil {
			t = on(y) // "by christmas 2027"
		} else if t = on(at.Year()); t.Before(time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())) {
			t = on(at.Year() + 1)
		}
		*found = true
		return s[m[0]:m[5]] + " " + day(t)
	})
}

// clauseAround is the clause of s that holds the match m: from the last
// sentence or clause mark before it to the next one after it.
func clauseAround(s string, m []int) string {
	before, after := tail(s[:m[0]], 200), s[m[1]:min(len(s), m[1]+200)]
	if i := strings.LastIndexAny(before, ".,;!?"); i >= 0 {
		before = before[i+1:]
	}
	if i := strings.IndexAny(after, ".,;!?"); i >= 0 {
		after = after[:i]
	}
	return before + s[m[0]:m[1]] + after
}

// nthDates writes each day of the month s names alone ("on the 14th",
// "the 30th is our last day", "from monday to the 14th") as its date
// (see absoluteDates), setting *found when one was read.
func nthDates(s string, at time.Time, found *bool) string {
	s = gated(s, reNthToNth, []string{"st", "nd", "rd", "th"}, func(m string) string {
		g := reNthToNth.FindStringSubmatchIndex(m)
		d1, _ := strconv.Atoi(m[g[2]:g[3]])
		d2, _ := strconv.Atoi(m[g[6]:g[7]])
		t1, ok1 := nextNth(at, d1)
		t2, ok2 := nextNth(t1, d2)
		if !ok1 || !ok2 {
			return m
		}
		*found = true
		to := m[g[4]:g[5]]
		if to == "-" || to == "–" {
			to = "to"
		}
		return day(t1) + " " + to + " " + day(t2) + m[g[7]+2:] // and what follows the second day
	})
	s = gated(s, reIsTheNth, digits, func(m string) string {
		g := reIsTheNth.FindStringSubmatch(m)
		d, _ := strconv.Atoi(g[1])
		if t, ok := nextNth(at, d); ok {
			*found = true
			return "is " + day(t) + m[strings.Index(m, g[1])+len(g[1])+2:]
		}
		return m
	})
	if mayHold(s, dayWords) {
		// "the 30th is our last day", not "the 2nd is way faster"
		s = gated(s, reTheNthIs, digits, func(m string) string {
			g := reTheNthIs.FindStringSubmatch(m)
			d, _ := strconv.Atoi(g[1])
			if t, ok := nextNth(at, d); ok {
				*found = true
				return day(t) + " " + g[2]
			}
			return m
		})
	}
	// "before the fallas finish (the 19th)": the day said aside.
	s = replaceEach(s, reParenNth, digits, func(s string, m []int) string {
		if reISODate.MatchString(tail(s[:m[0]], 12)) {
			return s[m[0]:m[1]] // "by 2026-06-10 (the 24th)": a day said again, which restated weighs
		}
		d, _ := strconv.Atoi(group(s, m, 1))
		if t, ok := nextNth(at, d); ok {
			*found = true
			return "(" + day(t) + ")"
		}
		return s[m[0]:m[1]]
	})
	// "on the 14th": the next 14th, this month's if it is still ahead.
	// off is where the next match is looked for in s: they come in order.
	off := 0
	s = gated(s, reTheNth, digits, func(m string) string { // and "the ", its own gate
		at0 := off + strings.Index(s[off:], m)
		off = at0 + len(m)
		g := reTheNth.FindStringSubmatch(m)
		before := s[:at0]
		switch p := strings.ToLower(g[1]); {
		case p == "to" && !movedTo(before):
			return m // "up to the 3rd", "add it to the 2nd": no day a plan moved to
		case (p == "on" || p == "from") && pastClause(before) && !verbAhead(before):
			return m // "we went live on the 8th": a day gone, not the next 8th
		case reRankOf.MatchString(s[off:]):
			return m // "the office is on the 3rd floor", "moved to the 2nd slot"
		}
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
	return replaceEach(s, reToTheNth, digits, func(s string, m []int) string {
		d, _ := strconv.Atoi(group(s, m, 2))
		from := at
		if starts := reISODate.FindAllString(s[:m[0]], -1); len(starts) > 0 {
			if t, err := time.ParseInLocation(time.DateOnly, starts[len(starts)-1], at.Location()); err == nil {
				from = t // the range's end comes after its start
			}
		}
		if t, ok := nextNth(from, d); ok {
			return group(s, m, 1) + " " + day(t) + s[m[5]+2:m[1]] // what follows the ordinal, as said
		}
		return s[m[0]:m[1]]
	})
}

// reRankOf is what an ordinal ranks when it is no day of the month.
var reRankOf = gate(lazyre.New(`(?i)^\s+(?:floor|floors|slot|slots|place|row|column|level|position|round|spot|step|tier|attempt|try|time|item|line|page|paragraph|section|chapter|grade|gen|generation|party|person|team|quarter|week|ring|stage|phase|pass|run|batch|shift|lane|gate|seat|room|building|wave|iteration|sprint|edition|version|draft)\b`))

// movedTo reports a clause that ends in a verb of moving a plan: "the
// go-live slipped to", "the draft moved to", "it got pushed back to".
func movedTo(before string) bool {
	w := wordBack(before, 0)
	if w == "back" {
		w = wordBack(before, 1) // "pushed back to"
	}
	switch w {
	case "moved", "moves", "pushed", "slipped", "slips", "postponed", "delayed", "shifted", "bumped", "rescheduled", "changed":
		return true
	}
	return false
}

// verbAhead reports a clause that ends in a verb of what is to come: "the
// old one gets decommissioned", "it will be migrated", "is going to ship".
func verbAhead(before string) bool {
	switch wordBack(before, 1) {
	case "gets", "get", "getting", "will", "be", "is", "are", "being", "to":
		return true
	}
	return false
}

// wordBack is the word k words before the end of s (0: the last), in
// lower case, or "".
func wordBack(s string, k int) string {
	w := strings.Fields(strings.ToLower(tail(s, 60)))
	if len(w) <= k {
		return ""
	}
	return w[len(w)-1-k]
}

// dayWords say a day of the month is a day, not a place in a list.
var dayWords = []string{"last day", "first day", "deadline", "due", "the day", "launch", "release", "freeze", "cutover", "go-live", "go live",
	"demo", "meeting", "review", "holiday", "day off", " off", " out", "our last", "my last", "starts", "ends", "kicks off", "payday"}

// pastClause reports whether the clause that ends with before tells of
// the past: "we shipped the new onboarding on", "remember the auth bug
// from". A day something moved to ("got pushed to", "slipped to") is
// ahead, and so is one a clause says will come.
func pastClause(before string) bool {
	before = tail(before, 200) // a clause's end: a run-on costs no more
	if i := strings.LastIndexAny(before, ".,;!?"); i >= 0 {
		before = before[i+1:]
	}
	words := strings.Fields(strings.ToLower(before))
	if n := len(words); n > 0 && pastWords().ahead[words[n-1]] {
		return false
	}
	return pastTense(before)
}

// tail is the last n bytes of s at most, cut at a rune's start.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return s[i:]
}

// pastTense reports whether a clause tells of the past: a past verb and
// no word that says now or later. It reads the clause's last 16 words
// only: a day's clause is short, and a run-on costs no more.
func pastTense(clause string) bool {
	words := strings.Fields(strings.ToLower(clause))
	if len(words) > 16 {
		words = words[len(words)-16:]
	}
	lists := pastWords()
	past := false
	for i, w := range words {
		w = strings.Trim(w, ",'\"()")
		next := ""
		if i+1 < len(words) {
			next = strings.Trim(words[i+1], ",'\"()")
		}
		switch {
		case lists.future[w] || strings.HasSuffix(w, "'ll") || strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "'re"):
			return false
		case lists.subject[w] && next != "" && !lists.past[next] && !pastForm(next, lists) && next != "just" && next != "already" && next != "never":
			return false // "we launch on friday", "we have limited capacity"
		case w == "remember" && next == "to":
			// "remember to rotate the certs": ahead
		case lists.past[w]:
			past = true
		case pastForm(w, lists) && i > 0 && !lists.det[words[i-1]]:
			past = true // "we migrated", "the deploy failed"; not "the updated schema"
		}
	}
	return past
}

// pastForm reports a word in -ed that is a verb in the past, not an
// adjective or a noun ("limited", "hundred", "embed").
func pastForm(w string, lists pastWordLists) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && !lists.planned[w] && !lists.adjective[w]
}

type pastWordLists struct{ ahead, future, past, planned, adjective, det, subject map[string]bool }

// pastWords are the word lists pastTense reads, built on first use (a
// hook's start-up pays for none).
var pastWords = sync.OnceValue(func() (w pastWordLists) {
	w.ahead = wordSet(`to till until by for before next this coming starting starts beginning begins effective of`)
	w.future = wordSet(`will won't wont gonna going shall need needs must should is are can let's lets please pls want wants plan plans ill
	starts begins ends lands ships happens launches runs goes closes opens kicks expires falls due`)
	w.past = wordSet(`was were did had broke went fell came ran saw sent wrote made found lost took left told said heard caught began hit built
	forgot blew spent died remember ago yesterday`)
	w.planned = wordSet(`scheduled planned expected supposed required booked slated penciled pencilled proposed reserved needed`)
	w.adjective = wordSet(`embed hundred limited unlimited dedicated detailed advanced experienced skilled automated distributed shared mixed based
	related interested talented`)
	w.det = wordSet(`the a an this that our my your their its his her newly freshly`)
	w.subject = wordSet(`we i you they`)
	return w
})

// reWeekdayCalendar is a weekday before the calendar day it is: "monday
// 16 february", "Mon, Feb 16". The calendar day says it all, and the
// weekday left alone would be read as a day of its own.
var reWeekdayCalendar = gate(lazyre.New(`(?i)\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?,?\s+((?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthNames + `\b|` + monthNames + `\.?\s+\d{1,2}(?:st|nd|rd|th)?\b)`))

// monthNames are the months' names and their short forms.
const monthNames = `(?:jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)`

// reParenNth is a day of the month said aside: "(the 19th)".
var reParenNth = gate(lazyre.New(`(?i)\(the (\d{1,2})(?:st|nd|rd|th)\)`))

// reWeekdayBare is a weekday and a bare day of the month after it:
// "away from wednesday 18 to 20".
var reWeekdayBare = gate(lazyre.New(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+(\d{1,2})\b`))

// reClockAfter is a time of day after a number: "friday 10am", "monday 9:30".
var reClockAfter = lazyre.New(`(?i)^(?:\s*(?:[:.]\d|am\b|pm\b|h\b|o'?clock|%|hrs?\b|hours?\b|min|x\b|times\b|pm\b))`)

// weekdayBare writes "wednesday 18" as its date when the 18th near at is a
// Wednesday; a number that is no such day (a time, a count) is left.
func weekdayBare(s string, at time.Time, found *bool) string {
	return replaceEach(s, reWeekdayBare, digits, func(s string, m []int) string {
		whole := s[m[0]:m[1]]
		if reClockAfter.MatchString(s[m[1]:]) {
			return whole
		}
		d, _ := strconv.Atoi(group(s, m, 2))
		wd := weekdays[strings.ToLower(group(s, m, 1))]
		today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
		for k := 0; k <= 2; k++ {
			first := time.Date(at.Year(), at.Month()+time.Month(k), 1, 0, 0, 0, 0, at.Location())
			if t := first.AddDate(0, 0, d-1); d >= 1 && t.Month() == first.Month() && t.Weekday() == wd && !t.Before(today) {
				*found = true
				return day(t)
			}
		}
		return whole
	})
}

// reNamedDay is a day named and dated right after "before" or "after":
// " thanksgiving 2026-11-26".
var reNamedDay = lazyre.New(`^ (?:the )?[a-z'’]+(?: [a-z'’]+)? (\d{4}-\d\d-\d\d)\b`)

// reOnWeekdayDated is "on <weekday>" as AbsoluteDates dated it; a
// standing rule means every such day.
var reOnWeekdayDated = lazyre.New(`(?i)\b(on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)) \d{4}-\d\d-\d\d\b`)

// anchoredOn writes the day s counts from a day the sentence before it
// named: "the spring sale starts march 16. code freeze the thursday
// before" freezes on 2026-03-12, not on the coming Thursday; "the launch
// is december 1. freeze three days after" on 2026-12-04.
func anchoredOn(s, before string, at time.Time) string {
	if !mayHold(s, []string{" before", " after"}) || !mayHoldDate(before) {
		return s
	}
	own, _ := AbsoluteDates(s, at)
	m := reWeekdayAround.FindStringIndex(own)
	if m == nil {
		m = reOffset.FindStringIndex(own) // "freeze three days after"
	}
	if m == nil || reISODate.MatchString(own[:m[0]]) || !clauseEndsAt(own[m[1]:]) {
		return s // no day counted from another, or one counted from a day of its own
	}
	prev, _ := AbsoluteDates(before, at)
	days := reISODate.FindAllString(prev, -1)
	if len(days) == 0 {
		return s
	}
	out, _ := AbsoluteDates(days[len(days)-1]+" "+s, at)
	return strings.TrimPrefix(out, days[len(days)-1]+" ")
}

// reDayRange is a range of days said with one month's name at its end, or
// a day written with a dot as German and others write it: "from 6 to 8
// April", "16. to 27. Feb", "on 2. March".
var reDayRange = gate(lazyre.New(`(?i)\b(\d{1,2})\.?(\s*(?:to|till|until|-|–)\s*)(\d{1,2})\.?\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b)|\b(\d{1,2})\.\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b)`))

// dayRanges writes each day of such a range with its month ("6 April to
// 8 April"), and a dotted day without its dot, for reDayMonth to read.
func dayRanges(s string) string {
	return gated(s, reDayRange, monthHints, func(m string) string {
		g := reDayRange.FindStringSubmatch(m)
		if g[5] != "" {
			if _, ok := months[strings.ToLower(g[6])]; !ok {
				return m
			}
			return g[5] + " " + g[6]
		}
		if _, ok := months[strings.ToLower(g[4])]; !ok {
			return m // "6 to 8 marbles"
		}
		return g[1] + " " + g[4] + g[2] + g[3] + " " + g[4]
	})
}

// eventDay finds, in what follows "ten days before", the day of the
// event it names: "the hearing on 2027-01-14", "the hearing (2027-01-14)",
// "the hearing, hearing's 2027-01-14", "the launch; the launch is
// 2026-05-04". It returns the date's offsets in rest, or nil.
func eventDay(rest string) []int {
	r := asciiLower(rest)
	if !strings.HasPrefix(r, " the ") {
		return nil
	}
	d := reISODate.FindStringIndex(r)
	if d == nil || d[0] > 80 {
		return nil
	}
	w := strings.Fields(r[len(" the "):d[0]])
	np := 0 // the words of the event's name
	for np < len(w) && np < 3 && strings.Trim(w[np], ",;(") == w[np] && w[np] != "on" && w[np] != "is" && w[np] != "of" {
		np++
	}
	if np < len(w) && np < 3 && strings.TrimRight(w[np], ",;") != w[np] {
		np++ // "hearing," ends the name
	}
	if np == 0 {
		return nil
	}
	event := strings.TrimRight(w[np-1], ",;")
	tail := w[np:]
	switch {
	case len(tail) == 0 && !strings.HasSuffix(w[np-1], ",") && !strings.HasSuffix(w[np-1], ";"), // "the hearing 2027-01-14"
		len(tail) == 1 && (tail[0] == "on" || tail[0] == "(" || tail[0] == "is" || tail[0] == "="): // "the hearing on 2027-01-14"
		return d
	}
	if len(tail) > 0 && (tail[0] == "and" || tail[0] == "the") {
		tail = tail[1:]
	}
	if len(tail) > 0 && tail[0] == "the" {
		tail = tail[1:]
	}
	// the event named again, then its day: "hearing's", "hearing is".
	switch {
	case len(tail) == 1 && (tail[0] == event+"'s" || tail[0] == event+"’s" || tail[0] == event+":"),
		len(tail) == 2 && tail[0] == event && (tail[1] == "is" || tail[1] == "on" || tail[1] == "="),
		len(tail) == 3 && tail[0] == event && tail[1] == "is" && tail[2] == "on":
		return d
	}
	return nil
}

// rangeEnds puts a range's end after its start: "dec 20 through jan 3",
// each day read on its own, ends in the next year.
func rangeEnds(s string) string {
	isos := reISODate.FindAllStringIndex(s, -1)
	for k := 1; k < len(isos); k++ {
		a, b := isos[k-1], isos[k]
		switch strings.TrimSpace(asciiLower(s[a[1]:b[0]])) {
		case "-", "–", "to", "through", "thru", "until", "till":
		default:
			continue
		}
		from, err1 := time.Parse(time.DateOnly, s[a[0]:a[1]])
		to, err2 := time.Parse(time.DateOnly, s[b[0]:b[1]])
		if err1 != nil || err2 != nil || !to.Before(from) || !to.AddDate(1, 0, 0).After(from) {
			continue
		}
		s = s[:b[0]] + to.AddDate(1, 0, 0).Format(time.DateOnly) + s[b[1]:]
	}
	return s
}

// pluralPartOfDay reports the parts of days after a weekday, which make
// it every such day: " nights", " mornings".
func pluralPartOfDay(after string) bool {
	w := strings.Fields(asciiLower(after))
	for len(w) >= 2 && (w[0] == "and" || w[0] == "or" || w[0] == "&" || w[0] == "/") {
		if _, ok := weekdays[strings.Trim(w[1], ",")]; !ok {
			break
		}
		w = w[2:] // "saturday and sunday nights"
	}
	if len(w) == 0 {
		return false
	}
	switch strings.Trim(w[0], ",.;:!'’") {
	case "nights", "mornings", "evenings", "afternoons":
		return true
	}
	return false
}

// ordinalWord is the day of a month said as a word that reDayMonth reads,
// or 0. A switch, not a map: a package-level map is built at start-up.
func ordinalWord(w string) int {
	switch w {
	case "first":
		return 1
	case "second":
		return 2
	case "third":
		return 3
	case "fourth":
		return 4
	case "fifth":
		return 5
	case "sixth":
		return 6
	case "seventh":
		return 7
	case "eighth":
		return 8
	case "ninth":
		return 9
	case "tenth":
		return 10
	case "fifteenth":
		return 15
	case "twentieth":
		return 20
	case "thirtieth":
		return 30
	}
	return 0
}

// clauseEndsAt reports whether a "before" or "after" ends its clause where
// rest begins: it counts from a day said earlier, rather than from what
// follows it ("after deletion", "before the demo").
func clauseEndsAt(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	l := strings.ToLower(rest)
	return rest == "" || strings.ContainsRune(".,;:!?)—–-", rune(rest[0])) ||
		strings.HasPrefix(l, "and ") || strings.HasPrefix(l, "so ") || strings.HasPrefix(l, "because ") || strings.HasPrefix(l, "bc ") || strings.HasPrefix(l, "since ")
}

// dateSoonAfter is the day written out within the six words after a
// "before" or "after", in the same clause: what a weekday is counted
// from; "" when there is none.
func dateSoonAfter(after string) string {
	if i := strings.IndexAny(after, ",;!?"); i >= 0 {
		after = after[:i]
	}
	if i := strings.Index(after, ". "); i >= 0 {
		after = after[:i]
	}
	w := strings.Fields(after)
	for i := 0; i < len(w) && i < 6; i++ {
		if d := reISODate.FindString(w[i]); d != "" {
			return d
		}
	}
	return ""
}

// shoppingDay is the coming Black Friday (the day after the fourth
// Thursday of November), or Cyber Monday, three days later.
func shoppingDay(at time.Time, monday bool) time.Time {
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	for y := at.Year(); ; y++ {
		nov := time.Date(y, time.November, 1, 0, 0, 0, 0, at.Location())
		t := nov.AddDate(0, 0, (int(time.Thursday)-int(nov.Weekday())+7)%7+21+1)
		if monday {
			t = t.AddDate(0, 0, 3)
		}
		if !t.Before(today) {
			return t
		}
	}
}
