package consolidate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/extract"
)

const weekdayRE = `(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
const monthRE = `(?:jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)`

var (
	// Dates already absolute, or recurring, that AbsoluteDates would
	// rewrite again: "Friday 2026-03-06", "March 6, 2026", "every Monday".
	reKeepAsIs = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b` + weekdayRE + `,?\s+\(?\d{4}-\d{2}-\d{2}\b|\b` + monthRE + `\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRE + `,?\s+\d{4}\b|\b(?:every|each|on)\s+` + weekdayRE + `s\b|\b(?:every|each|a)\s+` + weekdayRE + `\b|\b` + weekdayRE + `s\b|\b(?:every|each)\s+(?:day|week|month|quarter)\b|\bthe\s+\d{1,2}(?:st|nd|rd|th)(?:\s*(?:,|and|&)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th))*\s+of\s+(?:each|every|the)\s+(?:month|quarter|year)\b` +
			// a lead time, not a day: "renew at least 30 days before"
			`|\b(?:at\s+least|at\s+most|no\s+later\s+than|no\s+earlier\s+than|up\s+to)\s+\w+\s+(?:days?|weeks?|months?)\s+(?:before|after|ahead|prior)\b` +
			// a rate, not a day: "three late cancels or no-shows in 90 days",
			// "more than 5 failed logins in a day"
			`|\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:[\w-]+\s+){0,2}?[\w-]+s?\s+or\s+(?:[\w-]+\s+){0,2}?[\w-]+s\s+in\s+(?:a|an|one|\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:hour|day|week|month)s?\b` +
			// how long something took, told of the past: "the crash reached
			// all users in one day"
			`|\b(?:reached|took|finished|completed|happened|ran|went|spread|hit|filled|grew|doubled|tripled)\b[^.;,]{0,40}?\bin\s+(?:a|an|one|\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:hour|day|week|month)s?\b` +
			`|\b(?:more\s+than|at\s+least|at\s+most|no\s+more\s+than|up\s+to|over|under|max(?:imum)?\s+(?:of\s+)?)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:[\w-]+\s+){0,3}?in\s+(?:a|an|one|\d+|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(?:hour|day|week|month)s?\b`)
	})
	// A weekday with no word that ties it to one week: "on Friday".
	reBareWeekday = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:on\s+|a\s+)?(?:` + weekdayRE + `|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b`)
	})
	// "in two weeks" names a day; it is a deadline only when something in
	// its clause is to be done by then.
	reInSpan = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bin\s+(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})\s+(day|week|fortnight|month)s?\b`)
	})
	reChangeBy = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(goes|go|moves?|switch(?:es)?|changes?|becomes?|bumps?|starts?|begins?|lands?|happens?|launch(?:es)?|opens?|flips?|rolls?\s+out|takes?\s+effect|kicks?\s+in)\b((?:[^.;:!?]|[.:]\d){0,60}?)\bby\s+(\d{4}-\d{2}-\d{2})\b`)
	})
	reOpeningBy = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[.;!?]\s+)(By|by)\s+(\d{4}-\d{2}-\d{2})\b`)
	})
	reStartsBy = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(starts?|starting|begins?|beginning|happens?|lands?|is|are)\s+by\s+(\d{4}-\d{2}-\d{2})\b`)
	})
	reEndNextMonth = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:the\s+)?end\s+of\s+next\s+month\b`)
	})
	// A start and how long it lasts: "starts 2026-06-08 and lasts a week".
	reStartFor = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:starts?|starting|begins?|beginning|from)\s+(?:on\s+)?(?:` + weekdayRE + `,?\s+)?(\d{4}-\d{2}-\d{2})\b.*?\b(?:lasts?|lasting|runs?|for)\s+(?:about\s+)?(a|one|two|three|four|\d+)\s+(day|week|month)s?\b`)
	})
	// A date a start word governs: no end.
	reStartDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:starts?|starting|started|begins?|beginning|began|opens?|opening|opened|kicks?\s+off|from|since|as of|effective|after)\s+(?:on\s+|at\s+|in\s+)?(?:\w{3,9},?\s+)?(\d{4}-\d{2}-\d{2})\b`)
	})
	reAnyDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`) })
	// A weekday said of the past: "since Monday", "since last Tuesday",
	// "last Friday".
	rePastWeekday = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(since)\s+(last\s+)?|(last)\s+)` + `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?:\s*,?\s*\(?\d{4}-\d{2}-\d{2})?`)
	})
	// A sentence that tells what happened to what a range names: "orders
	// 2026-01-01 to 2026-03-31 were reprocessed", "… are gone for good".
	reToldOfThePast = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:was|were|got|has\s+been|have\s+been|had|gone|went|happened)\b`)
	})
	// Someone's doing, told of the past: "we moved production off Heroku
	// at the … cutover".
	reWeDid = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:we|i|they|he|she)\s+(?:\w+ed|ran|took|cut|did|made)\b`)
	})
	rePluralWeekday = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b` + weekdayRE + `s\b`)
	})
	// Days of one month: "Sept 14–18", "March 3 to 7".
	reDayRange = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(` + monthRE + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*(?:–|—|-|to|through|until)\s*(\d{1,2})(?:st|nd|rd|th)?\b`)
	})
	// The year a range gives after it ("Sept 14–18, 2026"), or a digit
	// run on from its last day.
	reYearAfter = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^,?\s*(\d{4})\b|^\d`) })
	// Two dates of one period: "2026-09-14 to 2026-09-18".
	reDateRange = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\s*(?:to|–|—|through|until)\s*(?:\w+day,?\s+)?(\d{4}-\d{2}-\d{2})\b`)
	})
	reNextSprint   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bnext\s+sprint\b`) })
	reSprintLength = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(one|two|three|four|[1-4])[- ]week\s+sprints?|sprints?\s+(?:are|last|run)\s+(one|two|three|four|[1-4])\s+weeks?)\b`)
	})
	reSprintStart = sync.OnceValue(func() *regexp.Regexp {
		// "Sprint 23 kicked off 2026-11-16" is the current one; "Sprint 24
		// starts …" may be the next.
		return regexp.MustCompile(`(?i)\b(?:(?:(?:current|this)\s+(?:sprint|one)|this\s+one)\s+(?:started|began|starts|begins|kicked\s+off)|sprint\s+\d+\s+(?:started|began|kicked\s+off))\s+(?:on\s+)?(?:\w+day,?\s+|\x{E001}\d+\x{E001},?\s+)?(?:the\s+)?(\d{4}-\d{2}-\d{2})\b`)
	})
	// Words of a one-off event whose day is its end.
	reEvent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:freeze|window|maintenance|downtime|outage|cutover|cut-over|deadline|blackout|embargo|moratorium|no\s+(?:deploys|merges|releases|syncs|upgrades|deployments)|(?:don't|do\s+not)\s+(?:merge|deploy|release)|hold\s+(?:merges|deploys|releases))\b`)
	})
	// Words of a recurrence: its dates come back.
	// "each approved by Tomás" recurs nothing: every and each count only
	// before a unit of time, a day or an event that comes back.
	reRecurs = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:every|each)\s+(?:(?:other|second|third|few|couple\s+of|\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|major|minor|new|business|fiscal|working|calendar|single|prod|production|staging|mobile|web|app|routine|regular|scheduled)\s+){0,2}(?:hour|day|night|morning|evening|week|weekday|weekend|month|quarter|year|sprint|release|deploy|deployment|build|standup|time|` + weekdayRE + `|` + monthRE + `)s?\b|\b(?:repeats?|recurring|annual|annually|yearly|weekly|monthly|daily|biweekly|fortnightly|quarterly|nightly|hourly|biannual|semiannual)\b|\b(?:once|twice)\s+(?:a|per|every)\s+(?:day|week|month|quarter|year|sprint)\b`)
	})
	// The end of a quarter or a month, without its year: "the end of Q1",
	// "the end of October".
	rePeriodEnd = sync.OnceValue(func() *regexp.Regexp {
		// "the end of September", and "due end of September" with no "the"
		// after a word that sets a deadline, which the rewrite keeps.
		return regexp.MustCompile(`(?i)\b(the\s+|(?:due|by|until|till|before|after|from|target:?|deadline:?|eta:?)\s+)end\s+of\s+(q[1-4]|` + monthRE + `)\b(?:\s+(\d{4})\b)?|(\()end\s+of\s+(q[1-4]|` + monthRE + `)\b(?:\s+(\d{4})\b)?`)
	})
	// A deadline as a span from when it was written: "within six weeks".
	// Not a policy's or an SLA's span ("patched within 7 days of
	// disclosure", "must answer within a day", "respond within two days to
	// tickets"): the span ends its clause, in a sentence that obliges no one.
	reWithin = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bwithin\s+(?:the\s+next\s+)?(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})\s+(day|week|month)s?(?:\s*[.;,:)!]|\s*$)`)
	})
	reObliges = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:must|needs?|should|have to|has to|required|requires|sla|slo|policy|or (?:two|three|so))\b`)
	})
	// An end: a word that closes a period, then a date.
	reEnd = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(until|till|til|through|thru|ends?|ending|ended|expires?|expiring|expired|closes?|closing|closed|deadline(?:\s+is)?|due(?:\s+(?:by|on))?|by|before|lifted(?:\s+on)?|runs?\s+to|over\s+on|wraps?\s+up|wrapping\s+up|finish(?:es|ed)?|conclud(?:es|ed))\s+(?:on\s+|at\s+)?(?:the\s+end\s+of\s+)?(?:` + weekdayRE + `,?\s+)?\(?(\d{4}-\d{2}-\d{2})\b` +
			`|\bfrom\s+(?:` + weekdayRE + `\s+)?\d{4}-\d{2}-\d{2}\s+(?:to|-|–|—)\s+(?:` + weekdayRE + `\s+)?(\d{4}-\d{2}-\d{2})\b` +
			`|\b(?:during\s+)?the\s+week\s+of\s+(\d{4}-\d{2}-\d{2})\b` +
			// "until the vendor fix ships on 2026-06-12", "runs out on …", "v1 is sunset on …"
			`|\b(?:until|till)\s+(?:(?:[^\s.;:,!?]+\s+){1,6}?(?:on\s+|by\s+|in\s+)?(?:` + weekdayRE + `,?\s+)?\(?|(?:[^\s.;:,!?()]+\s+){7,10}\()(?:(?:target|eta|planned|expected):?\s+)?(\d{4}-\d{2}-\d{2})\b` +
			`|\b(?:runs?\s+out|ran\s+out|sunsets?|sunsetted|(?:is|are|gets?|will\s+be)\s+sunset|goes\s+away|lapses?|lapsed)\s+(?:on\s+|at\s+|by\s+)?(?:` + weekdayRE + `,?\s+)?\(?(\d{4}-\d{2}-\d{2})\b` +
			// a cover while someone is away: "(back 2026-11-02)", "(returns on …)";
			// not "the API returns 0001-01-01", "staging is back 2026-10-05"
			`|\(\s*(?:back|returns?|returning)\s+(?:on\s+)?(?:` + weekdayRE + `,?\s+)?(\d{4}-\d{2}-\d{2})\b`)
	})
	// "a 14-day trial": a period that started when the memory was written,
	// or on the date its sentence gives.
	reSpanOf = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})[- ](day|week|month)\s+(?:free\s+|paid\s+|test\s+|trial\s+)?(?:[\w.-]+\s+){0,3}?(trial|pilot|freeze|window|evaluation|grace\s+period|beta|experiment|moratorium|embargo|blackout|promo|promotion|sale|offer)\b`)
	})
	// A name that says the memory is about a period: "Postgres 16 upgrade
	// window", "release freeze"; not "Settings window", "Outage postmortem".
	reEventName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(?:maintenance|upgrade|migration|release|deploy|deployment|change|cutover|launch)\s+window|freeze|cutover|cut-over|downtime|blackout|embargo|moratorium)\b`)
	})
	// A date that says what happened, not when a period ends.
	rePastEvent = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:shipped|released|redesigned|launched|introduced|incident|root cause|postmortem|since|agreed|decided|adopted|finished|completed|done)\b`)
	})
	// A sentence that says what holds after the period it names.
	reNowThen = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:now|nowadays|these days|since then|from then on|ever since)\b`)
	})
	// A span that is a policy for anyone, not a period of ours: "new
	// accounts get a 14-day trial", "Loki keeps a 7-day window".
	reOurSpan = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:we|we're|we've|our|us|i'm|i've|started|starts|starting|began|from|this|currently|right now)\b`)
	})
	// "for the next two weeks after they join": from each such event.
	reAfterEach = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:after|once|when|whenever)\s+(?:they|he|she|a|an|each|every|any|new|the\s+(?:new|next))\b|\b(?:each|every|any)\s+\w+`)
	})
	// Which things a date bounds, not when a period ends: "the only copy of
	// anything before 2026-09-27", "rows created before …".
	reDataBefore = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:anything|everything|nothing|data|rows|records|entries|events|logs|orders|invoices|files|backups|messages)\s+(?:(?:created|written|dated|received|sent|from)\s+)?before\s+(\d{4}-\d{2}-\d{2})\b`)
	})
	reUntilDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:until|till)\b[^.;]{0,80}?\b\d{4}-\d{2}-\d{2}\b`)
	})
	// reObligedBy is an obligation with its deadline: "the daily submission
	// has to pass conformance testing by 2026-07-31" (not "verified
	// quarterly, the next check by 2026-04-01", nor "must run a drill every
	// quarter, the next one by …": reNextOne).
	reObligedBy = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:must|has\s+to|have\s+to|needs?\s+to)\b[^.;]{0,80}?\bby\s+\d{4}-\d{2}-\d{2}\b`)
	})
	reNextOne = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:the\s+)?next\s+(?:one|check|run|drill|review|audit|round|time|cycle|renewal|report)\b`)
	})
	// A recurrence word that names a kind of thing: "the quarterly access
	// review export", "the monthly invoice"; not an event that comes back
	// ("our weekly sync").
	reYearly = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(?:once|twice)\s+(?:a|per|every)\s+year|every\s+year|each\s+year|annual(?:ly)?|yearly|biannual|semiannual)\b`)
	})
	reNthWeekdayOfMonth = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:the\s+)?(?:first|second|third|fourth|last)\s+` + weekdayRE + `\s+(?:of|in)\s+(?:` + monthRE + `)(?:\s+and\s+(?:of\s+)?(?:` + monthRE + `))?\b`)
	})
	rePastMonthDay = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRE + `\b\.?(?:,?\s+\d{4}\b)?|\b` + monthRE + `\.?\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4}\b)?`)
	})
	reWeekdayNamed = sync.OnceValue(func() *regexp.Regexp {
		// "the Monday deploy train", "the Tuesday 14:00 Change Advisory Board",
		// "the manual Thursday fastlane run", "the store managers' Monday email"
		return regexp.MustCompile(`(?i)(?:\b(?:the|our|their|its|your)\s+(?:(manual|usual|regular|weekly|old|normal|standing|big|early|late|morning|afternoon)\s+)?|\b[\w-]+(?:'s|s')\s+)` + weekdayRE + `\s+(?:\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s+)?([a-z][a-z-]+)(?:\s+([a-z][a-z-]+))?(?:\s+([a-z][a-z-]+))?\b`)
	})
	reAttributive = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(the|a|an|our|its|their|his|her|your)\s+(?:quarterly|monthly|weekly|daily|annual|yearly|nightly|biweekly|fortnightly)\s+(?:access|data|cost|usage|export|report|backup|snapshot|dump|invoice|statement|bill|budget|figure|number|metric)`)
	})
	// A span counted from each one's own event: "counted from their first
	// reminder", "the trial clock starts at the first dispatch".
	reCountedFrom = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:counted|counting|measured)\s+from\s+(?:the|their|its|each|a)\b|\b(?:trial|clock|timer|countdown)\s+(?:clock\s+)?starts?\s+(?:at|when|on|with|from)\b|\bfrom\s+(?:their|its|each)\s+(?:first|own)\b`)
	})
	// "for the next two weeks": a period from when the memory was written.
	reForNext = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:for|over|during)\s+the\s+(?:next|coming)\s+(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d{1,3})\s+(day|week|month|sprint)s?\b`)
	})
	// Two weekdays that bound a span: "Monday to the Friday of the following week".
	reWeekdaySpan = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b` + weekdayRE + `\s+(?:to|through|until|till|-|–|—)\s+(?:the\s+)?` + weekdayRE + `\b`)
	})
	// A month a period runs to, with no day: "July through September",
	// "until March 2027"; not "until March 14".
	reThroughMonth = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(through|thru|until|till)\s+(` + monthRE + `)\b(?:\s+(\d{4})\b)?([^\s\d]|\s+[^\s\d]|\s*$)`)
	})
	// A thing of the week after, named for any week: "next week's roster".
	reWeeksOwn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:next|this|last|the\s+following)\s+week's\s+(?:roster|rota|schedule|timetable|menu|plan|shifts?|orders?)\b`)
	})
	// In a week's routine, the next of each run: "the week starting the
	// next Monday", "next week".
	reNextOfEach = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bthe\s+(?:next|following|coming)\s+(?:week|` + weekdayRE + `)\b`)
	})
	// A routine of each week: "every Thursday", "on Fridays", "weekly".
	reWeekly = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:every|each)\s+(?:week|` + weekdayRE + `)\b|\b` + weekdayRE + `s\b|\bweekly\b`)
	})
	rePerMonth = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bper\s+(?:calendar\s+)?month\b`) })
	reOnTheNth = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bthe\s+\d{1,2}(?:st|nd|rd|th)\b`)
	})
	// A clause told of the past or of what holds now, where a month is no
	// end ahead: "we were on Heroku until June", "was emptied (end of June)".
	rePastClause = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:was|were|had|did|went|ran|came|got|took|kept|used\s+to|replaced|moved|migrated|switched|retired|removed)\b|\bnow\b|\bthese\s+days\b|\bany\s?more\b|\bno\s+longer\b`)
	})
	// A clause told of the past by who did it: "we were on Heroku until
	// June", "events came over ActiveMQ until March".
	reWeWere = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:we|they|it|he|she|i)\s+(?:were|was|had)\b|\bused\s+to\b|\b(?:came|went|ran)\b|\bany\s?more\b|\bno\s+longer\b`)
	})
	reSentenceStop = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?](?:\s+|$)`) })
	reClauseEnd    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?;](?:\s+|$)`) })
	// A sentence's end, for maskYearFramed.
	reSentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?](?:\s+|$)|\n`) })
	// A day and month, or a range of days in a month, with its year or not:
	// "2 Sep", "18 Dec 2026", "26 to 30 Oct", "5 Jan-26 Mar 2027", "Oct 26".
	reFramedDay = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?(?:\s*(?:-|–|—|to)\s*\d{1,2}(?:st|nd|rd|th)?)?\s+(?:of\s+)?` + monthRE + `\b\.?(?:,?\s+\d{4}\b)?|\b` + monthRE + `\.?\s+\d{1,2}(?:st|nd|rd|th)?\b(?:\s*(?:-|–|—|to)\s*\d{1,2}\b)?(?:,?\s+\d{4}\b)?`)
	})
	// A date with its month's name and its year: "June 16, 2026", "16 June 2026".
	reNamedDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(` + monthRE + `)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(` + monthRE + `),?\s+(\d{4}))\b`)
	})
)

// isoDates writes the dates s gives with a month's name and a year as
// YYYY-MM-DD, so that an end reads the same whichever way it was written.
func isoDates(s string) string {
	return reNamedDate().ReplaceAllStringFunc(s, func(m string) string {
		g := reNamedDate().FindStringSubmatch(m)
		month, dd, year := g[1], g[2], g[3]
		if month == "" {
			month, dd, year = g[5], g[4], g[6]
		}
		mon, err := time.Parse("Jan", strings.ToUpper(month[:1])+strings.ToLower(month[1:3]))
		if err != nil {
			return m
		}
		d, _ := strconv.Atoi(dd)
		y, _ := strconv.Atoi(year)
		t := time.Date(y, mon.Month(), d, 0, 0, 0, 0, time.UTC)
		if t.Day() != d {
			return m // "February 30"
		}
		return day(t)
	})
}

// absoluteIn is absolute for a memory's text: the end of a named quarter
// or month ("the end of Q1") is a date only in a project fact that does
// not recur, never in a rule ("avoid releases at the end of December").
func absoluteIn(s string, it Item) string {
	if reYearly().MatchString(it.Description + "\n" + it.Body) {
		// "Twice a year, on the last Sunday of March and of October": a
		// day of every year, not of the one it was written in.
		m, kept := maskWith(s, reNthWeekdayOfMonth(), yearMark)
		return unmaskWith(absoluteInOf(m, it), kept, yearMark)
	}
	return absoluteInOf(s, it)
}

// absoluteInOf is absoluteIn once the days of every year are hidden.
// "Next week's roster" is each week's next, whenever it is read: never
// dated.
func absoluteInOf(s string, it Item) string {
	s, weeks := maskWith(s, reWeeksOwn(), weekOwnMark)
	s, monthly := maskMonthlyDays(s)
	return unmaskWith(unmaskWith(absoluteInOfDays(s, it), monthly, monthMark), weeks, weekOwnMark)
}

// absoluteInOfDays is absoluteInOf, weeks' own things hidden.
func absoluteInOfDays(s string, it Item) string {
	s, generic := maskGenericDays(s)
	return unmaskWith(absoluteInOfDaysAll(s, it), generic, genericMark)
}

func absoluteInOfDaysAll(s string, it Item) string {
	if it.Type == "feedback" || it.Type == "user" {
		// A rule's weekday is any such day: "if a PR is ready on Friday,
		// merge on Monday", "Friday merges are fine again"; and what it
		// quotes is an example ("irrigate 12 mm tonight").
		s, quoted := maskWith(s, reQuoted(), quoteMark)
		s, kept := maskBareWeekdays(s)
		return unmaskWith(unmask(absoluteWith(s, it.Created, false), kept), quoted, quoteMark)
	}
	if it.Type == "project" && weekdaysRecur(it) {
		// "Prod releases go out on Tuesdays; release/* is cut on Monday
		// afternoon": the memory tells a week's routine, each weekday of it
		// any such day, and "the next Monday" each run's next.
		var next []string
		if text := it.Description + "\n" + it.Body; reWeekly().MatchString(text) || sprintShape(text) {
			s, next = maskWith(s, reNextOfEach(), nextMark)
		}
		s, kept := maskBareWeekdays(s)
		return unmaskWith(unmask(absoluteWith(s, it.Created, false), kept), next, nextMark)
	}
	if it.Type != "project" {
		// "refreshed every Sunday night, so anything you create there is
		// gone on Monday": a weekday in a sentence of a routine is the
		// routine's.
		s, kept := maskRoutineWeekdays(s)
		return unmask(absoluteWith(s, it.Created, false), kept)
	}
	if it.Type != "project" || reRecurs().MatchString(s) {
		return absoluteWith(s, it.Created, false)
	}
	out := absoluteWith(s, it.Created, true)
	if !recurs(it.Description+"\n"+it.Body) && !reYearly().MatchString(it.Description+"\n"+it.Body) {
		out = throughMonths(out, it.Created)
		out = fromEvent(out, it.Body)
	}
	return out
}

// absolute rewrites the relative dates of s as absolute ones, counted from
// at, as extract.AbsoluteDates does, but leaves alone what is already
// absolute or recurring. It returns s unchanged when at is zero.
func absolute(s string, at time.Time) string { return absoluteWith(s, at, false) }

// absoluteWith is absolute, reading the ends of named quarters and months
// too when periods is set.
func absoluteWith(s string, at time.Time, periods bool) string {
	if at.IsZero() || !relativeHint(s) {
		return s
	}
	orig := s
	s, framed := maskYearFramed(s)
	s = dayRanges(pastWeekdays(s, at), at)
	var kept []string
	masked := reKeepAsIs().ReplaceAllStringFunc(s, func(m string) string {
		if i := len(m) - len("2026-12-13"); i > 0 && isoDate.MatchString(m[i:]) {
			// "Sunday 2026-12-13": its weekday kept, its day left in sight,
			// for "the Wednesday before" to count from.
			kept = append(kept, m[:i])
			return placeholder(len(kept)-1) + m[i:]
		}
		kept = append(kept, m)
		return placeholder(len(kept) - 1)
	})
	masked = rePastMonthDay().ReplaceAllStringFunc(masked, func(m string) string {
		// "On 7 April an AKS node drain restarted both pods", written on 9
		// April: a day gone by, named by its month and day, is history
		// that says its day already. One still ahead ("by 31 July") is
		// dated.
		if !pastMonthDay(m, at) || reNextSprint().MatchString(s) {
			return m // (the start of this sprint, read to date the next)
		}
		kept = append(kept, m)
		return placeholder(len(kept) - 1)
	})
	masked = reWeekdayNamed().ReplaceAllStringFunc(masked, func(m string) string {
		// "the Monday deploy train", "our Friday demo": a weekday that names
		// a routine, not a day; "the Monday after launch" is a day.
		if !namedRoutine(m) {
			return m
		}
		kept = append(kept, m)
		return placeholder(len(kept) - 1)
	})
	out := reEndNextMonth().ReplaceAllStringFunc(masked, func(string) string {
		return day(time.Date(at.Year(), at.Month()+2, 0, 0, 0, 0, 0, at.Location()))
	})
	if periods {
		out = rePeriodEnd().ReplaceAllStringFunc(out, func(m string) string {
			g := rePeriodEnd().FindStringSubmatch(m)
			if g[4] != "" {
				if pastClause(out, strings.Index(out, m)) {
					return m // "the bucket was emptied (end of June)": history
				}
				g = []string{g[0], g[4], g[5], g[6]} // "(end of June)"
			}
			if e, ok := periodEnd([]string{g[0], g[2], g[3]}, at); ok {
				if strings.EqualFold(strings.TrimSpace(g[1]), "the") {
					return e
				}
				return g[1] + e // "due 2026-09-30"
			}
			return m
		})
	}
	out, _ = extract.AbsoluteDates(out, at)
	out = nextSprint(out)
	if out == masked {
		if s != orig {
			return unmaskWith(unplaceholders(s, kept), framed, frameMark)
		}
		return orig
	}
	out = reStartsBy().ReplaceAllString(out, "$1 on $2") // "starts in two weeks" is a day, not a deadline
	if spans := inSpanDates(masked, at); len(spans) > 0 {
		// "the minimum version goes to 3.0 in two weeks": on that day.
		out = reChangeBy().ReplaceAllStringFunc(out, func(m string) string {
			g := reChangeBy().FindStringSubmatch(m)
			if !spans[g[3]] {
				return m // a "by" the memory said itself
			}
			return g[1] + g[2] + "on " + g[3]
		})
		// "In two weeks the pricing page switches …": a day, said first.
		out = reOpeningBy().ReplaceAllStringFunc(out, func(m string) string {
			g := reOpeningBy().FindStringSubmatch(m)
			if !spans[g[3]] {
				return m
			}
			if g[1] == "" || g[2] == "By" {
				return g[1] + "On " + g[3]
			}
			return g[1] + "on " + g[3]
		})
	}
	return unmaskWith(unplaceholders(out, kept), framed, frameMark)
}

// unplaceholders puts back the spans absoluteWith kept as they were.
func unplaceholders(s string, kept []string) string {
	for i, k := range kept {
		s = strings.Replace(s, placeholder(i), k, 1)
	}
	return s
}

// pastWeekdays dates the weekdays s names as past ones: "since Monday",
// "last Tuesday" written on Friday 2026-10-09 is "last Tuesday 2026-10-06" (the
// latest such day before at; "since Monday" on a Monday is that day).
func pastWeekdays(s string, at time.Time) string {
	var b strings.Builder
	last := 0
	for _, loc := range rePastWeekday().FindAllStringIndex(s, -1) {
		before := strings.ToLower(s[max(0, loc[0]-4):loc[0]])
		if strings.HasSuffix(before, "the ") || strings.HasSuffix(before, "'s ") || strings.HasPrefix(strings.ToLower(s[loc[1]:]), " of ") {
			continue // "the sprint's last Tuesday", "the last Friday of the month": a day of a period
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(pastWeekday(s[loc[0]:loc[1]], at))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// pastWeekday dates one match of rePastWeekday.
func pastWeekday(m string, at time.Time) string {
	g := rePastWeekday().FindStringSubmatch(m)
	if reAnyDate().MatchString(m) {
		return m // dated already: "since Friday 2026-02-20"
	}
	wd := weekdayOf(g[4])
	back := (int(at.Weekday()) - int(wd) + 7) % 7
	if back == 0 && (g[2] != "" || g[1] == "") {
		back = 7 // "last Friday" said on a Friday is a week ago
	}
	lead := g[1] + " " + g[2] + g[3] + " " // "since ", "since last ", "last "
	return strings.Join(strings.Fields(lead), " ") + " " + g[4] + " " + day(at.AddDate(0, 0, -back))
}

// weekdayOf is the weekday a full English name names.
func weekdayOf(name string) time.Weekday {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String(), name) {
			return d
		}
	}
	return time.Sunday
}

// dayRanges writes a range of days in one month, "Sept 14–18", as two
// dates, so that its end is read: in the year that puts it nearest to at
// ("Sept 14–18" written in November is the September just gone, "Jan
// 5–7" written in December the coming January), or in the year it gives
// ("Sept 14–18, 2026").
func dayRanges(s string, at time.Time) string {
	var b strings.Builder
	last := 0
	for _, loc := range reDayRange().FindAllStringSubmatchIndex(s, -1) {
		end, given := loc[1], 0
		if y := reYearAfter().FindStringSubmatch(s[loc[1]:]); y != nil {
			if y[1] == "" {
				continue // "March 3-5 2026" would be "March 3-52026": not a range
			}
			given, _ = strconv.Atoi(y[1])
			end += len(y[0])
		}
		g := func(i int) string { return s[loc[2*i]:loc[2*i+1]] }
		mon, err := time.Parse("Jan", strings.ToUpper(g(1)[:1])+strings.ToLower(g(1)[1:3]))
		if err != nil {
			continue
		}
		from, _ := strconv.Atoi(g(2))
		to, _ := strconv.Atoi(g(3))
		year := at.Year()
		for _, y := range []int{at.Year() - 1, at.Year() + 1} {
			if distance(time.Date(y, mon.Month(), from, 0, 0, 0, 0, time.UTC), at) < distance(time.Date(year, mon.Month(), from, 0, 0, 0, 0, time.UTC), at) {
				year = y
			}
		}
		if given != 0 {
			year = given
		}
		a := time.Date(year, mon.Month(), from, 0, 0, 0, 0, time.UTC)
		e := time.Date(year, mon.Month(), to, 0, 0, 0, 0, time.UTC)
		if to <= from || a.Day() != from || e.Day() != to {
			continue
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(day(a) + " to " + day(e))
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// distance is how far apart two times are, either way.
func distance(a, b time.Time) time.Duration {
	if a.After(b) {
		return a.Sub(b)
	}
	return b.Sub(a)
}

// nextSprint dates "next sprint" where the memory says how long sprints
// are and when this one started: "two-week sprints … this one started
// 2026-11-16 … next sprint" is the sprint starting 2026-11-30.
func nextSprint(s string) string {
	loc := reNextSprint().FindStringIndex(s)
	if loc == nil || strings.HasPrefix(strings.TrimLeft(s[loc[1]:], " "), "(starting") {
		return s
	}
	l := reSprintLength().FindStringSubmatch(s)
	st := reSprintStart().FindStringSubmatch(s)
	if l == nil || st == nil {
		return s
	}
	weeks := smallNumber[strings.ToLower(l[1]+l[2])]
	if weeks == 0 {
		weeks, _ = strconv.Atoi(l[1] + l[2])
	}
	if weeks <= 0 || weeks > 6 {
		return s
	}
	return s[:loc[1]] + " (starting " + plusDays(st[1], 7*weeks) + ")" + s[loc[1]:]
}

// periodEnd is the last day of the quarter or month m names ("q1",
// "october"), in m's year when it gives one, else the first such end on
// or after at.
func periodEnd(m []string, at time.Time) (string, bool) {
	if m == nil {
		return "", false
	}
	name := strings.ToLower(m[1])
	var month time.Month // the period's last month
	if q, ok := strings.CutPrefix(name, "q"); ok {
		month = time.Month(3 * int(q[0]-'0'))
	} else if t, err := time.Parse("Jan", strings.ToUpper(name[:1])+name[1:3]); err == nil {
		month = t.Month()
	} else {
		return "", false
	}
	year := at.Year()
	if m[2] != "" {
		year, _ = strconv.Atoi(m[2])
	}
	end := time.Date(year, month+1, 0, 0, 0, 0, 0, at.Location())
	if m[2] == "" && end.Before(at.AddDate(0, 0, -60)) {
		// Long past this year: next year's ("decide by the end of Q1",
		// written in November). A recent one is this year's ("since the
		// end of March", written in April).
		end = time.Date(year+1, month+1, 0, 0, 0, 0, 0, at.Location())
	}
	return day(end), true
}

// relativeHint reports whether s might hold a relative date: the words
// every one AbsoluteDates reads holds one of.
func relativeHint(s string) bool {
	lower := strings.ToLower(s)
	for _, w := range []string{"day", "tonight", "tomorrow", "week", "month", "quarter", "year", "the ", "end of", "jan", "feb", "mar",
		"apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// placeholder stands for a kept span while AbsoluteDates runs: private-use
// runes and letters, no digit and no date word.
func placeholder(i int) string {
	var b strings.Builder
	b.WriteRune('\uE000')
	for {
		b.WriteByte(byte('k' + i%8))
		i /= 8
		if i == 0 {
			break
		}
	}
	b.WriteRune('\uE001')
	return b.String()
}

// computeDates fills each item's dated body, when its relative dates
// change.
func (p *planner) computeDates() {
	for i := range p.items {
		it := &p.items[i]
		if d := absoluteIn(it.Body, it.Item); d != it.Body {
			it.dated = d
		}
	}
}

// dates plans a date operation for every memory, neither retired nor
// edited yet, whose body or description holds a relative date.
func (p *planner) dates() {
	for _, it := range p.items {
		if !p.free(it.File) || it.Created.IsZero() {
			continue
		}
		desc := absoluteIn(it.Description, it.Item)
		if it.dated == "" && desc == it.Description {
			continue
		}
		e := &Edit{}
		var ev []string
		if it.dated != "" {
			e.Body = it.dated
			ev = append(ev, changedSentences(it.Body, it.dated)...)
		}
		if desc != it.Description {
			e.Description = desc
			ev = append(ev, changedSentences(it.Description, desc)...)
		}
		p.add(Op{Kind: Date, Files: []string{it.File}, Keep: it.File, Edit: e, Lossless: true,
			Reason:   fmt.Sprintf("%s says when things happen in words relative to when it was written (%s); they become absolute dates.", it.File, day(it.Created)),
			Evidence: ev})
	}
}

// changedSentences quotes each sentence a rewrite changed, before → after.
func changedSentences(before, after string) []string {
	bs, as := sentences(before), sentences(after)
	var out []string
	if len(bs) != len(as) {
		return []string{quote(before) + " → " + quote(after)}
	}
	for i := range bs {
		if bs[i] != as[i] {
			out = append(out, quote(bs[i])+" → "+quote(as[i]))
		}
	}
	return out
}
