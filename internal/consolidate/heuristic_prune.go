package consolidate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/lazyre"
)

// prune plans the removal of memories that no longer earn their place:
// superseded long ago, marked wrong, project and reference notes no
// recall has used in unusedDays days that read as passing, and project,
// reference and feedback memories never used in neverUsedDays that neither
// teach nor point outside the code. Pinned memories are never pruned; user
// memories only when marked wrong.
func (p *planner) prune() {
	cutoff := p.in.Now.AddDate(0, 0, -unusedDays)
	// Two rounds: what supersedes a memory is pruned first, if at all, so
	// that the memory it superseded is never pruned on its word.
	for _, superseded := range []bool{false, true} {
		p.pruneRound(cutoff, superseded)
	}
}

// pruneRound plans the prunes of the memories that are superseded, or of
// those that are not.
func (p *planner) pruneRound(cutoff time.Time, superseded bool) {
	for _, it := range p.items {
		if it.Pinned || it.ReadOnly || !p.free(it.File) || (it.SupersededBy != "") != superseded {
			continue
		}
		u := it.Usage
		var reason string
		var ev []string
		switch {
		case markedWrong(u):
			reason = fmt.Sprintf("%s was marked wrong %s (helpful %d): it misleads more than it helps.", it.File, times(u.Wrong), u.Helpful)
			ev = append(ev, fmt.Sprintf("marked wrong %s, helpful %s", times(u.Wrong), times(u.Helpful)))
		case it.Type == "feedback" && it.SupersededBy == "" && unused(it.Item, cutoff) && ephemeral(it.Item) && ruleless(it.Item):
			// "Bumped that test's timeout to 30s; passes now": a fix told
			// done, saved as feedback, that states no rule.
			reason = fmt.Sprintf("%s has not been injected into any prompt in %d days and tells a one-off fix, done, with no rule in it: it no longer changes what an agent does.", it.File, unusedDays)
			ev = append(ev, usageEvidence(u, cutoff), quote(firstLine(it.Item)))
		case it.Type == "user" || it.Type == "feedback":
			continue
		case it.SupersededBy == "" && neverUsed(it.Item, p.in.Now) && !p.supersedes(it.File) && !breakGlass(it.Item) && !teaches(it.Item) && !elsewhere(it.Item):
			// Six months in the folder, and not one prompt needed it: it does
			// not change what an agent does. For a person to confirm.
			since := neverUsedSince(it.Item)
			reason = fmt.Sprintf("%s has not been injected into any prompt since %s, %d days: nothing an agent did needed it.", it.File, day(since), int(p.in.Now.Sub(since).Hours()/24))
			ev = append(ev, fmt.Sprintf("injected 0 times since %s (usage kept since %s)", day(since), day(u.Since)), quote(firstLine(it.Item)))
		case it.SupersededBy != "" && p.present(it.SupersededBy) && !p.supersededOn(it.Item).IsZero() && p.supersededOn(it.Item).Before(cutoff):
			since := p.supersededOn(it.Item)
			reason = fmt.Sprintf("%s was superseded by %s more than %d days ago (on %s at the latest): the history has been kept long enough.",
				it.File, it.SupersededBy, unusedDays, day(since))
			ev = append(ev, "superseded_by: "+it.SupersededBy, fmt.Sprintf("last changed %s, %s written %s", day(lastChange(it.Item)), it.SupersededBy, day(p.items[p.byFile[it.SupersededBy]].Created)))
		case it.SupersededBy == "" && it.Stale != "" && unused(it.Item, cutoff):
			// What it names is gone from the project ('memdir verify'), and no
			// prompt needed it since.
			reason = fmt.Sprintf("%s is marked stale (%s) and has not been injected into any prompt in %d days: it describes what is no longer there.", it.File, it.Stale, unusedDays)
			ev = append(ev, usageEvidence(u, cutoff), "stale: "+it.Stale)
		case it.SupersededBy == "" && unused(it.Item, cutoff) && ephemeral(it.Item):
			reason = fmt.Sprintf("%s has not been injected into any prompt in %d days and reads as a passing note: it no longer changes what an agent does.", it.File, unusedDays)
			ev = append(ev, usageEvidence(u, cutoff), quote(firstLine(it.Item)))
		default:
			continue
		}
		p.add(Op{Kind: Prune, Files: []string{it.File}, Retire: []string{it.File}, Reason: reason, Evidence: ev})
	}
}

// ruleless reports a memory none of whose sentences tells what to do:
// no order ("Use make test-integration instead"), no always, never or
// instead.
func ruleless(it Item) bool {
	for _, s := range sentences(it.Description + "\n\n" + it.Body) {
		if extract.Imperative(s) || reRuleWord().MatchString(s) {
			return false
		}
	}
	return true
}

var reRuleWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:always|never|instead|must|should|don't|do not|avoid|not plain)\b`)
})

// neverUsed reports whether usage evidence, kept for at least
// neverUsedDays, shows a memory last changed before then never injected.
func neverUsed(it Item, now time.Time) bool {
	u := it.Usage
	return u.Injected == 0 && !u.Since.IsZero() && !lastChange(it).IsZero() && !neverUsedSince(it).After(now.AddDate(0, 0, -neverUsedDays))
}

// neverUsedSince is the day from which a memory's evidence of no use
// counts: the later of when evidence began and when it last changed.
func neverUsedSince(it Item) time.Time {
	if c := lastChange(it); c.After(it.Usage.Since) {
		return c
	}
	return it.Usage.Since
}

// supersedes reports whether a memory of the folder names file as what
// replaced it: file holds the current fact, and pruning it would leave the
// old one pointing at nothing.
func (p *planner) supersedes(file string) bool {
	for _, it := range p.items {
		if it.SupersededBy == file {
			return true
		}
	}
	return false
}

// breakGlass reports whether a memory is kept for a rare event, an
// emergency or a recovery, whose use is rare by design: "Regional
// failover: SQL failover group", "Sev1 escalation".
func breakGlass(it Item) bool {
	return reBreakGlass().MatchString(it.Name + "\n" + it.Description + "\n" + it.Body)
}

// teaches reports whether a memory holds a rule or a lesson, which an
// agent may need on the one day it comes up: "always set sslmode=require",
// "tried spot instances, did not pan out: keep CI on on-demand".
func teaches(it Item) bool {
	text := prose(it.Description + "\n" + it.Body)
	// "Only that test class was affected" tells what happened; it rules
	// nothing.
	text = strings.Join(slices.DeleteFunc(sentences(text), reOnlyReport().MatchString), "\n")
	if reTeaches().MatchString(text) {
		return true
	}
	// A how-to: "When debugging the bootloader, hold BOOT0 high",
	// "Debugging the modem: attach J-Link and read RTT channel 1". One that
	// names a file or a command of the repository ("Run rubocop with
	// bin/rubocop") is found there again.
	if namesCode(it.Description + "\n" + it.Body) {
		return false
	}
	for _, s := range sentences(text) {
		if head, _, ok := strings.Cut(s, ","); ok && len(strings.Fields(head)) <= 8 && leadWord(strings.ToLower(strings.Fields(head + " x")[0])) {
			return true // "When debugging the bootloader, hold BOOT0 high": what to do when
		}
		if _, after, ok := strings.Cut(s, ":"); ok {
			s = after
		}
		if extract.Imperative(s) {
			return true
		}
	}
	return false
}

// namesCode reports whether text names a file or a path of the code: a
// code span or a token with a slash or a file's extension, or another
// token pathLike reads as one.
func namesCode(text string) bool {
	for _, span := range reCodeSpan().FindAllString(text, -1) {
		if strings.Contains(span, "/") || reFileName().MatchString(span) {
			return true // "`bin/rubocop`", "`Application.kt`"; not "`GOMEMLIMIT=3GiB`"
		}
	}
	for _, w := range strings.Fields(reCodeSpan().ReplaceAllString(text, " ")) {
		w = strings.Trim(w, ".,;:!?()\"'")
		if pathLike(w) && !strings.Contains(w, "://") || reRepoPath().MatchString(w) {
			return true // "bin/rubocop", "src/app.ts"
		}
	}
	return false
}

// elsewhere reports whether a memory tells where something lives outside
// the repository (a bucket, a UI, a channel, a page): no one can find that
// in the code the day it is needed. A local address is the code's own.
func elsewhere(it Item) bool {
	text := it.Name + "\n" + it.Description + "\n" + it.Body
	for _, u := range reURL().FindAllString(text, -1) {
		if !strings.Contains(u, "://localhost") && !strings.Contains(u, "://127.0.0.1") {
			return true
		}
	}
	return reElsewhere().MatchString(text)
}

var (
	reFileName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.(?:go|rb|py|ts|tsx|js|kt|java|cs|rs|swift|yml|yaml|json|toml|md|sh|sql|xml|gradle)\b`)
	})
	reRepoPath  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.-]+/[\w.-]+$`) })
	reURL       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://\S+`) })
	reElsewhere = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:bucket|dashboard|wiki|notion|confluence|drive|spreadsheet|sheet|vault|1password)\b|(?:^|\s)#[a-z][\w-]+`)
	})
)

var reTeaches = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:always|never|must|should|shouldn't|don't|do\s+not|avoid|keep|prefer|make\s+sure|because|so\s+that|pan\s+out|lesson|learned|only|forbids?|forbidden|required|requires|not\s+allowed)\b|\bwhy:`)
})

// reDoneAtEnd is a note that ends by saying it is done.
var reDoneAtEnd = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)[.!;]\s+(?:done|(?:it\s+)?(?:passes|works|builds)\s+(?:again|now)|(?:all\s+)?green\s+(?:again|now|since(?:\s+then)?))\s*[.!]?\s*$`)
})

// reOnlyReport is a sentence that says what "only" a past event touched:
// "Only that test class was affected", "only the EU cluster went down".
var reOnlyReport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W*only\s+(?:that|this|these|those|the|a|an|one|two|three|our)\s+(?:[\w-]+\s+){0,3}?(?:was|were|had|got|went)\b`)
})

var reBreakGlass = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:runbook|disaster|dr\b|failover|fail-over|emergency|escalat\w*|sev\s?[01]|incident\s+response|break[- ]glass|restore|recovery|rollback|roll\s+back|outage|on-call|oncall|pager|contact|keystore|signing\s+key|upload\s+key|private\s+key|certificate|recovery\s+codes?)`)
})

// markedWrong reports whether a memory was marked wrong more than it
// helped: it is pruned, never merged into another (its facts would live on
// there) — unless a newer memory supersedes it, which keeps it as history.
func markedWrong(u Usage) bool { return u.Wrong >= 2 || u.Wrong >= 1 && u.Wrong > u.Helpful }

// present reports whether file is a memory of the folder that no
// operation retires: what supersedes a memory must still be there before
// the old one goes, or the old one is the only record left.
func (p *planner) present(file string) bool {
	i, ok := p.byFile[file]
	return ok && !p.retired[p.items[i].File]
}

// supersededOn is when a memory was superseded, as far as the folder
// tells: its own last change, or its superseder's writing when that is
// later, since nothing is superseded before what supersedes it exists.
// Zero when neither is known.
func (p *planner) supersededOn(it Item) time.Time {
	t := lastChange(it)
	if i, ok := p.byFile[it.SupersededBy]; ok && p.items[i].Created.After(t) {
		t = p.items[i].Created
	}
	return t
}

// lastChange is when a memory last changed: updated, else created.
func lastChange(it Item) time.Time {
	if !it.Updated.IsZero() {
		return it.Updated
	}
	return it.Created
}

// unused reports whether usage evidence, kept since before cutoff, shows a
// memory, itself older than cutoff, not injected since cutoff.
func unused(it Item, cutoff time.Time) bool {
	u := it.Usage
	if u.Since.IsZero() || u.Since.After(cutoff) || it.Created.IsZero() || it.Created.After(cutoff) {
		return false
	}
	return u.Injected == 0 || !u.LastInjected.IsZero() && u.LastInjected.Before(cutoff)
}

// usageEvidence says how little a memory was used.
func usageEvidence(u Usage, cutoff time.Time) string {
	if u.Injected == 0 {
		return fmt.Sprintf("injected 0 times since %s (usage kept since %s)", day(cutoff), day(u.Since))
	}
	return fmt.Sprintf("injected 0 times in %d days (last %s, %s in all)", unusedDays, day(u.LastInjected), times(u.Injected))
}

// ephemeral reports whether an unused memory is a project or reference
// note that reads as passing: scratch notes, an investigation under way, a
// guess, a reminder, something temporary or tied to the moment it was
// written. A durable fact nobody happened to recall (a contact, a
// convention, how to debug a part) is not pruned on usage alone.
func ephemeral(it Item) bool {
	text := prose(it.Name + "\n" + it.Description + "\n" + it.Body)
	if it.Type != "user" && reDoneAtEnd().MatchString(text) && !teaches(it) {
		return true // a one-off, told done: "Patched the rows by hand. Done.", "bumped its timeout; passes now"
	}
	if it.Type != "project" && it.Type != "reference" {
		return false
	}
	if rePassing().MatchString(text) || reToDo.MatchString(it.Description+"\n"+firstLine(Item{Body: it.Body})) || fixedSince(it.Description+"\n"+it.Body) {
		return true
	}
	// "investigating the login timeouts" is under way; "when debugging the
	// modem, …" and "Debugging the bootloader: …" teach how, for good.
	for _, m := range reUnderWay().FindAllStringIndex(text, -1) {
		before := strings.Fields(strings.ToLower(text[max(0, m[0]-24):m[0]]))
		if len(before) > 0 && reHowTo().MatchString(before[len(before)-1]) {
			continue
		}
		if slices.ContainsFunc(before[max(0, len(before)-4):], func(w string) bool {
			switch strings.Trim(w, ",;:") {
			case "spent", "wasted", "stopped", "quit", "finished":
				return true // "spent a term chasing double charges": done, and told
			}
			return false
		}) {
			continue
		}
		if rest := text[m[0]:]; unicode.IsUpper(rune(rest[0])) {
			if colon := strings.IndexByte(rest, ':'); colon > 0 && colon < 60 && !strings.ContainsAny(rest[:colon], ".!?") {
				continue // a heading: "Debugging the bootloader: use RTT"
			}
			if next := strings.Fields(text[m[1]:]); len(next) > 0 && !reUnderWayObject().MatchString(next[0]) {
				continue // a noun's first word: "Benchmarking results live in …"
			}
		}
		return true
	}
	return false
}

// reFixedIn tells of a bug fixed since: "Fixed in 2.3.2", "resolved by
// PR #812". Its repro is history once no prompt has needed it.
var reFixedIn = lazyre.New(`(?i)\b(?:fixed|resolved|patched)\s+(?:in|by)\s+(?:v?\d|pr\b|#\d|release\s+v?\d|version\s+\d)`)

// fixedSince reports whether text tells of a bug fixed since, not one
// "not fixed in 2.x" or that "will only be fixed in 17.4".
func fixedSince(text string) bool {
	for _, loc := range reFixedIn.FindAllStringIndex(text, -1) {
		before := strings.Fields(strings.ToLower(text[max(0, loc[0]-30):loc[0]]))
		if n := len(before); n > 0 && slices.ContainsFunc(before[max(0, n-3):], func(w string) bool {
			switch strings.Trim(w, ".,;:") {
			case "not", "never", "isn't", "isnt", "aren't", "wasn't", "won't", "will", "would", "should", "be", "yet", "only", "until", "unless", "if":
				return true
			}
			return false
		}) {
			continue
		}
		return true
	}
	return false
}

// reToDo opens a note as a task to do: "To do: rename the branch" (its
// description or first line; not a "# TODO:" in a code block).
var reToDo = lazyre.New(`(?im)^\W*(?:to ?do|to-do)\s*:`)

var (
	// rePassing says a note is tied to its moment whatever the words around.
	rePassing = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:scratch|notes? (?:while|from)|wip|work in progress|(?:is|are|still|currently)\s+in progress|half done|todo:|to-do|temporarily|temporary (?:fix|workaround|hack|patch|pin)|for now|for the moment|at the moment(?:\s*[,.;:!?)]|\s*$)|right now|this (?:morning|afternoon|evening|week|sprint)|today|tonight|currently (?:investigating|debugging|looking|trying|testing|chasing)|might be|maybe|not (?:yet )?(?:conclusive|confirmed|decided)|nothing (?:was )?(?:decided|concluded)|no decision (?:yet|made|was made)|inconclusive|unconfirmed|(?:didn't|did not|couldn't|could not) (?:confirm|reproduce)|not decided|undecided|still unclear|unclear (?:why|whether|if)|hypothesis|workaround until|reminder(?:\s+to\s+(?:self|myself)|:)|note to self|remind me|will (?:write (?:it |this )?up|follow up|report back)|(?:if|whether|see if)\s+(?:\w+\s+){0,2}?pans?\s+out|tbd` +
			// a one-off task, finished: "For PR #812 … Done and merged."
			`|(?:done|finished|completed)\s+and\s+(?:merged|shipped|deployed|closed|released)|(?:already|now)\s+(?:merged|shipped|deployed)|for\s+(?:pr|pull\s+request)\s+#?\d+)\b`)
	})
	// reUnderWay is an investigation or a trial the note may be the middle of.
	reUnderWay = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:investigating|debugging|chasing|looking (?:into|at)|trying|experimenting|benchmarking)\b`)
	})
	// reUnderWayObject is what follows a gerund that opens a sentence of
	// work under way: "Investigating the timeouts", "Trying a few flags",
	// "Looking at why …".
	reUnderWayObject = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(?:the|a|an|why|whether|if|how|what|into|at|out|some|few|this|that|our|my|it)$`)
	})
	// reHowTo is a word before a gerund that makes it a how-to: "when
	// debugging", "tips for investigating", "worth trying".
	reHowTo = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:when|while|for|before|after|during|of|about|on|in|by|worth|avoid|stop|keep|start|try|helps?|useful|tips?|guide|anyone|someone|whoever|people|you|everyone)$`)
	})
)

// prose is text less what it quotes or names: code spans, URLs, paths and
// other tokens with a slash, dot or underscore inside ("/tmp/artifacts",
// "draft_releases"), whose words say nothing of how long the note holds.
func prose(s string) string {
	s = reCodeSpan().ReplaceAllString(s, " ")
	f := strings.Fields(s)
	out := f[:0]
	for _, w := range f {
		if !pathLike(strings.Trim(w, ".,;:!?()\"'")) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// pathLike reports a token that names a file, a path, an address or an
// identifier: "/tmp/ci-cache", "gs://a/b", "draft_releases", "eod.sh";
// not "WIP/draft:" or "investigating...the".
func pathLike(w string) bool {
	return strings.Contains(w, "://") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") || strings.HasPrefix(w, "./") ||
		strings.Count(w, "/") >= 2 || strings.Contains(w, "_") || reDotted().MatchString(w)
}

var reDotted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9]\.[A-Za-z0-9]`) })

var reCodeSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`\n]*`") })

// shortenIndex plans one operation on MEMORY.md when it is over Claude
// Code's caps or has lines over maxDescription characters.
func (p *planner) shortenIndex() {
	ix := p.in.Index
	var ev []string
	if ix.Lines > maxIndexLines {
		ev = append(ev, fmt.Sprintf("%d lines, over the cap of %d: lines past it are never loaded", ix.Lines, maxIndexLines))
	}
	if ix.Chars > maxIndexChars {
		ev = append(ev, fmt.Sprintf("%d characters, over the cap of %d", ix.Chars, maxIndexChars))
	}
	for _, f := range slices.Sorted(slices.Values(ix.LongLines)) {
		if p.shortened[f] {
			continue // its own shorten op fixes its line
		}
		ev = append(ev, fmt.Sprintf("the line of %s is over %d characters", f, maxDescription))
	}
	if len(ev) == 0 {
		return
	}
	p.add(Op{Kind: Shorten, Files: []string{IndexFile}, Keep: IndexFile, Lossless: true,
		Reason:   "MEMORY.md is over what Claude Code loads of it: keep the most useful lines (pinned, recently recalled, user and feedback first) and shorten the long ones.",
		Evidence: ev})
}

// shortenDescriptions plans a shorter description for every memory whose
// description is over maxDescription runes; a merge that keeps the memory
// takes the shorter description in its own edit instead.
func (p *planner) shortenDescriptions() {
	for _, it := range p.items {
		if p.retired[it.File] || it.ReadOnly || utf8.RuneCountInString(it.Description) <= maxDescription {
			continue
		}
		if other := p.editOf(it.File); other != nil {
			if other.Kind == Merge { // the full description stays in the merged body
				p.cutMergedDescription(other, it.Item)
				continue
			}
			// Another edit of this memory (a date rewrite): one operation per
			// memory, so the next run cuts the description this one leaves.
			p.left = append(p.left, Candidate{Kind: Shorten, Files: []string{it.File},
				Why: fmt.Sprintf("the description of %s is %d characters, but %s already changes it: the next run shortens it", it.File, utf8.RuneCountInString(it.Description), other.ID)})
			continue
		}
		short := cut(it.Description, maxDescription)
		bodyTerms := termSet(it.Body)
		lossless := true
		for _, s := range sentences(it.Description) {
			if covered(s, bodyTerms) < factKept {
				lossless = false
			}
		}
		p.shortened[it.File] = true
		p.ops = append(p.ops, Op{ID: opID(Shorten, []string{it.File}), Kind: Shorten, Files: []string{it.File}, Keep: it.File,
			Edit: &Edit{Description: short}, Lossless: lossless,
			Reason: fmt.Sprintf("The description of %s is %d characters, over the %d an index line should hold; it is cut at a clause boundary.",
				it.File, utf8.RuneCountInString(it.Description), maxDescription),
			Evidence: []string{quote(it.Description)}})
	}
}

// editOf is the op planned so far that keeps and edits file, or nil.
func (p *planner) editOf(file string) *Op {
	for i, op := range p.ops {
		if op.Keep == file && op.Edit != nil {
			return &p.ops[i]
		}
	}
	return nil
}

// cutMergedDescription cuts the description a merge keeps, and keeps in
// the merged body what the cut leaves out.
func (p *planner) cutMergedDescription(op *Op, it Item) {
	op.Edit.Description = cut(it.Description, maxDescription)
	terms := termSet(op.Edit.Body)
	var extra []string
	for _, s := range sentences(it.Description) {
		if covered(s, terms) < factKept {
			extra = append(extra, endSentence(s))
		}
	}
	if len(extra) > 0 {
		op.Edit.Body = strings.TrimRight(op.Edit.Body, "\n") + "\n\n" + strings.Join(extra, " ") + "\n"
	}
}

// cut shortens s to at most n runes, at the last clause boundary that
// keeps at least a third of it, else at a word boundary with an ellipsis.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := string(r[:n])
	best := -1
	for _, sep := range []string{". ", "; ", " — ", " – ", " - ", ", ", ": ", " ("} {
		if i := strings.LastIndex(head, sep); i > best && utf8.RuneCountInString(head[:i]) >= n/3 {
			best = i
		}
	}
	if best > 0 {
		out := strings.TrimRight(head[:best], " ,;:—–-")
		if strings.HasPrefix(head[best:], ". ") {
			out += "."
		}
		return out
	}
	head = string(r[:n-1])
	if i := strings.LastIndexByte(head, ' '); i > 0 {
		head = head[:i]
	}
	return strings.TrimRight(head, " ,;:") + "…"
}

// times is "once", or "N times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}
