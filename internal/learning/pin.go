package learning

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// matches reports whether pattern (lower-cased) is a substring of l's
// title, description or lesson, case-insensitively.
func matches(l Learning, pattern string) bool {
	for _, s := range []string{l.Title, l.Description, l.Lesson} {
		if strings.Contains(strings.ToLower(s), pattern) {
			return true
		}
	}
	return false
}

// scoped lists m's files that project selects ("" is every file, else
// only that project's file).
func (m *Memory) scoped(project string) []*File {
	if project == "" {
		return m.files()
	}
	if f := m.Projects[project]; f != nil {
		return []*File{f}
	}
	return nil
}

// addNote appends "  - note" to it unless a note with the same prefix
// (up to the first ':') is there.
func (it *item) addNote(note string) {
	prefix, _, _ := strings.Cut(note, ":")
	for _, n := range it.l.Notes {
		if strings.HasPrefix(n, prefix+":") {
			return
		}
	}
	it.setLines(append(append([]string(nil), it.lines...), "  - "+note))
}

// dropNotes removes the "  - <prefix>…" sub-lines of it.
func (it *item) dropNotes(prefix string) {
	lines := []string{it.lines[0]}
	for _, l := range it.lines[1:] {
		if !strings.HasPrefix(strings.TrimSuffix(l, "\r"), "  - "+prefix) {
			lines = append(lines, l)
		}
	}
	it.setLines(lines)
}

// setDate writes date into an undated entry's first line, right after its
// tag, leaving the rest of its bytes alone.
func (it *item) setDate(date string) {
	_, tagEnd, ok, err := parseLine(it.lines[0])
	if !ok || err != nil {
		return
	}
	lines := append([]string(nil), it.lines...)
	lines[0] = lines[0][:tagEnd] + " (" + date + ")" + lines[0][tagEnd:]
	it.setLines(lines)
}

// moveTo takes it out of from and puts it into to, at the top of its
// learnings or after the item placed there before in the same call.
func moveTo(it *item, from, to *section, cursor map[*section]*item) {
	from.remove(it)
	to.place(it, cursor)
}

// place puts it at the top of s's learnings, or after the item placed
// there before in the same call (cursor), and records it there.
func (s *section) place(it *item, cursor map[*section]*item) {
	at := s.insertAt()
	if prev := cursor[s]; prev != nil {
		for i, x := range s.items {
			if x == prev {
				at = i + 1
			}
		}
	}
	s.insert(at, it)
	cursor[s] = it
}

// Pin moves the learnings matching pattern (case-insensitive substring of
// title, description or lesson) to their file's Pinned section; project
// limits it to that project's file ("" is every file). Unpin moves
// matching pinned learnings back to the section of their type.
//
// Pin takes learnings from the decay-eligible sections only (the global
// file's auto-pinned sections never decay anyway), adds the note
// "*Pinned: by the user (today)*" unless the learning has a Pinned note,
// and adds ## Pinned where missing. An empty pattern, or one nothing
// matches, gives no ops: the caller reports it.
func Pin(m *Memory, pattern, project, today string) []Op {
	pat := strings.ToLower(strings.TrimSpace(pattern))
	if pat == "" {
		return nil
	}
	var ops []Op
	for _, f := range m.scoped(project) {
		var found []entry
		for _, e := range f.entries() {
			if decayEligible(f.Kind, e.sec.name) && matches(*e.it.l, pat) {
				found = append(found, e)
			}
		}
		if len(found) == 0 {
			continue
		}
		pinned, _ := f.ensureSection(Pinned)
		cursor := map[*section]*item{}
		for _, e := range found {
			e.it.addNote("*Pinned: by the user (" + today + ")*")
			moveTo(e.it, e.sec, pinned, cursor)
			ops = append(ops, Op{Kind: "pin", File: f.Name, Section: Pinned, Learning: e.it.learning(),
				Reason: fmt.Sprintf("matches %q; moved from ## %s", pattern, e.sec.name)})
		}
		f.SetDate(today)
	}
	return ops
}

// Unpin moves the learnings of Pinned matching pattern back to the section
// of their type, without their "*Pinned: …*" notes; the Lesson and other
// notes stay. A learning keeps its date (so an old one may decay at the
// next synthesis: that is what unpinning asks for); an undated one is
// dated today, since it now sits in a decaying section.
func Unpin(m *Memory, pattern, project, today string) []Op {
	pat := strings.ToLower(strings.TrimSpace(pattern))
	if pat == "" {
		return nil
	}
	var ops []Op
	for _, f := range m.scoped(project) {
		pinned := f.doc.section(Pinned)
		if pinned == nil {
			continue
		}
		cursor := map[*section]*item{}
		changed := false
		for _, it := range append([]*item(nil), pinned.items...) {
			if it.l == nil || !matches(*it.l, pat) {
				continue
			}
			it.dropNotes("*Pinned:")
			if it.l.Date == "" && checkDate(today) == nil {
				it.setDate(today)
			}
			to, _ := f.ensureSection(SectionFor(f.Kind, it.l.Type))
			moveTo(it, pinned, to, cursor)
			ops = append(ops, Op{Kind: "unpin", File: f.Name, Section: to.name, Learning: it.learning(),
				Reason: fmt.Sprintf("matches %q; back to ## %s", pattern, to.name)})
			changed = true
		}
		if changed {
			f.SetDate(today)
		}
	}
	return ops
}

// Conservative pinning criteria of the heuristic engine and migration.
var (
	identityRE = lazyre.New(`(?i)\b(i am|i'm|my role|my name|i work as|i work at)\b`)
	safetyRE   = lazyre.New(`(?i)\b(data loss|lose data|loses data|lost data|delete|deletes|deleted|deleting|drop|drops|dropped|production|secrets?|credentials?|security|force[- ]push(es|ed|ing)?|push --force|rm -rf)\b`)
)

// PinReason says why l should be pinned by the conservative criteria:
// "identity" (the user about themselves: "I am", "my role"),
// "safety-critical" (data loss, delete, drop, production, secret,
// credential, security, force push), or "" when neither holds.
func PinReason(l Learning) string {
	t := strings.ReplaceAll(fullText(l), "’", "'")
	switch {
	case identityRE.MatchString(t):
		return "identity"
	case safetyRE.MatchString(t):
		return "safety-critical"
	}
	return ""
}

// Migrate is the skill's Phase 0: a Pinned section where missing, today's
// date on undated learnings, and conservative pinning (identity,
// safety-critical, cross-project learnings). It is idempotent.
//
// In order: ## Pinned is added to every file lacking it (global: after
// Patterns & Preferences; project: after the H1) — op "migrate"; undated
// learnings of decay-eligible sections get today's date, written after
// their tag — op "migrate"; a learning of a decay-eligible section whose
// content words (Key less scope) are the same in two or more project files
// moves to the global file's Pinned, rescoped global, with the note
// "*Pinned: in projects a, b (migration today)*", and leaves those project
// files — op "pin" per file (left alone when the global file holds the
// concept already); an identity or safety-critical learning (PinReason)
// moves to its own file's Pinned with the note "*Pinned: <reason>
// (migration today)*" — op "pin". Pinned and auto-pinned sections are not
// touched, so a second run finds nothing to do.
func Migrate(m *Memory, today string) []Op {
	if checkDate(today) != nil {
		return nil
	}
	var ops []Op
	changed := map[*File]bool{}
	for _, f := range m.files() {
		if _, added := f.ensureSection(Pinned); added {
			ops = append(ops, Op{Kind: "migrate", File: f.Name, Section: Pinned, Reason: "added ## Pinned"})
			changed[f] = true
		}
	}
	for _, f := range m.files() {
		for _, e := range f.entries() {
			if decayEligible(f.Kind, e.sec.name) && e.it.l.Date == "" {
				e.it.setDate(today)
				ops = append(ops, Op{Kind: "migrate", File: f.Name, Section: e.sec.name, Learning: e.it.learning(),
					Reason: "undated learning dated " + today + " (migration estimate)"})
				changed[f] = true
			}
		}
	}
	ops = append(ops, m.pinCrossProject(today, changed)...)
	for _, f := range m.files() {
		var pinned *section
		cursor := map[*section]*item{}
		for _, e := range f.entries() {
			if !decayEligible(f.Kind, e.sec.name) {
				continue
			}
			why := PinReason(*e.it.l)
			if why == "" {
				continue
			}
			if pinned == nil {
				pinned, _ = f.ensureSection(Pinned)
			}
			e.it.addNote("*Pinned: " + why + " (migration " + today + ")*")
			moveTo(e.it, e.sec, pinned, cursor)
			ops = append(ops, Op{Kind: "pin", File: f.Name, Section: Pinned, Learning: e.it.learning(),
				Reason: fmt.Sprintf("%s learning, moved from ## %s", why, e.sec.name)})
			changed[f] = true
		}
	}
	for _, f := range m.files() {
		if changed[f] {
			f.SetDate(today)
		}
	}
	return ops
}

// pinCrossProject moves the learnings found in two or more project files
// to the global file's Pinned (see Migrate).
func (m *Memory) pinCrossProject(today string, changed map[*File]bool) []Op {
	type where struct {
		f *File
		e entry
	}
	var order []string
	seen := map[string][]where{}
	for _, f := range m.files() {
		if f.Kind != ProjectFile {
			continue
		}
		for _, e := range f.entries() {
			if !decayEligible(f.Kind, e.sec.name) {
				continue
			}
			k := e.it.l.contentKey()
			if k == "" {
				continue
			}
			ws := seen[k]
			if len(ws) > 0 && ws[len(ws)-1].f == f {
				continue // twice in one file: one project
			}
			if len(ws) == 0 {
				order = append(order, k)
			}
			seen[k] = append(ws, where{f, e})
		}
	}
	var ops []Op
	cursor := map[*section]*item{}
	for _, k := range order {
		ws := seen[k]
		if len(ws) < 2 {
			continue
		}
		if m.Global == nil {
			m.Global = NewGlobal()
		}
		l := ws[0].e.it.learning()
		l.Scope = Global
		l.Line = 0
		if _, dup := m.Global.duplicate(featuresOf(l)); dup {
			continue
		}
		var names []string
		for _, w := range ws {
			names = append(names, w.f.Project)
		}
		var notes []string
		for _, n := range l.Notes {
			if !strings.HasPrefix(n, "*Pinned:") {
				notes = append(notes, n)
			}
		}
		l.Notes = append(notes, "*Pinned: in projects "+strings.Join(names, ", ")+" (migration "+today+")*")
		pinned, _ := m.Global.ensureSection(Pinned)
		pinned.place(newItem(l), cursor)
		changed[m.Global] = true
		reason := "in projects " + strings.Join(names, ", ")
		ops = append(ops, Op{Kind: "pin", File: m.Global.Name, Section: Pinned, Learning: l, Reason: reason + ": pinned globally"})
		for _, w := range ws {
			w.e.sec.remove(w.e.it)
			changed[w.f] = true
			ops = append(ops, Op{Kind: "pin", File: w.f.Name, Section: w.e.sec.name, Learning: w.e.it.learning(),
				Reason: reason + ": moved to " + m.Global.Name + " ## Pinned"})
		}
	}
	return ops
}

// alwaysLoadedSections are the global file's sections a session starts
// with, in this order.
var alwaysLoadedSections = []string{AboutMe, CurrentProjects, TechEnvironment, PatternsPrefs, Pinned}

// isComment reports whether a line is an HTML comment alone (a template
// hint), which is not content.
func isComment(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "<!--") && strings.HasSuffix(t, "-->")
}

// AlwaysLoaded is the part of global long-term memory a session starts
// with: its auto-pinned sections and Pinned, cut to at most tokens
// (bytes/4) at an entry boundary, with a line saying what was left out.
//
// Each section with content is given as "## Name" and its content (blank
// lines and template comments left out); sections are separated by a
// blank line. An entry is a learning with its sub-lines, or a line of
// free text with the indented lines under it. When entries are cut, the
// last line is "(… N more entries in global-long-term-memory.md: memdir
// context shows them)". It is "" when the sections have no content. The
// text ends in a newline when not empty.
func AlwaysLoaded(g *File, tokens int) string {
	if g == nil || g.doc == nil {
		return ""
	}
	type unit struct {
		sec   string
		lines []string
	}
	var units []unit
	for _, name := range alwaysLoadedSections {
		s := g.doc.section(name)
		if s == nil {
			continue
		}
		for _, it := range s.items {
			if it.l != nil {
				units = append(units, unit{name, it.lines})
				continue
			}
			l := strings.TrimSuffix(it.lines[0], "\r")
			switch {
			case strings.TrimSpace(l) == "" || isComment(l):
			case (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(units) > 0 && units[len(units)-1].sec == name:
				u := &units[len(units)-1]
				u.lines = append(u.lines[:len(u.lines):len(u.lines)], l)
			default:
				units = append(units, unit{name, []string{l}})
			}
		}
	}
	if len(units) == 0 {
		return ""
	}
	file := g.Name
	if file == "" {
		file = GlobalFileName
	}
	trailer := func(n int) string {
		return fmt.Sprintf("(… %d more entries in %s: memdir context shows them)\n", n, file)
	}
	budget := tokens * 4
	reserve := len(trailer(len(units)))
	var b strings.Builder
	cur := ""
	n := 0
	for i, u := range units {
		var add strings.Builder
		if u.sec != cur {
			if cur != "" {
				add.WriteString("\n")
			}
			add.WriteString("## " + u.sec + "\n")
		}
		for _, l := range u.lines {
			add.WriteString(strings.TrimSuffix(l, "\r") + "\n")
		}
		limit := budget
		if i < len(units)-1 {
			limit = budget - reserve
		}
		if b.Len()+add.Len() > limit {
			break
		}
		b.WriteString(add.String())
		cur = u.sec
		n++
	}
	if n < len(units) {
		b.WriteString(trailer(len(units) - n))
	}
	return b.String()
}
