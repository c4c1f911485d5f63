package learning

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// Archive is the decay archive: "## Archived YYYY-MM-DD" groups, newest
// first, each learning with a "*Source: file*" note.
type Archive struct {
	doc *doc
}

// groupRE matches an archive group's heading name.
var groupRE = lazyre.New(`^Archived (.*)$`)

// ParseArchive parses .decay-archive.md ("" is an empty archive). Like
// ParseFile it is lossless, and a malformed learning, an "## Archived"
// heading without a real date, invalid UTF-8 or a NUL byte is a
// *ParseError with its line.
func ParseArchive(text string) (*Archive, error) {
	d, err := parseDoc(ArchiveFileName, text, func(string) bool { return false }, nil, false)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if !strings.HasPrefix(l, "## ") {
			continue
		}
		if m := groupRE.FindStringSubmatch(strings.TrimSpace(l[3:])); m != nil {
			if err := checkDate(strings.TrimSpace(m[1])); err != nil && inSections(d, l) {
				return nil, &ParseError{File: ArchiveFileName, Line: i + 1, Msg: "archive group: " + err.Error()}
			}
		}
	}
	return &Archive{doc: d}, nil
}

// inSections reports whether heading is a section heading of d (not a
// line inside a code fence).
func inSections(d *doc, heading string) bool {
	for _, s := range d.secs {
		if strings.TrimSuffix(s.heading, "\r") == heading {
			return true
		}
	}
	return false
}

// groupDate is the date of an "Archived YYYY-MM-DD" section, or "".
func groupDate(s *section) string {
	if s.heading == "" {
		return ""
	}
	m := groupRE.FindStringSubmatch(s.name)
	if m == nil {
		return ""
	}
	d := strings.TrimSpace(m[1])
	if checkDate(d) != nil {
		return ""
	}
	return d
}

// Format renders the archive.
func (a *Archive) Format() string {
	if a == nil || a.doc == nil {
		return ""
	}
	return a.doc.format()
}

// ArchivedLearning is a learning of the archive and its group's date.
type ArchivedLearning struct {
	Learning
	Archived string `json:"archived"` // the group's YYYY-MM-DD
}

// Learnings returns the archive's learnings, in file order, with the date
// of their group ("" for a learning outside any group).
func (a *Archive) Learnings() []ArchivedLearning {
	if a == nil || a.doc == nil {
		return nil
	}
	var out []ArchivedLearning
	for _, s := range a.doc.secs {
		for _, it := range s.items {
			if it.l != nil {
				out = append(out, ArchivedLearning{Learning: it.learning(), Archived: groupDate(s)})
			}
		}
	}
	return out
}

// add appends an entry's lines (with a "*Source: source*" note, then the
// notes given, each "  - note") under the group of today, creating the
// group (newest first) when missing. An entry whose learning (same scope,
// title and date, case-insensitively) is in the archive already, in any
// group, is not added again: archiving is idempotent, so a crash between
// the archive's write and the long-term file's leaves one copy. It reports
// whether it added the entry.
func (a *Archive) add(today string, lines []string, source string, notes ...string) bool {
	if l, _, ok, err := parseLine(lines[0]); ok && err == nil && a.has(l) {
		return false
	}
	if a.doc == nil || len(a.doc.secs) == 0 {
		a.doc = &doc{secs: []*section{{}}}
	}
	if len(a.doc.secs) == 1 && len(a.doc.secs[0].items) == 0 {
		a.doc.secs[0].items = []*item{{lines: []string{"# Decay Archive"}}, {lines: []string{""}}}
		a.doc.finalNL = true
	}
	g := a.group(today)
	lines = append([]string(nil), lines...)
	for _, n := range append([]string{"*Source: " + source + "*"}, notes...) {
		n = "  - " + n
		has := false
		for _, l := range lines[1:] {
			if strings.TrimSuffix(l, "\r") == n {
				has = true
			}
		}
		if !has {
			lines = append(lines, n)
		}
	}
	it := &item{}
	it.setLines(lines)
	i := len(g.items)
	for i > 0 && isBlankItem(g.items[i-1]) {
		i--
	}
	g.insert(i, it)
	return true
}

// has reports whether the archive holds l: the same scope and title
// (case-insensitively), date, type and description. Two different
// learnings that only share a title and a date are both kept.
func (a *Archive) has(l Learning) bool {
	if a.doc == nil {
		return false
	}
	for _, s := range a.doc.secs {
		for _, it := range s.items {
			if it.l != nil && strings.EqualFold(it.l.Scope, l.Scope) && normTitle(it.l.Title) == normTitle(l.Title) && it.l.Date == l.Date &&
				it.l.Type == l.Type && strings.TrimSpace(it.l.Description) == strings.TrimSpace(l.Description) {
				return true
			}
		}
	}
	return false
}

// group returns today's group, adding it before the first older group (or
// at the end) when missing.
func (a *Archive) group(today string) *section {
	pos := len(a.doc.secs)
	for i, s := range a.doc.secs {
		d := groupDate(s)
		if d == today {
			return s
		}
		if d != "" && d < today && pos == len(a.doc.secs) {
			pos = i
		}
	}
	prev := a.doc.secs[pos-1]
	if n := len(prev.items); n > 0 && !isBlankItem(prev.items[n-1]) {
		prev.items = append(prev.items, &item{lines: []string{""}})
	} else if n == 0 && prev.heading != "" {
		prev.items = append(prev.items, &item{lines: []string{""}})
	}
	s := &section{name: "Archived " + today, heading: "## Archived " + today, items: []*item{{lines: []string{""}}}}
	if pos == len(a.doc.secs) {
		// The last group: its blank line would dangle at the end.
		s.items = nil
		a.doc.finalNL = true
	}
	a.doc.secs = append(a.doc.secs, nil)
	copy(a.doc.secs[pos+1:], a.doc.secs[pos:])
	a.doc.secs[pos] = s
	return s
}

// purge removes the groups whose age (days from their date to today) is
// over retention, and returns an op for each learning removed (one op
// for an empty group).
func (a *Archive) purge(today string, retention int) []Op {
	if a == nil || a.doc == nil {
		return nil
	}
	var ops []Op
	kept := a.doc.secs[:0]
	for _, s := range a.doc.secs {
		d := groupDate(s)
		age, ok := daysBetween(d, today)
		if d == "" || !ok || age <= retention {
			kept = append(kept, s)
			continue
		}
		reason := fmt.Sprintf("archived %s, %d days ago > archiveRetentionDays %d", d, age, retention)
		n := 0
		for _, it := range s.items {
			if it.l != nil {
				ops = append(ops, Op{Kind: "purge", File: ArchiveFileName, Section: s.name, Learning: it.learning(), Reason: reason})
				n++
			}
		}
		if n == 0 {
			ops = append(ops, Op{Kind: "purge", File: ArchiveFileName, Section: s.name, Reason: reason})
		}
	}
	a.doc.secs = kept
	return ops
}
