package consolidate

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// merge groups near-duplicate pairs of one type and scope into merge
// operations; a similar pair it may not merge (across types or scopes, two
// pinned, a moderate overlap) is left for a model.
//
// Groups grow from the likeliest pair down, and two groups join only when
// their members are alike on average (a pair never compared counts as
// unlike): "A is B" and "B is C" do not make A one memory with C unless
// A and C are alike too, so no chain of look-alikes merges five memories
// of three topics.
func (p *planner) merge(near []pair) {
	parent := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		if r, ok := parent[x]; ok && r != x {
			parent[x] = find(r)
			return parent[x]
		}
		parent[x] = x
		return x
	}
	members := map[int][]int{}
	near = slices.Clone(near)
	slices.SortStableFunc(near, func(x, y pair) int { return cmp.Compare(y.same, x.same) })
	best := map[int]pair{}   // per group member, its closest pair: the evidence
	unsure := map[int]bool{} // members of a pair that read as opposite polarities
	for _, pr := range near {
		a, b := p.items[pr.a], p.items[pr.b]
		if p.retired[a.File] || p.retired[b.File] {
			continue
		}
		files := []string{a.File, b.File}
		switch {
		case pr.same < mergeScore || pr.twoThings && !p.sureOfTwoThings(pr):
			p.left = append(p.left, lookalike(files, pr.same,
				fmt.Sprintf("%s and %s share %.0f%% of their words (sameness %+.1f): maybe one memory, maybe two; a model should read both", a.File, b.File, 100*pr.jaccard, roundScore(pr.same))))
		case oneException(a, b) || defaultBeside(a, b):
			p.left = append(p.left, lookalike(files, pr.same,
				fmt.Sprintf("%s and %s look alike (sameness %+.1f), but %s states an exception the other does not: a rule and its exception stay two memories unless a model reads them as one", a.File, b.File, roundScore(pr.same), map[bool]string{true: a.File, false: b.File}[narrows(a)])))
		case len(p.items) < weighedFolder && pr.jaccard < smallFolderJaccard:
			p.left = append(p.left, lookalike(files, pr.same,
				fmt.Sprintf("%s and %s may be one memory (sameness %+.1f), but they share %.0f%% of their words, and in a folder of %d memories the words' weights say little: a model should read both", a.File, b.File, roundScore(pr.same), 100*pr.jaccard, len(p.items))))
		case a.Type != b.Type || a.Scope != b.Scope:
			p.left = append(p.left, lookalike(files, pr.same,
				fmt.Sprintf("%s (%s) and %s (%s) look alike but differ in type or scope: never merged by the heuristic engine", a.File, kindOf(a.Item), b.File, kindOf(b.Item))))
		default:
			ra, rb := find(pr.a), find(pr.b)
			if ra == rb {
				break
			}
			ga, gb := group(members, ra), group(members, rb)
			if len(ga)+len(gb) > 2 && linkage(ga, gb, p.same) < linkScore {
				p.left = append(p.left, lookalike(files, pr.same,
					fmt.Sprintf("%s and %s look like one memory (sameness %+.1f), but each is already alike with others the other is not: a model should read the group", a.File, b.File, roundScore(pr.same))))
				break
			}
			parent[ra] = rb
			members[rb] = append(slices.Clone(gb), ga...)
			delete(members, ra)
			for _, x := range []int{pr.a, pr.b} {
				if q, ok := best[x]; !ok || pr.jaccard > q.jaccard {
					best[x] = pr
				}
			}
			if pr.softened {
				unsure[pr.a], unsure[pr.b] = true, true
			}
		}
	}
	for _, root := range slices.Sorted(maps.Keys(members)) {
		g := members[root]
		if len(g) < 2 {
			continue
		}
		slices.Sort(g)
		p.mergeGroup(g, best, slices.ContainsFunc(g, func(x int) bool { return unsure[x] }))
	}
}

// group is a root's members, the root alone when it has joined none.
func group(members map[int][]int, root int) []int {
	if g, ok := members[root]; ok {
		return g
	}
	return []int{root}
}

// unlikeScore is the sameness of two memories never compared: they share
// too little to be.
const unlikeScore = -6.0

// linkage is the mean sameness of every pair across two groups.
func linkage(ga, gb []int, score map[[2]int]float64) float64 {
	var sum float64
	for _, x := range ga {
		for _, y := range gb {
			s, ok := score[[2]int{min(x, y), max(x, y)}]
			if !ok {
				s = unlikeScore
			}
			sum += s
		}
	}
	return sum / float64(len(ga)*len(gb))
}

// kindOf names a memory's type and scope for a message.
func kindOf(it Item) string {
	t := cmp.Or(it.Type, "untyped")
	if it.Scope != "" {
		t += ", " + it.Scope
	}
	return t
}

// mergeGroup plans one merge: the best memory keeps, every sentence of the
// others it does not state yet is added to its body, and it takes the
// group's earliest created time. A group with a read-only memory (the
// user's global one) keeps it unchanged, and only when it already holds
// every fact of the others.
func (p *planner) mergeGroup(g []int, best map[int]pair, unsure bool) {
	var files []string
	pinned, ro := 0, -1
	for _, x := range g {
		files = append(files, p.items[x].File)
		switch {
		case p.items[x].ReadOnly && ro >= 0:
			return // two of another folder: that folder's own dream merges them
		case p.items[x].ReadOnly:
			ro = x
		case p.items[x].Pinned:
			pinned++
		}
	}
	if pinned > 1 || pinned > 0 && ro >= 0 {
		p.left = append(p.left, Candidate{Kind: Merge, Files: files,
			Why: "near-duplicates, but a pinned memory would be merged away: it never is"})
		return
	}
	for _, x := range g {
		if p.edited[p.items[x].File] && x != ro {
			return
		}
	}
	keep := slices.MinFunc(g, func(x, y int) int { return p.better(x, y) })
	if ro >= 0 {
		keep = ro // recalled in every project already: the copies here go
	}
	k := p.items[keep]
	body := k.Body
	if k.dated != "" && ro < 0 {
		body = k.dated // a read-only keep is never rewritten: its words as they are
	}
	text := k.Name + "\n" + k.Description + "\n" + body
	terms := termSet(text)
	created := k.Created
	var retire, added []string
	others := slices.DeleteFunc(slices.Clone(g), func(x int) bool { return x == keep })
	slices.SortFunc(others, func(x, y int) int {
		if p.older(x, y) {
			return -1
		}
		return 1
	})
	for _, x := range others {
		o := p.items[x]
		retire = append(retire, o.File)
		created = earliest(created, o.Created)
		ob := o.Body
		if o.dated != "" {
			ob = o.dated
		}
		var extra []string
		for _, s := range sentences(absoluteIn(o.Description, o.Item) + "\n\n" + ob) {
			if covered(s, terms) >= factKept && said(s, text) {
				continue
			}
			extra = append(extra, endSentence(s))
			for t := range termSet(s) {
				terms[t] = true
			}
			text += "\n" + s
		}
		if len(extra) > 0 {
			added = append(added, strings.Join(extra, " "))
		}
	}
	if ro >= 0 && len(added) > 0 {
		p.left = append(p.left, Candidate{Kind: Merge, Files: files,
			Why: fmt.Sprintf("%s repeats %s, which is read only here, and adds to it: a model, or a person with '--global', moves what it adds", strings.Join(retire, ", "), k.File)})
		return
	}
	if len(added) > 0 {
		body = strings.TrimRight(body, "\n") + "\n\n" + strings.Join(added, "\n\n") + "\n"
	}
	edit := &Edit{Body: body}
	if d := absoluteIn(k.Description, k.Item); d != k.Description {
		edit.Description = d // dated as its body is: "Offsite next week" says no week once merged
	}
	if !created.Equal(k.Created) {
		edit.Created = created
	}
	if ro >= 0 {
		edit = nil // it stays as it is
	}
	// Sure — for an automatic run — only of near copies: every member
	// shares half its words with another. Looser groups are planned for a
	// person to confirm.
	sure := !unsure
	for _, x := range g {
		if pr, ok := best[x]; !ok || pr.jaccard < sureMerge {
			sure = false
		}
	}
	var ev []string
	for _, x := range g {
		if pr, ok := best[x]; ok && x != keep {
			ev = append(ev, fmt.Sprintf("%s and %s share %.0f%% of their words", p.items[pr.a].File, p.items[pr.b].File, 100*pr.jaccard))
		}
	}
	for _, x := range g {
		ev = append(ev, p.items[x].File+": "+quote(firstLine(p.items[x].Item)))
	}
	slices.Sort(retire)
	if ro >= 0 {
		p.add(Op{Kind: Merge, Files: append([]string{k.File}, retire...), Keep: k.File, Retire: retire, Lossless: sure,
			Reason: fmt.Sprintf("Every fact of %s is in %s, which is recalled in every project and read only here: what repeats it here goes, kept as a version.",
				strings.Join(retire, ", "), k.File),
			Evidence: ev})
		return
	}
	p.add(Op{Kind: Merge, Files: append([]string{k.File}, retire...), Keep: k.File, Retire: retire, Edit: edit, Lossless: sure,
		Reason: fmt.Sprintf("%s say the same thing; %s keeps (%s), with every fact of the others and the earliest created time (%s).",
			strings.Join(files, ", "), k.File, p.whyKeep(keep, g), day(created)),
		Evidence: ev})
}

// said reports whether text already says sentence s in so many words:
// every code span, path or flag it quotes, and three in four of its pairs
// of words in a row. A paraphrase holding most of a sentence's words can still drop
// its command ("the `airflow tasks clear` commands") or its point ("diff
// first" against "diff shown first"): such a sentence is kept whole.
func said(s, text string) bool {
	lower := strings.ToLower(text)
	for c := range codeSet(s) {
		if !strings.Contains(lower, c) {
			return false
		}
	}
	g := wordPairs(s)
	if len(g) == 0 {
		return true
	}
	return 4*intersection(g, wordPairs(text)) >= 3*len(g)
}

// wordPairs is the set of pairs of words in a row in s, lower-cased, every
// word counted: "diff first" is not "diff shown first".
func wordPairs(s string) map[string]bool {
	out := map[string]bool{}
	for line := range strings.SplitSeq(strings.ToLower(s), "\n") {
		ws := strings.FieldsFunc(line, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for i := 1; i < len(ws); i++ {
			out[ws[i-1]+" "+ws[i]] = true
		}
	}
	return out
}

// sureMerge is the word overlap (weighted Jaccard) past which a merge is a
// near copy an automatic run may apply.
const sureMerge = 0.5

// better orders two memories of a merge by which should keep: pinned,
// then the most injected and helpful, then the shortest name, then file.
func (p *planner) better(x, y int) int {
	a, b := p.items[x], p.items[y]
	if a.Pinned != b.Pinned {
		if a.Pinned {
			return -1
		}
		return 1
	}
	ua, ub := a.Usage.Injected+a.Usage.Helpful-a.Usage.Wrong, b.Usage.Injected+b.Usage.Helpful-b.Usage.Wrong
	return cmp.Or(cmp.Compare(ub, ua),
		cmp.Compare(utf8.RuneCountInString(a.Name), utf8.RuneCountInString(b.Name)),
		cmp.Compare(a.File, b.File))
}

// whyKeep says why a merge keeps the memory it keeps.
func (p *planner) whyKeep(keep int, g []int) string {
	k := p.items[keep]
	if k.Pinned {
		return "it is pinned"
	}
	for _, x := range g {
		if x != keep && p.items[x].Usage.Injected != k.Usage.Injected {
			return "the most used: injected " + times(k.Usage.Injected)
		}
	}
	return "the clearest name"
}

// endSentence ends a sentence with a full stop when it has no final mark.
func endSentence(s string) string {
	if s == "" || strings.ContainsRune(".!?:", rune(s[len(s)-1])) {
		return s
	}
	return s + "."
}

// firstLine is what a memory says first: its description, else its body's
// first line.
func firstLine(it Item) string {
	if it.Description != "" {
		return it.Description
	}
	for l := range strings.SplitSeq(it.Body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return it.Name
}

// earliest is the earlier of two times, zero counting as unknown.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// defaultBeside reports whether one of two memories names itself the
// default and the other does not: "Missing read estimate: default" and
// "Estimates: class H" are a rule and one case's own, two memories.
func defaultBeside(a, b item) bool {
	isDefault := func(it item) bool { return reDefaultName().MatchString(it.Name) }
	return isDefault(a) != isDefault(b)
}

// reDefaultName is a name that says its memory is the default: "Missing
// read estimate: default", "Free time (default)"; not "Default exports are
// banned", "Default branch".
var reDefaultName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[:(—–-]\s*|\b(?:the|by)\s+)defaults?\W*$`)
})
