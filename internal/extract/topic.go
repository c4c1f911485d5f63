package extract

import (
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
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
var (
	bareEventOnce sync.Once
	bareEventRe   *gatedRe // built on first use: zero values, so start-up allocates nothing for it
)

func reBareEvent() *gatedRe {
	bareEventOnce.Do(func() {
		bareEventRe = gate(lazyre.New(`(?i)(?:^|[,;:]\s*|\band\s+)(?:the\s+|our\s+)?(?:launch|go-?live|go live|release|cutover|rollout|roll-out|kickoff|kick-off|ship date|due date|deadline|demo)\s+(?:is|was|moved|moves|slipped|got moved|will be|has to be|must be|needs to be)\b|\b(?:demo|ship|launch|release|present|show|roll out|go live with|live with|customer on|users on)\s+it\b`))
	})
	return bareEventRe
}

// bareEvent reports a project fact that needs the thing it is about.
func bareEvent(text string) bool {
	return reBareEvent().MatchString(text)
}

// topicBefore is the sentence, among those said before in the message
// (nearest first, at most three back), that says what the work is: a
// statement of a few words or more, not a rule, a question, a greeting or
// a place, cut at its first sentence end and kept short.
func topicBefore(before []string) string {
	for i := len(before) - 1; i >= 0 && i >= len(before)-3; i-- {
		t := strings.TrimSpace(read(before[i]).text)
		if l := reWorkLabel().FindAllStringIndex(t, -1); l != nil {
			t = t[l[len(l)-1][1]:] // "new thing: we're launching …": the thing
		}
		t = strings.TrimRight(t, ".!")
		w := strings.Fields(t)
		if len(w) < 4 || reQuestion.MatchString(t) || rePast.MatchString(t) || ruleLike(t, false) || bannedRule(t) || isWhere(t) || len(secretKinds(t)) > 0 {
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
var (
	workLabelOnce sync.Once
	workLabelRe   *gatedRe
)

func reWorkLabel() *gatedRe {
	workLabelOnce.Do(func() {
		workLabelRe = gate(lazyre.New(`(?i)\b(?:(?:new|today'?s|todays|next|another|the|this|my)\s+){0,2}(?:thing|feature|task|project|ticket|issue|job|request|story):\s+`))
	})
	return workLabelRe
}

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
		if c.Type == "project" && t != "" {
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
