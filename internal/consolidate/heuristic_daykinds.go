package consolidate

import (
	"regexp"
	"strings"
	"sync"
	"time"
)

// This file reads the days a memory names that are no one day to date
// (a holiday in a list of peak days, "Monday to Wednesday" every week, a
// quoted example), and the days it tells from an event it dates itself
// ("two days before the launch").

// maskGenericDays hides the days a note names as kinds of day, not as
// one day: a holiday no time word leads ("Before a peak day (Valentine's,
// Christmas Eve)", "Christmas Eve and the days before it are our third
// peak"; not "by Christmas Eve"), and a span of weekdays no word ties to
// one week ("Petalpost has him Monday to Wednesday"; not "next Monday to
// Wednesday").
func maskGenericDays(s string) (string, []string) {
	var kept []string
	// "the Tuesday before that", with no day written before it: counted
	// from what the text does not date.
	s = replaceAllIndex(s, reBeforeThat(), func(m string, at int) string {
		if isoDate.MatchString(s[:at]) {
			return m
		}
		kept = append(kept, m)
		return mark(genericMark, len(kept)-1)
	})
	out := reKindOfDay().ReplaceAllStringFunc(s, func(m string) string {
		g := reKindOfDay().FindStringSubmatch(m)
		lead := strings.ToLower(strings.TrimSpace(g[1]))
		switch lead {
		case "this", "next", "coming", "following":
			return m
		case "before", "by", "until", "till", "after", "on", "over", "for", "around", "through", "thru", "at", "from", "the":
			if !weekdaySpan(g[2]) {
				return m // "by Christmas Eve": a day
			}
		}
		if strings.Contains(g[2], "-") && strings.ContainsAny(g[2], "0123456789") {
			return m // a span with its date written: "Friday to Sunday 2026-05-17"
		}
		if weekdaySpan(g[2]) && reThisWeek().MatchString(s) {
			return m // "Monday to Wednesday in this two-week sprint"
		}
		kept = append(kept, g[2])
		return g[1] + mark(genericMark, len(kept)-1)
	})
	return out, kept
}

var reBeforeThat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bthe\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:before|after)\s+(?:that|it)\b`)
})

// replaceAllIndex is ReplaceAllStringFunc, with each match's offset in s.
func replaceAllIndex(s string, re *regexp.Regexp, f func(m string, at int) string) string {
	var b strings.Builder
	last := 0
	for _, loc := range re.FindAllStringIndex(s, -1) {
		b.WriteString(s[last:loc[0]])
		b.WriteString(f(s[loc[0]:loc[1]], loc[0]))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// reKindOfDay is a holiday or a span of weekdays, with the word before it.
var reKindOfDay = sync.OnceValue(func() *regexp.Regexp {
	wd := `(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?`
	return regexp.MustCompile(`(?i)(\b[a-z]+\s+|^|[^\w\s]\s*)((?:christmas eve|christmas day|new year'?s eve|new year'?s day)\b|\b` + wd + `\s+(?:to|through|thru|and|or|&|-|–)\s+` + wd + `\b(?:\s+\(?\d{4}-\d\d-\d\d)?)`)
})

// reThisWeek is a week or a sprint a text names as one: "this sprint",
// "next week".
var reThisWeek = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:this|next|coming|current)\s+(?:[\w-]+\s+)?(?:week|sprint)\b`)
})

// weekdaySpan reports whether a kind of day reKindOfDay found is a span
// of weekdays, not a holiday.
func weekdaySpan(m string) bool {
	l := strings.ToLower(m)
	return !strings.Contains(l, "christmas") && !strings.Contains(l, "new year")
}

// reQuoted is a short span in double quotes.
var reQuoted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"[^"\n]{1,80}"|“[^”\n]{1,80}”`) })

// reFromEvent is a day told from an event, after what starts or is due
// then: "starts two days before the launch" (not "leave a week before the
// launch for review", a length of time).
var reFromEvent = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:starts?|begins?|ends?|opens?|closes?|is|are|due|runs?|happens?|lands?|goes|go|on|by|from|until|till)\s+(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,2})\s+(day|week)s?\s+(before|after|ahead of|prior to)\s+the\s+([a-z][a-z-]{3,})\b`)
})

// fromEvent dates the days s tells from an event that text dates itself
// ("Winter Fest launches Thu 2026-12-10. Code freeze starts two days
// before the launch": 2026-12-08). The event's day must be the one ISO
// date of a sentence that names it (its first five letters) and tells no
// past ("first planned for 2026-12-03, slipped"); an event said with what
// it is of ("the release of 4.2") is left as written.
func fromEvent(s, text string) string {
	return reFromEvent().ReplaceAllStringFunc(s, func(m string) string {
		g := reFromEvent().FindStringSubmatch(m)
		at := strings.Index(m, g[1])
		phrase := m[at:]
		if i := strings.Index(s, m); i >= 0 && strings.HasPrefix(strings.ToLower(s[i+len(m):]), " of ") {
			return m // "the release of 4.2": which release, this text may not say
		}
		event := []rune(strings.ToLower(g[4]))
		event = event[:min(5, len(event))]
		var when string
		for _, sent := range sentences(text) {
			l := strings.ToLower(sent)
			if strings.Contains(l, strings.ToLower(phrase)) || !strings.Contains(l, string(event)) {
				continue
			}
			ds := isoDate.FindAllString(sent, -1)
			if len(ds) != 1 || when != "" && when != ds[0] || rePastPlan().MatchString(sent) {
				return m
			}
			when = ds[0]
		}
		t, err := time.Parse(time.DateOnly, when)
		if err != nil {
			return m
		}
		n := spanDays(g[1], g[2])
		if strings.EqualFold(g[3], "after") {
			n = -n
		}
		return m[:at] + t.AddDate(0, 0, -n).Format(time.DateOnly) + " (" + phrase + ")"
	})
}

// rePastPlan is a sentence that tells what was, not what is planned: "went
// out", "first planned for", "slipped".
var rePastPlan = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:went|was|were|had|slipped|originally|first planned|used to|postponed|moved from)\b`)
})
