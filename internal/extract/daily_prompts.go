package extract

import (
	"maps"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/redact"
)

// dayRead is the day as the summary reads it: each session's prompts,
// cleaned of what the user pasted.
type dayRead struct {
	sessions []sessionRead
	projects []string // the sessions' projects, sorted (in.Projects when no session names one)
	tagged   []string // every project of the day, sorted: in.Projects, the sessions', the commits'

	multi   bool // the day has several projects: lines say which
	prompts int  // the user's prompts
}

type sessionRead struct {
	project, id string
	prompts     []prompt
	cands       []Candidate       // what Heuristic finds in the user's cleaned messages
	corrections map[string]bool   // the sources of prompts that correct the agent ("no, …")
	candTerms   []map[string]bool // the candidates' and quirks' words
	quirks      []quirk           // what the user says about their data misbehaving
}

// isCandidate reports a sentence Heuristic made a candidate of: a key
// point or a learning already, not a topic.
func (s *sessionRead) isCandidate(sentence string) bool {
	ts := termSet(sentence)
	for _, c := range s.candTerms {
		if overlap(c, ts) >= 0.5 {
			return true
		}
	}
	return false
}

// prompt is one thing the user typed, cleaned.
type prompt struct {
	prose       string          // the user's own words: no paste, code, log or quote
	terms       map[string]bool // stemmed content words of prose
	substantive bool            // says enough to be a topic: not "yes do it", not "continue"
	lead        []string        // its first three content terms: what it is about
	said        string          // prose as Heuristic reads it: openers off, mid-sentence rules split off
	source      string          // its message, as a candidate's Source names it
	pasted      bool            // the user pasted something (a log, code): a step of a task, not a new one
}

// maxPromptBytes bounds what is read of one prompt: past it, a prompt is a
// paste, and its first part holds what the user wrote about it.
const maxPromptBytes = 32 << 10

func readDay(in DayInput) *dayRead {
	day := &dayRead{}
	all := map[string]bool{}
	for _, p := range in.Projects {
		if p = strings.TrimSpace(p); p != "" {
			all[p] = true
		}
	}
	var sessionProjects []string
	for _, s := range in.Sessions {
		sr := sessionRead{project: strings.TrimSpace(s.Project), id: s.Session, corrections: map[string]bool{}}
		if sr.project != "" {
			all[sr.project] = true
			sessionProjects = append(sessionProjects, sr.project)
		}
		msgs := make([]Message, len(s.Messages))
		for i, m := range s.Messages {
			msgs[i] = m
			if m.Role != "user" || m.Meta {
				continue
			}
			if isHarnessText(m.Text) {
				msgs[i].Meta = true
				continue
			}
			day.prompts++
			prose, pasted := cleanPrompt(m.Text)
			said := splitClauseRules(reOpeners.ReplaceAllString(prose, "$1"))
			msgs[i].Text = said
			p := prompt{prose: prose, terms: termSet(prose), lead: recall.Default.Terms(prose, nil)}
			p.lead = p.lead[:min(3, len(p.lead))]
			p.substantive = len(p.terms) >= 3 && !isAck(prose)
			p.pasted = pasted
			p.said, p.source = said, source(s.Session, m.ID, i)
			sr.prompts = append(sr.prompts, p)
			if reCorrection.MatchString(prose) {
				sr.corrections[p.source] = true
			}
		}
		sr.cands, _ = Heuristic(msgs, s.Session)
		bySource := map[string]map[string]bool{} // a message's memories together: one sentence may give two
		for _, c := range sr.cands {
			ts := termSet(c.Description)
			sr.candTerms = append(sr.candTerms, ts)
			if bySource[c.Source] == nil {
				bySource[c.Source] = map[string]bool{}
			}
			maps.Copy(bySource[c.Source], ts)
		}
		for _, ts := range bySource {
			sr.candTerms = append(sr.candTerms, ts)
		}
		sr.quirks = sr.dataQuirks(in.Date)
		for _, q := range sr.quirks {
			sr.candTerms = append(sr.candTerms, termSet(q.l.Description))
		}
		day.sessions = append(day.sessions, sr)
	}
	for p, c := range in.Commits {
		if len(c) > 0 && strings.TrimSpace(p) != "" {
			all[strings.TrimSpace(p)] = true
		}
	}
	day.multi = len(all) > 1
	for p := range all {
		day.tagged = append(day.tagged, p)
	}
	day.tagged = sortedSet(day.tagged)
	day.projects = sortedSet(sessionProjects)
	if len(day.projects) == 0 {
		day.projects = sortedSet(in.Projects)
	}
	return day
}

// isHarnessText reports text the harness wrote in the user's turn: a
// slash command and its expansion, a command's output, a reminder, a
// hook's or a task's notification.
func isHarnessText(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" {
		return true
	}
	for _, p := range harnessPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if t[0] == '/' && len(t) > 1 && unicode.IsLetter(rune(t[1])) && !strings.Contains(strings.Fields(t)[0][1:], "/") {
		return true // "/clear", "/review 12"; not "/usr/local is …"
	}
	if t[0] == '<' && len(t) > 1 && unicode.IsLetter(rune(t[1])) {
		if end := strings.IndexByte(t, '>'); end > 0 && !strings.ContainsAny(t[1:end], " =\"") && strings.ContainsAny(t[1:end], "-_") {
			return true // "<task-notification>…", "<user-prompt-submit-hook>…"
		}
	}
	// A skill's or command's expansion: front matter, or a long markdown
	// document opening with a heading.
	return strings.HasPrefix(t, "---\n") || len(t) > 1500 && strings.HasPrefix(t, "# ")
}

// harnessPrefixes open texts Claude Code writes in the user's turn (the
// transcript parser marks them Meta; a reader that does not is covered).
var harnessPrefixes = []string{"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<system-reminder>", "[Request interrupted by user", "Caveat: The messages below",
	"Base directory for this skill:", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<ide_opened_file>",
	"<ide_selection>", "<ide_diagnostics>", "This session is being continued from a previous conversation"}

var (
	reLogLine = lazyre.New(`^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d|\[?\d{2}:\d{2}:\d{2}|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|PANIC|ERR|NOTICE|CRITICAL)\b|level=|time=|##\[|::(?:error|warning|group|notice)|---|===|\+\+\+|@@|>>>|\$ |PS [A-Z]:|[A-Z]:\\|at [\w$.<>]+\(|File "|Traceback|goroutine \d|panic:|(?:FAIL|PASS)\b|ok\s+\S+/|exit status|npm (?:ERR|WARN)|error(?:\[E\d+\])?:|warning:|Caused by:|\^|[\w./-]+\.(?:go|py|js|ts|tsx|jsx|rs|java|rb|c|cc|cpp|h|cs|kt|swift|php|sql|ya?ml|json|toml):\d+)`)
	// reOpeners are a sentence's openings that say how the user feels about
	// the last answer ("No, don't…"), which the extraction's rules do not
	// expect before a rule.
	reOpeners = lazyre.New(`(?im)(^|[.!?]\s+)(?:(?:(?:no|nope|actually|wait|hmm|well|right|yes|yeah|ok|okay)[,!]|that'?s (?:wrong|not right|not what i (?:meant|asked))[,.:!;]|wrong[,.:!])\s+)+`)
	// reClauseRule is a rule in the middle of a sentence ("the dates are
	// UTC, don't convert them"): it starts a sentence of its own
	// (splitClauseRules).
	reClauseRule = lazyre.New(`(?i)[,;:]\s+((?:please\s+)?(?:don'?t|do not|never|always|avoid)\s)`)
	// reCorrection opens a prompt that corrects the agent's last step.
	reCorrection = lazyre.New(`(?i)^\s*(?:(?:no|nope|wrong)[,.!:]|that'?s (?:wrong|not (?:right|it|what i (?:meant|asked)))\b)`)
	// reStillBroken is a prompt reporting on the task at hand: "the tests
	// fail now", "it still crashes".
	reStillBroken = lazyre.New(`(?i)\b(?:now|still|again|anymore|same)\b.*\b(?:fail|failing|fails|error|errors|broken|crash\w*|wrong|work|works|working)\b|\b(?:fail|failing|fails|error|errors|broken|crash\w*|wrong|work|works|working)\b.*\b(?:now|still|again|anymore)\b`)
	// reLivesAt says where something is: a pointer, not a topic.
	reLivesAt = lazyre.New(`(?i)\b(?:lives? (?:in|at|on)|is (?:at|in) https?:|are (?:at|in) https?:|(?:is|are) tracked in|(?:is|are) kept in|(?:is|are) filed in)\b`)
	// reIntro ends a line that introduces what the user pasted under it.
	reIntro = lazyre.New(`(?i)\b(?:log|logs|output|trace|traceback|stack|error|errors|says|said|email|message|pasted|copied|prints?|printed|result|results|response|diff|config)\b[^:]*:\s*$`)
)

// isLogLine reports a line that a program wrote, not a person: a log
// record, a stack frame, a test result, a shell prompt, code.
func isLogLine(line string) bool {
	if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ") {
		return true
	}
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	if reLogLine.MatchString(t) || strings.HasPrefix(t, `{"`) || strings.HasPrefix(t, "[{") {
		return true
	}
	if len(t) < 20 {
		return false
	}
	wordy := 0
	for _, r := range t {
		if unicode.IsLetter(r) || r == ' ' {
			wordy++
		}
	}
	return float64(wordy) < 0.6*float64(utf8.RuneCountInString(t))
}

// cleanPrompt keeps the user's own words of a prompt: code blocks, pasted
// logs (from the first log line of a paragraph to the end of the last
// paragraph holding one), what follows "here's the log:", quotes and
// indented code are left out. pasted says something was.
func cleanPrompt(text string) (prose string, pasted bool) {
	pasted = len(text) > maxPromptBytes || strings.Contains(text, "```")
	if len(text) > maxPromptBytes {
		n := maxPromptBytes
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		text = text[:n]
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if strings.Contains(text, "```") {
		text = reCodeFences.ReplaceAllString(text, "\n\n")
	}
	if i := strings.Index(text, "```"); i >= 0 {
		text = text[:i] // an unclosed fence runs to the end
	}
	paras := strings.Split(text, "\n\n")
	first, last := -1, -1
	for i, p := range paras {
		for _, l := range strings.Split(p, "\n") {
			if isLogLine(l) {
				if first < 0 {
					first = i
				}
				last = i
				break
			}
		}
	}
	var kept []string
	intro := false // the previous paragraph ended by introducing a paste
	for i, p := range paras {
		if intro && strings.TrimSpace(p) != "" {
			intro, pasted = false, true
			continue
		}
		if first >= 0 && i > first && i <= last {
			continue
		}
		for j, l := range strings.Split(p, "\n") {
			if i == first && isLogLine(l) {
				pasted = true
				break // the rest of the paragraph is the paste
			}
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			if strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|") || isLogLine(l) {
				pasted = true
				continue
			}
			kept = append(kept, t)
			if introduces(t) {
				pasted = pasted || j < strings.Count(p, "\n")
				break // "here's the log:" and what follows it in the paragraph
			}
		}
		if n := len(kept); n > 0 && introduces(kept[n-1]) && i != first {
			intro = true
		}
	}
	return strings.Join(kept, "\n"), pasted || first >= 0
}

// introduces reports a line that introduces a paste under it: "here's
// the log:".
func introduces(line string) bool {
	return strings.HasSuffix(strings.TrimSpace(line), ":") && reIntro.MatchString(line)
}

// termSet is the stemmed content words of s.
func termSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range recall.Default.Terms(s, nil) {
		if len(t) > 1 {
			m[t] = true
		}
	}
	return m
}

// ackWords are the words of a prompt that only acknowledges or nudges.
var ackWords = map[string]bool{"yes": true, "yeah": true, "yep": true, "yup": true, "ok": true, "okay": true, "k": true,
	"sure": true, "please": true, "pls": true, "do": true, "it": true, "that": true, "this": true, "go": true, "ahead": true,
	"continue": true, "proceed": true, "thanks": true, "thank": true, "you": true, "thx": true, "great": true, "perfect": true,
	"good": true, "nice": true, "cool": true, "lgtm": true, "sounds": true, "looks": true, "fine": true, "right": true,
	"alright": true, "on": true, "keep": true, "going": true, "next": true, "again": true, "try": true, "now": true,
	"and": true, "the": true, "same": true, "both": true, "all": true, "of": true, "them": true, "awesome": true,
	"done": true, "let's": true, "lets": true, "agreed": true, "correct": true, "exactly": true, "no": true, "nope": true,
	"wait": true, "hmm": true, "commit": true, "push": true, "it's": true, "works": true, "working": true, "now?": true,
	"go.": true, "one": true, "option": true, "first": true, "second": true, "a": true, "b": true, "1": true, "2": true,
	"3": true, "with": true, "is": true, "me": true, "to": true, "for": true, "so": true, "much": true, "just": true}

// isAck reports a prompt that only acknowledges, approves or nudges.
func isAck(prose string) bool {
	words := strings.FieldsFunc(strings.ToLower(prose), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for _, w := range words {
		if !ackWords[w] {
			return false
		}
	}
	return true
}

// topics are the day's subjects: each session's first substantive prompt
// (taken in turn across the projects), then later prompts that change the
// subject, as short phrases.
func (day *dayRead) topics() []string {
	type topic struct {
		project, phrase string
		terms           map[string]bool
	}
	var firsts []topic
	var shifts []topic
	byProject := map[string][]topic{}
	var order []string
	for _, s := range day.sessions {
		seen := map[string]bool{}
		found := false
		for _, p := range s.prompts {
			if !p.substantive {
				continue
			}
			old := 0
			for t := range p.terms {
				if seen[t] {
					old++
				}
			}
			sameThing := false
			for _, t := range p.lead {
				sameThing = sameThing || seen[t]
			}
			newSubject := !found || len(p.terms) >= 4 && float64(old) <= 0.25*float64(len(p.terms)) &&
				!sameThing && !p.pasted && !continues(p.prose)
			for t := range p.terms {
				seen[t] = true
			}
			if !newSubject {
				continue
			}
			phrase := topicPhrase(p.prose, s.isCandidate)
			if phrase == "" {
				continue
			}
			t := topic{project: s.project, phrase: phrase, terms: termSet(phrase)}
			if !found {
				found = true
				if _, ok := byProject[s.project]; !ok {
					order = append(order, s.project)
				}
				byProject[s.project] = append(byProject[s.project], t)
				continue
			}
			shifts = append(shifts, t)
		}
	}
	for i := 0; len(firsts) < maxTopics; i++ {
		added := false
		for _, p := range order {
			if i < len(byProject[p]) {
				firsts = append(firsts, byProject[p][i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	var out []string
	var kept []topic
	for _, t := range append(firsts, shifts...) {
		if len(out) == maxTopics {
			break
		}
		dup := false
		for _, k := range kept {
			if k.project == t.project && overlap(k.terms, t.terms) >= 0.5 {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		kept = append(kept, t)
		line := t.phrase
		if day.multi && t.project != "" {
			line = t.project + ": " + line
		}
		out = append(out, line)
	}
	return out
}

// continues reports a prompt that carries on the subject before it: "it
// still fails", "that's wrong", "no, …".
func continues(prose string) bool {
	f := strings.Fields(strings.ToLower(prose))
	if len(f) == 0 {
		return true
	}
	switch strings.Trim(f[0], ",.!:;") {
	case "it", "it's", "its", "that", "that's", "this", "these", "those", "still", "same", "again", "but", "and", "looks", "seems", "apparently",
		"wait", "hmm", "no", "nope", "yes", "ok", "okay", "then", "instead", "actually":
		return true
	}
	return reStillBroken.MatchString(prose)
}

// leadIns are openings a topic phrase drops: greetings, fillers, the
// politeness of a request.
var leadIns = []string{"ok so", "okay so", "alright so", "so", "ok", "okay", "alright", "right", "hey", "hi", "hello",
	"good morning", "morning", "well", "hmm", "now", "next", "also", "and", "please", "pls", "great", "thanks", "cool",
	"can you please", "could you please", "can you", "could you", "would you", "will you", "can we", "could we",
	"let's", "lets", "let us", "i want you to", "i'd like you to", "i need you to", "i want to", "i'd like to",
	"i need to", "we need to", "i think we should", "we should", "help me", "i'm trying to", "i am trying to", "try to",
	"look at something else", "something else", "another thing", "one more thing", "different topic", "new task",
	"moving on", "switching gears", "fyi", "heads up", "note that", "just so you know", "separately", "while you're at it", "while you are at it", "next task", "on another note", "change of topic", "by the way", "btw"}

// topicPhrase makes a topic of a prompt: its first sentence with something
// to say, without lead-ins, cut at a clause to at most 12 words; "" when
// no sentence will do (or each one holds a secret).
func topicPhrase(prose string, skip func(string) bool) string {
	for _, s := range sentences(prose) {
		if _, found := redact.String(s); len(found) > 0 || ProseSecret(s) || skip(s) || reLivesAt.MatchString(s) {
			continue
		}
		p := stripLeadIns(s)
		// The first clause, when it says enough alone.
		for _, sep := range []string{"; ", " — ", " – ", " - ", ": ", " (", ", because", " because ", ", since", ", so ", ", but ", ", "} {
			if i := strings.Index(p, sep); i > 0 && len(strings.Fields(p[:i])) >= 4 {
				p = p[:i]
			}
		}
		words := strings.Fields(p)
		if len(words) > 12 {
			words = words[:12]
		}
		for len(words) > 2 && (danglingWords[strings.ToLower(strings.Trim(words[len(words)-1], ",;:"))] ||
			titleDangling[strings.ToLower(strings.Trim(words[len(words)-1], ",;:"))]) {
			words = words[:len(words)-1]
		}
		p = strings.TrimRight(strings.Join(words, " "), " ,;:.!?—–-")
		for _, tail := range []string{" with this", " like this", " with this error", " here", " for me"} {
			if len(p) > len(tail) && strings.EqualFold(p[len(p)-len(tail):], tail) {
				p = p[:len(p)-len(tail)]
			}
		}
		if len(termSet(p)) < 2 || isAck(p) {
			continue
		}
		return capitalize(oneLine(p, maxTopicBytes))
	}
	return ""
}

func stripLeadIns(s string) string {
	for changed := true; changed; {
		changed = false
		for _, l := range leadIns {
			if len(s) > len(l) && strings.EqualFold(s[:len(l)], l) && !isWordByte(s[len(l)]) {
				s = strings.TrimLeft(s[len(l):], " ,.!:;-—")
				changed = true
			}
		}
	}
	return s
}

func isWordByte(c byte) bool {
	return c == '\'' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// splitClauseRules starts a sentence at each rule in the middle of one
// (reClauseRule), unless what comes before it in its sentence only leads
// into it: "From now on, always run make lint" is one rule, not a "From
// now on" and a rule.
func splitClauseRules(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range reClauseRule.FindAllStringSubmatchIndex(s, -1) {
		head := s[:m[0]]
		if i := strings.LastIndexAny(head, ".!?\n"); i >= 0 {
			head = head[i+1:]
		}
		if !ruleBefore(head) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(". ")
		b.WriteString(s[m[2]:m[3]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
