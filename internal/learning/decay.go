package learning

import (
	"fmt"
	"path"
	"sort"
)

// archiveEntry takes it out of s and puts its lines in m's archive under
// today's group, with the base name of f's file as its source (as the
// skill writes it: "*Source: granada-long-term-memory.md*"). It reports whether the archive did not hold the learning yet
// (Archive.add: an archived learning is not archived twice).
func (m *Memory) archiveEntry(f *File, s *section, it *item, today string) bool {
	s.remove(it)
	return m.archiveLines(f, it.lines, today)
}

// archiveLines puts an entry's lines in m's archive (made when nil) under
// today's group, as archiveEntry does, without touching f.
func (m *Memory) archiveLines(f *File, lines []string, today string, notes ...string) bool {
	if m.Archive == nil {
		m.Archive = &Archive{}
	}
	return m.Archive.add(today, lines, path.Base(f.Name), notes...)
}

// Prune cuts every file over s's MaxFileTokens (bytes/4): oldest entries
// of decay-eligible sections first, keeping Pinned, auto-pinned sections,
// entries of the last AgeDays and error learnings (high impact) last.
//
// The order: learnings other than errors before errors; within each, dated
// ones oldest first, then undated ones; on a tie the one lower in the file
// first (the skill keeps the oldest at the bottom of a section). Entries
// dated within the last AgeDays days are never pruned, even when the file
// stays over the bound. A pruned learning is not lost: it goes to the
// archive under today's group, like a decayed one, and its op is "prune"
// (not "archive") with the reason "file at N tokens > max M", N the file's
// size before that entry was cut.
func Prune(m *Memory, s Settings, today string) []Op {
	maxTokens := s.Synthesis.MaxFileTokens
	if maxTokens <= 0 || checkDate(today) != nil {
		return nil
	}
	var ops []Op
	for _, f := range m.files() {
		tokens := len(f.Format()) / 4
		if tokens <= maxTokens {
			continue
		}
		type cand struct {
			e     entry
			pos   int
			isErr bool
			date  string
		}
		var cands []cand
		for i, e := range f.entries() {
			if !decayEligible(f.Kind, e.sec.name) {
				continue
			}
			if age, ok := daysBetween(e.it.l.Date, today); ok && age <= s.Decay.AgeDays {
				continue
			}
			cands = append(cands, cand{e, i, e.it.l.Type == Error, e.it.l.Date})
		}
		sort.SliceStable(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if a.isErr != b.isErr {
				return !a.isErr
			}
			if (a.date == "") != (b.date == "") {
				return a.date != ""
			}
			if a.date != b.date {
				return a.date < b.date
			}
			return a.pos > b.pos
		})
		changed := false
		for _, c := range cands {
			if tokens <= maxTokens {
				break
			}
			l := c.e.it.learning()
			reason := fmt.Sprintf("file at %d tokens > max %d", tokens, maxTokens)
			if !m.archiveEntry(f, c.e.sec, c.e.it, today) {
				reason += " (already in the archive: not archived twice)"
			}
			ops = append(ops, Op{Kind: "prune", File: f.Name, Section: c.e.sec.name, Learning: l, Reason: reason})
			changed = true
			tokens = len(f.Format()) / 4
		}
		if changed {
			f.SetDate(today)
		}
	}
	return ops
}

// Decay moves learnings of decay-eligible sections older than s's AgeDays
// (strictly: age > AgeDays) to the archive under today's group; undated
// learnings, Pinned and the auto-pinned sections are never decayed. Then
// it purges archive groups older than ArchiveRetentionDays (strictly).
//
// Age is the number of days from the learning's date to today: with the
// default 30, a learning of 30 days stays and one of 31 goes. A learning
// dated after today stays. Files are visited global first, then projects
// by name; a file that changed gets today as its footer date. Ops:
// "archive" per learning, "purge" per learning of a purged group (one op
// for an empty group).
func Decay(m *Memory, s Settings, today string) []Op {
	if checkDate(today) != nil {
		return nil
	}
	var ops []Op
	for _, f := range m.files() {
		changed := false
		for _, sec := range f.doc.secs {
			if !decayEligible(f.Kind, sec.name) {
				continue
			}
			for _, it := range append([]*item(nil), sec.items...) {
				if it.l == nil || it.l.Date == "" {
					continue
				}
				age, ok := daysBetween(it.l.Date, today)
				if !ok || age <= s.Decay.AgeDays {
					continue
				}
				l := it.learning()
				reason := fmt.Sprintf("dated %s, %d days old > ageDays %d", l.Date, age, s.Decay.AgeDays)
				if !m.archiveEntry(f, sec, it, today) {
					reason += " (already in the archive: not archived twice)"
				}
				ops = append(ops, Op{Kind: "archive", File: f.Name, Section: sec.name, Learning: l, Reason: reason})
				changed = true
			}
		}
		if changed {
			f.SetDate(today)
		}
	}
	if m.Archive != nil {
		ops = append(ops, m.Archive.purge(today, s.Decay.ArchiveRetentionDays)...)
	}
	return ops
}
