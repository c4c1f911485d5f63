package extract

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads where something lives outside the repository: a place
// named by its kind and title, an id, a breadcrumb or "that's where", not
// code, not a version; and a dated sentence cut into its facts and the
// places it names beside them.

// reTitledPlace is a place named in title case, or called by a name: "the
// Release Train project board", "in the FHIR Mapping Decisions sheet", "a
// ServiceNow form called Third-Party App Review".
var reTitledPlace = gate(lazyre.New(`\b(?:the|our|a)\s+(?:[\w'’-]+\s+){0,2}(?:doc|sheet|spreadsheet|board|dashboard|wiki|notebook|vault|folder|calendar)\s+(?:called\s+|named\s+)?['"]?(?:[A-Z][A-Za-z0-9&.-]+|[A-Z]&[A-Z])(?:\s|$|[.,;'"])|\b(?:is|are|in|on|at)\s+(?:the|our)\s+(?:[A-Z][\w-]*\s+){1,4}(?:project\s+|team\s+)?(?:[Bb]oard|[Ss]heet|[Ss]preadsheet|[Dd]oc|[Ss]pace|[Dd]ashboard|[Ww]iki|[Cc]hannel|[Bb]ucket|[Ff]orm|[Nn]otebook)\b|\b(?:[Ff]orm|[Ss]heet|[Bb]oard|[Cc]hannel|[Dd]oc|[Pp]roject|[Ss]pace|[Bb]ucket|[Dd]ashboard|[Qq]ueue)\s+(?:called|named)\s+['"]?[A-Z]`))

// titledPlace reports reTitledPlace, behind a cheap test: a capital
// letter after the first byte, and one of the kinds of place.
func titledPlace(s string) bool {
	if len(s) < 2 || !mayHold(s, placeKinds) {
		return false
	}
	if first, _, _ := strings.Cut(asciiLower(strings.TrimSpace(s)), " "); firstPerson(first) || first == "there's" || first == "theres" {
		return false // "I put the notes in the Google Doc": what the speaker did
	}
	titled := false // a word in title case, not "I"
	for i := 1; i+1 < len(s) && !titled; i++ {
		titled = 'A' <= s[i] && s[i] <= 'Z' && s[i-1] == ' ' && s[i+1] != ' ' && s[i+1] != '\''
	}
	return titled && reTitledPlace.MatchString(s)
}

// placeKinds gate reTitledPlace, whose literals the gate cannot read.
var placeKinds = []string{" board", " sheet", " doc", " space", " dashboard", " wiki", " channel", " bucket", " form", " notebook", " called ", " named ", " vault", " folder", " calendar"}

// reWhereClause says outright that a place is where something lives:
// "…the DKRZ swift bucket cfd-refdata, thats where the golden outputs
// live".
var reWhereClause = gate(lazyre.New(`(?i)\b(?:that'?s|thats|this is|it'?s|is|are) where (?:[\w-]+ ){1,4}(?:lives?|go(?:es)?|sits?|(?:are|is|get|gets) (?:kept|stored|posted|filed)|end up|ends up)\b`))

// reKindNamed is a place named after the kind of place it is: "bucket is
// gatehouse-exports-prod", "page 'ME-GC-Decision-2025'", "pipeline
// 'wms-ci'", "repo helix/sf-cpq", "pagerduty schedule 'SecOps Primary'".
var reKindNamed = gate(lazyre.New(`(?i)\b(?:bucket|repo|repository|pipeline|page|board|dashboard|channel|folder|sheet|spreadsheet|space|vault|wiki|doc|document|form|calendar|library|table|workbook|notebook|tracker|queue|topic|workspace|list|schedule|service|namespace|registry|feed|project|layout|mailbox|inbox)\s+(?:is\s+|=\s*|:\s*)?(?:'[^']{2,60}'|"[^"]{2,60}"|\x60[^\x60]{2,60}\x60)|\b(?:bucket|repo|repository|pipeline|registry|feed|namespace|queue|topic)\s+(?:is\s+)?[a-z0-9]+(?:[-.][a-z0-9]+)+(?:/[\w.-]+)*\b|\b(?:repo|repository)\s+(?:is\s+)?[\w.-]+/[\w.-]+|\b[a-z][a-z0-9]*_[a-z0-9_]+\s+(?:share|schema|database|dataset|warehouse|stage)\b`))

// reKindID is a project, vault or workspace named by its id (group 1:
// "the Lokalise project peoplepath-web", "firebase, project
// gemfall-prod"), or a board, page or sheet said to be a named one of a
// system (group 2: "the on-call board is grafana 'billing-rating'").
var reKindID = gate(lazyre.New(`(?i)\b(?:project|vault|workspace)\s+((?:is\s+(?:still\s+|now\s+)?)?[a-z0-9]+(?:-[a-z0-9]+)+)\b|\b(?:board|dashboard|page|doc|docs|sheet|wiki|channel|runbook|spec|folder|space|tracker|calendar)\s+(?:is|are)\s+(?:in\s+|on\s+)?([\w-]+)\s+['"\x60][^'"\x60]{2,40}['"\x60]`))

// kindID reports a place named by reKindID, whose id is not a word that
// has a hyphen ("the project is read-only", "the workspace set-up").
func kindID(s string) bool {
	m := groupOf(reKindID.FindAllStringSubmatch(s, -1), 1)
	if m == "" {
		return false
	}
	id := asciiLower(m)
	if rest, ok := strings.CutPrefix(id, "is "); ok {
		// "project is still VX300-RISK": an id, with its digit; not "the
		// project is long-running".
		id = strings.TrimPrefix(strings.TrimPrefix(rest, "still "), "now ")
		if !strings.ContainsAny(id, "0123456789") {
			return false
		}
	}
	first, _, _ := strings.Cut(id, "-")
	switch first {
	case "re", "self", "non", "co", "pre", "post", "multi", "cross", "sub", "semi", "anti", "de", "un":
		return false
	}
	return !hyphenWords(id)
}

// hyphenWords reports a word written with a hyphen that names no place.
func hyphenWords(w string) bool {
	switch w {
	case "read-only", "read-write", "set-up", "on-hold", "open-source", "well-known", "long-term", "short-term", "built-in", "follow-up", "sign-off", "check-in", "opt-in", "opt-out", "up-to-date", "end-to-end", "full-time", "part-time", "low-code", "no-code", "in-house", "one-off", "real-time", "on-prem", "on-premise", "day-to-day", "year-end", "month-end", "go-live", "hand-over", "wrap-up", "stand-up", "kick-off", "cut-over", "high-level", "low-level", "top-level", "add-on", "plug-in", "log-in", "sign-up", "clean-up", "roll-out", "write-only":
		return true
	}
	return false
}

// boardIn reports reKindID's board in a system, whose system is a name
// and not what the board does ("the dashboard is showing 'No data'",
// "the sheet is missing 'Q3'").
func boardIn(s string) bool {
	m := groupOf(reKindID.FindAllStringSubmatch(s, -1), 2)
	if m == "" {
		return false
	}
	w := asciiLower(m)
	switch w {
	case "still", "now", "currently", "always", "never", "not", "also", "just":
		return false // "the board is still 'In Review'": a status
	}
	return !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "ed") && !finiteVerbs()[w] && !stateVerbs(w) && !determiners()[w]
}

// groupOf is group g of the first of ms that has it; "" when none does.
func groupOf(ms [][]string, g int) string {
	for _, m := range ms {
		if m[g] != "" {
			return m[g]
		}
	}
	return ""
}

// reAnyName is a name anywhere: quoted, a channel, an identifier with
// dashes, dots or slashes.
var reAnyName = gate(lazyre.New(`'[^']{2,40}'|"[^"]{2,40}"|\x60[^\x60]{2,40}\x60|#[a-z0-9][\w-]{2,}|\b[a-z0-9]+(?:[-_.][a-z0-9]+)+|\b[\w.-]+/[\w.-]+|\b[A-Z]:\\[\w\\<>.-]+`))

// splitDated cuts a sentence that puts two things on the calendar into
// one fact each, or returns nil: "the play store release is 6 july and
// feature freeze is three days before" (its dates absolute first, so the
// second still counts from the first). A second fact said to follow from
// the first ("…on the 18th, so feature freeze is this wednesday") keeps
// the first as its why.
func splitDated(s string, at time.Time) []datedPart {
	abs, dated := AbsoluteDates(s, at)
	if !dated {
		return nil
	}
	lower := asciiLower(abs)
	for _, sep := range []string{" and ", ", and ", ", "} {
		for off := 0; ; {
			j := strings.Index(lower[off:], sep)
			if j < 0 {
				break
			}
			i := off + j
			off = i + len(sep)
			if i == 0 {
				continue
			}
			if parts := datedAt(abs, i, sep); parts != nil {
				return parts
			}
		}
	}
	return nil
}

// datedPart is one of splitDated's facts, and the fact it follows from.
type datedPart struct{ text, why string }

// datedAt cuts s at the separator at i into two dated facts, or returns
// nil.
func datedAt(s string, i int, sep string) []datedPart {
	left, right := strings.TrimRight(strings.TrimSpace(s[:i]), ",;"), strings.TrimSpace(s[i+len(sep):])
	why := ""
	if rest, ok := strings.CutPrefix(right, "so "); ok && reISODate.MatchString(rest) {
		right, why = rest, strings.TrimRight(left, ".!") // "…, so feature freeze is wednesday 2026-03-04"
	}
	if rest, ok := cutPointer(right); ok && reISODate.MatchString(rest) {
		// "…is on the 18th and before that there's a change freeze
		// starting monday": its own day says when; "before that" is
		// only the order.
		right = rest
	}
	lw, rw := strings.Fields(left), strings.Fields(asciiLower(right))
	if len(lw) < 3 || len(rw) < 3 {
		return nil
	}
	fronted := reFrontedDay.MatchString(right) // "from 2026-03-25 on, solver core changes are frozen"
	if !fronted && (prepositions()[rw[0]] || imperatives()[rw[0]] || notSubject()[rw[0]] || strings.HasSuffix(rw[0], "s") && !determiners()[rw[0]] && len(rw) > 1 && (prepositions()[rw[1]] || reISODate.MatchString(rw[1]))) || rePast.MatchString(left) || rePast.MatchString(right) {
		return nil // "…, because the audit is june 10", "…and ends on june 10", "we shipped on may 1 and …"
	}
	if !reISODate.MatchString(left) || !reISODate.MatchString(right) || !reSchedule.MatchString(right) && !strings.Contains(" "+asciiLower(right)+" ", " is ") && !strings.Contains(" "+asciiLower(right)+" ", " are ") && !datedVerb(rw, why == "") {
		return nil
	}
	if fronted {
		right = dayAfterClause(right)
	}
	return []datedPart{{text: left}, {text: capitalize(right), why: why}}
}

// datedVerb reports the verb of a dated clause said plainly ("the paper
// draft goes to coauthors by 2026-03-12", "we've got the site visit
// tuesday 2026-03-10"), or a deadline said without one after another
// ("…due 2026-03-20, VPAT for their LMS vendor by 2026-03-31"), when it
// is said beside it (parallel) rather than as what follows from it.
func datedVerb(w []string, parallel bool) bool {
	for i, x := range w[:min(len(w), 6)] {
		switch x {
		case "goes", "go", "runs", "comes", "lands", "ships", "starts", "ends", "happens", "moves", "gets", "got", "has":
			return true
		case "by":
			return parallel && i+1 < len(w) && reISODate.MatchString(w[i+1]) // not "…, so everything live by 2026-10-16": what follows from it
		}
	}
	return false
}

// dayAfterClause moves a clause's opening day to the end of the clause:
// "from 2026-03-25 on, solver changes are frozen, only scripts" is
// "solver changes are frozen from 2026-03-25 on, only scripts", a fact
// that opens with what it is about.
func dayAfterClause(s string) string {
	day, rest, ok := strings.Cut(s, ", ")
	if !ok || len(strings.Fields(rest)) < 3 {
		return s
	}
	if i := strings.Index(rest, ", "); i > 0 {
		return rest[:i] + " " + day + rest[i:]
	}
	end := strings.TrimRight(rest, ".!")
	return end + " " + day + rest[len(end):]
}

// reFrontedDay is a clause that opens with its day, then a comma: "from
// 2026-03-25 on, …", "starting monday 2026-03-16, …".
var reFrontedDay = gate(lazyre.New(`(?i)^(?:from|on|after|starting|until|till|by)\s+(?:[a-z]+\s+)?\d{4}-\d\d-\d\d(?:\s+on(?:wards)?)?,\s`))

// cutPointer drops the opening that only orders a clause after the one
// before it: "before that", "after that", "before then".
func cutPointer(s string) (string, bool) {
	l := asciiLower(s)
	for _, p := range []string{"before that ", "after that ", "before then ", "after then ", "before that, ", "after that, "} {
		if strings.HasPrefix(l, p) {
			return s[len(p):], true
		}
	}
	return s, false
}

// notSubject are words a fact of its own does not open with.
var notSubject = sync.OnceValue(func() map[string]bool {
	return wordSet(`so but then because since as not it they this that which who ends lasts runs until till through and or`)
})

// cutWhere takes from a dated fact the clauses after its first that say
// where something lives, or returns no where.
func cutWhere(s string, at time.Time) (fact string, where []string) {
	parts := strings.Split(s, ", ")
	keep := parts[:1:1]
	for _, p := range parts[1:] {
		if len(strings.Fields(p)) >= 3 && isWhere(p) && !isScheduled(p, at) {
			where = append(where, p)
			continue
		}
		keep = append(keep, p)
	}
	if where == nil {
		return s, nil
	}
	return strings.Join(keep, ", "), where
}

// namedPlace reports a name within a few words of s's start
// (reNamedPlace, reBreadcrumb).
func namedPlace(s string) bool {
	if reNamedPlace.MatchString(s) {
		return true
	}
	head := s[:min(len(s), 160)]
	if !strings.Contains(head, " / ") && !strings.Contains(head, " > ") {
		return false
	}
	m := reBreadcrumb.FindString(s)
	return m != "" && strings.ContainsFunc(m, unicode.IsUpper) // "NETCODE > Playtest Log", not "dlq > failed"

}

// codeName reports a name of the code, not a place: "fetch_user",
// "internal/util/retry".
func codeName(n string) bool {
	if strings.Contains(n, "_") && !strings.ContainsAny(n, "-.") {
		return true
	}
	for _, p := range []string{"internal/", "src/", "pkg/", "lib/", "cmd/", "app/", "./"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// lastWordOf is s's last word.
func lastWordOf(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// versionAt reports a name with a number and no dot or slash at s's
// start: what something is on ("text-embedding-3-small", "node-18"), not
// where it lives.
func versionAt(s string) bool {
	f := strings.Fields(s)
	if len(f) > 0 && (f[0] == "the" || f[0] == "our") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	w := strings.TrimRight(f[0], ".,;:!")
	return strings.Contains(w, "-") && strings.ContainsAny(w, "0123456789") && !strings.ContainsAny(w, "./")
}

// versionNumber reports a release number, "2.14", "v1.22.3": what a thing
// is on, never where it lives ("timescaledb is on that db and has to stay
// on 2.14").
func versionNumber(w string) bool {
	w = strings.TrimPrefix(strings.TrimPrefix(w, "v"), "V")
	return strings.Contains(w, ".") && strings.Trim(w, "0123456789.") == ""
}

// callAt reports a call in s, a name right before "(": code, not a place.
// A parenthesis after a space is an aside: "(Data Platform/Contracts)".
func callAt(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == '(' && s[i-1] != ' ' {
			return true
		}
	}
	return false
}

// reInSystem is a thing said to live somewhere, and the place's first
// word: "the on-call schedule is in opsgenie", "specs are in confluence
// space INVC"; or a tool's project, space or board by its name: "our
// sentry project is web-frontend". inSystem checks the word is a tool's.
var (
	reInSystem = gate(lazyre.New(`(?i)\b(?:is|are|lives?|sits?|kept|stored|documented|tracked|posted|filed|written up)\s+(?:in|on|at|under|through)\s+(?:(?:the|our|their)\s+)?([a-z0-9.]+)` +
		`|\b(?:our|the|their) ([a-z0-9.]+) (?:project|space|board|team|org|service|file|workspace|dashboard|repo|page|view|list)\s+(?:is\s+|=\s*|:\s*)?(?-i:['"]?[\w.-]*[A-Z0-9_-][\w.-]*)`))
	reQuotedPlace  = gate(lazyre.New(`(?i)(?:\b(?:is|are)|'s)\s+(?:now\s+)?(?:the|our|their)\s+['"‘“][^'"’”]{2,40}['"’”]\s+(?:[\w-]+\s+){0,2}(?:page|base|sheet|spreadsheet|doc|board|folder|channel|space|dashboard|vault|drive|wiki|notebook|workbook|bucket|tracker|form|library|calendar|list|table)\b|\bin\s+(?:the|our|their)\s+['"‘“][^'"’”]{2,40}['"’”]\s+(?:in|on)\s+[a-z][\w-]+\b`))
	reDocumentedAt = gate(lazyre.New(`(?i)\b(?:documented|described|written up|specified) (?:at|in|on) https?://`))
)

// systemNames are tools a team keeps things in, outside its repository.
var systemNames = sync.OnceValue(func() map[string]bool {
	return wordSet(`linear jira grafana datadog sentry pagerduty notion confluence asana trello opsgenie kibana honeycomb
	statuspage 1password vault figma dovetail productboard miro google sharepoint dropbox airtable testrail zendesk intercom
	hubspot salesforce looker metabase tableau superset gitlab bitbucket artifactory backstage coda clickup quip loom lucid
	lucidchart postman swagger readme.io`)
})

// systemList is systemNames' keys.
var systemList = sync.OnceValue(func() []string { return slices.Collect(maps.Keys(systemNames())) })

// inSystem reports a thing said to live in a tool (see reInSystem).
func inSystem(s string) bool {
	if reDocumentedAt.MatchString(s) {
		return true
	}
	lower := asciiLower(s)
	if !slices.ContainsFunc(systemList(), func(name string) bool { return strings.Contains(lower, name) }) {
		return false // most sentences name no tool: the pattern need not run
	}
	for _, m := range reInSystem.FindAllStringSubmatch(s, -1) {
		if systemNames()[strings.ToLower(m[1]+m[2])] {
			return true
		}
	}
	return false
}

// opensWithImperative reports an instruction: "check what is in datadog".
func opensWithImperative(s string) bool {
	w := strings.Fields(asciiLower(s))
	return len(w) > 0 && (imperatives()[w[0]] || w[0] == "can" || w[0] == "could")
}

// isWhere reports a named place outside the repository.
func isWhere(s string) bool {
	if w := strings.Fields(asciiLower(s)); len(w) > 1 && firstPerson(w[0]) && (w[1] == "come" || w[1] == "came") {
		return false // "I come from java": where the speaker's skills come from
	}
	if labelledPlace(s) {
		return !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
	}
	if inSystem(s) && !mayHold(s, []string{"bug", "error", "problem", "crash", "leak", "somewhere", "all day"}) && !opensWithImperative(s) {
		return !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
	}
	if reWhereClause.MatchString(s) && reAnyName.MatchString(s) && !mayHold(s, []string{"bug", "error", "issue", "problem", "crash", "leak"}) && !codeName(reAnyName.FindString(s)) {
		return !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
	}
	if reQuotedPlace.MatchString(s) && !reTrouble.MatchString(s) && !mayHold(s, []string{"bug", "error", "problem", "crash", "leak"}) {
		// "the site register is the 'Sites' airtable base": a place
		// named by what it is, not by where something lives in it.
		return !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
	}
	if !strings.ContainsAny(s, "'\"`#-_/.>") && !capsKey(s) {
		// No quoted name, channel, identifier or address: a name in title
		// case at most.
		return titledPlace(s) && !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
	}
	named := titledPlace(s)
	for _, end := range locVerbEnds(s) {
		if named {
			break
		}
		// A name, not code: "comes from `os.Getenv(\"PORT\")`" is no place.
		if end >= 3 && strings.EqualFold(s[end-3:end], " on") && versionAt(s[end:]) {
			continue // "our eval baseline is on text-embedding-3-small": a version, not a place
		}
		named = namedPlace(s[end:]) && !callAt(s[end:min(len(s), end+60)]) && !versionNumber(lastWordOf(reNamedPlace.FindString(s[end:])))
	}
	named = named || reIsNamed.MatchString(s) || strings.ContainsAny(s, "-_.") && reIsNamedID.MatchString(s) && !versionAt(lastWordOf(reIsNamedID.FindString(s))) ||
		reKindNamed.MatchString(s) && !callAt(s) || kindID(s) || boardIn(s)
	return named && !reInRepo.MatchString(s) && !reDerivable.MatchString(s)
}

// placeOnly is a place less the step of this task said after it:
// "flagsmith, project 'tilde-backend', create the flag there as
// streak_local_midnight" is where flags live, not the flag to make.
func placeOnly(s string) string {
	cuts := clauseCuts(s)
	for k := 1; k < len(cuts); k++ {
		clause, ok := clauseAt(s, cuts, k)
		w := strings.Fields(asciiLower(clause))
		if ok && len(w) >= 2 && (imperatives()[w[0]] || w[0] == "create" || w[0] == "send" || w[0] == "update") && slices.ContainsFunc(strings.Fields(clause), codeWord) {
			return strings.TrimRight(s[:cuts[k].at], " ,;")
		}
	}
	return s
}

// codeWord reports an identifier of the code: "streak_local_midnight",
// "fetchUser", not a URL or a path.
func codeWord(w string) bool {
	w = strings.Trim(w, ".,;:!?()'\"`")
	if strings.Contains(w, "/") || strings.Contains(w, "://") || len(w) < 4 {
		return false
	}
	if strings.Contains(w, "_") && strings.IndexFunc(w, unicode.IsLetter) >= 0 {
		return true
	}
	for i := 1; i < len(w); i++ {
		if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
			return true // camelCase
		}
	}
	return false
}

// capsKey reports a container named by a key in capitals: "youtrack
// project DMA", "confluence space INVC".
func capsKey(s string) bool {
	w := strings.Fields(s)
	for i := 0; i+1 < len(w); i++ {
		switch w[i] {
		case "project", "space", "board", "queue", "group", "workspace", "org":
			k := strings.TrimRight(w[i+1], ".,;:!")
			if len(k) >= 2 && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == "" && k[0] >= 'A' && k[0] <= 'Z' {
				return true
			}
		}
	}
	return false
}

// labelledPlace reports a thing named, then where it lives after a
// colon: "model checkpoints: s3://ml-artifacts-prod/ranker/", "the
// runbook: https://wiki.acme.io/ops/db". The thing is a noun of at most
// four words; the place an address. Not an error, a pull request, a
// build or a log said with its link: those are now, or in git.
func labelledPlace(s string) bool {
	_, ok := labelStart(s)
	return ok
}

// labelStart is where the label of a labelled place starts in s: after
// a preface ("PFA the path — model checkpoints: …").
func labelStart(s string) (int, bool) {
	head, value, ok := strings.Cut(s, ": ")
	if !ok {
		return 0, false
	}
	start := 0
	for _, sep := range []string{" — ", " – ", " - ", ", "} {
		if i := strings.LastIndex(head, sep); i >= 0 {
			head = head[i+len(sep):]
			start += i + len(sep)
		}
	}
	w := strings.Fields(asciiLower(head))
	if len(w) == 0 || len(w) > 4 || determiners()[w[len(w)-1]] || imperatives()[w[0]] {
		return 0, false
	}
	for _, x := range w {
		if strings.Trim(x, "abcdefghijklmnopqrstuvwxyz-") != "" {
			return 0, false
		}
		switch strings.TrimSuffix(x, "s") {
		case "error", "warning", "exception", "panic", "fatal", "trace", "traceback", "log", "pr", "commit", "issue", "build", "run", "job",
			"diff", "screenshot", "paste", "gist", "here", "link", "this", "that", "output", "result", "fail", "failure", "question", "note", "todo":
			return 0, false
		}
	}
	addr, _, _ := strings.Cut(strings.TrimSpace(value), " ")
	switch {
	case strings.HasPrefix(addr, "s3://"), strings.HasPrefix(addr, "gs://"), strings.HasPrefix(addr, "az://"):
		return start, len(addr) > 6
	case strings.HasPrefix(addr, "https://"), strings.HasPrefix(addr, "http://"):
		return start, strings.Count(addr, "/") >= 3 || strings.Count(addr, ".") >= 1
	}
	return 0, false
}

// reTrouble marks talk about a problem now: where this bug shows up is no
// place to remember unless the place has a name ("bugs come in Linear,
// team BOOK" is).
var reTrouble = gate(lazyre.New(`(?i)\b(?:the|this|that|a|an) (?:bug|error|crash|leak)\b|\ba mess\b|\bany idea\b|\bbroken\b|\bfailing\b`))

// datedFacts is a project memory for each thing a sentence puts on the
// calendar when it puts two there ("the sale launches on the 20th and
// deploys are frozen from the 18th"), or nil.
func datedFacts(s, next string, at time.Time) []Candidate {
	parts := splitDated(s, at)
	if parts == nil {
		return nil
	}
	var cs []Candidate
	for _, p := range parts {
		why := p.why
		if why == "" {
			why = factWhy(p.text, next, at)
		}
		cs = append(cs, build("project", p.text, why, at))
	}
	return cs
}

// andPlace is where " and " opens another thing and its place in p
// ("maps are in the s3 bucket amr-maps-prod and fleet stuff is on
// foxglove"), or " and the " does; -1 when neither.
func andPlace(p string) int {
	l := asciiLower(p)
	for off := 0; ; {
		i := strings.Index(l[off:], " and ")
		if i < 0 {
			return -1
		}
		i += off
		right := p[i+len(" and "):]
		if strings.HasPrefix(l[i:], " and the ") {
			return i
		}
		if w := strings.Fields(asciiLower(right)); len(w) >= 3 && !firstPerson(w[0]) && !imperatives()[w[0]] && len(locVerbEnds(right)) > 0 {
			return i
		}
		off = i + len(" and ")
	}
}

// splitFacts cuts a sentence into clauses at ", " and " and the ", and
// returns them when at least two hold a fact of the kind ok accepts.
func splitFacts(s string, ok func(string) bool) []string {
	var parts []string
	for _, p := range strings.Split(s, ", ") {
		if rest, ok := strings.CutPrefix(p, "and "); ok && len(parts) > 0 && len(strings.Fields(rest)) >= 3 && !verbless(rest) {
			p = rest // "…, and the on-call board is grafana 'billing-rating'"
		}
		for {
			i := andPlace(p)
			if i < 0 {
				break
			}
			parts = append(parts, p[:i])
			p = p[i+len(" and "):]
		}
		if len(parts) > 0 && (len(strings.Fields(p)) == 1 || verbless(p) && len(strings.Fields(p)) <= 6 || lastWordOf(strings.TrimRight(asciiLower(p), ".!")) == "there") {
			// "lineage is on our dbt docs site, dbt-docs.internal…": a bare
			// name belongs to the clause before it; so does a name without
			// a verb: "…are in grafana cloud, dashboard 'cardclash-live'",
			// "the runbook is on confluence, CLAIMS space, page 'X'"; and a
			// clause that points back at it: "…, bug reports come from
			// there".
			parts[len(parts)-1] += ", " + p
			continue
		}
		parts = append(parts, p)
	}
	var out []string
	named := 0
	for _, p := range parts {
		switch w := strings.Fields(asciiLower(p)); {
		case ok(p):
			out = append(out, p)
			named++
		case len(w) >= 3 && !firstPerson(w[0]) && !opensWithImperative(p) && len(locVerbEnds(p)) > 0 && !reInRepo.MatchString(p):
			// "ios is in sentry project mobile-ios-prod, android is in
			// firebase crashlytics": a place said like the named one
			// beside it.
			out = append(out, p)
		}
	}
	if len(out) < 2 || named == 0 {
		return nil
	}
	return out
}

// placesOfTask are the places a sentence that sets this task names, said
// after its first clause: "task: driver for the new sensor over SPI, the
// datasheet is on our sharepoint in Hardware/Datasheets/Sensata_P1J.pdf".
// The task is this session's; where its documents live is not.
func placesOfTask(s string, at time.Time) []Candidate {
	var out []Candidate
	cuts := clauseCuts(s)
	for k := 1; k < len(cuts); k++ {
		c, ok := clauseAt(s, cuts, k)
		c = strings.TrimSpace(c)
		// Not what the task's thing should do: "it should go in 'wait'
		// state instead".
		if ok && len(strings.Fields(c)) >= 4 && !opensWithImperative(c) && !mayHold(c, []string{"should", "instead", "must", "has to"}) && isWhere(c) && !reQuestion.MatchString(c) {
			out = append(out, build("reference", c, "", at))
		}
	}
	return out
}
