package extract

import (
	"strings"
	"time"
)

// This file gives a project fact that names no thing of its own what it
// is about. "launch is end of april" read months later says nothing; the
// person said it right after "new thing: we're launching a german version
// of the site", and the memory keeps both: "We're launching a german
// version of the site: launch is 2026-04-30".

// reBareEvent is a clause whose subject is an event of the work with no
// thing named ("launch is the 26th", "go-live is 1 june"), or one that
// points back at the thing with "it" ("we have to demo it to the board",
// "the Salzburg clinics go live with it first").
var reBareEvent = onceGate{pattern: `(?i)(?:^|[,;:]\s*|\band\s+)(?:the\s+|our\s+)?(?:launch|go-?live|go live|release|cutover|rollout|roll-out|kickoff|kick-off|ship date|due date|deadline|demo)\s+(?:is|was|moved|moves|slipped|got moved|will be|has to be|must be|needs to be)\b|\b(?:demo|ship|launch|release|present|show|roll out|go live with|live with|customer on|users on)\s+it\b`}

// bareEvent reports a project fact that needs the thing it is about: not
// "the deadline is friday for the bot", "go-live of the portal is 1 june".
func bareEvent(text string) bool {
	m := reBareEvent.get().FindStringIndex(text)
	if m == nil {
		return false
	}
	clause := asciiLower(text[m[0]:])
	if k := strings.IndexAny(clause[1:], ",;.(—"); k >= 0 {
		clause = clause[:k+1]
	}
	for _, p := range []string{" for the ", " for our ", " for a ", " for this ", " of the ", " of our ", " of this "} {
		if strings.Contains(clause, p) {
			return false
		}
	}
	return true
}

// reWorkShape is a sentence that says what the work is: "we're launching
// a german version of the site", "building a site for a bakery client",
// "i'm migrating billing to go".
var reWorkShape = onceGate{pattern: `(?i)^(?:(?:so|ok|also|and)\s+)?(?:(?:we'?re|we are|i'?m|i am|we'?ll be|the team is|our team is)\s+(?:now\s+)?)?(?:building|adding|launching|migrating|moving|porting|rewriting|shipping|releasing|rolling out|introducing|replacing|redesigning|working on|integrating|developing|making|creating)\b`}

// topicBefore is the sentence, among those said before in the message
// (nearest first, at most three back), that says what the work is: one
// after a label of new work ("new thing: HR admins want bulk approve"), or
// one shaped as the work ("we're launching a german version of the
// site"); not a task of today ("today's task: rename the column"), a
// rule, a question, a place, a secret, something private or what
// happened. Cut at its first sentence end and kept short.
func topicBefore(before []string) string {
	for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
		t := strings.TrimSpace(read(before[i]).text)
		labelled := false
		if l := reWorkLabel.get().FindAllStringIndex(t, -1); l != nil {
			last := l[len(l)-1]
			if strings.Contains(asciiLower(t[last[0]:last[1]]), "today") && !strings.HasPrefix(asciiLower(t[last[1]:]), "new ") {
				continue // "today's task: rename the column": this session's; not "todays thing: new DHL adapter"
			}
			t, labelled = t[last[1]:], true // "new thing: we're launching …": the thing
		}
		t = strings.TrimRight(t, ".!")
		if !labelled && !reWorkShape.get().MatchString(t) {
			continue
		}
		if len(strings.Fields(t)) < 4 || reQuestion.MatchString(t) || rePast.MatchString(t) || ruleLike(t, false) || bannedRule(t) || isWhere(t) ||
			len(secretKinds(t)) > 0 || mayHold(t, personalWords()) || mayHold(t, chatWords) || bareEvent(t) || toolOutput(t) {
			continue
		}
		if len(t) > 120 {
			if j := strings.LastIndex(t[:120], ", "); j > 40 {
				t = t[:j]
			} else {
				continue
			}
		}
		return t
	}
	return ""
}

// reWorkLabel is the label a new piece of work is said after: "new
// thing: ", "todays task: ", "new feature: ".
var reWorkLabel = onceGate{pattern: `(?i)\b(?:(?:new|today'?s|todays|next|another|the|this|my)\s+){0,2}(?:thing|feature|task|project|ticket|issue|job|request|story):\s+`}

// withTopic puts what a project fact is about in front of it.
func withTopic(c Candidate, topic string, at time.Time) Candidate {
	if strings.Contains(asciiLower(c.Body), asciiLower(topic)) {
		return c
	}
	head, rest, _ := strings.Cut(c.Body, "\n\n")
	t, _ := AbsoluteDates(topic, at)
	c.Body = capitalize(t) + ": " + lowerCommon(strings.TrimSpace(head)) + "\n"
	if rest != "" {
		c.Body += "\n" + rest
	}
	c.Description = oneLine(capitalize(t)+": "+lowerCommon(c.Description), 200)
	return c
}

// withTopics gives each project fact of sentence s that names no thing
// of its own the topic said before it in the message.
func withTopics(cands []Candidate, before []string, s string, at time.Time) {
	if len(before) == 0 || !bareEvent(read(s).text) {
		return
	}
	t := topicBefore(before)
	for i, c := range cands {
		if c.Type == "project" && t != "" && bareEvent(c.Description) {
			cands[i] = withTopic(c, t, at)
		}
	}
}

// lowerCommon lowers the first word of a fact put after its topic when it
// is a common word ("Launch is …" → "launch is …"); a name stays.
func lowerCommon(s string) string {
	w, _, _ := strings.Cut(s, " ")
	switch l := strings.ToLower(w); l {
	case "the", "our", "we", "we're", "first", "launch", "go-live", "golive", "release", "cutover", "rollout", "kickoff", "deadline", "demo":
		return l + s[len(w):]
	}
	return s
}

// soMoving reports a "so" that moves on to another matter rather than
// draw from what was said: "so anyway", "so another thing", "so also".
func soMoving(s string) bool {
	w := strings.Fields(asciiLower(s))
	if len(w) < 2 || w[0] != "so" {
		return false
	}
	switch strings.Trim(w[1], ",.!") {
	case "anyway", "anyways", "another", "also", "yeah", "btw", "um", "umm", "uh", "ok", "okay", "next":
		return true
	}
	return false
}
