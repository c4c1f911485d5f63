// What a session says that is not kept, or takes back what was (issue
// 17): a joke about oneself, the speaker's own errand, a statement taken
// back later; and what is kept though rules read past it: who does what,
// how to talk to the person.

package extract

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// reTakenBack takes back what the speaker said earlier in the session:
// "ignore what i said about tue/thu", "scratch what i said about the
// staging db".
var reTakenBack = gate(lazyre.New(`(?i)\b(?:ignore|forget|scratch|disregard) (?:what i said|what i told you|my (?:earlier )?(?:note|comment|point)) (?:about|on|re:?|regarding) (?:the )?([^,.;!?()]{2,40}?)(?:[,.;!?()]|$| that| it| —| -)`))

// notTaken reports that what comes before a take-back says the
// opposite: "dont forget what i said…", "never ignore what i told you…".
func notTaken(before string) bool {
	switch wordBack(before, 0) {
	case "dont", "don't", "never", "not":
		return true
	}
	return false
}

// remindsOf reports a sentence that only points back at what the speaker
// said before: "and dont forget what i said about tue/thu, it matters".
func remindsOf(s string) bool {
	if !mayTakeBack(s) {
		return false
	}
	m := reTakenBack.FindStringIndex(s)
	return m != nil && notTaken(s[:m[0]])
}

// mayTakeBack is the cheap test before reTakenBack: every sentence is
// asked.
func mayTakeBack(s string) bool {
	return mayHold(s, []string{"what i said", "what i told", "my note", "my earlier", "my comment", "my point"})
}

// takeBack is out less what sentence s takes back of it ("also ignore
// what i said about tue/thu, that changed last month": what this session
// saved of it is no longer so), and whether s took anything back.
// first is where the current message's memories start in out; the
// returned one is where they start in what is kept.
func takeBack(out []Candidate, first int, s string) ([]Candidate, int, bool) {
	topic := takenBack(s)
	if topic == "" {
		return out, first, false
	}
	kept, at := out[:0], 0
	for i, c := range out {
		if unsayIn(&c, topic) {
			kept = append(kept, c)
			if i < first {
				at++
			}
		}
	}
	return kept, at, true
}

// takenBack is what the speaker takes back in s, in lower case, if it
// names enough to find it by.
func takenBack(s string) string {
	if !mayTakeBack(s) {
		return ""
	}
	m := reTakenBack.FindStringSubmatchIndex(s)
	if m == nil || notTaken(s[:m[0]]) {
		return "" // "dont forget what i said about tue/thu": kept, the more
	}
	t := strings.TrimSpace(asciiLower(s[m[2]:m[3]]))
	if len(t) < 3 {
		return ""
	}
	return t
}

// unsayIn takes what names topic out of c: the clauses of its rule or fact
// that name it (its Why too when the last one goes), or c whole when
// nothing else is left (false).
func unsayIn(c *Candidate, topic string) bool {
	if !names(c.Description+" "+c.Body, topic) {
		return true
	}
	head, rest, _ := strings.Cut(c.Body, "\n\n")
	head = strings.TrimRight(strings.TrimSpace(head), ".")
	cuts := clauseCuts(head)
	var kept []string
	lastKept := false
	for k := range cuts {
		clause, ok := clauseAt(head, cuts, k)
		lastKept = ok && !names(clause, topic)
		if lastKept {
			kept = append(kept, strings.TrimPrefix(strings.TrimSpace(clause), "and "))
		}
	}
	left := strings.Join(kept, ", ")
	if len(strings.Fields(left)) < 4 || names(rest, topic) {
		return false
	}
	c.Name, c.Description = title(learningTitle(c.Type, left)), oneLine(left, 140)
	c.Body = capitalize(left) + ".\n"
	if rest != "" && lastKept {
		// A reason is said after the clause it explains: it stays with
		// the last clause, and goes with it.
		c.Body += "\n" + strings.TrimRight(rest, "\n") + "\n"
	}
	return true
}

// names reports whether text names every word of topic: "tue/thu" is
// named by "only deploys tue and thu".
func names(text, topic string) bool {
	have := map[string]bool{}
	for _, w := range topicWords(text) {
		have[w] = true
	}
	ws := topicWords(topic)
	for _, w := range ws {
		if !have[w] {
			return false
		}
	}
	return len(ws) > 0
}

// topicWords are s's words in lower case, split at what joins them
// ("tue/thu", "staging-db"), less the little ones.
func topicWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(asciiLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	}) {
		if len(w) >= 2 && !determiners()[w] && !prepositions()[w] && w != "and" && w != "or" {
			out = append(out, w)
		}
	}
	return out
}

// signOff reports a sentence that opens with thanks or a goodbye.
func signOff(s string) bool {
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), " ")
	switch strings.TrimRight(w, ",.!:") {
	case "thx", "thanks", "thank", "ty", "cheers", "gn", "goodnight", "bye", "cya", "ttyl", "brb", "later":
		return true
	}
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "good night")
}

// withTalkRequest joins to the user memories of sentence s how s asks to
// be talked to: "i know stata very well, python medium, so when you write
// python please comment what each pandas step does" is who they are, as
// the seeds' own example has it. A rule read in s already holds it.
func withTalkRequest(cands []Candidate, s string, at time.Time) {
	if !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Type == "user" }) || slices.ContainsFunc(cands, func(c Candidate) bool { return c.Type == "feedback" }) {
		return // no one to join it to, or a rule holds it
	}
	req := talkRequest(s)
	if req == "" {
		return
	}
	for i := range cands {
		if cands[i].Type == "user" && !strings.Contains(cands[i].Body, "**Why:**") && !strings.Contains(asciiLower(cands[i].Body), asciiLower(req)) {
			joinProfile(&cands[i], build("user", req, "", at))
			return // once: the message's profile joins its user memories
		}
	}
}

// reTalkRequest is a request, after what the speaker says of themselves,
// about how to talk to them: "…, so when you speak about containers
// please explain more slow", "…, so for codesys specific things please
// tell me where in the IDE it is".
var reTalkRequest = gate(lazyre.New(`(?i)(?:,\s*|\s)so\s+((?:(?:when|whenever|if|for)\s[^,.;]{3,60}?,?\s+)?(?:please\s+|pls\s+|plz\s+)?(?:explain|comment|tell me|show me|go|walk me|spell|keep|say|write|use|give me)\b[^.;!?]*)`))

// talkRequest is the request reTalkRequest finds in s, when it asks how
// to explain, not what to do.
func talkRequest(s string) string {
	m := reTalkRequest.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	r := strings.TrimSpace(m[1])
	if !reExplainDepth.MatchString(r) && !reTalkHow.MatchString(r) {
		return ""
	}
	return r
}

var reTalkHow = gate(lazyre.New(`(?i)\b(?:slow(?:er|ly)?|step by step|long version|short version|comment what|tell me where|where in|in plain|simple terms|analog(?:y|ies)|examples?)\b`))

// notToKeep reports a memory a reader made of what is this session's
// business only, or of what the code says: the speaker's own errand ("nah
// ill log it myself"), a place in the repository itself ("slot fetching is
// in shared/src/commonMain/…/SlotRepository.kt": a reference is where
// something lives outside it).
func notToKeep(c Candidate) bool {
	if rule, _, _ := strings.Cut(c.Body, "\n"); len(strings.Fields(rule)) < 3 && pointsBack(append([]string{""}, strings.Fields(asciiLower(rule))...)) {
		return true // "This is.": what was left once its reason was cut out
	}
	switch c.Type {
	case "feedback":
		return reDoItMyself.MatchString(c.Description) || wrongThing(c.Description)
	case "reference":
		return inRepo(c.Description)
	}
	return false
}

var (
	// rePlaceOf is where a place sentence first says something is: "slot
	// fetching is in shared/src/…", "fingerprints come from the
	// can-i-take-over-xyz list, vendored in data/…" (the list).
	rePlaceOf = gate(lazyre.New(`(?i)\b(?:in|under|at|from|into|on)\s+(?:the\s+|our\s+)?([^\s,;]+)`))
	// reRepoPath is a path in the repository at hand: a source file, or
	// a folder code and data live in.
	reRepoPath = gate(lazyre.New(`(?i)^(?:src|lib|app|pkg|cmd|internal|shared|assets|application|data|docs|test|tests|spec|config|inventories|scripts|models|migrations)/|^[\w.-]+(?:/[\w.-]+)+\.(?:kt|kts|pm|pl|st|go|py|ts|tsx|js|jsx|rb|java|cs|swift|sol|sql|rs|c|h|cpp|php|vue|svelte|ex|exs|scala|lua|gd|dart)$`))
	// reElsewhere names a place beside the repository: "the hw repo",
	// "the shared drive", "on the cluster".
	reElsewhere = gate(lazyre.New(`(?i)\b(?:repo|repository|wiki|drive|sharepoint|share|server|bucket|cluster|vault|box|host|machine|nas|gitea|gitlab|github|confluence|notion)\b`))
)

// inRepo reports a place that is a path in the repository at hand, which
// reading the code finds.
func inRepo(d string) bool {
	m := rePlaceOf.FindStringSubmatch(d)
	return m != nil && !reElsewhere.MatchString(d) && reRepoPath.MatchString(strings.Trim(m[1], "`'\"().:"))
}

// wrongThing reports a correction of the moment: "wrong file, it's
// store/pg.go", "wrong branch".
func wrongThing(d string) bool {
	w := strings.Fields(strings.ToLower(d))
	if len(w) < 2 || w[0] != "wrong" {
		return false
	}
	switch strings.Trim(w[1], ",.;:!") {
	case "file", "one", "branch", "place", "function", "line", "repo", "folder", "dir", "directory", "table", "test", "path", "method", "class", "module", "service", "env", "environment", "server", "host", "commit", "ticket", "link", "tab", "window", "command":
		return true
	}
	return false
}

// reDoItMyself is the speaker taking a step on themselves: "i'll log it
// myself", "nah ill just run them myself".
var reDoItMyself = gate(lazyre.New(`(?i)^(?:(?:nah|no|ok|okay)[,.]?\s+)?(?:i'?ll|ill|i will|i can|i'?m gonna|im gonna|i'?d rather)\s+(?:just\s+)?\w+(?:\s+\w+)?\s+(?:it|this|that|them|those|these)(?:\s+\w+)?\s+myself\b`))

// reSelfJoke is a clause that jokes about the speaker: "im basically a
// professional bug breeder at this point", "im basically a vm babysitter
// lol", "if i dream in solidity again im billing lumen for it".
var reSelfJoke = gate(lazyre.New(`(?i)\b(?:i'?m|im|i am)\s+(?:basically|practically|literally|officially|clearly)\s+(?:a|an|the)\s[^,.;!?]*?(?:\bat this point\b|\b(?:lol|lmao|haha+|rofl)\b|😂|🙃)|^if i\b[^,.;]*\bagain\b[^,.;]*\b(?:i'?m|im|i am|i'?ll|ill)\b`))

// withoutSelfJoke is s less its clauses that joke about the speaker, and
// whether it had one: "if i have to rebase this again ill scream, so
// always rebase on main first" keeps its rule.
func withoutSelfJoke(s string) (string, bool) {
	if !mayHold(s, []string{"again", "at this point", "lol", "lmao", "haha", "rofl", "😂", "🙃"}) {
		return s, false // the cheap test first: every sentence is asked
	}
	cuts := clauseCuts(s)
	var kept []string
	joked := false
	for k := range cuts {
		c, ok := clauseAt(s, cuts, k)
		if c = strings.TrimSpace(c); !ok || c == "" {
			continue
		}
		if reSelfJoke.MatchString(c) || reSelfJoke.MatchString(read(c).text) {
			joked = true
			continue
		}
		kept = append(kept, c)
	}
	if !joked {
		return s, false
	}
	return strings.Join(kept, ", "), true
}

// reOwnerTyped is who does what, as people type it, in lower case:
// "priya owns the dbt project", "my friend jun does the art", "wen
// handles client comms then", "my helper Devon only works mon and
// wed". Whether the word before the verb is a name, a regexp cannot
// tell: ownerTyped asks notAName.
var reOwnerTyped = gate(lazyre.New(`(?i)(?:^|[,;(]\s*|\b(?:and|also|now|so|but|btw|fwiw)\s+|\b(my (?:friend|helper|colleague|coworker|co-worker|intern|buddy|manager|boss|lead|pm)) )([a-z]{3,12})(?: from [\w-]+(?: [\w-]+)?)? (owns|handles|covers|reviews|approves|decides|signs off|does (?:the|all|our)|prefers|takes over|is taking over|took over|is the one (?:to ask|who)|only works|works only|is on (?:leave|vacation|holiday|parental leave|maternity leave|paternity leave))\b`))

// ownerTyped reports who does what said of a person by name, in lower case
// as often as not (reOwnerTyped). What a tool does as well as a person
// ("pandas handles missing values", "react does the escaping") needs the
// name written as one, or the person said to be someone's: "Wen handles
// client comms", "my friend jun does the art".
func ownerTyped(s string) bool {
	for _, m := range reOwnerTyped.FindAllStringSubmatchIndex(s, -1) {
		name, verb := s[m[4]:m[5]], strings.ToLower(s[m[6]:m[7]])
		if notAName()[strings.ToLower(name)] {
			continue
		}
		toolToo := verb == "handles" || verb == "covers" || strings.HasPrefix(verb, "does ")
		if !toolToo || m[2] >= 0 || name[0] >= 'A' && name[0] <= 'Z' {
			return true
		}
	}
	return false
}

// notAName are words reOwnerTyped can read where a name stands: "it
// handles retries", "nobody reviews these", "the cache covers it".
var notAName = sync.OnceValue(func() map[string]bool {
	return wordSet(`the its this that these those who which what whoever she they them you one everyone everybody someone
	somebody nobody anyone anybody team teams service services code test tests app apps job jobs script scripts build builds
	user users client clients customer customers server servers cache proxy gateway cron queue worker workers library lib
	framework tool tooling module plugin config pipeline system systems model models api backend frontend database
	ops infra security legal finance marketing sales support design product management qa dev devs people folks
	nginx traefik envoy redis kafka postgres mysql sentry datadog argo jenkins github gitlab terraform ansible helm
	celery sidekiq airflow dbt spark docker kubernetes linux windows android ios mobile web browser everything nothing
	something anything mine yours ours theirs robot robots bot bots agent agents machine machines device devices board
	boards sensor sensors firmware compiler linter parser router scheduler runner runners driver drivers engine
	renderer shader game player players page pages site form cluster node nodes container pod pods
	grafana prometheus kibana vault consul nomad circleci buildkite copilot chatgpt claude gemini cursor dependabot renovate
	snyk sonarqube jira confluence notion slack figma`)
})
