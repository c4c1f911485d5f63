package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file cuts a message into the sentences classify reads: at ends of
// sentences (not at "Dr." or "2.0", and at an aside's close or an emoji),
// after a label that only announces what follows, with the rule
// fragments between them and what a speaker took back left out.

// sentences splits text into sentences of three words or more, keeping
// URLs whole.
func sentences(text string) []string {
	out, _ := sentencesAndFragments(text)
	return out
}

// sentencesAndFragments is sentences, and the rule fragments between them
// (ruleFragment: "never -auto-approve.", "debian-slim only."): frags[i]
// are those just before sentence i, frags[len(out)] those after the last.
func sentencesAndFragments(text string) (out []string, frags [][]string) {
	text = numberedItems(text)
	// Protect the dots of URLs and of file names from the splitter.
	urls := reURL.FindAllString(text, -1)
	for i, u := range urls {
		u = strings.TrimRight(u, ".,;:!?") // "…https://dojo.sec.internal. and i'm…": the dot ends the sentence
		urls[i] = u
		text = strings.Replace(text, u, fmt.Sprintf("\x00%d\x00", i), 1)
	}
	var pending []string
	sents := splitSentences(text)
	for i, s := range sents {
		sents[i] = unwrapAside(strings.TrimSpace(s))
	}
	for _, s := range splitLabels(sents) {
		for i, u := range urls {
			s = strings.ReplaceAll(s, fmt.Sprintf("\x00%d\x00", i), u)
		}
		s = strings.TrimSpace(s)
		switch {
		case len(strings.Fields(s)) >= 3 || insteadShort(s):
			out = append(out, s)
			frags = append(frags, pending)
			pending = nil
		case ruleFragment(s):
			pending = append(pending, s)
		}
	}
	return out, append(frags, pending)
}

// numberedItems puts each item of a numbered list after a label on a
// line of its own: "going forward: 1. branch names like feat/<ticket>
// 2. no force-push after review started" is two items, not a sentence
// that ends at "1.". A label that says the items hold from now on
// ("going forward") is said again before each one.
func numberedItems(text string) string {
	i := strings.Index(text, "1. ")
	for i > 0 && !strings.HasSuffix(strings.TrimRight(text[:i], " \t\n"), ":") {
		j := strings.Index(text[i+3:], "1. ")
		if j < 0 {
			return text
		}
		i += 3 + j
	}
	if i < 0 || i > 0 && wordAt(text, i-1) {
		return text
	}
	head := strings.TrimRight(text[:i], " \t\n")
	var items []string
	from := i + 3
	for k := 2; ; k++ {
		marker := strconv.Itoa(k) + ". "
		j := strings.Index(text[from:], marker)
		if j < 0 || j == 0 || text[from+j-1] != ' ' && text[from+j-1] != '\n' {
			break
		}
		items = append(items, text[from:from+j])
		from += j + len(marker)
	}
	if len(items) == 0 {
		return text
	}
	last, rest, _ := strings.Cut(text[from:], "\n")
	items = append(items, last)
	label := head[strings.LastIndexAny(head, ".!?\n")+1:]
	prefix := ""
	if standingLabel(strings.TrimSuffix(strings.TrimSpace(asciiLower(label)), ":")) {
		prefix = strings.TrimSuffix(strings.TrimSpace(label), ":") + ", "
	}
	var b strings.Builder
	b.WriteString(head)
	for _, it := range items {
		b.WriteString("\n" + prefix + strings.TrimSpace(it))
	}
	if rest != "" {
		b.WriteString("\n" + rest)
	}
	return b.String()
}

// standingLabel reports a label that says what follows holds from now on,
// which reads as well before each item.
func standingLabel(l string) bool {
	switch l {
	case "going forward", "from now on", "in future", "in the future", "for the future", "from today on":
		return true
	}
	return false
}

// splitLabels cuts a sentence after a short head that labels what
// follows: "quick one before i forget: i'm the PI of a small CFD group",
// "release plan: 1.9.0 goes out on the 15th". Text that addresses AI
// agents, or holds a secret ("here's a grafana api token: glsa_…"),
// stays whole, so that it is refused whole.
func splitLabels(sents []string) []string {
	var out []string
	for _, s := range sents {
		i := strings.Index(s, ": ")
		if i <= 0 || reToAgents.MatchString(s) || strings.Contains(s[:i], "://") || len(secretKinds(s)) > 0 {
			out = append(out, s)
			continue
		}
		head, rest := s[:i], s[i+2:]
		if n := len(strings.Fields(head)); n == 0 || n > 10 || len(strings.Fields(rest)) < 3 || !contextLabel(head) {
			out = append(out, s)
			continue
		}
		out = append(out, head+":", rest)
	}
	return out
}

// contextLabel reports a head that only announces what follows ("quick
// one before i forget", "some context", "release plan", "heads up on
// dates"), or one that says who the speaker is ("context, since i'm the
// payments platform lead here"). Whose words follow ("the candidate said",
// "my buddy at stripe"), what they hold for ("for this PR", "for now") and
// where they come from ("AGENTS.md", "the linter output") are not cut off.
func contextLabel(head string) bool {
	if ruleLabel(head) {
		return false // the rule it heads is read with it (classifyAll)
	}
	l := asciiLower(head)
	for _, q := range []string{" so quick", " so quickly", " so briefly", " real quick"} {
		if strings.HasSuffix(l, q) {
			return true // "in a meeting w/ the dean at 2 so quick": what follows is said in haste
		}
	}
	if w := strings.Fields(strings.NewReplacer(",", " ", "-", " ").Replace(l)); len(w) <= 10 {
		for i, x := range w[:min(len(w), 4)] {
			if x != "context" && x != "background" && x != "bg" {
				continue
			}
			// "ok some context since you keep asking me things lol", "quick
			// bg", "context for you"; not "background jobs", "context menu".
			if i == len(w)-1 || w[i+1] == "since" || w[i+1] == "for" || w[i+1] == "on" || w[i+1] == "about" {
				return true
			}
		}
	}
	if reSelf.MatchString(strings.TrimPrefix(strings.TrimPrefix(l, "context, since "), "context since ")) || strings.Contains(l, "since i'm") || strings.Contains(l, "since i am") {
		return true
	}
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' }) {
		if !labelWords()[w] {
			return false
		}
	}
	return true
}

var labelWords = sync.OnceValue(func() map[string]bool {
	return wordSet(`quick one before i forget context bg background bit of some more heads up on dates date release plan plans planning
		fyi btw ok so also and oh couple things thing for later update updates status reminder timeline schedule the our
		a few me about who i am important very super really crucial critical hard golden ground rule rules`)
})

// ruleLabel reports a head that names what follows as a rule, or as what
// must hold: "hard rule", "golden rule here", "rule in our fork", "house
// rules", "very important".
func ruleLabel(head string) bool {
	if reForAllWork.MatchString(head) {
		return true
	}
	w := strings.Fields(strings.Trim(asciiLower(head), " .,-"))
	if len(w) == 0 || len(w) > 6 {
		return false
	}
	named := false
	for _, x := range w {
		switch x {
		case "rule", "rules", "policy", "convention", "conventions", "important", "crucial", "critical", "essential", "non-negotiable", "mandatory":
			named = true
		case "here", "in", "for", "on", "of", "this", "our", "my", "the", "a", "one", "team", "house", "repo", "fork", "project", "codebase", "company", "number", "main", "strict", "simple",
			"general", "big", "iron", "cardinal", "unwritten", "thumb", "across", "all", "hard", "golden", "ground", "very", "super", "really", "most", "and", "also", "btw", "oh", "ok", "so", "nb":
		default:
			return false
		}
	}
	return named
}

// reForAllWork is a head that says what follows holds for all the work:
// "two things for everything you write", "for anything you touch in
// infra".
var reForAllWork = gate(lazyre.New(`(?i)^(?:(?:one|two|three|a few|some) things?,? )?for (?:everything|anything|all(?: the)? (?:code|work|stuff|changes|prs)|every (?:change|pr|file|commit|script|module)) (?:you|we) (?:write|do|touch|ship|build|add|change|make)(?: for (?:us|this (?:project|repo|team))| in (?:this|the|our) (?:repo|project|codebase)| in [a-z][\w+#-]*)?$`))

// styleHead reports a label naming a way of doing a kind of work: "for
// PoC style", "commit message conventions", "test naming".
func styleHead(head string) bool {
	w := strings.Fields(strings.Trim(asciiLower(head), " .,-"))
	if len(w) == 0 || len(w) > 4 {
		return false
	}
	switch w[len(w)-1] {
	case "style", "conventions", "naming", "guidelines", "etiquette":
		return true
	}
	return false
}

// ruleFragment reports a sentence of two words that is a rule all the
// same: "never -auto-approve.", "no alpine.", "debian-slim only.".
func ruleFragment(s string) bool {
	if strings.HasSuffix(strings.TrimSpace(s), "?") {
		return false
	}
	w := strings.Fields(strings.TrimRight(asciiLower(s), ".!"))
	if len(w) == 3 && w[2] == "only" && !notRule()[w[0]] && !notRule()[w[1]] && !firstPerson(w[0]) {
		return true // "widget tests only."
	}
	if len(w) != 2 || notRule()[w[1]] || notRule()[w[0]] {
		return false
	}
	switch w[0] {
	case "never", "always", "avoid", "only", "no":
		return true
	}
	return w[1] == "only"
}

// notRule are the words of a two-word reply that is no rule: "no
// thanks", "never mind", "only kidding", "always welcome", "me only".
var notRule = sync.OnceValue(func() map[string]bool {
	return wordSet(`thanks thank worries problem problems prob idea clue way rush biggie need no sir please kidding joking luck
		errors error change changes hurry pressure sweat comment comments mind again once welcome heard me you us them it that this`)
})

// reRetract is a speaker taking back what they just said: "the black
// friday code freeze, wait no, wrong season".
var reRetract = gate(lazyre.New(`(?i)\b(?:(?:wait|hold on|oh),? no|scratch that|never ?mind|actually no|no wait)\s*[,.;:!—–-]+`))

// unsaid is what is left of a sentence once what its speaker took back is
// gone: the words before the last retraction.
func unsaid(s string) string {
	locs := reRetract.FindAllStringIndex(s, -1)
	if len(locs) == 0 || locs[len(locs)-1][0] == 0 {
		return s
	}
	return strings.TrimSpace(s[locs[len(locs)-1][1]:])
}

// reJoking is a message that takes back what it says.
var reJoking = gate(lazyre.New(`(?i)\b(?:only|just) (?:kidding|joking)\b|\bjk\b`))

// joinFragment adds a rule fragment to a rule of the same message: before
// its text, or after it. A fragment that holds a secret is not joined:
// the memory is saved, the fragment is counted as skipped.
func joinFragment(c *Candidate, frag string, before bool, sk *Skipped) {
	if kinds := secretKinds(frag); len(kinds) > 0 {
		sk.skipSecret(kinds)
		return
	}
	frag = strings.TrimRight(strings.TrimSpace(frag), ".!")
	first, rest, _ := strings.Cut(c.Body, "\n\n")
	sentence := strings.ToUpper(frag[:1]) + frag[1:] + "."
	if before {
		c.Description = oneLine(frag+"; "+c.Description, 200)
		first = sentence + " " + first
	} else {
		c.Description = oneLine(c.Description+"; "+frag, 200)
		first = strings.TrimRight(first, "\n") + " " + sentence
	}
	if rest != "" {
		first += "\n\n" + rest
	} else if !strings.HasSuffix(first, "\n") {
		first += "\n"
	}
	c.Body = first
}

// foldRules makes one memory of the rules one sentence gives: "always go
// thru the DataUpdateCoordinator, never poll inside an entity's update(),
// otherwise the review bounces it" is one rule said from both sides, and
// two memories of it would each hold half.
func foldRules(cands []Candidate) []Candidate {
	first := slices.IndexFunc(cands, func(c Candidate) bool { return c.Type == "feedback" })
	if first < 0 {
		return cands
	}
	out := cands[:first+1]
	for _, c := range cands[first+1:] {
		if c.Type != "feedback" {
			out = append(out, c)
			continue
		}
		f := &out[first]
		rule, why, _ := strings.Cut(c.Body, "\n\n")
		head, rest, _ := strings.Cut(f.Body, "\n\n")
		f.Description = oneLine(f.Description+"; "+c.Description, 200)
		head = strings.TrimRight(head, "\n") + " " + strings.TrimSpace(rule)
		switch {
		case rest == "":
			rest = why // the reason was said with the second half
		case why != "":
			// Each half had its own reason: the Why line holds both.
			r1, r2 := whyOfBody(rest), whyOfBody(why)
			if r2 != "" && !strings.Contains(asciiLower(r1), asciiLower(r2)) {
				rest = strings.Replace(rest, "**Why:** "+r1, "**Why:** "+r1+" "+r2, 1)
			}
		}
		if rest != "" {
			head += "\n\n" + rest
		}
		f.Body = strings.TrimRight(head, "\n") + "\n"
	}
	return out
}

// sharedStems counts the content stems two statements share.
func sharedStems(a, b string) int {
	na, aa := Polarity(a)
	nb, ab := Polarity(b)
	n := 0
	for w := range na {
		if nb[w] || ab[w] {
			n++
		}
	}
	for w := range aa {
		if !na[w] && (nb[w] || ab[w]) {
			n++
		}
	}
	return n
}

// withoutWhy is rule c less its Why line when that line is what other
// says: the other side of the rule, read as its reason before it was
// read as a rule.
func withoutWhy(c Candidate, other string) Candidate {
	head, rest, ok := strings.Cut(c.Body, "\n\n")
	if !ok || !strings.EqualFold(strings.TrimRight(whyOfBody(rest), ".! "), strings.TrimRight(other, ".! ")) {
		return c
	}
	c.Body = strings.TrimRight(head, "\n") + "\n"
	return c
}

// bannedRule reports a rule that forbids: "dont hand-edit the yml",
// "never run it by hand", "no anyclass ToJSON".
func bannedRule(desc string) bool {
	w, _, _ := strings.Cut(asciiLower(strings.TrimSpace(desc)), " ")
	switch strings.Trim(w, ",.!") {
	case "dont", "don't", "never", "no", "not", "avoid", "stop", "nothing":
		return true
	}
	return false
}

// whyOfBody is the text of a body part's **Why:** line.
func whyOfBody(b string) string {
	_, r, ok := strings.Cut(b, "**Why:** ")
	if !ok {
		return ""
	}
	r, _, _ = strings.Cut(r, "\n")
	return r
}

// abbreviation reports whether text ends in a title or an abbreviation
// whose dot ends no sentence, given the text after the dot: "pilot with
// Dr. Okafor", "my advisor is Prof. Okonkwo", "e.g. redis". "I talked to
// the prof. He says…" ends one.
func abbreviation(text, after string) bool {
	if dottedDay(text, after) {
		return true
	}
	i := len(text)
	for i > 0 && (asciiLetter(text[i-1]) || text[i-1] == '.') {
		i--
	}
	switch asciiLower(text[i:]) {
	case "dr", "mr", "mrs", "e.g", "i.e", "eg", "ie", "vs":
	case "prof":
		next, _, _ := strings.Cut(strings.TrimSpace(after), " ")
		if opener(asciiLower(next)) {
			return false
		}
	default:
		return false
	}
	return i == 0 || !asciiLetter(text[i-1])
}

// dottedDay reports a day written with a dot, as German and others write
// it, before a month or the other end of a range: "on 2. March", "from 16.
// to 27. Feb".
func dottedDay(text, after string) bool {
	i := len(text)
	for i > 0 && text[i-1] >= '0' && text[i-1] <= '9' {
		i--
	}
	if n := len(text) - i; n == 0 || n > 2 || i > 0 && text[i-1] != ' ' && text[i-1] != '(' {
		return false
	}
	w := strings.Fields(asciiLower(after[:min(len(after), 20)]))
	if len(w) == 0 {
		return false
	}
	if w[0] == "to" || w[0] == "-" || w[0] == "bis" {
		return true
	}
	_, ok := months[strings.Trim(w[0], ".,")]
	return ok
}

// opener reports a word that opens sentences rather than names someone.
func opener(w string) bool {
	switch w {
	case "", "i", "he", "she", "they", "we", "you", "it", "the", "this", "that", "but", "and", "so", "then", "also", "anyway":
		return true
	}
	return false
}

// dictationMarks are the words people talk between thoughts with, where
// a sentence said without stops is cut; fillers ("um") are dropped.
var dictationMarks = []struct {
	words string
	drop  bool
}{
	{"um", true}, {"umm", true}, {"uh", true}, {"uhh", true}, {"uhm", true}, {"erm", true},
	{"the thing is", true}, {"so yeah", false}, {"anyway", false}, {"anyways", false}, {"oh and", false},
	{"honestly", false}, {"okay so", false}, {"ok so", false}, {"btw", false}, {"and also heads up", false},
}

// dictatedAll is sents with each one said without stops cut where its
// speaker paused (dictated), and frags (see sentencesAndFragments) kept
// before the first piece of theirs. The learned readers' training
// sentences are cut without it, so their models stay as trained.
func dictatedAll(sents []string, frags [][]string) ([]string, [][]string) {
	var out []string
	var fr [][]string
	for i, s := range sents {
		for j, p := range dictated(s) {
			out = append(out, p)
			if j == 0 {
				fr = append(fr, frags[i])
			} else {
				fr = append(fr, nil)
			}
		}
	}
	return out, append(fr, frags[len(sents)])
}

// dictated cuts a long sentence said without stops, as people dictate or
// type in one breath, at the words they talk between thoughts with: "no
// not moment we ripped it out it's huge use date-fns um and also please
// always test on the Pixel 4a emulator" is two sentences. A sentence
// with its commas, or a short one, stays whole: its own stops say where
// its thoughts end.
func dictated(s string) []string {
	w := strings.Fields(s)
	if len(w) < 30 || strings.Contains(s, "\n") || strings.Count(s, ",")+strings.Count(s, ";")+strings.Count(s, " — ")+strings.Count(s, ": ") > len(w)/15 {
		return []string{s}
	}
	var out []string
	start := 0 // the word the current piece opens with
	for i := 1; i < len(w); i++ {
		if i-start >= 3 && asciiLower(w[i]) == "it" && asciiLower(w[i-1]) == "it" && prepositions()[asciiLower(w[i-2])] {
			// "Femi signed off on it it has to ship in 4.14": one
			// thought's object, the next one's subject.
			out = append(out, strings.Join(w[start:i], " "))
			start = i
			continue
		}
		if i-start >= 3 && i+2 < len(w) && ruleOpener(w[i+2]) && (sameWords(w[i:i+2], []string{"and", "also"}) || i+3 < len(w) && sameWords(w[i:i+3], []string{"by", "the", "way"}) && ruleOpener(w[i+3])) {
			// "…for everything in this monorepo and also never bump the
			// major version of react": another rule, said in one breath.
			out = append(out, strings.Join(w[start:i], " "))
			start = i
			continue
		}
		for _, m := range dictationMarks {
			mw := strings.Fields(m.words)
			if i+len(mw) > len(w) || i-start < 3 || !sameWords(w[i:i+len(mw)], mw) {
				continue
			}
			out = append(out, strings.Join(w[start:i], " "))
			start = i
			if m.drop {
				start = i + len(mw)
			}
			i += len(mw) - 1
			break
		}
	}
	if start < len(w) {
		out = append(out, strings.Join(w[start:], " "))
	}
	for i, p := range out {
		// "never commit directly to main and | honestly …": the piece
		// ends where its thought did.
		for {
			l := asciiLower(p)
			cut := false
			for _, c := range []string{" and", " so", " but", " or", " because"} {
				if strings.HasSuffix(l, c) && len(strings.Fields(p)) > 3 {
					p, cut = strings.TrimSpace(p[:len(p)-len(c)]), true
				}
			}
			if !cut {
				break
			}
		}
		out[i] = p
	}
	return out
}

// ruleOpener reports a word a rule opens with.
func ruleOpener(w string) bool {
	switch asciiLower(w) {
	case "never", "always", "dont", "don't", "please", "make":
		return true
	}
	return false
}

// sameWords reports whether the words of a sentence are marks, any case,
// the last one with no stop after it.
func sameWords(ws, marks []string) bool {
	for i, m := range marks {
		if asciiLower(ws[i]) != m {
			return false
		}
	}
	return true
}

// toolOutput reports a line more figures and signs than words, as tools
// print them and people paste them: "change: [-98.41% -98.37% -98.33%]
// (p = 0.00 < 0.05)", "time: [3.812 us 3.901 us 4.004 us]".
func toolOutput(s string) bool {
	if logLine(s) {
		return true
	}
	s = reISODate.ReplaceAllString(s, "day") // "RC is 2026-03-25, GA is 2026-04-01" is talk
	letters, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r) || strings.ContainsRune("[]()<>=%|+-*/:.#_", r):
			other++
		}
	}
	return other >= 12 && letters < other
}

// withoutLogLines is text less its lines a program logged (logLine),
// pasted without a fence.
func withoutLogLines(text string) string {
	if !strings.Contains(text, "ERR") && !strings.Contains(text, " WARN") && !strings.Contains(text, " INFO ") && !strings.Contains(text, " DEBUG ") && !strings.Contains(text, " FATAL ") && !strings.Contains(text, " TRACE ") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if logLine(l) {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// logLine reports a line a program logged: "npm ERR! code ERESOLVE",
// "2026-03-02 09:58:11 WARN [pool-3] HikariPool-1 - Connection is not
// available": a level in capitals after a time of day, or npm's.
func logLine(s string) bool {
	if strings.Contains(s, "npm ERR!") {
		return true
	}
	for _, lvl := range []string{" ERROR ", " WARN ", " WARNING ", " INFO ", " DEBUG ", " FATAL ", " TRACE "} {
		i := strings.Index(s, lvl)
		if i < 0 {
			continue
		}
		before := s[:i]
		if j := strings.LastIndexByte(before, ':'); j >= 2 && j+3 <= len(before) && isDigits(before[j-2:j]) && isDigits(before[j+1:j+3]) {
			return true // "09:58:11 WARN"
		}
	}
	return false
}

// splitSentences cuts text after . ! or ? followed by a space or the end,
// and at line ends: "2.0", ".sql" and "Dr. Okafor" stay whole.
func splitSentences(text string) []string {
	var out []string
	start := 0
	depth := 0 // parentheses open in the sentence so far, opened after a space
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := -1
		switch {
		case c == '(' && (i == start || text[i-1] == ' '):
			depth++ // not ":(", ":-(", "\\("
		case c == ')' && depth > 0:
			depth--
		case c == '\n':
			end = i
		case c == 0xF0 && i+4 < len(text) && text[i+4] == ' ' && emojiAt(text[i:]) && (strings.TrimSpace(text[start:i]) == "" || opensSentence(text[i+5:])):
			end = i + 4 // "…skip the basics 🙂 today: bloat on…"
			i += 3
		case c == '.' || c == '!' || c == '?':
			j := i
			for j+1 < len(text) && strings.IndexByte(".!?", text[j+1]) >= 0 {
				j++
			}
			if j+2 < len(text) && text[j+1] == ')' && (text[j+2] == ' ' || text[j+2] == '\n') && strings.HasPrefix(strings.TrimSpace(text[start:i]), "(") {
				j++ // "(… go straight to the point.) driver log": the aside ends the sentence
			}
			if depth > 0 && closesSoon(text[j+1:]) {
				i = j
				break // "(login is lab / hunter2! dont save that pls)": the aside goes on
			}
			if (j+1 == len(text) || text[j+1] == ' ' || text[j+1] == '\t' || text[j+1] == '\n') && !(c == '.' && j == i && abbreviation(text[:i], text[j+1:])) {
				end = j + 1
				i = j
			}
		}
		if end >= 0 {
			out = append(out, text[start:end])
			start, depth = end, 0
		}
	}
	return append(out, text[start:])
}

// closesSoon reports whether a parenthesis open before a sentence end
// closes on the same line within 200 bytes of it, after (the text past the
// end's punctuation) not opening with it: "(login is lab / hunter2! dont
// save that)" goes on; "(… go straight to the point.) driver log" is
// splitSentences' own case.
func closesSoon(after string) bool {
	if strings.HasPrefix(after, ")") {
		return false
	}
	after = after[:min(len(after), 200)]
	k := strings.IndexByte(after, ')')
	return k > 0 && !strings.Contains(after[:k], "\n")
}

// handOver reports the speaker's own leave and who covers it, one fact:
// "I am on vacation from the 1st, Dmitri reviews your PRs then".
func handOver(s string) bool {
	l := asciiLower(s)
	return mayHold(l, []string{"i'm on ", "i am on ", "im on ", "i'm off", "im off", "i am off", "i'm away", "im away", "i am away",
		"i'll be ", "ill be ", "i will be ", "i'm out", "im out", "i am out", "my vacation", "my leave", "my holiday", "i'm ooo", "im ooo"}) &&
		mayHold(l, []string{" then", "meanwhile", "while", "until", "in the meantime"})
}

// splitOwners cuts a self-description from who does what said after it:
// "I own the oscillators + filters, Mei does all the UI and Jonas does
// builds/installers" is who the speaker is and who the others are, a
// user memory and a project one. frags (sentencesAndFragments's, one more
// than sents) stays in step: a sentence cut in two has no fragment before
// its second half. The learned readers are trained on sentences as
// Sentences cuts them, without this.
func splitOwners(sents []string, frags [][]string) ([]string, [][]string) {
	var out []string
	var fr [][]string
	for i, s := range sents {
		fr = append(fr, frags[i])
		cut := -1
		for _, m := range reOwnerTyped.FindAllStringSubmatchIndex(s, -1) {
			at := m[4] // the name
			if m[2] >= 0 {
				at = m[2] // "my colleague …"
			}
			head := strings.TrimRight(s[:at], " ")
			if (strings.HasSuffix(head, ",") || strings.HasSuffix(head, ";")) && isSelf(head) && ownerTyped(s[at:]) && !handOver(s) {
				cut = at
				break
			}
		}
		if cut < 0 {
			out = append(out, s)
			continue
		}
		tail := strings.TrimLeft(s[cut:], " ,;(")
		out = append(out, strings.TrimRight(s[:cut], " ,;")+".", strings.ToUpper(tail[:1])+tail[1:])
		fr = append(fr, nil)
	}
	return out, append(fr, frags[len(sents)])
}
