// Package extract turns session messages into memory candidates. The
// heuristic engine here is offline and deterministic: it reads only what
// the user typed (never tool output or the assistant), one sentence at a
// time, and keeps only sentences that say something durable — a rule or a
// correction (feedback), who the user is (user), a decision, deadline or
// freeze (project, with relative dates made absolute), or where something
// lives outside the repo (reference). It is pure: no I/O, no clock.
package extract

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// Message is one turn of a conversation.
type Message struct {
	Role string    // "user", "assistant" or "tool"
	Text string    // what was said (for a tool, its output)
	Time time.Time // when
	ID   string    // the record's uuid, for the source field
	Meta bool      // harness text, not typed by the user
	// Wrote lists the files the message's tool calls wrote (Write, Edit):
	// the mutex with an agent that keeps its own memory.
	Wrote []string
	// SavedMemory says a tool call saved, changed or removed a memory
	// through memdir's MCP tools: the same mutex.
	SavedMemory bool
}

// Candidate is a memory the engine proposes.
type Candidate struct {
	Type        string `json:"type"` // user, feedback, project, reference
	Name        string `json:"name"`
	Description string `json:"description"`
	Body        string `json:"body"`
	Source      string `json:"source"`          // session id and record
	Trust       string `json:"trust"`           // "user": the user said it
	Scope       string `json:"scope,omitempty"` // private or team (ScopeFor)
}

// Skipped counts sentences left out on purpose, by reason.
type Skipped struct {
	// Secrets counts the sentences left out because they hold a
	// potential secret; SecretKinds lists the kinds found, each once
	// (redact's kinds, and ProseSecretKind for one stated in words).
	Secrets     int      `json:"secrets"`
	SecretKinds []string `json:"secret_kinds,omitempty"`
}

var (
	reURL     = gate(lazyre.New(`https?://[^\s)>\]"']+`))
	reChannel = gate(lazyre.New(`(?:^|\s)#[a-z0-9][a-z0-9_-]{2,}`))
	reSystems = gate(lazyre.New(`(?i)\b(linear|jira|grafana|datadog|sentry|pagerduty|notion|confluence|slack|github (?:project|issues|discussions)|asana|trello|opsgenie|kibana|honeycomb|statuspage|1password|vault|figma)\b`))
	rePointer = gate(lazyre.New(`(?i)\b(tracked in|track(?:ed)? (?:them |it )?in|lives? in|live at|is at|are at|filed in|file (?:\w+ ){1,2}in|go(?:es)? in|go to|show(?:s)? up in|managed in|kept in|comes? in|lands? in|dashboard|runbook|board|channel|docs? (?:are|is) (?:at|in)|wiki|on-?call (?:watches|uses|looks at)|look at)\b`))

	reUser = gate(lazyre.New(`(?i)^(?:(?:hi|hey|fyi|btw|ok|so|well)[,!.]?\s+)?(?:i'?m|i am)\s+(?:a|an|the)\s+|^(?:i'?m|im|i am) (?:(?:red-green|partially|fully|slightly|a bit|mildly)\s+)?(?:colou?r[ -]?blind|dyslexic|deaf|hard of hearing|visually impaired|low[- ]vision)\b|^(?:i'?ve|i have) been (?:a |an )?\w+ing\b.*\bfor\b|^i (?:work|worked) (?:as|on|in|at)\b|^my (?:role|job|background|team)\b|^i [^,]{3,60}, but my background is\b|^i'?m (?:new|fairly new|brand new) to\b|^i (?:have|got) \d+ years\b|^(?:i'?m|i am) (?:more of )?(?:a |an )?(?:senior|junior|staff|principal|lead|backend|frontend|full[- ]stack|data|ml|devops|sre|mobile|security)\b` +
		// "im noor, junior dev", "i am mateus, SRE in the observability team": a name, then a role
		`|^(?:i'?m|i am) [a-z]+, (?:a |an |the )?(?:[\w+#-]+ ){0,2}(?:` + roleNouns + `)(?:\s*$|\s*[,.;(]|\s+(?:in|on|at|for|of|with|here|and|since|from)\b)`))
	// reWhereIWork is where the user works from, and so when they answer:
	// "i sit in osaka, … 7 hours ahead", "i'm in the london office",
	// "i'm in sydney so if you see me at weird hours thats why".
	reWhereIWork = gate(lazyre.New(`(?i)^i (?:work|sit|live|am based|'m based|m based) (?:from|in|out of|at) (?:the )?[a-z]+|^based (?:in|out of) (?:the )?(?-i:[A-Z])[a-z]+|^(?:i'?m|im|i am) on the (?-i:[A-Z])[a-z]+ side\b|^(?:i'?m|im|i am) in the (?:[a-z]+ )?office\b|^(?:i'?m|im|i am) (?:based )?in [a-z]+(?: [a-z]+)? (?:so|and) (?:my|our)\b|^(?:i'?m|im|i am) on a (?:\d|four|three)[- ]day week\b|^(?:i'?m|im|i am) (?:based )?in [a-z]+\b.*\b(?:hours?|ahead|behind|late|early|online|offline|available|timezone|time ?zone|\d{1,2} ?[ap]m|cet|cest|utc|gmt|pst|pdt|est|edt|bst|jst|aest|ist)\b`))
	// reNotWhereIWork is where someone is for now, or what they are in
	// that is no place: "in a meeting", "in trouble", "in the office
	// tomorrow".
	reNotWhereIWork = lazyre.New(`(?i)^(?:i'?m|im|i am) in (?:a|an|trouble|favou?r|charge|meetings?|hospital|bed|town|time|luck|doubt|pain|line|touch|sync|progress|review|the middle|the meeting|the hospital)\b|\b(?:tomorrow|today|tonight|next week|this week|until|till|all (?:morning|afternoon|day))\b`)
	reUserNot       = gate(lazyre.New(`(?i)\b(?:i'?m|i am) (?:going|trying|not|looking|getting|seeing|stuck|confused|sure|done|back|here|wondering|about|just|currently working on|working on (?:this|the|a|it))\b`))

	reProject = gate(lazyre.New(`(?i)\b(we(?:'ve| have)? decided|decided to|decision (?:is|was)|we'?re going with|we are going with|the plan is|deadline|due (?:on|by)|code freeze|merge freeze|freez(?:e|ing)|no (?:merges|deploys|deployments|releases)|release(?:s)? (?:is|on|goes out)|ships? on|launch(?:es)? on|cut-?off|we'?re (?:deprecating|sunsetting|migrating)|we are (?:deprecating|sunsetting|migrating)|will be (?:deprecated|removed|sunset)|(?:has|have|needs?) to (?:finish|land|be done|be in|ship|complete|be merged) (?:before|by))\b`))

	reFeedback = gate(lazyre.New(`(?i)^(?:(?:also|and|ok|so|please|pls|plz|but|yes|yeah|yep|good|great|cool|nice|perfect|exactly)[,!]?\s+)*(?:(?:for|in|on) [\w.-]+(?: [\w.-]+)?,? )?(?:don'?t|do not|never|always|stop|avoid|prefer|use|make sure (?:to|you|u)|remember (?:that|to)|keep (?:doing|using|\w+ing)|please (?:no|don'?t|never|always|avoid|keep))\b|^only [a-z]+ (?:via|with|through|from|in|on|for|when|if|after|before)\b|^no [\w.+#-]+(?: [\w.+#-]+)?\s*(?:—|–| - |,|$)|\b(?:from now on|going forward|in general|in this (?:repo|repository|project|codebase|team)|we (?:always|never|use|don'?t use|prefer|write|keep|put|run|name)|i (?:prefer|like|want|hate|don'?t like)|i(?:'d| would) rather|instead of|rather than|keep (?:doing|using)|that'?s (?:wrong|not (?:right|how|what))|every time|whenever)\b`))
	reOneOff   = gate(lazyre.New(`(?i)\b(?:this|that|these|those) (?:button|file|function|test|line|page|one|color|colour|title|label|text|variable|name|pr|commit|branch|change|time|run|task|ticket|issue|bug|session)\b|\b(?:right now|for now|today only|just this once|this time|for this task)\b`))
	// reTicket is the ticket a message is about: its task, not a rule.
	reTicket  = gate(lazyre.New(`(?i)\b(?:ticket|issue|bug|jira)\s+#?[a-z]{2,}-\d+\b`))
	reGeneral = gate(lazyre.New(`(?i)\b(?:always|never|from now on|going forward|in this (?:repo|repository|project|codebase|team)|every time|whenever|in general|by default|all (?:our|the) |any |our |we |instead of|rather than|i (?:prefer|hate|like|don'?t like)|i(?:'d| would) rather|keep (?:doing|using))`))
	// reHabit is "keep preferring…": a standing habit unless the sentence
	// says it holds for now, or for this one thing (reNowOnly, reOneOff).
	reHabit         = gate(lazyre.New(`(?i)\bkeep (?:preferring|avoiding|sticking (?:to|with)|choosing|naming)\b`))
	reReason        = gate(lazyre.New(`(?i)(?:^|[\s,;—–-])(because|bc|b/c|cuz|coz|since|as|so that|otherwise|or else|or (?:you|we|it|they|the [\w-]+)|so (?:i|we|you|they|people|everyone|anyone|the team|(?:the|our|your|its|other|all|any) [\w-]+(?: [\w-]+)?|[a-z]+[^s\W]s) (?:can|could|don'?t|won'?t|do not|will not|doesn'?t|does not|stays?|keeps?)|that'?s (?:when|why|because))\s+`))
	reTemporal      = gate(lazyre.New(`(?i)^(?:\d{4}\b|\d{1,2}(?:[:/.-]\d|\s*(?:am|pm)\b|\s+(?:days?|weeks?|months?|years?|hours?|minutes?)\b)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|yesterday|today|last\b|then\b|early\b|the (?:start|beginning|last|first)\b|v\d)`))
	reBurned        = gate(lazyre.New(`(?i)^(?:we got burned|last (?:time|quarter|month|year|week)|it (?:broke|caused|took down)|that (?:broke|caused)|the reason is)\b`))
	reNotImperative = gate(lazyre.New(`(?i)^(?:the|a|an|this|that|it|its|it'?s|i|i'?m|i'?ve|you|he|she|they|there|what|why|how|my|our|your|his|her|their|is|are|was|were|if|when|maybe|probably|just|ok|sure|yes|thanks)\b`))
	reQuestion      = gate(lazyre.New(`\?\s*$`))
	reDerivable     = gate(lazyre.New(`(?i)\b(?:the (?:repo|project|codebase) (?:has|contains|is organi[sz]ed)|is (?:defined|declared|implemented) in|lives in (?:internal|cmd|src|pkg|lib)/|git log|last commit|was (?:added|changed|committed) in)\b`))
	reCodeFences    = gate(lazyre.New("(?s)```.*?```"))
	// rePastedBlock is text between two rule lines ("---"), as a page, a
	// README or a mail is pasted: context, not the user's words.
	rePastedBlock = gate(lazyre.New(`(?m)^[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*$(?s:.*?)^[ \t]*(?:-{3,}|={3,}|\*{3,}|_{3,})[ \t]*$`))
	// reToAgents is text that addresses AI agents or tries to override
	// their instructions: what a pasted page or log says to whatever
	// model reads it, never the user's own rule, wherever it stands.
	reToAgents = gate(lazyre.New(`(?i)\b(?:ai|llms?|coding|language[- ]models?)[ -](?:agents?|assistants?|models?|bots?|tools?)\s*(?::|,|should|must|shall|need to|are (?:required|expected|instructed|asked) to|will|always|never|reading this)|\binstructions? (?:to|for) (?:all )?(?:ai|llms?|agents?|assistants?|bots?|models?)\b|\bnote (?:to|for) (?:ai|agents?|assistants?|llms?|bots?|models?)\b|\b(?:ignore|disregard|forget) (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|rules)\b|\bif you are an? (?:ai|llm|language model|assistant|agent|bot)\b`))
	// reNowOnly is a statement about the user that holds only now: "I'm
	// on call this week", "I'm out today".
	reNowOnly = gate(lazyre.New(`(?i)\b(?:this week|not now|today|tonight|right now|at the moment|for now|this sprint|these days|for the next (?:few )?(?:days|hours)|it'?s (?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:i|we)(?:'ll| will)? stop here)\b`))
)

// Heuristic proposes memories from the user's messages of a session.
// Only user messages that are not harness text are read; assistant text
// and tool output are never mined, so injected instructions in a web page
// or a file cannot become rules.
func Heuristic(msgs []Message, session string) ([]Candidate, Skipped) {
	var out []Candidate
	var sk Skipped
	var offer proposal // what the assistant last said it would do, or did: what a "yes, keep doing that" confirms
	for mi, m := range msgs {
		if m.Role == "assistant" && !m.Meta {
			offer = proposalOf(m.Text)
		}
		if m.Role != "user" || m.Meta {
			continue
		}
		text := withoutLogLines(saidWords(m.Text))
		sents, frags := splitOwners(dictatedAll(sentencesAndFragments(text)))
		redirected := false // the message opened with a bare redirect ("lol no, way overkill.")
		lastRule := -1      // out's last rule from this message, which a fragment after it joins
		joking := reJoking.MatchString(text)
		first := len(out)
		prevRule, prevRuleSent := -1, -2 // out's rule from the sentence before (prevRuleSent), which one after may fold into
		prevSaved := false               // the sentence before gave a memory of its own
		for si, s := range sents {
			s, asideKinds := withoutSecretAsides(s)
			if len(asideKinds) > 0 {
				sk.skipSecret(asideKinds) // the aside is never saved; the rest of the sentence may be
			}
			if toolOutput(s) {
				prevSaved = false
				continue // "change: [-98.41% -98.37%] (p = 0.00 < 0.05)": a line a tool printed, pasted
			}
			said := s // what holds a secret stays out, though it was taken back
			s = unsaid(s)
			if si > 0 {
				s = anchoredOn(s, sents[si-1], m.Time.In(time.Local))
				s = afterSelfLabel(sents[si-1], s)
			}
			next := ""
			if si+1 < len(sents) {
				next = sents[si+1]
				if l := reRetract.FindStringIndex(next); l != nil && l[0] == 0 {
					continue // "the keys live in vault. actually no, they moved to …": taken back
				}
			}
			if kept, at, ok := takeBack(out, first, s); ok {
				out, first, lastRule, prevRuleSent = kept, at, -1, -2 // "also ignore what i said about tue/thu"
			}
			if remindsOf(s) {
				continue // "dont forget what i said about tue/thu": said already
			}
			if t, joked := withoutSelfJoke(s); joked {
				// "im basically a vm babysitter lol": a joke about oneself,
				// not who one is; the rest of the sentence may say more.
				if s = t; len(strings.Fields(s)) < 3 {
					prevSaved = false
					continue
				}
			}
			laterReason(out, s, m.Time.In(time.Local)) // "the jquery thing btw is because of our perf budget"
			// The kinds of secret this sentence's memories held.
			var held []string
			cands := classify(s, next, m.Time.In(time.Local), redirected) // days as the user lives them
			redirected = si == 0 && len(cands) == 0 && read(s).correction
			if f := read(s).text; len(cands) == 0 && ruleFragment(f) {
				// "no no, never -auto-approve.": a fragment once its lead is read.
				if lastRule >= 0 {
					joinFragment(&out[lastRule], f, false, &sk)
				} else {
					frags[si+1] = append([]string{f}, frags[si+1]...)
				}
				prevSaved = true
				continue
			}
			if len(cands) == 0 && prevRuleSent == si-1 && insteadOfBan(&out[prevRule], read(s).text, m.Time.In(time.Local)) {
				lastRule, prevSaved = prevRule, true // "no Process.sleep in tests. use assert_receive with a timeout"
				continue
			}
			cands = resolveReferences(s, next, cands, offer, m.Time.In(time.Local))
			p := slices.IndexFunc(out[first:], func(c Candidate) bool { return c.Type == "user" && !strings.Contains(c.Body, "**Why:**") })
			if len(cands) == 0 && p >= 0 && moreOfProfile(read(s).text) {
				// "i mostly write R. explain pandas in terms of dplyr if you
				// can": more of the person the message is about.
				joinProfile(&out[first+p], build("user", read(s).text, "", m.Time.In(time.Local)))
				prevSaved = true
				continue
			}
			var joined bool
			if cands, joined = modelled(s, next, cands, out[first:], p, m.Time.In(time.Local)); joined {
				prevSaved = true
				continue
			}
			if si > 0 {
				for i := range cands {
					withReasonBefore(&cands[i], sents[si-1], s, prevSaved, m.Time.In(time.Local))
				}
			}
			withTalkRequest(cands, s, m.Time.In(time.Local))
			cands = foldRules(slices.DeleteFunc(cands, func(c Candidate) bool { return notToKeep(c) }))
			cands = append(cands, peopleSaid(s, cands, m.Time.In(time.Local))...)
			withTopics(cands, sents[:si], s, m.Time.In(time.Local)) // "launch is end of april": of what
			if prevRuleSent == si-1 {
				routeAfterBan(&out[prevRule], cands, read(s).text, m.Time.In(time.Local)) // "no rake task. anything one-off goes through the ops console"
			}
			prevSaved = len(cands) > 0
			ruleHere := -1
			for _, c := range cands {
				if kinds := secretKinds(said + " " + c.Body); len(kinds) > 0 {
					held = append(held, kinds...) // a memory about a secret is not saved, even redacted
					continue
				}
				c.Source = source(session, m.ID, mi)
				c.Trust = "user"
				if c.Type == "feedback" {
					for _, f := range frags[si] { // "never -auto-approve." before it
						joinFragment(&c, f, true, &sk)
					}
					frags[si] = nil
					if prevRuleSent == si-1 && otherSide(out[prevRule], c) {
						// "no anyclass ToJSON. we write the aeson instances by
						// hand": one rule, said from both sides.
						out[prevRule] = foldRules([]Candidate{withoutWhy(out[prevRule], c.Description), c})[0]
						lastRule = prevRule // prevRuleSent stays: a third rule is another one
						continue
					}
					lastRule = len(out)
					ruleHere = len(out)
				}
				out = append(out, c)
			}
			if ruleHere >= 0 {
				prevRule, prevRuleSent = ruleHere, si
			}
			if lastRule >= 0 {
				for _, f := range frags[si+1] { // "debian-slim only." after it
					joinFragment(&out[lastRule], f, false, &sk)
				}
				frags[si+1] = nil
			}
			if len(held) > 0 {
				sk.skipSecret(held) // one sentence, however many memories it held
			}
		}
		if joking {
			// "always squash before merge. only kidding.": no rule of it.
			out = append(out[:first], slices.DeleteFunc(out[first:], func(c Candidate) bool { return c.Type == "feedback" })...)
		}
		out = append(out[:first], oneProfile(out[first:])...)
		offer = proposal{} // a reply answers the message just before it
	}
	return dedupe(out), sk
}

func source(session, id string, i int) string {
	switch {
	case id != "":
		return session + "#" + id
	case session != "":
		return fmt.Sprintf("%s#%d", session, i)
	}
	return fmt.Sprintf("message %d", i)
}

// classify decides what one sentence is, if anything worth keeping: none,
// one, or one per clause when the sentence holds several facts; and a
// fact or a self-description can carry a rule in a later clause
// (ruleClause): "translations go through crowdin, never edit the json
// files in locales/", "I use a screen reader, so please keep tables out
// of your answers".
func classify(raw, next string, at time.Time, redirected bool) []Candidate {
	// "can't keep up with the reviews": a complaint, not a rule.
	return slices.DeleteFunc(classifyAll(raw, next, at, redirected), func(c Candidate) bool {
		return c.Type == "feedback" && (reCantKeepUp.MatchString(c.Description) || venting(c.Description))
	})
}

func classifyAll(raw, next string, at time.Time, redirected bool) []Candidate {
	if taskLabel(raw) {
		return placesOfTask(raw, at) // "issue today: …", "TILDE-231: …": this task, and where what it needs lives
	}
	if repro(raw) {
		return nil // "to repro: --replay 2026-11-20 --speed 10x": this bug's recipe
	}
	if text := read(raw).text; awayFor(text) {
		if _, dated := AbsoluteDates(text, at); dated {
			// "i'm offline dec 20 through jan 3, so no reviews from me then":
			// who is away when is planned around, a fact of the project; what
			// follows from it says why.
			if why, then, ok := soRule(text); ok {
				return []Candidate{build("project", then, why, at)} // "no reviews from me then", because of when
			}
			return []Candidate{build("project", text, "", at)}
		}
	}
	if head, rest, ok := strings.Cut(raw, ": "); ok && len(strings.Fields(rest)) >= 3 {
		topic := "" // "for the health data, hard rule: …": what the rule is about
		if i := strings.LastIndex(head, ", "); i > 0 && len(strings.Fields(head[:i])) <= 5 {
			topic, head = head[:i], head[i+2:]
		}
		if styleHead(head) && topic == "" {
			topic, head = head, "rule" // "for PoC style: always one test file per finding"
		}
		if ruleLabel(head) {
			// "hard rule: client documents never leave our VPC": what a rule
			// label heads is a rule, however it is said.
			cs := classifyAll(rest, next, at, redirected)
			if reQuestion.MatchString(rest) || reDerivable.MatchString(rest) || reToAgents.MatchString(rest) || len(cs) > 1 || len(cs) == 1 && cs[0].Type != "feedback" ||
				rePast.MatchString(strings.SplitN(rest, ",", 2)[0]) || reTrouble.MatchString(rest) || reNowOnly.MatchString(rest) {
				return cs // "important: it crashed again on the 2nd run": no rule
			}
			why := whyOf(rest, next)
			if topic != "" {
				rest = topic + ", " + rest
			}
			return []Candidate{build("feedback", rest, why, at)}
		}
	}
	cs := classifySentence(raw, next, at, redirected)
	text := read(raw).text // read once: each reader below needs it
	if reason, rule, ok := reasonFirst(text); ok && !slices.ContainsFunc(cs, func(c Candidate) bool { return c.Type == "feedback" }) {
		// "as the staging db is shared with QA, dont truncate tables
		// there": the rule is the main clause, and what comes first its
		// reason, however much that reads as a fact.
		if rs := classifyAll(rule, next, at, redirected); len(rs) == 1 && rs[0].Type == "feedback" {
			return []Candidate{build("feedback", rule, reason, at)}
		}
	}
	if reason, rule, ok := soRule(text); ok && !slices.ContainsFunc(cs, func(c Candidate) bool { return c.Type == "feedback" }) {
		// "the staging db is shared with QA, so never truncate tables
		// there": the rule, and the fact it follows from as its Why. A
		// dated fact ("the offsite is on the 10th, so no deploys that
		// day") is what is kept, with what follows from it.
		if _, dated := AbsoluteDates(reason, at); !dated {
			if rs := classifyAll(rule, next, at, redirected); len(rs) == 1 && rs[0].Type == "feedback" {
				cs = slices.DeleteFunc(cs, func(c Candidate) bool { return c.Type == "project" })
				return append(cs, build("feedback", rule, reason, at))
			}
		}
	}
	if len(cs) == 1 && cs[0].Type != "feedback" {
		if bs, r, ok := dashRule(text, cs[0].Type, next, at, redirected); ok {
			// "design specs are in figma, the file 'LiftLog v2' — ask me
			// before inventing any UI that isn't in there": what is, and
			// the rule said after the dash.
			return append(bs, r)
		}
	}
	switch {
	case len(cs) == 1 && cs[0].Type != "feedback":
		if rule, why := ruleClause(text, cs[0].Type == "user"); rule != "" {
			if i := strings.Index(rule, ", "); cs[0].Type == "reference" && i > 0 && isWhere(rule[:i]) {
				// "pgbouncer config is managed in infra-playbooks, never
				// edit /etc/pgbouncer": the place, and the rule it backs.
				cs[0] = build("reference", rule[:i], "", at)
			} else if j := strings.Index(text, rule); cs[0].Type == "reference" && j > 0 && isWhere(text[:j]) {
				// "the list is in sharepoint 'X', sync it from there and
				// dont hardcode domains": the place up to the rule.
				cs[0] = build("reference", strings.TrimSuffix(strings.TrimRight(text[:j], " ,;—–-"), " and"), "", at)
			}
			if cs[0].Type == "user" && reExplainDepth.MatchString(rule) && strings.Contains(asciiLower(cs[0].Body), asciiLower(rule)) {
				// "i come from golang so java GC is new to me, explain the
				// flags when you use them": how to explain to this person
				// is part of who they are, as the seeds' own example has it
				// ("new to React — frame frontend explanations in terms of
				// backend analogues"), and the user memory holds it.
				return cs
			}
			cs = append(cs, build("feedback", rule, why, at))
		} else if rule, why, ok := pointedRule(text, at); ok && cs[0].Type == "project" {
			cs[0] = build("project", rule, why, at)
		}
	case len(cs) == 0 && !reQuestion.MatchString(raw) && !reDerivable.MatchString(raw) && !reToAgents.MatchString(raw) && !pastHabit(asciiLower(text)):
		// Rules in the clauses of a sentence that says nothing worth
		// keeping as a whole: "translations go through crowdin, never edit
		// the json files in locales/ directly, they get overwritten".
		if c, ok := bareRule(text, next, at); ok {
			return []Candidate{c}
		}
		if c, ok := ruledHead(text, next, at); ok {
			return []Candidate{c}
		}
		if keptAs(text) {
			return []Candidate{build("feedback", text, whyOf(text, next), at)}
		}
		if (!reStepOnly.MatchString(text) || reGeneral.MatchString(text)) && !reNotRule.MatchString(text) {
			cs = clauseRules(text, next, at) // not "…, dont push anything until I'm back"
		}
	}
	return append(cs, clauseFacts(text, cs, at)...)
}

// reasonOpener reports a word a reason said first opens with.
func reasonOpener(w string) bool {
	switch w {
	case "since", "because", "bc", "cuz", "as":
		return true
	}
	return false
}

// chatWords mark thanks and chat, never a rule: "thanks so much, always".
var chatWords = []string{"thank", "happy to", "lol", "haha", "lmao", "lunch", "coffee break", "weird", " yet"}

// statusNouns after "no" report how things are, not a rule: "no response
// from the api", "no matter what i try".
var statusNouns = sync.OnceValue(func() map[string]bool {
	return wordSet(`matter response reply answer luck one output result results data logs access signal connection internet idea sign progress movement`)
})

// reAlwaysTail is a rule said as a thing and "always": "synthetic only,
// always.", "filters in the url, always".
var reAlwaysTail = gate(lazyre.New(`(?i)^(.{3,120}?),?\s+(?:always|every time|everywhere|always and everywhere)\s*[.!]*$`))

// bareRule is a rule said without a verb: a thing and "always" ("filters
// in the url, always"), or a prohibition ("no names in the root cause
// please"); not "no worries, …", not "no tests failed".
func bareRule(s, next string, at time.Time) (Candidate, bool) {
	words := strings.Fields(asciiLower(strings.TrimRight(s, ".!")))
	head, _, _ := strings.Cut(s, ",")
	head, _, _ = strings.Cut(head, " — ")
	// The past in its reason is no matter: "no `auto` for numeric types,
	// we had a float/double mixup in 2024".
	if len(words) < 3 || rePast.MatchString(head) || reNowOnly.MatchString(s) || reOneOff.MatchString(s) || mayHold(s, chatWords) {
		return Candidate{}, false
	}
	hw := strings.Fields(asciiLower(head))
	verbless := len(hw) > 0 && !subjects()[hw[0]] && !pronounSubject(hw[0])
	for i, w := range hw {
		if (w == "that" || w == "which" || w == "who") && i >= 2 {
			break // "no HAL_Delay in anything that can run…": a relative clause's verb
		}
		w = strings.Trim(w, ".,;:!\"'`()")
		third := i > 0 && len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !determiners()[hw[i-1]] && !prepositions()[hw[i-1]] && w != "always"
		verbless = verbless && !finiteVerbs()[w] && !(len(w) >= 6 && strings.HasSuffix(w, "ed")) && !(third && i == 1)
	}
	switch {
	case reAlwaysTail.MatchString(s) && verbless && len(hw) >= 2:
	case reThingOnly.MatchString(s) && verbless && !determiners()[words[0]] && !reportsState(asciiLower(s)):
		// "benchmarks only on lambda3 in the dept cluster", "names always
		// snake_case with prefix gf_": a thing, and the one way it is done.
	case reOnlyNot.MatchString(s): // "managed policies only, no inline"
		if w := strings.Fields(asciiLower(reOnlyNot.FindStringSubmatch(s)[1])); subjects()[w[0]] || pronounSubject(w[0]) || imperatives()[w[0]] || requestVerbs()[w[0]] || taskScope(w[0]) || len(w) == 1 && taskScope(w[0]) {
			return Candidate{}, false
		}
	case words[0] == "no" && !notRule()[strings.Trim(words[1], ",.!")] && !statusNouns()[strings.Trim(words[1], ",.!")] && verbless:
	default:
		return Candidate{}, false
	}
	return build("feedback", s, whyOf(s, next), at), true
}

func classifySentence(raw, next string, at time.Time, redirected bool) []Candidate {
	if reQuestion.MatchString(raw) || reDerivable.MatchString(raw) || reToAgents.MatchString(raw) {
		return nil
	}
	r := read(raw)
	// "nah dont squash them. thx, going to make pancakes now": chat after
	// a redirect corrects nothing.
	r.correction = r.correction || redirected && !signOff(raw)
	s := r.text
	if len(strings.Fields(s)) < 3 {
		return nil
	}
	lower := strings.ToLower(s)
	many := func(typ string, parts []string) []Candidate {
		var cs []Candidate
		for _, p := range parts {
			cs = append(cs, build(typ, read(p).text, "", at))
		}
		return cs
	}
	if !strings.Contains(s, ": ") {
		// no label: no decision behind one
	} else if m := reDecisionHead.FindStringSubmatchIndex(s); m != nil && len(strings.Fields(s[m[2]:])) >= 3 && decided(s[:m[2]], s[m[2]:]) {
		// "decided last week: no cross-play with console for 1.0": what
		// was decided, without its label.
		d := s[m[2]:]
		typ := "project"
		if reRuleStart.MatchString(d) {
			typ = "feedback" // "decided in standup: no new endpoints without a spec"
		}
		return []Candidate{build(typ, d, reasonOf(d, next), at)}
	}
	if mayConstrain(lower) && reConstraint.MatchString(s) && !rePast.MatchString(strings.SplitN(s, ",", 2)[0]) && !reNowOnly.MatchString(s) && !reOneOff.MatchString(s) && heldTo(lower) {
		// "we're stuck on unity 2022.3 LTS because the porting house
		// certified our build on it": what the project is held to.
		return []Candidate{build("project", s, factWhy(s, next, at), at)}
	}
	if rePin.MatchString(s) && !firstPerson(strings.Fields(lower)[0]) && !strings.HasPrefix(lower, "you ") && !rePast.MatchString(strings.SplitN(s, ",", 2)[0]) {
		// "timescaledb has to stay on 2.14 for now, the grafana plugin
		// breaks with 2.15": a release the project is held to, "for now"
		// or not, and why.
		return []Candidate{build("project", s, factWhy(s, next, at), at)}
	}
	if !strings.HasPrefix(lower, "we ") {
		// what the team took out is said by the team
	} else if m := reDropped.FindStringSubmatchIndex(s); m != nil {
		// "we ripped vee-validate out in the spring, it doubled the
		// checkout bundle": a thing taken out for a reason stays out.
		why := strings.TrimRight(s[m[8]:m[9]], ".!")
		var thing string
		if m[4] >= 0 {
			thing = s[m[4]:m[5]]
		} else {
			thing = s[m[6]:m[7]]
		}
		if !determiners()[strings.ToLower(thing)] && !mayHold(why, []string{"mistake", "regret", "should not have", "shouldn't have", "shouldnt have", "bad idea"}) {
			return []Candidate{build("feedback", "don't bring "+thing+" back; "+s[m[2]:m[3]], why, at)}
		}
	}
	hasPointer := reURL.MatchString(s) || reChannel.MatchString(lower) || reSystems.MatchString(s) && rePointer.MatchString(s)
	switch {
	case (hasPointer && (rePointer.MatchString(s) || reSystems.MatchString(s) || reChannelIn.MatchString(s)) || isWhere(s)) && !isScheduled(s, at) && !opensWithRule(s) &&
		(!reTrouble.MatchString(s) || reAnyName.MatchString(s)): // not "the bug is in sentry, look at it"
		if head, rest, ok := strings.Cut(s, ", "); ok && len(strings.Fields(head)) >= 3 && reRuleStart.MatchString(head) && isWhere(rest) && !isWhere(head) {
			// "never deploy on fridays, the deploy calendar is in notion
			// under Eng / Deploys": a rule, and a place.
			return []Candidate{build("feedback", head, "", at), build("reference", rest, "", at)}
		}
		if parts := splitFacts(s, isWhere); parts != nil {
			if head, _, ok := strings.Cut(parts[0], ": "); ok && len(strings.Fields(head)) <= 3 {
				for i := 1; i < len(parts); i++ {
					parts[i] = head + ": " + parts[i] // "crash reports: …, android is in crashlytics"
				}
			}
			return many("reference", parts)
		}
		if i, ok := labelStart(s); ok {
			s = s[i:] // "PFA the path — model checkpoints: s3://…": the thing and where it is
		}
		return []Candidate{build("reference", placeOnly(s), reasonOf(s, ""), at)}
	case (reOwner.MatchString(s) || ownerTyped(s) || reLifecycle.MatchString(s)) && !reNotProject.MatchString(s) || projectFact(s):
		if cs := datedFacts(s, next, at); cs != nil {
			return cs
		}
		return []Candidate{build("project", s, factWhy(s, next, at), at)}
	case (reProject.MatchString(s) || isScheduled(s, at)) && !reThisWork.MatchString(s) && !(opensWithRule(s) && reNowOnly.MatchString(strings.SplitN(s, ",", 2)[0])) && !wentBy(strings.SplitN(s, ",", 2)[0]):
		if _, dated := AbsoluteDates(s, at); dated || monthEnd(s) || reRecurringDays.MatchString(s) || strings.Contains(lower, "decid") || strings.Contains(lower, "going with") ||
			strings.Contains(lower, "deprecat") || strings.Contains(lower, "migrat") || strings.Contains(lower, "sunset") || strings.Contains(lower, "plan is") ||
			(strings.Contains(lower, " to finish before") || strings.Contains(lower, " to land before") || strings.Contains(lower, " to be done before")) && !reOneOff.MatchString(s) {
			if cs := datedFacts(s, next, at); cs != nil {
				return cs
			}
			if fact, where := cutWhere(s, at); where != nil {
				// "playtests are every thursday, results go in confluence
				// under NETCODE > Playtest Log": a fact and where its
				// results live, each a memory of its own.
				return append([]Candidate{build("project", fact, factWhy(fact, next, at), at)}, many("reference", where)...)
			}
			return []Candidate{build("project", s, factWhy(s, next, at), at)}
		}
		return nil
	}
	if reWhereIWork.MatchString(s) {
		where := withoutTask(s) // read only here: most sentences say nothing of where the user works
		if i := strings.Index(asciiLower(where), " so if "); i > 0 {
			where = strings.TrimRight(where[:i], " ,") // "…, so if you need a review after that it's tomorrow": what to do, for now
		}
		if !reNotWhereIWork.MatchString(where) && !reNowOnly.MatchString(where) && !reQuestion.MatchString(s) && !mayHold(s, personalWords()) {
			return []Candidate{build("user", where, "", at)} // where they work from, and when they answer
		}
	}
	if reUser.MatchString(s) && !reUserNot.MatchString(s) && !reNowOnly.MatchString(s) && !lately(s) {
		if self := selfClauses(s); len(self) > 1 && reKnowledge.MatchString(strings.Join(self[1:], " ")) {
			// What they know apart from who they are: one memory each.
			return many("user", self)
		}
		return []Candidate{build("user", withoutTask(s), "", at)}
	}
	if self := selfClauses(s); len(self) > 0 {
		return many("user", self) // less what holds only now ("on call this week")
	}
	if typ, told, ok := choice(s, asked(raw)); ok && !rePast.MatchString(strings.SplitN(s, ",", 2)[0]) && !reNowOnly.MatchString(s) && !reOneOff.MatchString(s) && !reStepOnly.MatchString(s) &&
		!mayHold(choiceHead(s), taskWords) && !mayHold(s, []string{"let's", "lets", "for now"}) {
		// "logging via defmt pls, not the rtt println macros", "report
		// the median not the mean, the mean is garbage here…", "we stay
		// on humble, not jazzy": one thing chosen over another. Told
		// without a reason, it is as likely this task's step ("rename the
		// file to utils.ts, not helpers.ts").
		if why := whyOf(s, next); why != "" || !told {
			return []Candidate{build(typ, s, why, at)}
		}
	}
	if r.correction && thingOK(s) {
		return nil // "no, gateway is ok": this task's thing, left as it is
	}
	if rule, why, ok := orderAfterReason(s); ok && r.correction {
		// "mm no, the tables are small, 200 thousand rows, keep table
		// materialization": the redirect's order comes last, after what
		// it follows from.
		return []Candidate{build("feedback", rule, why, at)}
	}
	switch {
	case reNotRule.MatchString(s):
		return nil // "never mind, I found it", "my lead keeps saying 'never use ORMs'"
	case reFeedback.MatchString(s) || reFeedbackMore.MatchString(s) && !mayHold(s, hereWords) || standing(s) || reUseNot.MatchString(s) || saysRule(s) || convention(s) || r.correction && (strings.HasPrefix(lower, "we ") && !rePast.MatchString(strings.SplitN(s, ",", 2)[0]) || !strings.HasPrefix(lower, "we ") && !reNotImperative.MatchString(s)):
		bare := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(lower, "also, "), "please "), " ")
		general := reGeneral.MatchString(s) || r.correction || reHabit.MatchString(s) && !reOneOff.MatchString(s) && !reNowOnly.MatchString(s)
		for _, p := range []string{"don", "do not", "never", "avoid", "prefer", "always", "stop ", "remember", "ignore ", "can't ", "cant ", "cannot ", "we can't ", "we cant ", "any ", "every "} {
			general = general || strings.HasPrefix(bare, p)
		}
		if w := strings.Fields(bare); len(w) > 2 && w[0] == "no" && !notRule()[strings.Trim(w[1], ",.!")] && strings.HasPrefix(lower, "please") {
			general = true // "please no inventing mappings on your own"; not "no worries, …"
		}
		general = general || reUseNot.MatchString(s) && !mayHold(s, taskWords) || standing(s) || saysRule(s) || convention(s) // "use insert_overwrite on the partitions, not merge"
		if !general || pastHabit(lower) || reNowOnly.MatchString(s) || reStepOnly.MatchString(s) && !reGeneral.MatchString(s) || reTicket.MatchString(s) && !mayHold(s, []string{"always", "never", "from now on", "going forward"}) || reOneOff.MatchString(s) && !reGeneral.MatchString(strings.ToLower(strings.ReplaceAll(s, "this repo", ""))) {
			return nil
		}
		if w := strings.Fields(bare); len(w) <= 4 && pointsBack(w) {
			switch strings.Trim(w[len(w)-1], ".,;!)") {
			case "it", "that", "this", "them", "those", "these":
				return nil // "dont save that": nothing to keep without what it points at
			}
		}
		if i := strings.Index(lower, ", but use "); i > 0 && reUseNot.MatchString(s[i+2:]) {
			s = s[i+len(", but "):] // "incremental yes, but use insert_overwrite…, not merge"
		}
		return []Candidate{build("feedback", s, whyOf(s, next), at)}
	}
	return nil
}

// balanced drops the parentheses of s that a cut left open or closed
// alone: "dont explain mappings to me)".
func balanced(s string) string {
	for strings.Count(s, ")") > strings.Count(s, "(") {
		i := strings.LastIndexByte(s, ')')
		s = s[:i] + s[i+1:]
	}
	for strings.Count(s, "(") > strings.Count(s, ")") {
		i := strings.LastIndexByte(s, '(')
		s = strings.TrimSpace(s[:i]) + " " + strings.TrimSpace(s[i+1:])
	}
	return s
}

// causalSubject reports whether n, which says what something cost or
// broke, opens with that thing rather than with an imperative: "merge on
// that table cost us $4k", not "check what it costs on the dashboard".
func causalSubject(n string) bool {
	w := strings.Fields(asciiLower(n))
	return len(w) > 1 && (!imperatives()[w[0]] || prepositions()[w[1]])
}

// factWhy is the reason given for a project fact: a causal word's clause,
// one that says what went wrong, or a clause after it that states what
// follows from it or led to it ("…, marketing already bought ads"). A
// clause with a date of its own is another fact ("the freeze starts
// Thursday, the report is due Dec 3"), never the reason.
func factWhy(s, next string, at time.Time) string {
	if r := reasonOf(s, next); r != "" {
		return r
	}
	if m := reCausal.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) >= 3 && strings.Index(s, m[1]) > 0 {
		return strings.TrimRight(m[1], ".!")
	}
	// "the team offsite is on the 10th, so no deploys that day": the fact
	// the rule follows from.
	for _, sep := range []string{", so ", "; so ", " so no ", " so we ", " so the ", " so our "} {
		if i := strings.Index(asciiLower(s), sep); i > 0 {
			// "cutover slipped so the freeze got extended": what happened,
			// in two words.
			left := strings.TrimSpace(s[:i])
			w := strings.Fields(asciiLower(left))
			happened := len(w) == 2 && len(w[1]) >= 5 && strings.HasSuffix(w[1], "ed") && !determiners()[w[0]] && !subjects()[w[0]]
			if (len(w) >= 3 && declarative(left) || happened) && len(strings.Fields(s[i+len(sep):])) >= 2 {
				return strings.TrimRight(left, ".!")
			}
		}
	}
	if r := colonReason(s); r != "" {
		return r
	}
	if r := wantedNext(next); r != "" {
		return r
	}
	return trailingReason(s, func(clause string) bool { return noFactReason(s, clause, at) })
}

// build makes the candidate: dates absolute, a short name, the sentence as
// description, the body with Why and How to apply when a reason was given.
func build(typ, s, reason string, at time.Time) Candidate {
	s, _ = AbsoluteDates(withoutChatAsides(withoutHyperbole(withoutTalkLabel(strings.TrimRight(strings.TrimSpace(s), ".!")))), at)
	if typ == "feedback" && reRuleStart.MatchString(s) {
		s = reOnWeekdayDated.ReplaceAllString(s, "$1") // "never deploy on Friday": every Friday
	}
	if typ == "project" {
		s = periodEnds(s, at)
	}
	rule := s
	if notAReason(reason) {
		if reNoReason.MatchString(reason) {
			// "…, ive said this before": talk about the talk, kept out of
			// the rule as well.
			if i := strings.LastIndex(asciiLower(rule), asciiLower(strings.TrimRight(reason, ".! "))); i > 0 {
				rule = strings.TrimRight(rule[:i], " ,;—–-")
			}
		}
		reason = ""
	}
	if reason != "" {
		if i := strings.LastIndex(reason, " ("); i > 0 && strings.HasSuffix(strings.TrimRight(reason, ".! "), ")") && len(strings.Fields(reason[:i])) >= 3 {
			reason = reason[:i] // "…CRs applied against it (yes i know, naming is hard, blame kevin)": an aside
		}
		if t := withoutHyperbole(reason); t != reason {
			rule = strings.Replace(rule, reason[len(t):], "", 1) // the joke leaves the rule too
			reason = t
		}
		reason, _ = AbsoluteDates(reason, at)                    // as s was
		i := strings.Index(asciiLower(rule), asciiLower(reason)) // byte offsets of rule itself
		switch {
		case i > 0:
			// The rule is what is left around its reason: "use the nats
			// dev server" of "in-memory won't work, we run 6 replicas,
			// use the nats dev server" keeps both ends.
			after := strings.TrimLeft(rule[i+len(reason):], " .,;—–-")
			rule = strings.TrimRight(strings.TrimSpace(rule[:i]), " ,;—–-")
			for _, w := range []string{" because", " bc", " b/c", " cuz", " coz", " since", " so that", " as", " otherwise", " or else"} {
				if strings.HasSuffix(" "+asciiLower(rule), w) { // "because" said first too
					rule = strings.TrimRight(rule[:len(rule)-len(w)+1], " ,;—–-")
				}
			}
			switch {
			case rule == "":
				rule = after // "because the cron publishes pub_ tables, we never put…"
			case len(strings.Fields(after)) >= 2:
				rule += ", " + after
			}
		}
		// "X, so Y" keeps X in the rule too: "no deploys that day" alone
		// would not say which day.
	}
	rule = strings.TrimRight(balanced(rule), " .!,;:—–-")
	reason = balanced(reason)
	c := Candidate{Type: typ, Name: title(learningTitle(typ, rule)), Description: oneLine(rule, 140), Scope: ScopeFor(typ, s)}
	body := capitalize(rule) + "."
	if reason != "" {
		body += "\n\n**Why:** " + capitalize(reason) + ".\n**How to apply:** " + howTo(typ)
	}
	c.Body = body + "\n"
	return c
}

func howTo(typ string) string {
	if typ == "project" {
		return "take it into account when planning or suggesting work on this project."
	}
	return "follow it in this project from now on, unless the user says otherwise."
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// asciiLower lowers ASCII letters only, so that a byte offset found in it
// is the same offset in s (strings.ToLower changes the length of some
// letters: Ⱥ, İ, K).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return strings.TrimSpace(s[:n]) + "…"
}

// dedupe drops candidates whose description repeats an earlier one's.
func dedupe(cs []Candidate) []Candidate {
	seen := map[string]bool{}
	var out []Candidate
	for _, c := range cs {
		k := c.Type + "\x00" + strings.ToLower(c.Description)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}
