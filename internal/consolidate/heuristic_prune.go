package consolidate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// prune plans the removal of memories that no longer earn their place:
// superseded long ago, marked wrong, or project and reference notes no
// recall has used in unusedDays days. Pinned memories are never pruned;
// user and feedback memories only when marked wrong.
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
		if it.Pinned || it.ReadOnly || p.retired[it.File] || (it.SupersededBy != "") != superseded {
			continue
		}
		u := it.Usage
		var reason string
		var ev []string
		switch {
		case u.Wrong >= 2 || u.Wrong >= 1 && u.Wrong > u.Helpful:
			reason = fmt.Sprintf("%s was marked wrong %s (helpful %d): it misleads more than it helps.", it.File, times(u.Wrong), u.Helpful)
			ev = append(ev, fmt.Sprintf("marked wrong %s, helpful %s", times(u.Wrong), times(u.Helpful)))
		case it.Type == "user" || it.Type == "feedback":
			continue
		case it.SupersededBy != "" && !lastChange(it.Item).IsZero() && lastChange(it.Item).Before(cutoff) && p.present(it.SupersededBy):
			reason = fmt.Sprintf("%s was superseded by %s more than %d days ago (last changed %s): the history has been kept long enough.",
				it.File, it.SupersededBy, unusedDays, day(lastChange(it.Item)))
			ev = append(ev, "superseded_by: "+it.SupersededBy, "last changed "+day(lastChange(it.Item)))
		case it.SupersededBy == "" && unused(it.Item, cutoff) && ephemeral(it.Item):
			reason = fmt.Sprintf("%s has not been injected into any prompt in %d days and reads as a passing note: it no longer changes what an agent does.", it.File, unusedDays)
			ev = append(ev, usageEvidence(u, cutoff), quote(firstLine(it.Item)))
		default:
			continue
		}
		p.add(Op{Kind: Prune, Files: []string{it.File}, Retire: []string{it.File}, Reason: reason, Evidence: ev})
	}
}

// present reports whether file is a memory of the folder that no
// operation retires: what supersedes a memory must still be there before
// the old one goes, or the old one is the only record left.
func (p *planner) present(file string) bool {
	i, ok := p.byFile[file]
	return ok && !p.retired[p.items[i].File]
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
// guess, something temporary. A durable fact nobody happened to recall (a
// contact, a convention) is not pruned on usage alone.
func ephemeral(it Item) bool {
	if it.Type != "project" && it.Type != "reference" {
		return false
	}
	return reEphemeral().MatchString(prose(it.Name + "\n" + it.Description + "\n" + it.Body))
}

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

var reEphemeral = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:scratch|notes? (?:while|from|on)|wip|todo|to-do|tmp|temp|temporary|temporarily|for now|for the moment|this week|this sprint|today|currently (?:investigating|debugging|looking)|investigating|chasing|debugging|was looking|looking into|might be|maybe|not (?:yet )?conclusive|unclear|hypothesis|workaround until|draft)\b`)
})

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
		desc, dateOp := it.Description, -1
		for i, op := range p.ops {
			if op.Keep != it.File || op.Edit == nil {
				continue
			}
			if op.Kind == Merge { // the full description stays in the merged body
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
				dateOp = -2
				break
			}
			if op.Kind == Date && op.Edit.Description != "" {
				desc, dateOp = op.Edit.Description, i
			}
		}
		if dateOp == -2 {
			continue
		}
		if dateOp >= 0 { // the date rewrite of the description goes with the shorter one
			p.ops[dateOp].Edit.Description = ""
		}
		short := cut(desc, maxDescription)
		bodyTerms := termSet(it.Body)
		lossless := true
		for _, s := range sentences(desc) {
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
