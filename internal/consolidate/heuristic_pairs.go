package consolidate

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/extract"
)

// Thresholds of the pair decisions, on the weighted Jaccard index of two
// memories' content stems (name, description and body), each stem weighing
// its inverse document frequency in the folder: two memories sharing
// "pnpm" and "lockfile" are closer than two sharing "use" and "repo".
// Tuned on the tune half of testdata/dream. Whether two memories are one
// is the sameness model's to say (sameness.go); these decide which pairs
// it is asked about, and which a change or a reversal between them reads.
const (
	mergeContained  = 0.8  // the smaller one's weight nearly all in the larger…
	mergeContainMin = 0.12 // …with this much overlap at least: alike enough to read for a changed value
	leftJaccard     = 0.10 // similar: read for a changed value, and left for a model when two things
	// leftModelJaccard: alike enough, with a sameness of leftScore at
	// least, for a model to read as maybe one memory. Chosen on the read
	// folders by how many missed merges reach a model against how many
	// pairs it reads: 0.10 → 0.05 took those reached from 0.71 to 0.82 of
	// the older read folders' merges (0.88 → 0.92 in the merge folders)
	// for 10 → 14 candidates a folder.
	leftModelJaccard = 0.05
	contraJaccard    = 0.08 // about the same thing enough for a contradiction to count
	wrongJaccard     = 0.14 // a newer memory this alike replaced an older one marked wrong, whatever else differs
	sentenceTopic    = 0.25 // two sentences about the same thing, for a contradiction
	moveJaccard      = 0.06 // the least two memories share for a move in one to retire the other
)

// pair is two memories worth comparing: a older than b.
type pair struct {
	a, b    int
	jaccard float64
	contain float64
	contra  string   // how b contradicts a, or ""
	quotes  []string // the sentences that decided it
	// twoThings: the two name different things alike (each its own
	// value, or parallel names): a sign against one memory told twice
	twoThings bool
	// template: their names are one template filled in twice ("iOS
	// release signing", "Android release signing"): never merged here
	template bool
	// softened: a reversal read from negations was found to reverse
	// nothing; a merge of the two waits for a person
	softened bool
	same     float64 // the sameness model's log-odds that they are one memory
}

// candidatePairs blocks the all-pairs comparison: only memories sharing
// two rare stems (each in at most max(20, n/20) memories) are compared,
// and those where one reports a move away from a stem the other holds.
func (p *planner) candidatePairs() [][2]int {
	n := len(p.items)
	df := map[string][]int{}
	for i, it := range p.items {
		for t := range it.terms {
			df[t] = append(df[t], i)
		}
	}
	limit := max(20, n/20)
	shared := map[[2]int]int{}
	for _, ids := range df {
		if len(ids) < 2 || len(ids) > limit {
			continue
		}
		for x := 0; x < len(ids); x++ {
			for y := x + 1; y < len(ids); y++ {
				shared[[2]int{min(ids[x], ids[y]), max(ids[x], ids[y])}]++
			}
		}
	}
	for i, it := range p.items {
		for _, mv := range it.moves {
			if !p.rare(mv.from) {
				continue // a common word: the pair must share two rare stems
			}
			for _, j := range df[mv.from] {
				if j != i {
					shared[[2]int{min(i, j), max(i, j)}] += 2
				}
			}
		}
	}
	var out [][2]int
	for k, c := range shared {
		if c >= 2 || n <= limit {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out
}

// older orders two items by created, then updated, then file: the first is
// the older.
func (p *planner) older(i, j int) bool {
	a, b := p.items[i], p.items[j]
	if !a.Created.Equal(b.Created) {
		return a.Created.Before(b.Created)
	}
	if !a.Updated.Equal(b.Updated) {
		return a.Updated.Before(b.Updated)
	}
	return a.File < b.File
}

// compared is every candidate pair worth weighing, older first, with its
// overlap and how the newer contradicts the older ("" when it does not).
func (p *planner) compared() []pair {
	var out []pair
	for _, ij := range p.candidatePairs() {
		i, j := ij[0], ij[1]
		if !p.older(i, j) {
			i, j = j, i
		}
		a, b := p.items[i], p.items[j]
		if a.SupersededBy != "" || b.SupersededBy != "" || p.retired[a.File] || p.retired[b.File] || a.ReadOnly && b.ReadOnly {
			continue
		}
		pr := pair{a: i, b: j}
		pr.jaccard, pr.contain = p.weighted(a.terms, b.terms)
		pr.contra, pr.quotes = p.contradiction(a, b, pr.jaccard >= contraJaccard || p.namesShareRare(a, b))
		polar := polarReason(pr.contra) // a reversal read from negations alone
		pr.twoThings = differentSubjects(a, b) || otherThing(a, b)
		pr.template = pr.twoThings && parallelNames(a, b)
		switch {
		case polar && noReversal(pr.quotes[0], pr.quotes[1]):
			// A rule against the incident that taught it, or a negation in
			// passing ("Android crashes are in juniper-prod"; "dev builds
			// don't pollute prod numbers"): nothing reversed. Whether they
			// are one memory the sameness model weighs; a merge of them is
			// never applied without a person.
			pr.contra, pr.quotes, pr.softened = "", nil, true
			if !pr.twoThings {
				// "Staging moved to https://staging…; the alias doesn't
				// resolve any more": no reversal, but a change said outright.
				if c, q := saidChange(a, b); c != "" {
					pr.contra, pr.quotes, pr.softened = c, q, false
				}
			}
		case pr.contra == "" && pr.twoThings && !pr.template && saysChanged(b) && pr.jaccard >= leftJaccard:
			// "Upgraded to Node 22" against "Node 20 runtime": the names differ
			// in the value that changed, and the newer says it changed.
			pr.contra, pr.quotes = valueChangeOf(a, b, false)
			if pr.contra == "" {
				pr.contra, pr.quotes = nameValueChange(a, b)
			}
		case pr.twoThings && (pr.contra == "" || polar):
			// Two things alike ("billing-07 health port", "billing-08
			// health port"; "flush the Rails cache", "never flush
			// Sidekiq's Redis"): neither reverses the other. Whether they
			// are one fact told twice the sameness model weighs, this sign
			// against it.
			pr.contra, pr.quotes = "", nil
		case pr.contra == "" && !narrows(b) && !oneException(a, b) && (pr.jaccard >= leftJaccard || pr.contain >= mergeContained && pr.jaccard >= mergeContainMin):
			// (A newer exception or override changes nothing of the rule:
			// "Kessler's gateways stay on balenaOS 2.x" beside "the fleet
			// runs balenaOS 5.x".)
			pr.contra, pr.quotes = valueChange(a, b)
			if pr.contra == "" {
				pr.contra, pr.quotes = saidChange(a, b)
			}
		}
		out = append(out, pr)
	}
	return out
}

// weighable is the compared pairs the sameness model decides: neither
// contradicting nor of one template.
func (p *planner) weighable() []pair {
	return slices.DeleteFunc(p.compared(), func(pr pair) bool { return pr.contra != "" || pr.template })
}

// sameText reports whether two memories say the same words in their
// descriptions and bodies, less case and spacing.
func sameText(a, b Item) bool {
	norm := func(it Item) string {
		return strings.ToLower(strings.Join(strings.Fields(it.Description+"\n"+it.Body), " "))
	}
	return norm(a) != "" && norm(a) == norm(b)
}

// namesShareRare reports whether two memories' names share a rare stem:
// "Squash-merge PRs" and "Rebase-merge, don't squash" are about one thing
// however few of their other words they share.
func (p *planner) namesShareRare(a, b item) bool {
	nb := termSet(b.Name)
	for t := range termSet(a.Name) {
		if nb[t] && p.rare(t) {
			return true
		}
	}
	return false
}

// nameValueChange says how the newer memory's name changes the one value
// the older's name holds, both names sharing a word: "Node 20 runtime",
// then "Upgraded to Node 22".
func nameValueChange(a, b item) (string, []string) {
	from, to := valueDiff(a.Name, b.Name)
	if len(from) != 1 || len(to) != 1 || !sameKind(from, to) || intersection(termSet(a.Name), termSet(b.Name)) == 0 {
		return "", nil
	}
	return fmt.Sprintf("it changes %s to %s", from[0], to[0]), []string{quote(a.Name), quote(b.Name)}
}

// saysChanged reports whether a memory's name or description says outright
// that something changed: "Upgraded to Node 22", "Moved to Managed Postgres".
func saysChanged(it item) bool { return reChanged().MatchString(it.Name + "\n" + it.Description) }

// noReversal reports whether two sentences that read as opposite
// polarities reverse nothing: one tells what to do and the other states
// something (a rule and its incident, a rule and a description), or both
// state things in other words, with no word of a change ("anymore", "no
// longer", "now"). "The backup job runs on the Jenkins box" against "…
// doesn't run on the Jenkins box anymore" is a reversal; so is "use X"
// against "don't use X".
func noReversal(old, new string) bool {
	so, sn := statement(old), statement(new)
	if so != sn {
		return true
	}
	return so && overlapOf(termSet(old), termSet(new)) < 0.5 && !reChanged().MatchString(new)
}

// statement reports whether a sentence states something ("Android crashes
// are in juniper-prod") rather than telling what to do ("indent with
// tabs"), read after a leading clause of where or when it holds ("In the
// Go services, wrap errors …"). A rule reversed is one instruction
// against another.
func statement(s string) bool {
	if head, _, ok := strings.Cut(s, ": "); ok && len(strings.Fields(head)) <= 5 && !orderWord(strings.Fields(strings.ToLower(head))) {
		return true // a label and what it holds: "Board 'Bramble / Sidekiq': per-queue latency and size"
	}
	if head, rest, ok := strings.Cut(s, ","); ok && len(strings.Fields(head)) <= 6 {
		if w := strings.Fields(strings.ToLower(head)); len(w) > 0 && leadWord(w[0]) {
			s = rest
		}
	}
	return extract.Declarative(s)
}

// orderWord reports whether words open with a word that tells what to do:
// "Rule: …", "Never: …", "Always use …".
func orderWord(words []string) bool {
	if len(words) == 0 {
		return true
	}
	switch strings.Trim(words[0], "*_`'\"") {
	case "use", "run", "don't", "do", "never", "always", "avoid", "keep", "prefer", "make", "check", "add", "set", "stop", "rule", "note", "tip", "remember", "watch":
		return true
	}
	return false
}

// leadWord reports a word that opens a clause of where or when a rule
// holds.
func leadWord(w string) bool {
	switch w {
	case "in", "for", "on", "when", "whenever", "after", "before", "if", "during", "within", "inside":
		return true
	}
	return false
}

// polarReason reports whether a contradiction was read from negations
// alone, not from a move, a changed value or a change said outright.
func polarReason(why string) bool {
	for _, p := range []string{"it negates ", "it affirms ", "it reverses", "they disagree"} {
		if strings.HasPrefix(why, p) {
			return true
		}
	}
	return false
}

// pairs plans supersede and merge operations, and leaves what it cannot
// decide for a model.
func (p *planner) pairs() {
	var sup, near []pair
	for _, pr := range p.compared() {
		a, b := p.items[pr.a], p.items[pr.b]
		if !pr.template && pr.contra == "" {
			pr.same = p.sameScore(pr)
			if a.routine && b.instance || a.instance && b.routine {
				// "Every timetable change the roster freezes 14 days before"
				// and "the December change (2026-12-13): diagrams loaded by
				// the Wednesday before": a routine and one of its days.
				pr.same = min(pr.same, 0)
			}
			if a.Type == b.Type && sameText(a.Item, b.Item) {
				// Word for word the same description and body: one memory
				// saved twice under two names, whatever the model weighs.
				pr.same = max(pr.same, mergeScore)
			}
			p.same[[2]int{min(pr.a, pr.b), max(pr.a, pr.b)}] = pr.same
		}
		switch {
		case pr.contra != "":
			sup = append(sup, pr)
		case p.wrongAndReplaced(pr):
			// The older one misled those who used it, and a newer one on the
			// same topic did not: the newer replaced it, in words the rules
			// above do not read ("the read timeout is 45s now").
			pr.contra = fmt.Sprintf("the older was marked wrong %s and the newer, on the same topic, never", times(a.Usage.Wrong))
			pr.quotes = []string{quote(firstLine(a.Item)), quote(firstLine(b.Item))}
			sup = append(sup, pr)
		case pr.same >= mergeScore && !pr.twoThings && a.Type == b.Type && (p.amountChanged(&pr) || p.kindChanged(&pr)):
			// One memory by its words, but the newer gives another amount of
			// the same unit ("deleted after 30 days", then "delete at 90
			// days"): a change, not a copy to merge.
			sup = append(sup, pr)
		case markedWrong(a.Usage) || markedWrong(b.Usage):
			// What was marked wrong is pruned, not merged into another.
		case !pr.template && (pr.same >= mergeScore || pr.same >= leftScore && pr.jaccard >= leftModelJaccard):
			// One memory, or maybe one: a model reads a maybe only when the
			// two share words enough to be worth its while.
			near = append(near, pr)
		case pr.twoThings && pr.jaccard >= leftJaccard:
			// "Android minSdk 26" and "why Android 7 was dropped" are one
			// fact told twice, which only a reader can tell from two things.
			p.left = append(p.left, lookalike([]string{a.File, b.File}, pr.same,
				fmt.Sprintf("%s and %s share %.0f%% of their words but seem to name different things: two memories, or one told twice; a model should read both", a.File, b.File, 100*pr.jaccard)))
		}
	}
	p.supersede(sup)
	p.merge(near)
}

// wrongAndReplaced reports whether the older memory of a pair was marked
// wrong (at least once for every four times it helped) and the newer, of
// its type, alike enough to be on its topic but no copy of it, was not.
func (p *planner) wrongAndReplaced(pr pair) bool {
	a, b := p.items[pr.a], p.items[pr.b]
	// A near copy of a memory marked wrong repeats what was wrong: it is
	// no replacement.
	if !(a.Usage.Wrong >= 1 && 4*a.Usage.Wrong >= a.Usage.Helpful && b.Usage.Wrong == 0 && a.Type == b.Type && !pr.template && pr.contain < mergeContained) || separate(b.Description+"\n"+b.Body) {
		return false
	}
	// Two things alike by the rules ("10h" and "10h30", "JDK 17" and
	// "Temurin 21") are one thing changed when the older was found wrong
	// and the newer shares enough of its words (chosen on the read folders:
	// 0.10 to 0.25 tried).
	// Two things by their names ("Local Postgres", "Local Redis") stay
	// two, unless the newer says it changed.
	return !pr.twoThings && pr.same >= wrongScore && pr.jaccard >= leftJaccard ||
		pr.jaccard >= wrongJaccard && (!differentSubjects(a, b) || saysChanged(b) || reChanged().MatchString(b.Body))
}

// supersede plans the strongest contradicting pairs first; a memory is
// superseded once.
func (p *planner) supersede(prs []pair) {
	slices.SortStableFunc(prs, func(x, y pair) int { return cmp.Compare(y.jaccard, x.jaccard) })
	for _, pr := range prs {
		a, b := p.items[pr.a], p.items[pr.b]
		if p.retired[a.File] || p.retired[b.File] {
			continue
		}
		files := []string{b.File, a.File}
		if a.Type != b.Type {
			// "The O2 experiment" against "the user's ML background": a fact of
			// the project cannot make one about the person history.
			p.left = append(p.left, Candidate{Kind: Supersede, Files: files,
				Why: fmt.Sprintf("%s (%s) and %s (%s) seem to disagree (%s), but are of different types: for a person or a model to say", b.File, kindOf(b.Item), a.File, kindOf(a.Item), pr.contra)})
			continue
		}
		if a.ReadOnly || b.ReadOnly {
			// A project's memory against the user's global one: an
			// exception for this project, or a change for every project.
			p.left = append(p.left, Candidate{Kind: Supersede, Files: files,
				Why: fmt.Sprintf("%s is newer and %s, but one of the two belongs to another folder (%s): an exception for this project, or a change for every project — for a person or a model to say", b.File, pr.contra, map[bool]string{true: a.File, false: b.File}[a.ReadOnly])})
			continue
		}
		if markedWrong(b.Usage) {
			continue // the newer one was marked wrong: it is pruned, and retires nothing
		}
		if a.Pinned {
			p.left = append(p.left, Candidate{Kind: Supersede, Files: files,
				Why: fmt.Sprintf("%s is newer and %s, but the older %s is pinned: a pinned memory is never retired without a person or a model", b.File, pr.contra, a.File)})
			continue
		}
		if p.edited[a.File] {
			continue
		}
		if a.Created.Equal(b.Created) && a.Updated.Equal(b.Updated) {
			p.left = append(p.left, Candidate{Kind: Supersede, Files: files,
				Why: fmt.Sprintf("%s and %s disagree (%s), but were written at the same time: which one holds now is for a person or a model to say", b.File, a.File, pr.contra)})
			continue
		}
		// Sure only when the newer one says it replaced the older ("moved
		// from X to Y", "no longer X"): an automatic run applies that alone.
		// A disagreement read from negations or changed values is planned
		// for a person to confirm.
		sure := strings.HasPrefix(pr.contra, "it moved") || strings.HasPrefix(pr.contra, "it no longer")
		p.add(Op{Kind: Supersede, Files: files, Keep: b.File, Retire: []string{a.File}, Lossless: sure,
			Reason: fmt.Sprintf("%s (created %s) contradicts the older %s (created %s): %s; the newer wins and the older stays as history.",
				b.File, day(b.Created), a.File, day(a.Created), pr.contra),
			Evidence: pr.quotes})
	}
}

// rare reports whether a stem is in few of the folder's memories (at most
// max(3, n/15)): a thing's name, not a common word.
func (p *planner) rare(t string) bool {
	n := len(p.items)
	return p.idf[t] >= math.Log(float64(n+1)/float64(max(3, n/15)))
}

// weighted is the Jaccard index of two stem sets, each stem weighing its
// idf, and the share of the lighter set's weight they have in common.
func (p *planner) weighted(a, b map[string]bool) (jaccard, contain float64) {
	var inter, wa, wb float64
	for t := range a {
		w := p.idf[t]
		wa += w
		if b[t] {
			inter += w
		}
	}
	for t := range b {
		wb += p.idf[t]
	}
	if union := wa + wb - inter; union > 0 {
		jaccard = inter / union
	}
	if m := min(wa, wb); m > 0 {
		contain = inter / m
	}
	return jaccard, contain
}

// overlapOf is the Jaccard index of two stem sets.
func overlapOf(a, b map[string]bool) float64 {
	inter := intersection(a, b)
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

func intersection(a, b map[string]bool) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return n
}

// contradiction says how the newer memory b contradicts the older a, with
// the two sentences that show it, or "": a move ("moved from X to Y", "Y
// instead of X", "no longer uses X") away from what a states, or two
// sentences about the same thing that disagree (extract.Contradiction:
// opposite polarity, a reversed choice).
func (p *planner) contradiction(a, b item, sameTopic bool) (string, []string) {
	// Even "moved from Vault to AWS" retires no memory that shares little
	// but the word: "the keystore backup is in a 1Password vault".
	j, _ := p.weighted(a.terms, b.terms)
	related := j >= moveJaccard
	exception := b.excepts || narrows(b)
	for _, mv := range b.moves {
		if exception {
			continue // "Exception to the CSRF rule: … the check was removed" narrows the rule
		}
		if mv.rule && !holdsAll(a.terms, mv.fromText) {
			continue // "the no-Friday-merge rule dropped" says nothing of Friday deploys
		}
		if mv.ofSeveral && !holdsNumbers(a, mv.fromText) {
			continue // "Android 7 devices were dropped" says nothing of "minSdk 26 (Android 8.0)"
		}
		from, to := mv.from, mv.to
		// A dropped rule's word counts when rare, or when both names hold it
		// ("No Friday merges"; "Friday merges are fine again").
		named := mv.rule && termSet(a.Name)[from] && termSet(b.Name)[from]
		if mv.slug {
			if !mentionsSlug(a.Name+"\n"+a.Description+"\n"+a.Body, from) || mentionsSlug(b.Name+"\n"+b.Description, from) && !mentionsSlug(mv.sentence, from) || mv.weak && !sameTopic || !related {
				continue
			}
		} else if from == to || !a.terms[from] || to != "" && a.terms[to] || !p.rare(from) && !named || mv.weak && !sameTopic || !related || stillFor(a, b, from) {
			continue
		}
		for _, o := range a.sents {
			if o.terms[from] || mv.slug && mentionsSlug(o.text, from) {
				why := fmt.Sprintf("it moved from %s to %s", mv.fromText, mv.toText)
				switch {
				case mv.weak:
					// Said in passing ("X was removed", "we retired X"): it may
					// reach only part of the older memory, for a person to confirm.
					why = "it says " + mv.fromText + " is gone"
				case to == "":
					why = "it no longer uses " + mv.fromText
				}
				return why, []string{quote(o.text), quote(mv.sentence)}
			}
		}
	}
	if related && !exception {
		if why, quotes := p.adoption(a, b); why != "" {
			return why, quotes
		}
	}
	// Two names of one template are two things ("Staging cluster owner",
	// "Prod cluster owner"); two slugs that share their head name a thing
	// and an aspect as often ("marqeta-owner", "marqeta-contact").
	if related && !exception && !otherEnvironment(a.Name, b.Name) && (!parallelNames(a, b) || slugOfOneThing(a, b)) {
		if why, quotes := p.ownerChange(a, b); why != "" {
			return why, quotes
		}
	}
	if !sameTopic || exception {
		// "Exception to the JWT rule: the webhooks check signatures, not
		// JWT" narrows the older rule; it does not reverse it.
		return "", nil
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			if j, _ := p.weighted(o.terms, s.terms); max(j, overlapOf(o.terms, s.terms)) < sentenceTopic {
				continue
			}
			why := extract.Contradiction(o.text, s.text)
			if why == "" || why == "only one of them is a negation" {
				continue
			}
			if !strings.HasPrefix(why, "it reverses") {
				why = polarityWhy(o.text, s.text) // extract names one word of several, at random
			}
			if strings.HasPrefix(why, "it affirms") && p.agree(o, s) {
				continue // "use pnpm, not npm", then "npm install breaks the pnpm lockfile": a mention, no reversal
			}
			if from, to := valueDiff(o.text, s.text); len(from) > 0 && len(to) > 0 {
				continue // "write Go tests table-driven"; "in Python, don't": two subjects, no reversal
			}
			if w, ok := negatedWord(why); ok && forbidsWord(o.text, w) {
				continue // "never hard-code a number from the agreement", then "no magic numbers": one prohibition
			}
			if sharedProhibition(a, b) {
				// Both forbid the same thing ("never mock PostgreSQL"; "the real
				// PostgreSQL, never a mock"): a negation's reach over the words
				// after it is a guess, and two prohibitions of one thing agree.
				continue
			}
			return why, []string{quote(o.text), quote(s.text)}
		}
	}
	// The newer memory negates in its description a rare stem — a tool's
	// or a practice's name — that the older affirms in its own ("always
	// squash-merge", then "don't squash-merge anymore").
	if a.Description == "" || b.Description == "" || sharedProhibition(a, b) || reRuleGone().MatchString(b.Description) {
		// "No-Friday-merge rule dropped" negates nothing: it says a rule
		// went, which the moves above read.
		return "", nil
	}
	bd, ad := sentences(b.Description), termSet(a.Name+"\n"+a.Description)
	for _, s := range b.sents[:min(len(bd), len(b.sents))] {
		for _, w := range slices.Sorted(maps.Keys(s.neg)) {
			if s.aff[w] || !ad[w] || !p.rare(w) {
				continue
			}
			for _, o := range a.sents {
				if o.aff[w] && !o.neg[w] && !forbidsWord(o.text, w) { // "never hard-code a number" forbids, as "no magic numbers" does
					return "it negates " + w + ", which the older one affirms", []string{quote(o.text), quote(s.text)}
				}
			}
		}
	}
	return "", nil
}

// holdsNumbers reports whether a memory states every number a name
// holds: "Android 7" is not the "Android 8.0" of another memory.
func holdsNumbers(it item, name string) bool {
	have := it.vals
	if have == nil {
		have = values(it.Name + " " + it.Description + " " + it.Body)
	}
	for v := range values(name) {
		if strings.ContainsAny(v, "0123456789") && !have[v] {
			return false
		}
	}
	return true
}

// holdsAll reports whether terms hold every stem of a phrase.
func holdsAll(terms map[string]bool, phrase string) bool {
	for t := range termSet(phrase) {
		if !terms[t] {
			return false
		}
	}
	return true
}

// stillFor reports whether the newer memory b, though it moved away from
// from, says it still holds for what the older a is about: "we moved off
// Sentry for the backend. The driver app still reports to Sentry" retires
// no memory about the driver app.
func stillFor(a, b item, from string) bool {
	about := termSet(a.Name + "\n" + a.Description)
	for _, s := range b.sents {
		if !s.terms[from] || !reStill().MatchString(s.text) {
			continue
		}
		for t := range s.terms {
			if t != from && about[t] {
				return true
			}
		}
	}
	return false
}

var (
	reStill = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:still|remains?|stays?|keeps?)\b`) })
	// reNarrows is an exception as a rule states it, not one a program
	// throws ("server-side exceptions from Remix loaders").
	reNarrows = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)(?:^|[.:;(]\s*|\b(?:the|an?|one|only|this|that)\s+(?:\w+\s+)?)exceptions?\s+(?:to|for)\b|^\W*exceptions?\s*[:—–]|\bthe\s+only\s+exceptions?\b|\bthe\s+(?:one|only)\s+(?:\w+\s+){0,3}(?:that|which)\s+(?:is|are|does|do|has|have)\s*(?:n[o']t|never)\b`)
	})
	// An override named as such: "Riverbend slot override" (a name),
	// "Clinic override: …", "a clinic override", "overrides the default";
	// not "per-user overrides live in the dashboard".
	reOverride     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\boverrides?\b`) })
	reOverrideSaid = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\boverrides?\s*:|\b(?:an?|this|that|its|their|our)\s+(?:[\w-]+\s+)?override\b|\boverrides?\s+(?:the|our|its)\s+(?:\w+\s+)?(?:default|rule|setting|policy|limit)` +
			// "The Oak Ridge store overrides the delivery fee to $2.99"
			`|\boverrides?\s+(?:the|our|its)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:to|with)\s+\S*\d`)
	})
	// "Other lines use the default", "everyone else stays on the standard
	// plan": the memory states an exception.
	reOthersDefault = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:other|everyone\s+else|everybody\s+else|the\s+rest)\b(?:\s+[\w-]+){0,2}?\s+(?:use|uses|get|gets|keep|keeps|stay|stays|follow|follows)\s+(?:on\s+)?(?:the\s+)?(?:default|standard|usual|normal)\b`)
	})
	reException = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:exceptions?\s+(?:to|from|for)|except\s+(?:for|in|on|when)|the\s+only\s+exceptions?|only\s+(?:these|this|those|for\s+these)\b)`)
	})
)

// slugOfOneThing reports whether two slug names share a head that both
// memories name as a word of their own: "marqeta-owner" and
// "marqeta-contact" are of Marqeta; "svc-booking-api" and
// "svc-edi-gateway" share a prefix, not a thing.
func slugOfOneThing(a, b item) bool {
	h := slugHead(a.Name)
	if h == "" || h != slugHead(b.Name) {
		return false
	}
	t := stem(h)
	return t != "" && termSet(a.Description + "\n" + a.Body)[t] && termSet(b.Description + "\n" + b.Body)[t]
}

// oneException reports whether one of two memories states an exception
// the other does not: "Live blog pages are the exception to the 5-minute
// article TTL" narrows "Article pages are cached 5 minutes"; the two are a
// rule and its exception, not one memory told twice.
func oneException(a, b item) bool {
	return narrows(a) != narrows(b)
}

// narrows reports whether a memory states an exception or an override to
// a rule: "the exception to …", "a clinic override: 24 hours for
// Harbourview Dental", "the one schema change that is not a Flyway
// migration".
func narrows(it item) bool { return it.narrow }

// narrowsOf is narrows, read from the memory's text.
func narrowsOf(it Item) bool {
	return reNarrows().MatchString(it.Name+"\n"+it.Description) || reOverride().MatchString(it.Name) || reOverrideSaid().MatchString(it.Description) ||
		reOthersDefault().MatchString(it.Description+"\n"+it.Body)
}

// agree reports whether two sentences both affirm a rare stem: the thing
// they are about, which neither reverses.
func (p *planner) agree(o, s sentence) bool {
	for w := range o.aff {
		if s.aff[w] && !o.neg[w] && !s.neg[w] && p.rare(w) {
			return true
		}
	}
	return false
}

// polarityWhy says, naming the first word in order, what the newer
// sentence negates that the older affirms, or the other way round.
func polarityWhy(old, new string) string {
	on, oa := polarity(old)
	nn, na := polarity(new)
	for _, w := range slices.Sorted(maps.Keys(on)) {
		if na[w] {
			return "it affirms " + w + ", which the older one negates"
		}
	}
	for _, w := range slices.Sorted(maps.Keys(nn)) {
		if oa[w] {
			return "it negates " + w + ", which the older one affirms"
		}
	}
	return "they disagree"
}

// polarity splits a sentence's stems into those a negation governs and
// the rest, as extract reads them.
func polarity(s string) (negated, affirmed map[string]bool) { return extract.Polarity(s) }

// sharedProhibition reports whether two memories both negate one stem.
func sharedProhibition(a, b item) bool {
	for _, s := range a.sents {
		for w := range s.neg {
			if negates(b, w) {
				return true
			}
		}
	}
	return false
}

// forbidsWord reports a sentence that forbids stem w: w comes after its
// "never", "don't" or "avoid" ("never hard-code a number from the
// agreement" forbids number, as "no magic numbers" does; "mock the
// gateway, never call the sandbox" forbids no mock).
func forbidsWord(s string, w string) bool {
	words := strings.Fields(strings.ToLower(s))
	for i, x := range words {
		switch strings.Trim(x, ".,;:!") {
		case "never", "don't", "dont", "avoid", "forbidden":
			return termSet(strings.Join(words[i+1:], " "))[w]
		}
	}
	return false
}

// negatedWord is the stem a polarity reason names: "it negates W, …".
func negatedWord(why string) (string, bool) {
	rest, ok := strings.CutPrefix(why, "it negates ")
	if !ok {
		return "", false
	}
	w, _, _ := strings.Cut(rest, ",")
	return strings.TrimSpace(w), true
}

// negates reports whether any sentence of a memory negates stem w.
func negates(it item, w string) bool {
	for _, s := range it.sents {
		if s.neg[w] {
			return true
		}
	}
	return false
}
