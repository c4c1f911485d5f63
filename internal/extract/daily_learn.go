package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/learning"
)

var (
	// reAcross marks a rule the user meant for every project.
	reAcross = lazyre.New(`(?i)\b(?:across (?:all )?(?:my |our )?(?:projects|repos)|everywhere|in every (?:project|repo)|in (?:all|any) (?:of )?(?:my |our )?(?:projects|repos)|in general|whatever the project|regardless of (?:the )?(?:project|repo)|for all (?:my |our )?(?:projects|repos))\b`)
	// reLocal marks a rule about the project at hand.
	reLocal = lazyre.New(`(?i)\b(?:this|the|our) (?:repo|repository|project|codebase|service|app|team|module|package)\b|\bhere\b|\bin these\b`)
	// reTool names tools and habits that exist outside any one project.
	reTool = lazyre.New(`(?i)\b(?:go (?:vet|test|build|fmt|mod|generate)|gofmt|git|bash|shell|zsh|terminal|golang|python|sql|regex(?:es)?|docker|makefiles?|commit messages?|pull requests?|force[- ]push\w*|rebase|claude(?: code)?|markdown|unix|ssh|vim|emacs|tmux|homebrew|brew)\b`)
	// rePersonal is the user's own taste: "I prefer", "I hate".
	rePersonal = lazyre.New(`(?i)^(?:i (?:prefer|like|hate|don'?t like|want)|i(?:'d| would) rather)\b`)
	reNegRule  = lazyre.New(`(?i)^(?:(?:no|nope|also|and|ok|so|please|actually)[,.!]?\s+)*(?:don'?t|do not|never|avoid|stop|quit|not)\b`)
	reCorrects = lazyre.New(`(?i)^(?:no|nope|wrong)[,.!:]\s|^that'?s (?:wrong|not (?:right|how|what))`)
	reFailure  = lazyre.New(`(?i)\b(?:broke|breaks|broken|break|fail(?:s|ed|ing|ure)?|crash\w*|bugs?|burn(?:ed|t)?|outages?|corrupt\w*|lost|lose|leak\w*|regress\w*|hid|hides|flaky|timed? ?out|took down|incidents?|data loss|errors?)\b`)
	reRunnable = lazyre.New("(?i)https?://|`[^`]+`|\\b(?:dashboards?|runbooks?|quer(?:y|ies)|commands?|scripts?|curl|psql|kubectl|grafana|kibana|datadog|honeycomb|sentry|wiki|docs?|notebooks?|playbooks?)\\b")
	reWhere    = lazyre.New(`(?i)^((?:the |our |all )?[\w .'-]{2,40}?)\s+(is|are|lives?|gets?|go(?:es)?)\s+(?:(tracked|filed|kept|managed|documented|logged|reported|posted|stored|hosted|saved)\s+)?(?:(?:in|at|on|under|to)\s|https?://|the ['"‘“])`)
	reAboutMe  = lazyre.New(`(?i)^(?:(?:hi|hey|fyi|btw|ok|so|well)[,!.]?\s+)?(?:i'?m|i am|i work as|i worked as|my (?:role|job) is)\s+(?:more of\s+)?(?:a |an |the )?(.+)`)
	// reFirstPerson is a fact about the speaker after its "I" part: "I own
	// the ranking model", "this is my first time touching svelte".
	reFirstPerson = lazyre.New(`(?i)^(?:i'?ve been|i have been|i'?m|i am|i|this is my|my)\s+(.+)`)
)

// titleLeads are openings a learning's title drops, and the openings it
// rewrites as the rule's verb ("we use tabs" is "Use tabs").
var (
	// statementLeads open a statement without saying anything.
	statementLeads = []string{"by the way", "btw", "fyi", "heads up", "note that", "just so you know", "also", "ok",
		"okay", "so", "no", "nope", "actually", "please", "and", "well"}
	titleLeads = []string{"not like that", "not that", "no need", "in this codebase", "in this repo", "in this project", "by the way", "btw", "fyi", "heads up", "note that", "just so you know", "remember that",
		"remember to", "remember", "from now on", "going forward", "in general", "also", "ok", "okay", "so", "no",
		"nope", "actually", "please", "and", "i want you to", "i'd like you to", "i want", "i'd like", "i would like",
		"we've decided to", "we have decided to", "we decided to", "decided to",
		"the plan is to", "the decision is to", "the decision is", "the plan is"}
	titleVerbs = [][2]string{{"i'd rather you not", "Don't"}, {"i'd prefer you not", "Don't"}, {"i'd rather you", ""},
		{"i would rather you", ""}, {"i prefer you", ""}, {"i'd prefer you", ""}, {"i'd rather not", "Prefer not"},
		{"i would rather not", "Prefer not"}, {"i'd rather", ""}, {"i would rather", ""}, {"we're going with", "Use"}, {"we are going with", "Use"}, {"we use", "Use"},
		{"we always", "Always"}, {"we never", "Never"}, {"we keep", "Keep"}, {"we prefer", "Prefer"},
		{"we don't", "Don't"}, {"we do not", "Don't"}, {"we write", "Write"}, {"we put", "Put"}, {"we run", "Run"},
		{"we name", "Name"}, {"i prefer", "Prefer"},
		{"we're deprecating", "Deprecate"}, {"we are deprecating", "Deprecate"}, {"we're migrating", "Migrate"},
		{"we are migrating", "Migrate"}, {"we're sunsetting", "Sunset"}, {"we are sunsetting", "Sunset"}}
	localPhrases = []string{" in this repository", " in this repo", " in this project", " in this codebase", " here"}
)

// dayLearning is a learning the day proposes, with what ranks it.
type dayLearning struct {
	l     learning.Learning
	terms map[string]bool
	rank  int
}

// learnings turns what Heuristic finds in each session into the day's
// learnings (ranked, capped, without those in.Known has) and key points
// (decisions, deadlines, freezes, then rules).
func (day *dayRead) learnings(in DayInput) ([]learning.Learning, []string) {
	known := newKnownSet(in.Known)
	const ranks = 12
	buckets := make([][]dayLearning, ranks)
	var decisions, rules []string
	var pointTerms []map[string]bool
	perProject := map[string]int{}
	pointOpen := func(list []string, project string) bool {
		return len(list) < maxKeyPoints && perProject[project] < 3 // room for the other projects' points
	}
	addPoint := func(list *[]string, project, text string) {
		if !pointOpen(*list, project) {
			return
		}
		ts := termSet(text)
		for _, p := range pointTerms {
			if overlap(p, ts) >= 0.6 {
				return
			}
		}
		pointTerms = append(pointTerms, ts)
		perProject[project]++
		if day.multi && project != "" {
			text = project + ": " + text
		}
		*list = append(*list, oneLine(text, maxPointBytes))
	}
	merged := make([][]bool, len(day.sessions)) // the quirks a rule's learning took
	for si, s := range day.sessions {
		used := make([]bool, len(s.quirks))
		merged[si] = used
		for _, c := range s.cands {
			rule, reason := splitBody(c.Body)
			rule = stripLeads(rule, statementLeads)
			dl, ok := toLearning(c.Type, rule, reason, s.project, in.Date, s.corrections[c.Source])
			points := &rules
			if c.Type == "project" {
				points = &decisions
			}
			if (!ok || len(buckets[dl.rank]) >= maxLearnings) && (c.Type != "project" && c.Type != "feedback" || !pointOpen(*points, s.project)) {
				continue // a busy day: no room left for what it would give
			}
			if ok && c.Type == "feedback" && dl.l.Scope == s.project {
				// A rule given with a quirk of the data is that quirk's lesson.
				for i, q := range s.quirks {
					if !used[i] && q.source == c.Source && s.ruleAfter(q, rule) {
						used[i] = true
						if dl.l.Type != learning.Error { // a correction stays an error
							dl.l.Type, dl.rank = learning.DataQuirk, q.rank-1
						}
						dl.l.Title = q.l.Title
						dl.l.Description, dl.l.Lesson = q.l.Description, oneLine(capitalize(rule), maxTextBytes)
						break
					}
				}
			}
			if ok {
				dl.terms = termSet(dl.l.Title + " " + dl.l.Description + " " + dl.l.Lesson)
				if known.has(dl) {
					continue // neither a learning nor a key point: memory has it
				}
			}
			if c.Type == "project" || c.Type == "feedback" {
				addPoint(points, s.project, capitalize(rule))
			}
			if !ok || len(buckets[dl.rank]) >= maxLearnings || repeats(dl, buckets) {
				continue
			}
			buckets[dl.rank] = append(buckets[dl.rank], dl)
		}
	}
	for si, s := range day.sessions {
		for i, q := range s.quirks {
			if merged[si][i] {
				continue // a rule's learning has it
			}
			dl := q.dayLearning
			dl.terms = termSet(dl.l.Title + " " + dl.l.Description)
			if len(buckets[dl.rank]) >= maxLearnings || known.has(dl) || repeats(dl, buckets) {
				continue
			}
			buckets[dl.rank] = append(buckets[dl.rank], dl)
		}
	}
	var out []learning.Learning
	for _, b := range buckets {
		for _, dl := range b {
			if len(out) < maxLearnings {
				out = append(out, dl.l)
			}
		}
	}
	return out, capList(append(decisions, rules...), maxKeyPoints-2)
}

// splitBody splits a candidate's body into its rule and its reason.
func splitBody(body string) (rule, reason string) {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "**Why:**"):
			reason = strings.TrimSpace(strings.TrimPrefix(l, "**Why:**"))
		case strings.HasPrefix(l, "**How to apply:**"), l == "":
		case rule == "":
			rule = l
		}
	}
	return strings.TrimRight(rule, "."), strings.TrimRight(reason, ".")
}

// toLearning maps a candidate to a learning (see DailySummary for the
// mapping); ok is false when it makes none.
func toLearning(typ, rule, reason, project, date string, correction bool) (dayLearning, bool) {
	l := learning.Learning{Scope: project, Date: date}
	base := 0
	switch typ {
	case "feedback":
		l.Type, base = learning.BestPractice, 2
		if correction || reCorrects.MatchString(rule) || reFailure.MatchString(reason) || reNegRule.MatchString(rule) && reFailure.MatchString(rule) {
			l.Type, base = learning.Error, 0
		}
		if reAcross.MatchString(rule) || !reLocal.MatchString(rule) && !mentions(rule, project) &&
			(rePersonal.MatchString(rule) || reTool.MatchString(rule)) {
			l.Scope = learning.Global
		}
	case "project":
		l.Type, base = learning.Decision, 1
	case "reference":
		l.Type, base = learning.BestPractice, 4
		if reRunnable.MatchString(rule) {
			l.Type, base = learning.Command, 3
		}
	case "user":
		l.Type, l.Scope, base = learning.Decision, learning.Global, 5
	default:
		return dayLearning{}, false
	}
	if l.Scope == "" || strings.ContainsAny(l.Scope, "/[]\n\r") {
		return dayLearning{}, false // no project to file it under
	}
	l.Title = learningTitle(typ, rule)
	if reason != "" {
		l.Description = oneLine(capitalize(reason), maxTextBytes)
		l.Lesson = oneLine(capitalize(rule), maxTextBytes)
	} else {
		l.Description = oneLine(capitalize(rule), maxTextBytes)
	}
	rank := base * 2
	if reason == "" {
		rank++
	}
	return dayLearning{l: l, rank: rank}, true
}

func mentions(s, project string) bool {
	return project != "" && strings.Contains(strings.ToLower(s), strings.ToLower(project))
}

// has reports a learning whose concept memory already has: same scope
// (or a global one), and the same title or similar words.
func (ks knownSet) has(dl dayLearning) bool {
	rule := termSet(dl.l.Description)
	if dl.l.Lesson != "" {
		rule = termSet(dl.l.Lesson)
	}
	for _, k := range ks {
		if !strings.EqualFold(k.scope, dl.l.Scope) && k.scope != learning.Global {
			continue
		}
		if strings.EqualFold(k.title, dl.l.Title) || overlap(k.all, dl.terms) >= 0.6 ||
			overlap(rule, k.desc) >= 0.6 || len(k.lesson) > 0 && overlap(rule, k.lesson) >= 0.6 {
			return true
		}
	}
	return false
}

// knownSet is in.Known with the words dedupe compares, read once.
type knownSet []struct {
	scope, title      string
	all, desc, lesson map[string]bool
}

func newKnownSet(known []learning.Learning) knownSet {
	ks := make(knownSet, len(known))
	for i, k := range known {
		ks[i].scope, ks[i].title = k.Scope, strings.TrimSpace(k.Title)
		ks[i].all = termSet(k.Title + " " + k.Description + " " + k.Lesson)
		ks[i].desc, ks[i].lesson = termSet(k.Description), termSet(k.Lesson)
	}
	return ks
}

// repeats reports a learning the day already has, in other words.
func repeats(dl dayLearning, buckets [][]dayLearning) bool {
	for _, b := range buckets {
		for _, o := range b {
			if o.l.Scope == dl.l.Scope && (strings.EqualFold(o.l.Title, dl.l.Title) || overlap(o.terms, dl.terms) >= 0.6) {
				return true
			}
		}
	}
	return false
}

// reNamedRole is the role said after a name: "junior dev", "SRE in the
// observability team".
var reNamedRole = lazyre.New(`(?i)^(?:a |an |the )?(?:[\w+#-]+ ){0,2}(?:` + roleNouns + `)\b`)

// roleNouns are what people call their job after their name.
const roleNouns = `dev|developer|engineer|sre|analyst|scientist|designer|lead|manager|maintainer|student|intern|admin|architect|consultant|contractor|researcher|founder|postdoc|professor|lecturer|teacher|sysadmin|programmer|tester|freelancer`

// learningTitle names a learning in at most six words: "About me: …" for
// who the user is, "Where X is tracked" for a pointer, else the rule's
// opening without lead-ins ("We decided to move CI to Actions" is "Move CI
// to Actions").
func learningTitle(typ, rule string) string {
	rule = strings.Join(strings.Fields(rule), " ")
	switch typ {
	case "user":
		if m := reAboutMe.FindStringSubmatch(rule); m != nil {
			rest := m[1]
			if name, role, ok := strings.Cut(rest, ", "); ok && !strings.Contains(name, " ") && reNamedRole.MatchString(role) {
				rest = role // "im noor, junior dev": the role names them, not the name
			}
			if i := strings.IndexAny(rest, ",;:(—"); i > 0 {
				rest = rest[:i]
			}
			if i := strings.Index(asciiLower(rest), " and "); i > 0 {
				rest = rest[:i]
			}
			if t := cutTitle(rest, 4); t != "" {
				return "About me: " + lowerFirst(t)
			}
		}
		// Another fact about them: its own words, without the "I", so
		// that two such facts are two memories, not one name twice.
		rest := rule
		if m := reFirstPerson.FindStringSubmatch(rule); m != nil {
			rest = m[1]
		}
		if i := strings.IndexAny(rest, ",;:(—"); i > 0 {
			rest = rest[:i]
		}
		for _, and := range []string{" and i ", " and i'm ", " and im ", " and i’m "} {
			if i := strings.Index(asciiLower(rest), and); i > 0 {
				rest = rest[:i] // "own reconciliation and I'm in the NY office": the first fact names it
			}
		}
		if t := cutTitle(rest, 4); t != "" && !vagueTitle(t) {
			return "About me: " + lowerFirst(t)
		}
		return "About me"
	case "reference":
		if m := reWhere.FindStringSubmatch(rule); m != nil && len(strings.Fields(m[1])) <= 4 {
			subject := strings.TrimSpace(m[1])
			switch verb := strings.ToLower(m[2]); {
			case m[3] != "": // "Pipeline bugs are tracked in…": where they are tracked
				return cutTitle("Where "+lowerFirst(subject)+" "+verb+" "+strings.ToLower(m[3]), maxTitleWords)
			case strings.HasPrefix(verb, "go"): // "Migrations go in…"
				return cutTitle("Where "+lowerFirst(subject)+" go", maxTitleWords)
			}
			// "The on-call runbook is at…": the runbook's location.
			if f := strings.Fields(subject); len(f) > 1 && (strings.EqualFold(f[0], "the") || strings.EqualFold(f[0], "our")) {
				subject = strings.Join(f[1:], " ")
			}
			if len(strings.Fields(subject)) <= maxTitleWords-1 {
				return cutTitle(subject+" location", maxTitleWords)
			}
		}
	}
	s := withoutTalkLabel(rule)
	for changed := true; changed; {
		changed = false
		if t := stripLeads(s, titleLeads); t != s {
			s, changed = t, true
		}
		for _, v := range titleVerbs {
			if len(s) > len(v[0]) && strings.EqualFold(s[:len(v[0])], v[0]) && !isWordByte(s[len(v[0])]) {
				s, changed = v[1]+s[len(v[0]):], true
			}
		}
	}
	s = withoutTalkClauses(s)
	if main, ok := mainClause(s); ok {
		s = main // "for the schema change, add session_source as…": what to do
	}
	for _, p := range localPhrases {
		if i := strings.Index(asciiLower(s), p); i > 0 && (i+len(p) == len(s) || !isWordByte(s[i+len(p)])) {
			s = s[:i] + s[i+len(p):]
		}
	}
	if i := clauseBreak(s); i > 0 && len(strings.Fields(s[:i])) >= 2 {
		s = s[:i]
	}
	if f := strings.Fields(s); len(f) > 3 && strings.EqualFold(f[0], "the") {
		s = strings.Join(f[1:], " ")
	}
	if t := cutTitle(s, maxTitleWords); t != "" {
		return t
	}
	return "Note"
}

// stripLeads drops the leads that open s, as many as there are.
func stripLeads(s string, leads []string) string {
	for changed := true; changed; {
		changed = false
		for _, l := range leads {
			if len(s) > len(l) && strings.EqualFold(s[:len(l)], l) && !isWordByte(s[len(l)]) && (l != "no" && l != "nope" || s[len(l)] != ' ') {
				// "no, …" is a redirect; "no names in the root cause" a prohibition.
				s, changed = strings.TrimLeft(s[len(l):], " ,.!:;-—"), true
			}
		}
	}
	return s
}

// titleDangling are more words a title does not end on.
var titleDangling = map[string]bool{"before": true, "after": true, "until": true, "than": true, "as": true, "so": true,
	"but": true, "not": true, "because": true, "since": true, "while": true, "where": true, "who": true, "it": true,
	"we": true, "i": true, "you": true, "they": true, "this": true, "these": true, "those": true, "then": true,
	"against": true, "without": true, "about": true, "over": true, "under": true, "through": true, "per": true,
	"via": true, "across": true, "between": true, "like": true, "all": true, "every": true}

// endsOpen are words a cut title does not end on either, though a phrase
// may end before them: a subject or a verb that waits for the rest
// ("Lena wrote it and she", "Rev B boards are still", "This week I am").
// (A switch, not a map: a package-level map is built at start-up, by
// every hook.)
func endsOpen(w string) bool {
	switch w {
	case "he", "she", "still", "just", "am", "was", "were", "has", "have", "had", "will", "would", "can", "should", "must":
		return true
	}
	return false
}

// cutTitle keeps the first n words of s, not ending on a word that leads
// into the rest, without the characters that would break a learning line.
func cutTitle(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '*' || r == '[' || r == ']' || r == '`' || unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
	min := 2
	if n < maxTitleWords {
		min = 1 // "About me: " names the rest
	}
	words := strings.Fields(s)
	for i, w := range words {
		if utf8.RuneCountInString(w) > 30 {
			words = words[:i] // a URL or a path is no part of a title
			break
		}
	}
	words = headline(words, n, min)
	// Down to one word; to none after "About me: " (min 1), which then
	// names the rest alone rather than end on "before".
	for len(words) > min-1 {
		last := strings.ToLower(strings.Trim(words[len(words)-1], ",;:.!?"))
		if !danglingWords[last] && !titleDangling[last] && !needsMore()[last] && !endsOpen(last) {
			break
		}
		if len(words) <= 3 && len(words) >= 2 && objectPronoun(last) && !leadsOn(strings.ToLower(words[len(words)-2])) {
			break // "Lucia maintains it", "Ignore that": a clause, where "Lucia maintains" is cut off
		}
		words = words[:len(words)-1]
	}
	t := strings.TrimLeft(strings.TrimRight(strings.Join(words, " "), " ,;:.!?—–-"), " ,;:.!?—–-\"'")
	return capitalize(t)
}

// objectPronoun reports a pronoun that ends a clause as its object.
func objectPronoun(w string) bool {
	return w == "it" || w == "that" || w == "them" || w == "this"
}

// clauseBreak is where the first clause of s ends, at ";", ":", a dash,
// "(" or ","; not inside a name ("std::bind", "a:b"), or -1.
func clauseBreak(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			if i > 0 && s[i-1] == ' ' {
				return i // an aside, not "real(wp)"
			}
		case ';', ',':
			return i
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i
			}
		case 0xE2: // "—" and "–" are E2 80 94 and E2 80 93
			if strings.HasPrefix(s[i:], "—") || strings.HasPrefix(s[i:], "–") {
				return i
			}
		}
	}
	return -1
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || n >= len(s) {
		return s
	}
	next, _ := utf8.DecodeRuneInString(s[n:])
	if unicode.IsUpper(next) {
		return s // "CI", "API": an acronym
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// vagueTitle reports a title of words that name nothing ("doing this a
// while"): "About me" says as much.
func vagueTitle(t string) bool {
	for _, w := range strings.Fields(strings.ToLower(t)) {
		switch w {
		case "doing", "this", "that", "it", "a", "an", "the", "while", "stuff", "things", "lot", "bit", "for", "been", "here", "some", "time":
		default:
			return false
		}
	}
	return true
}

// ruleAfter reports whether rule is said right after quirk q, in the
// sentence that follows it ("Policy IDs are not unique across regions,
// always join on region and policy_id"): a rule said elsewhere in the
// message is not that quirk's lesson.
func (s *sessionRead) ruleAfter(q quirk, rule string) bool {
	lead := strings.ToLower(rule)
	if len(lead) > 24 {
		lead = lead[:24]
	}
	for _, p := range s.prompts {
		if p.source != q.source {
			continue
		}
		said, sentence := strings.ToLower(p.said), strings.ToLower(q.sentence) // lowered alike: "K" (Kelvin) is shorter lowered
		qi := strings.Index(said, sentence)
		if qi < 0 {
			continue
		}
		after := said[qi+len(sentence):]
		ri := strings.Index(after, lead)
		return ri >= 0 && len(strings.Trim(after[:ri], " .,;:!")) == 0
	}
	return false
}
