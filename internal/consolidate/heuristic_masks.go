package consolidate

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What the date rewrite leaves alone: routines, calendars written out,
// each week's or month's own days; and the months periods run to.

// maskRoutineWeekdays is maskBareWeekdays in each sentence that tells a
// recurrence, sentences read across hard-wrapped lines.
func maskRoutineWeekdays(s string) (string, []string) {
	return maskInSentences(s, reClauseEnd(), reRecurs(), bareWeekdaysInto)
}

// maskInSentences hides, with mask, what each sentence (ended as end
// reads it) that which matches should not have dated.
func maskInSentences(s string, end, which *regexp.Regexp, mask func(seg string, kept *[]string) string) (string, []string) {
	var kept []string
	var b strings.Builder
	last := 0
	for _, loc := range append(end.FindAllStringIndex(s, -1), []int{len(s), len(s)}) {
		seg := s[last:loc[1]]
		if which.MatchString(seg) {
			seg = mask(seg, &kept)
		}
		b.WriteString(seg)
		last = loc[1]
	}
	return b.String(), kept
}

// maskWith hides what re matches from the date rewrite behind marks of
// its own kind, and unmaskWith puts it back: each kind of mask nests in
// the others without one's marks taken for another's.
func maskWith(s string, re *regexp.Regexp, kind rune) (string, []string) {
	var kept []string
	return maskAll(s, re, kind, &kept), kept
}

// maskAll puts a mark of one kind for each match of re, numbered after
// those kept before.
func maskAll(s string, re *regexp.Regexp, kind rune, kept *[]string) string {
	return re.ReplaceAllStringFunc(s, func(m string) string {
		*kept = append(*kept, m)
		return mark(kind, len(*kept)-1)
	})
}

func unmaskWith(s string, kept []string, kind rune) string {
	for i, k := range kept {
		s = strings.Replace(s, mark(kind, i), k, 1)
	}
	return s
}

// mark is the placeholder of kind for the i-th thing hidden.
func mark(kind rune, i int) string { return string(kind) + strconv.Itoa(i) + string(kind) }

// The kinds of marks, private-use runes no date reading touches.
const (
	weekdayMark = '\uE001' // a weekday no word ties to one week
	frameMark   = '\uE002' // a day of a calendar written out
	weekOwnMark = '\uE004' // each week's own: "next week's roster"
	yearMark    = '\uE006' // days of every year: "the last Sunday of March"
	nextMark    = '\uE007' // each run's next, in a weekly routine
	monthMark   = '\uE008' // each month's day beside a monthly rate
	quoteMark   = '\uE009' // what a rule quotes: an example, no day
	genericMark = '\uE00A' // a kind of day: "Christmas Eve" in a list of peaks, "Monday to Wednesday"
)

// maskMonthlyDays hides "the 1st" in a sentence that tells a rate per
// month ("3 free stories per calendar month, reset on the 1st"): each
// month's first, no one day.
func maskMonthlyDays(s string) (string, []string) {
	if !rePerMonth().MatchString(s) {
		return s, nil
	}
	return maskInSentences(s, reSentenceStop(), rePerMonth(), func(seg string, kept *[]string) string {
		return maskAll(seg, reOnTheNth(), monthMark, kept)
	})
}

// weekdaysRecur reports whether a memory names weekdays as a routine:
// "on Tuesdays", "every Monday", "weekly on Friday".
func weekdaysRecur(it Item) bool {
	if !mayNameWeekday(it.Description) && !mayNameWeekday(it.Body) {
		return false // most memories: every reading below needs a weekday
	}
	text := reAttributive().ReplaceAllString(it.Description+"\n"+it.Body, "$1")
	if slices.ContainsFunc(reWeekdayNamed().FindAllString(text, -1), namedRoutine) {
		return true // "the Tuesday CAB; RFC in by Monday noon": Monday of each week
	}
	if sprintShape(text) {
		return true // "sprints are two weeks, Monday to the Friday of the following week"
	}
	return rePluralWeekday().MatchString(text) || reRecurs().MatchString(text) && reBareWeekday().MatchString(text)
}

// mayNameWeekday reports whether s holds the first three letters of a
// weekday, in any case: a cheap test before the weekday patterns.
func mayNameWeekday(s string) bool {
	lower := strings.ToLower(s)
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		if strings.Contains(lower, d) {
			return true
		}
	}
	return false
}

// sprintShape reports whether text says what days a sprint runs:
// "sprints are two weeks, Monday to the Friday of the following week".
func sprintShape(text string) bool {
	for _, sent := range sentences(text) {
		if reSprintLength().MatchString(sent) && reWeekdaySpan().MatchString(sent) && strings.Contains(strings.ToLower(sent), "sprints") {
			return true
		}
	}
	return false
}

// namedRoutine reports whether a weekday and the words after it that
// reWeekdayNamed found name a routine: "the Monday deploy train", "the
// Tuesday 14:00 Change Advisory Board"; not "the Monday after launch".
func namedRoutine(m string) bool {
	g := reWeekdayNamed().FindStringSubmatch(m)
	if g == nil {
		return false
	}
	ws := g[2:] // after the adjective before the weekday
	for i := 0; i < len(ws); i++ {
		w := strings.ToLower(ws[i])
		if (w == "and" || w == "or") && i+1 < len(ws) && strings.EqualFold(weekdayOf(ws[i+1]).String(), ws[i+1]) {
			i++ // "the Tuesday and Thursday standups"
			continue
		}
		switch w {
		case "", "before", "after", "the", "a", "an", "of", "at", "in", "on", "by", "for", "to", "and", "or", "with", "from", "until", "when":
			return false // "the Tuesday before the demo": a day, said of the demo
		}
		if routineNoun(w) {
			return true
		}
	}
	return false
}

// maskBareWeekdays puts a placeholder for each weekday of s that no word
// ties to one week ("on Friday"; not "next Friday", "this Friday"), and
// unmask puts them back.
func maskBareWeekdays(s string) (string, []string) {
	var kept []string
	return bareWeekdaysInto(s, &kept), kept
}

// bareWeekdaysInto is maskBareWeekdays, numbering its marks after those
// kept before.
func bareWeekdaysInto(s string, kept *[]string) string {
	var b strings.Builder
	last := 0
	for _, m := range reBareWeekday().FindAllStringIndex(s, -1) {
		before := strings.Fields(strings.ToLower(s[max(0, m[0]-12):m[0]]))
		if len(before) > 0 && slices.Contains([]string{"next", "this", "last", "coming", "following", "previous"}, before[len(before)-1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(maskMark(len(*kept)))
		*kept = append(*kept, s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func unmask(s string, kept []string) string { return unmaskWith(s, kept, weekdayMark) }

// maskMark is the placeholder of the i-th weekday hidden.
func maskMark(i int) string { return mark(weekdayMark, i) }

// throughMonths dates the months periods run to ("July through
// September") as their last days; not "until May the 3rd".
func throughMonths(s string, at time.Time) string {
	var b strings.Builder
	last := 0
	for _, g := range reThroughMonth().FindAllStringSubmatchIndex(s, -1) {
		after := g[5] // the month's end, or its year's
		if g[6] >= 0 {
			after = g[7]
		}
		rest := strings.Fields(strings.TrimLeft(s[after:], ". "))
		e, ok := periodEnd([]string{s[g[0]:g[1]], s[g[4]:g[5]], sub(s, g, 3)}, at)
		switch {
		case !ok || e < day(at) || inClause(s, g[0], reWeWere()):
			continue // "until March 2026 events came over ActiveMQ", written in April
		case len(rest) > 0 && rest[0][0] >= '0' && rest[0][0] <= '9':
			continue // "until Nov. 3"
		case len(rest) > 1 && strings.EqualFold(rest[0], "the") && rest[1][0] >= '0' && rest[1][0] <= '9':
			continue // "until May the 3rd"
		}
		b.WriteString(s[last:g[0]])
		b.WriteString(s[g[2]:g[3]] + " " + e + s[g[8]:g[9]])
		last = g[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// pastClause reports whether the clause of s holding position i tells of
// the past or of what holds now.
func pastClause(s string, i int) bool { return inClause(s, i, rePastClause()) }

// inClause reports whether re matches the clause of s holding position i.
func inClause(s string, i int, re *regexp.Regexp) bool {
	start, end := 0, len(s)
	for _, loc := range reClauseEnd().FindAllStringIndex(s, -1) {
		if loc[1] <= i {
			start = loc[1]
		} else if loc[0] >= i {
			end = loc[0]
			break
		}
	}
	return re.MatchString(s[start:end])
}

// sub is submatch n of a FindStringSubmatchIndex result, or "".
func sub(s string, loc []int, n int) string {
	if loc[2*n] < 0 {
		return ""
	}
	return s[loc[2*n]:loc[2*n+1]]
}

// maskYearFramed hides the days and months of each sentence or line that
// gives a year with one of them, in a text that gives years with two at
// least: "autumn term 2 Sep to 18 Dec 2026, half-term 26 to 30 Oct; spring
// term 5 Jan to 26 Mar 2027" is a calendar written out, each day of it
// absolute already ("Booked on 2 Feb 2026, the pen test runs 9 to 13
// March" is not). unmaskWith with frameMark puts them back.
func maskYearFramed(s string) (string, []string) {
	if len(reNamedDate().FindAllStringIndex(s, 2)) < 2 {
		return s, nil
	}
	return maskInSentences(s, reSentenceEnd(), reNamedDate(), func(seg string, kept *[]string) string {
		return maskAll(seg, reFramedDay(), frameMark, kept)
	})
}
