package consolidate

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// expire plans an expire operation for every project memory whose stated
// period has ended before now: all the ends it names have passed. An end
// is a date after until, by, before, through…, the end of a range, a start
// plus how long it lasts, or the day of a one-off event (a freeze, a
// window, a deadline) that does not recur. A date that only starts
// something ends nothing.
func (p *planner) expire() {
	today := day(p.in.Now)
	for _, it := range p.items {
		if it.Type != "project" || it.Pinned || it.ReadOnly || it.SupersededBy != "" || p.retired[it.File] {
			continue
		}
		body := it.Body
		if it.dated != "" {
			body = it.dated
		}
		text := isoDates(absoluteIn(it.Description, it.Item) + "\n\n" + body)
		if recurs(text) && !boundedFirst(isoDates(absoluteIn(it.Description, it.Item))) {
			// "Dependency audit happens every three months; the next one is
			// due by …": its dates come back. ("Engineering owes the quarterly
			// access review export" names a thing; nothing recurs. A routine
			// until a day ends then: "until the fix ships (2026-10-16), run
			// it every Monday".)
			continue
		}
		// "Postgres 16 upgrade window": the name says what the description dates.
		eventName := reEventName().MatchString(it.Name)
		isoDesc := isoDates(absoluteIn(it.Description, it.Item))
		last, quoteOf := "", ""
		note := func(end, s string) {
			if end > last {
				last, quoteOf = end, s
			}
		}
		if !it.Created.IsZero() {
			for _, s := range sentences(unwrapped(it.Description + "\n\n" + it.Body)) {
				if reObliges().MatchString(s) {
					continue
				}
				if pastWithin(s) {
					continue // "all signed within two days": how long it took
				}
				for _, m := range reWithin().FindAllStringSubmatch(s, -1) {
					note(day(it.Created.AddDate(0, 0, spanDays(m[1], m[2]))), s)
				}
			}
			for _, s := range sentences(unwrapped(it.Description + "\n\n" + it.Body)) {
				if reAfterEach().MatchString(s) {
					continue
				}
				for _, m := range reForNext().FindAllStringSubmatch(s, -1) {
					note(day(it.Created.AddDate(0, 0, spanDays(m[1], m[2]))), s)
				}
				for _, m := range reQuarterBudget().FindAllStringSubmatch(s+"\n"+quarterName(it.Name), -1) {
					// "Q3 Twilio SMS budget is £1,500", "the budget for this
					// quarter": it ends with its quarter.
					q := cmp.Or(strings.ToLower(m[1]+m[3]+m[5]+m[7]), fmt.Sprintf("q%d", (int(it.Created.Month())+2)/3))
					if e, ok := periodEnd([]string{"", q, m[2] + m[4] + m[6] + m[8]}, it.Created); ok && e >= day(it.Created) && !pastNarrative(s, it.Created) {
						note(e, s)
					}
				}
				if !reOurSpan().MatchString(s) || reCountedFrom().MatchString(it.Description+"\n"+it.Body) {
					continue // "a 30-day trial, counted from the first dispatch": each customer's own
				}
				for _, m := range reSpanOf().FindAllStringSubmatch(s, -1) {
					from := day(it.Created)
					if d := reStartDate().FindStringSubmatch(isoDates(s)); d != nil {
						from = d[1] // "a 30-day trial from 2026-06-01"
					}
					note(plusDays(from, spanDays(m[1], m[2])), s)
				}
			}
		}
		sents := sentences(text)
		if days := reAnyDate().FindAllString(text, -1); !it.Created.IsZero() {
			for _, s := range sents {
				// "For three weeks after launch, every Sev2 page also goes to
				// Priya", the launch dated: a while from that day.
				for _, m := range reSpanAfter().FindAllStringSubmatch(s, -1) {
					from := m[3]
					if from == "" && len(slices.Compact(slices.Sorted(slices.Values(days)))) == 1 {
						from = days[0]
					}
					// The event still ahead when the memory was written: "goes
					// live 2026-10-10", written the day before; not a policy
					// agreed that day ("flags are removed two weeks after
					// release").
					if from != "" && from > day(it.Created) && !reAfterEach().MatchString(s) {
						note(plusDays(from, spanDays(m[1], m[2])), s)
					}
				}
			}
		}
		for i, s := range sents {
			next := ""
			if i+1 < len(sents) {
				next = sents[i+1]
			}
			boundary := map[string]bool{} // "anything before 2026-09-27": which data, not until when
			for _, m := range reDataBefore().FindAllStringSubmatch(s, -1) {
				boundary[m[1]] = true
			}
			for _, m := range reEnd().FindAllStringSubmatch(s, -1) {
				if boundary[m[2]] && strings.HasPrefix(strings.ToLower(m[0]), "before") {
					continue
				}
				if m[5] != "" && reNowThen().MatchString(s+" "+next) {
					continue // "until the upgrade on … we ran them by hand; the pipeline runs them now"
				}
				end := m[2] + m[3] + m[5] + m[6] + m[7]
				if m[4] != "" {
					end = plusDays(m[4], 6)
				}
				note(end, s)
			}
			for _, m := range reStartFor().FindAllStringSubmatch(s, -1) {
				note(plusDays(m[1], spanDays(m[2], m[3])), s)
			}
			past := pastNarrative(s, it.Created) // "we moved production off Heroku at the … cutover"
			if !past {
				for _, m := range reDateRange().FindAllStringSubmatch(s, -1) {
					note(m[1], s) // "the pen test runs 2026-09-14 to 2026-09-18"
				}
			}
			if (reEvent().MatchString(s) || eventName && strings.Contains(isoDesc, s)) && !rePastEvent().MatchString(s) && !past && !reNowThen().MatchString(s+" "+next) {
				starts := map[string]bool{}
				for _, m := range reStartDate().FindAllStringSubmatch(s, -1) {
					starts[m[1]] = true
				}
				for _, d := range reAnyDate().FindAllString(s, -1) {
					if !starts[d] && !boundary[d] && (it.Created.IsZero() || d > day(it.Created)) {
						note(d, s) // not "2026-10-13's outage", told the day after: history
					}
				}
			}
		}
		// The moment the description names in words relative to its
		// writing, ahead then: "I'm on call for Dana this Thursday and
		// Friday", "demo next Thursday". Once it has passed, so has the
		// memory; not a start ("starting next Monday, PRs need two
		// reviews"), what holds since, nor a week's routine ("no deploys
		// on Fridays … over the weekend").
		if !it.Created.IsZero() && !reStartDate().MatchString(isoDesc) && !reNowThen().MatchString(isoDesc) && !weekdaysRecur(it.Item) {
			written := isoDates(it.Description)
			for _, d := range reAnyDate().FindAllString(isoDesc, -1) {
				if !strings.Contains(written, d) && d > day(it.Created) {
					note(d, isoDesc)
				}
			}
		}
		if last == "" || last >= today {
			continue
		}
		p.add(Op{Kind: Expire, Files: []string{it.File}, Retire: []string{it.File}, Lossless: true,
			Reason:   fmt.Sprintf("%s states a period that ended on %s, before today (%s): it is archived, not deleted.", it.File, last, today),
			Evidence: []string{quote(quoteOf)}})
	}
}

// pastWithin reports whether a span is told of the past: "all signed
// within two days"; not "Legacy SQL is disabled within six weeks".
func pastWithin(s string) bool {
	for _, m := range rePastWithin().FindAllStringSubmatch(s, -1) {
		switch strings.ToLower(m[1]) {
		case "is", "are", "be", "been", "get", "gets", "getting", "will", "must", "should", "to":
		default:
			return true
		}
	}
	return false
}

var rePastWithin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:^|\b(\w+)\s+)\w+ed\s+within\b`) })

// reSpanAfter is a while after a day or a launch: "for three weeks after
// launch", "two weeks after 2026-10-10".
var reSpanAfter = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})\s+(day|week|month)s?\s+(?:after|following|past)\s+(?:the\s+)?(?:(\d{4}-\d{2}-\d{2})|(?:[\w-]+\s+)?(?:launch|go-live|go\s+live|cutover|cut-over|release|rollout|roll-out|migration|switch-?over|upgrade)\b)`)
})

// boundedFirst reports a (dated) description that gives the while the
// whole thing holds before any routine in it: "the pilot runs for the next
// two sprints, weekly check-in" ends with its sprints, "dual-writes until
// 2026-09-15; compare daily counts" with that day; "every Monday we plan
// for the next two weeks" recurs.
func boundedFirst(desc string) bool {
	if strings.Contains(strings.ToLower(desc), "roll") {
		return false // "the window rolls forward nightly"
	}
	f := reForNext().FindStringIndex(desc)
	if f != nil && plansAhead(desc[:f[0]]) {
		return false // "can book berths for the next 30 days", "plans capacity for the next two weeks": a window that rolls
	}
	if f == nil {
		f = reUntilDate().FindStringIndex(desc) // "dual-writes until the cutover on 2026-09-15; compare daily counts"
	}
	if f == nil {
		return false
	}
	r := reRecurs().FindStringIndex(desc)
	return r == nil || r[0] > f[1]
}

// plansAhead reports a clause that ends on a verb of looking ahead, at
// most two words before the while it names: "book berths", "plans
// capacity".
func plansAhead(before string) bool {
	w := strings.Fields(strings.ToLower(before))
	for i := max(0, len(w)-3); i < len(w); i++ {
		switch strings.TrimSuffix(strings.TrimSuffix(w[i], "s"), "ing") {
		case "book", "plan", "forecast", "schedule", "cover", "show", "list", "look", "reserve", "hold", "predict", "project":
			return true
		}
	}
	return false
}

// quarterName is a memory's name when it names an allowance for a quarter
// ("Extra vCPU quota for Q3"), else "": "Q1 GPU spend overrun" names a
// lesson.
func quarterName(name string) string {
	if reQuarterAllowance().MatchString(name) {
		return name
	}
	return ""
}

var reQuarterAllowance = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:budget|quota|allowance|credits?)\s+(?:for|in)\s+q[1-4]\b`)
})

// reForNextFirst is a sentence that opens with the while it holds: "For the
// next two sprints the nightly replan runs at 03:00".
var reForNextFirst = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W*(?:for|over|during)\s+the\s+(?:next|coming)\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})\s+(?:day|week|month|sprint)s?\b`)
})

// reQuarterBudget is an allowance for one quarter: "Q3 budget", "this
// quarter's SMS budget", "the budget for Q3".
var reQuarterBudget = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(q[1-4])(?:\s+(\d{4}))?|this\s+quarter)(?:'s)?\s+(?:[\w-]+\s+){0,2}?(?:budget|quota|allowance|spend|headcount|credits?)\b|\b(?:budget|quota|allowance|spend|credits?)(?:\s+(?:cap|limit|ceiling))?\s+(?:(?:for|in|of)\s+)?(?:this\s+quarter\s+\((q[1-4])(?:\s+(\d{4}))?\)|(q[1-4])(?:\s+(\d{4}))?|this\s+quarter)\b` +
		// "approved for Q3 only"
		`|\bfor\s+(q[1-4])(?:\s+(\d{4}))?\s+only\b`)
})

// recurs reports whether a memory tells of something that comes back: a
// sentence with a recurrence that no end bounds. "Branch is cut every
// Tuesday" recurs; "until the fix ships (2026-10-16), run it every Monday"
// ends then; "the quarterly access review export" names a thing.
func recurs(text string) bool {
	for _, s := range sentences(text) {
		// "For the next two sprints the nightly replan runs at 03:00": a
		// routine for a while (not "plans capacity for the next two weeks",
		// a window that rolls).
		if reRecurs().MatchString(reAttributive().ReplaceAllString(s, "$1")) && !reUntilDate().MatchString(s) && !reForNextFirst().MatchString(s) && !(reObligedBy().MatchString(s) && !reNextOne().MatchString(s)) {
			return true
		}
	}
	return false
}

// pastNarrative reports whether a sentence tells what happened ("orders
// 2026-01-01 to 2026-03-31 were reprocessed", "we moved production off
// Heroku at the 2026-09-26 cutover"): told in the past, of dates no later
// than the memory's writing. "We moved the cutover to 2026-12-08", written
// in November, tells of a day ahead.
func pastNarrative(s string, created time.Time) bool {
	if !reToldOfThePast().MatchString(s) && !reWeDid().MatchString(s) {
		return false
	}
	for _, d := range reAnyDate().FindAllString(s, -1) {
		if !created.IsZero() && d > day(created) {
			return false
		}
	}
	return true
}

// inSpanDates is the days "in two weeks" and the like name in s, from at.
func inSpanDates(s string, at time.Time) map[string]bool {
	out := map[string]bool{}
	for _, m := range reInSpan().FindAllStringSubmatch(s, -1) {
		out[day(at.AddDate(0, 0, spanDays(m[1], m[2])))] = true
	}
	return out
}

// spanDays is how many days "two weeks" and the like last: a count
// (a word or digits) of days, weeks (7) or months (30).
func spanDays(count, unit string) int {
	n, ok := smallNumber[strings.ToLower(count)]
	if !ok {
		n, _ = strconv.Atoi(count)
	}
	switch strings.ToLower(unit) {
	case "fortnight":
		n *= 14
	case "week":
		n *= 7
	case "month":
		n *= 30
	case "sprint":
		// Sprints run one to four weeks: "for the next two sprints" is
		// over, whatever their length, 56 days after it was said. An
		// expiry reads the latest end; no date is written from it.
		n *= 28
	}
	return n
}

var smallNumber = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "twelve": 12}

// pastMonthDay reports whether m, a day given by its month and day with
// no year, falls in the 180 days up to at (the writing).
func pastMonthDay(m string, at time.Time) bool {
	var day, month int
	for _, f := range strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return r == ' ' || r == '.' || r == ',' }) {
		if n, err := strconv.Atoi(strings.TrimRight(f, "stndrh")); err == nil {
			if n > 31 {
				return false // a year was given: reKeepAsIs's, not this
			}
			day = n
		} else if t, err := time.Parse("Jan", strings.ToUpper(f[:1])+f[1:min(3, len(f))]); err == nil && len(f) >= 3 {
			month = int(t.Month())
		}
	}
	if day == 0 || month == 0 {
		return false
	}
	written := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, at.Location())
	t := time.Date(at.Year(), time.Month(month), day, 0, 0, 0, 0, at.Location())
	if t.After(written) {
		// Ahead in the year of the writing, unless only just gone in the
		// year before ("30 December", written on 2 January).
		t = t.AddDate(-1, 0, 0)
		if written.Sub(t) > 60*24*time.Hour {
			return false
		}
	}
	return written.Sub(t) <= 180*24*time.Hour && t.Month() == time.Month(month)
}

// routineNoun reports a word that, after "the Monday", names a team's
// routine: "the Monday deploy train", "our Friday demo", "the Tuesday
// release". Any other word leaves a day: "the Saturday maintenance
// window" (one event), "the Monday right after launch".
func routineNoun(w string) bool {
	switch strings.TrimSuffix(w, "s") {
	case "deploy", "release", "train", "standup", "stand-up", "sync", "meeting", "call", "demo", "review", "retro",
		"planning", "cut", "build", "report", "digest", "batch", "job", "run", "rota", "shift", "huddle", "check-in",
		"triage", "backup", "newsletter", "cadence", "rollout", "ship", "board", "cab", "committee", "council", "email", "mail", "mailout", "export", "refresh", "import", "upload",
		"publication", "payroll", "delivery", "pickup", "handover", "roster":
		return true
	}
	return false
}

// plusDays is the date n days after date d, or d when it is no date.
func plusDays(d string, n int) string {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return day(t.AddDate(0, 0, n))
}
