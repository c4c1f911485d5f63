package extract

import (
	"slices"
	"strings"
	"unicode"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads what a person says of themselves (issue 17): who they
// are, what they know, where they work and when, in a sentence's own
// clauses, and which sentences about someone else are the team's.

// selfAction reports a sentence about what the speaker is doing, not
// who they are: "i'm taking the lead on this migration", "i'm pinging the
// admin", "i manage to reproduce it", "i handle the css, you do the rest".
func selfAction(l string) bool {
	w := strings.Fields(l)
	if len(w) > 1 && strings.HasSuffix(w[1], "ing") {
		return true
	}
	if neverThis(w) {
		return true
	}
	return mayHold(l, []string{"manage to", "a bit ", "a little ", "you do ", "you handle", "you take"})
}

// neverThis reports experience with one thing of this task: "ive never
// touched this file before".
func neverThis(w []string) bool {
	for i := 0; i+2 < len(w); i++ {
		if w[i] == "never" && (w[i+2] == "this" || w[i+2] == "that" || w[i+2] == "the" || w[i+2] == "it") {
			return true
		}
	}
	return false
}

// selfClauses cuts a sentence into the self-descriptions it holds, each
// with the clauses after it that say more ("I've been doing sre for 6
// years, mostly GCP" | "new to aws"), or nil.
func selfClauses(s string) []string {
	var parts []string
	cuts := clauseCuts(s)
	for k, c := range cuts {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		if c.at+c.n <= end {
			parts = append(parts, s[c.at+c.n:end])
		}
	}
	var out []string
	now := false      // a clause that holds only now was left out
	var kept []string // the clauses that were not
	for i, p := range parts {
		if i > 0 && condition(parts[i-1]) {
			continue // "when the probe don't connect, I do connect-under-reset": what they do then, not who they are
		}
		p = read(p).text
		for _, adv := range []string{"normally ", "usually ", "otherwise "} {
			if len(p) > len(adv) && strings.EqualFold(p[:len(adv)], adv) {
				p = p[len(adv):] // "normally i'm on the platform team"
			}
		}
		if reNowOnly.MatchString(p) {
			now = true
			continue // "i'm incident commander today": not who they are
		}
		kept = append(kept, strings.TrimSpace(parts[i]))
		named := "" // "I am Giulia, postdoc in the genomics lab": the role, said of the name
		if i > 0 && nameIntro(parts[i-1]) && roleAfterName(strings.TrimSpace(p)) {
			named = strings.TrimSpace(read(parts[i-1]).text) + ", "
			p = "I'm " + strings.TrimSpace(p)
		}
		for off := 0; ; {
			i := strings.Index(p[off:], " so ")
			if i < 0 {
				break
			}
			if head := p[:off+i]; !soIsDegree(head) {
				p = head // "go is new to me so explain…": the rest is a request
				break
			}
			off += i + len(" so ") // "i am not so good with kubernetes so explain…": the next one
		}
		words := strings.Fields(strings.ToLower(p))
		subjectless := len(words) > 0 && (words[0] == "been" || words[0] == "came" || words[0] == "coming" || words[0] == "mostly" || words[0] == "mainly" || words[0] == "switched" || words[0] == "moved")
		switch {
		case len(out) > 0 && subjectless:
			// "been writing django for 8 years": more of the fact before.
			out[len(out)-1] += ", " + p
		case isSelf(p) && !selfNot(p, words) || reNotGoodAt.MatchString(p) && !slices.Contains([]string{"this", "that", "it", "these", "those"}, strings.Trim(words[len(words)-1], ",.!")):
			if len(words) > 0 && (words[0] == "new" || words[0] == "fairly" || words[0] == "pretty" || words[0] == "brand") {
				p = "I'm " + p // "new to aws" alone says nobody is
			}
			if named != "" {
				p = named + strings.TrimPrefix(p, "I'm ")
			}
			out = append(out, p)
		case len(out) > 0 && reForeignToMe.MatchString(p):
			// "backend person here, so the react side is kinda foreign to
			// me": what they do not know, a fact of its own.
			out = append(out, trimClauseLead(p))
		case len(out) > 0 && len(words) > 0 && len(words) <= 6 && !imperatives()[words[0]]:
			// "mostly GCP", "been here 3 years": more of the fact before.
			out[len(out)-1] += ", " + p
		}
	}
	if len(out) == 0 {
		return nil
	}
	// A lone self-description keeps its sentence's qualifiers.
	if len(out) == 1 && isSelf(s) {
		if now {
			s = strings.Join(kept, ", ") // less "on call this week"
		}
		if head, _, ok := strings.Cut(s, ", so "); ok {
			s = head
		}
		return []string{s}
	}
	return out
}

// doesArea reports a part of the work the speaker does, which says who
// they are though "i do the migration" is a task: "I do the firmware", "i
// run the android side".
func doesArea(p string) bool {
	w := strings.Fields(asciiLower(p))
	if len(w) < 3 || w[0] != "i" {
		return false
	}
	w = w[1:]
	if w[0] != "do" && w[0] != "run" && w[0] != "handle" {
		w = w[1:] // "i mostly do the backend"
	}
	if len(w) < 3 || w[0] != "do" && w[0] != "run" && w[0] != "handle" {
		return false
	}
	w = w[1:]
	if w[0] == "all" {
		w = w[1:]
	}
	if len(w) < 2 || w[0] != "the" && w[0] != "our" {
		return false
	}
	for k, x := range w[1:min(len(w), 3)] {
		after := ""
		if k+2 < len(w) {
			after = strings.Trim(w[k+2], ",.;:!")
		}
		ends := after == "" || after == "of" || after == "for" || after == "at" || after == "on" || after == "in" || after == "side" || strings.HasSuffix(x, ",")
		x = strings.Trim(x, ",.;:!")
		switch x {
		case "firmware", "backend", "back-end", "frontend", "front-end", "infra", "infrastructure", "ops", "devops", "design", "data",
			"analytics", "art", "ui", "ux", "hardware", "mobile", "ios", "android", "web", "platform", "security", "qa", "testing", "docs", "documentation":
			return ends // "I do the firmware of …", not "I do the ui changes first"
		case "side":
			return k > 0
		}
	}
	return false
}

// roleAfterName reports a clause that is a role and what it is of:
// "postdoc in the genomics lab", "junior dev", "the tech lead on
// payments"; not "dev environment is broken again", "manager asked me".
func roleAfterName(p string) bool {
	m := reNamedRole.FindStringIndex(p)
	if m == nil {
		return false
	}
	next, _, _ := strings.Cut(strings.TrimLeft(asciiLower(p[m[1]:]), " ,"), " ")
	switch strings.Trim(next, ",.") {
	case "", "in", "at", "on", "for", "of", "with", "from", "and", "here", "since":
		return true
	}
	return false
}

// nameIntro reports a clause that gives only the speaker's name: "I am
// Giulia", "hey, im tom"; not "I'm afraid", "I'm leaving".
func nameIntro(c string) bool {
	w := strings.Fields(asciiLower(strings.Trim(c, " ,.!")))
	switch {
	case len(w) > 0 && (w[0] == "hi" || w[0] == "hey" || w[0] == "hello" || w[0] == "hola" || w[0] == "ciao" || w[0] == "yo"):
		w = w[1:]
	}
	switch {
	case len(w) == 2 && (w[0] == "im" || w[0] == "i'm"):
	case len(w) == 3 && w[0] == "i" && w[1] == "am":
	case len(w) == 4 && w[0] == "my" && w[1] == "name" && w[2] == "is":
	default:
		return false
	}
	name := w[len(w)-1]
	for _, r := range name {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	switch name {
	case "afraid", "sure", "sorry", "glad", "happy", "back", "here", "done", "fine", "ok", "okay", "new", "stuck", "confused", "going",
		"trying", "not", "just", "still", "also", "so", "good", "great", "busy", "away", "off", "on", "in", "out", "ready", "late",
		"tired", "lost", "curious", "aware", "afk", "around", "free", "available", "alone", "leaving", "heading":
		return false // "I'm afraid, the admin already deleted it": no name
	}
	return true
}

// selfNot reports a self-description's clause that says what the speaker
// is doing or feeling now ("i'm trying…", "i'm in a meeting"), not "i'm in
// the billing team" or "… and i'm in the NY office".
func selfNot(p string, words []string) bool {
	if doesArea(p) {
		return false // "I do the firmware of the heat pump controller": a part of the work that is theirs
	}
	loc := reSelfNot.FindStringIndex(p)
	return loc != nil && !inTeam(words) && !reWhereIWork.MatchString(p[loc[0]:]) && !(reKnows.MatchString(p) && isSelf(p)) // "i'm not a python person"
}

// condition reports a clause that says when what follows holds: "when
// the probe don't connect", "if it hangs".
func condition(clause string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(asciiLower(clause)), " ")
	return w == "when" || w == "whenever" || w == "if"
}

// isSelf reports a self-description (reSelf, reSelfWas, reSelfTeam).
func isSelf(s string) bool {
	l := asciiLower(s)
	// "this error is new to me", "your diff is a mystery to me": a thing in
	// front of them, not what they know.
	pointed := false
	switch first, _, _ := strings.Cut(strings.TrimLeft(l, "(\"' "), " "); first {
	case "this", "that", "these", "those", "it", "it's", "its", "what", "which", "your", "his", "her", "their":
		pointed = strings.Contains(l, " to me") || strings.Contains(l, " my area")
	}
	if reSelf.MatchString(s) && !mayHold(s, []string{" a bit ", " a little ", " a tad "}) && !neverThis(strings.Fields(l)) && !lately(s) && !pointed {
		return true
	}
	if strings.HasPrefix(l, "i") && reSelfI.MatchString(s) && !selfAction(l) {
		return true
	}
	if reForeignToMe.MatchString(s) && !pointed || reKnows.MatchString(s) && !knowsThisOne(l) {
		return true // "networking is not my area at all", "spark is kinda foreign to me", "i barely know sql"
	}
	if strings.HasPrefix(l, "i was ") {
		return reSelfWas.MatchString(s)
	}
	first, _, _ := strings.Cut(l, " ")
	if confusesMe(l) {
		return true
	}
	return strings.Contains(l, " team") && !determiners()[first] && first != "some" && reSelfTeam.MatchString(s)
}

// inTeam reports "i'm in the billing team of the operator", which says
// who the speaker is, though "i'm in the middle of…" and "i'm in a
// meeting" do not.
func inTeam(w []string) bool {
	switch {
	case len(w) > 3 && (w[0] == "i'm" || w[0] == "im") && w[1] == "in" && w[2] == "the":
		w = w[3:]
	case len(w) > 4 && w[0] == "i" && w[1] == "am" && w[2] == "in" && w[3] == "the":
		w = w[4:]
	default:
		return false
	}
	for i := 0; i < len(w) && i < 3; i++ {
		switch strings.TrimRight(w[i], ",.;") {
		case "team", "group", "lab", "department", "squad", "org":
			return i > 0
		}
	}
	return false
}

// confusesMe reports what keeps confusing the speaker, which says what
// they know: "the graphql admin api still confuses me". A thing in front
// of them now ("this stack trace really confuses me", "it still confuses
// me why…") is not.
func confusesMe(l string) bool {
	w := strings.Fields(strings.TrimRight(l, ".!, "))
	n := len(w)
	if n < 4 || n > 8 || w[n-1] != "me" || w[n-2] != "confuses" && w[n-2] != "baffles" {
		return false
	}
	switch w[n-3] {
	case "still", "always", "honestly", "really", "kinda", "totally":
	default:
		return false
	}
	switch w[0] {
	case "this", "that", "these", "those", "it", "your", "what", "why", "which", "how", "he", "she", "they", "you":
		return false
	}
	for _, x := range w[:n-3] {
		switch strings.TrimRight(x, "s") {
		case "error", "trace", "log", "output", "message", "result", "failure", "diff", "warning", "answer", "test", "bug", "line":
			return false
		}
	}
	return true
}

// soIsDegree reports a "so" that says how much, not what follows, after
// head: "i am not so good with kubernetes".
func soIsDegree(head string) bool {
	w := strings.Fields(asciiLower(head))
	if len(w) == 0 {
		return false
	}
	switch w[len(w)-1] {
	case "not", "am", "is", "are", "was", "were", "i'm", "im", "really", "just", "and":
		return true
	}
	return false
}

// reNotGoodAt is what someone is not good at, which says who they are
// though it opens with "i'm not": "i am not so good with kubernetes".
var reNotGoodAt = gate(lazyre.New(`(?i)^(?:i'?m|im|i am) not (?:(?:so|that|too|very|really|super)\s+)?(?:good|great|strong|comfortable|familiar|fluent|experienced) (?:at|with|in)\b`))

// reForeignToMe is what a person says they do not know well: "the react
// side is kinda foreign to me", "networking is not my area".
var reForeignToMe = gate(lazyre.New(`(?i)\b(?:is|are) (?:still |kinda |kind of |pretty |totally |completely |a bit |all )?(?:fuzzy|foreign|alien|a mystery|black magic|new) (?:to|for) me\b|\b(?:is|are) not (?:really )?my (?:area|thing|strength|strong suit)\b`))

// knowsThisOne reports what the speaker knows of a thing in front of
// them, not of a field: "ive never touched this file before", "i've never
// used it".
func knowsThisOne(l string) bool {
	l = strings.TrimRight(l, ".! ")
	return mayHold(l+" ", []string{" this ", " that ", " these ", " those ", " your "}) ||
		strings.Contains(l, "never ") && (strings.HasSuffix(l, " it") || strings.HasSuffix(l, " it before"))
}

// reKnows is what a person says they know, or never did: "i barely
// know sql", "i dont know anything about css", "not a python person",
// "i have never written a line of rust", "my strongest language is
// typescript", "i'm way better at reading code than writing it".
var reKnows = gate(lazyre.New(`(?i)^(?:(?:i'?m|im|i am) )?not (?:really )?(?:a|an) [\w+#.-]+ (?:person|guy|gal|dev|developer|expert)\b` +
	`|^i (?:don'?t|dont|do not) (?:really )?know (?:anything|much|a thing) about\b|^i know (?:nothing|very little|little) about\b` +
	`|^i (?:barely|hardly) know\b|^i only know (?:enough|a bit of|a little|the basics of)\b|^i know [\w+#.]+ and that'?s about it\b|^i know [\w+#.]+ and thats about it\b` +
	`|^my (?:strongest|main|real|first|native|best|primary) (?:programming )?(?:language|lang)s? (?:is|are)\b` +
	`|^(?:i'?m|im|i am) (?:way |much |a lot |far )?better at [\w ]{3,40} than\b` +
	`|^(?:i (?:have|'ve) |ive )?never (?:written|used|touched|worked with|coded in) (?:a line of |any )?[\w+#.-]+(?: \w+)? before\b|^(?:i (?:have|'ve) |ive )never (?:written|used|touched|worked with|coded in)\b|^i have never\b`))

// reKnowledge is what the user knows, or does not: their experience
// beside their role ("I know the grpc stuff well", "new to aws").
var reKnowledge = gate(lazyre.New(`(?i)\b(?:new to|first time|know (?:\S+ ){1,4}(?:well|inside out)|been (?:doing|writing|working)|\d+ ?(?:years|yrs|y)\b|normally (?:write|use|work)|(?:bad|good|great|rusty|comfortable|fluent|shaky|weak) (?:at|with|in|on)|where (?:i'?m|im|i am) (?:weakest|weak|rusty)|(?:still|always|honestly|really|kinda|totally|kind of) (?:confuses|baffles|trips up|scares) me|coming from|background|own the|owns? )`))

// firstPerson are the words a sentence about the speaker opens with.
func firstPerson(w string) bool {
	switch w {
	case "i", "i'm", "im", "i've", "ive", "i'll", "i'd", "my", "me":
		return true
	}
	return false
}

// someoneOf reports a sentence that opens in the first person whose
// subject is someone the speaker works with or for: "my supervisor wants
// a demo at the review on the 9th", not "my flight is on the 9th".
func someoneOf(words []string) bool {
	if len(words) < 3 {
		return false
	}
	switch words[1] {
	case "boss", "supervisor", "advisor", "adviser", "lead", "manager", "pm", "cto", "ceo", "client", "customer", "professor", "prof.", "mentor":
		return true
	}
	return false
}

// afterSelfLabel reads what follows a label about the speaker ("context on
// me:", "about me:", "me:") as said by them: "pipeline TD at a small
// studio" is "I'm a pipeline TD at a small studio".
func afterSelfLabel(label, s string) string {
	l := strings.TrimSpace(asciiLower(label))
	if !strings.HasSuffix(l, ":") {
		return s
	}
	w := strings.Fields(strings.TrimSuffix(l, ":"))
	if len(w) == 0 || len(w) > 5 || w[len(w)-1] != "me" && w[len(w)-1] != "myself" && !strings.HasSuffix(l, "who i am:") {
		return s
	}
	f := strings.Fields(asciiLower(s))
	if len(f) < 2 || firstPerson(f[0]) || imperatives()[f[0]] || subjects()[f[0]] || pronounSubject(f[0]) || prepositions()[f[0]] {
		return s
	}
	if determiners()[f[0]] {
		return "I'm " + s
	}
	return "I'm a " + s
}

// reAway is the speaker away for a while: "i'm on leave from the 23rd",
// "i'm offline dec 20 through jan 3", "i'll be away for two weeks".
var reAway = gate(lazyre.New(`(?i)^(?:(?:also|and|oh|btw|fyi|heads up|so)[,:]?\s+)*(?:i'?m|im|i am|i'?ll be|ill be|i will be) (?:(?:also|going to be|gonna be)\s+)?(?:on (?:paternity |maternity |parental |annual |sick )?leave|out of (?:the )?office|ooo|away|offline|off|out|on vacation|on holiday|on pto)\b`))

// awayFor reports the speaker away for more than a day, from a day said:
// not "i'm off tmrw, dentist".
func awayFor(s string) bool {
	head, _, _ := strings.Cut(s, ",")
	return reAway.MatchString(s) && mayHold(head, []string{"through", " thru ", " to ", "until", " till ", "week", "leave", " - ", "–", "month"})
}

// reLately is a while counted in hours or days: what the speaker has
// been doing lately, not who they are ("i've been
// staring at this for an hour").
var reLately = lazyre.New(`(?i)\bfor (?:like |about |almost |over |nearly )?(?:an?|the (?:last|past) (?:\w+ )?|\d+|a few|a couple(?: of)?|two|three|four|five|six|ten|twenty|thirty) (?:hours?|hrs?|minutes?|mins?|days?|mornings?|afternoons?|nights?|evenings?)\b`)

// lately reports a self-description that counts its while in hours or
// days: "i've been staring at this for an hour".
func lately(s string) bool {
	l := asciiLower(s)
	return (strings.HasPrefix(l, "i've been ") || strings.HasPrefix(l, "ive been ") || strings.HasPrefix(l, "i have been ")) && reLately.MatchString(s)
}
