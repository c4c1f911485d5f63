package learning

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// MergeDaily merges cur, a new summary of a day that has one already, into
// prevText, the day's file, losslessly: every line of prevText stays, in
// order and byte for byte (its preamble, non-learning lines, odd
// sub-lines, user notes, unknown sections), and only what cur adds is
// inserted:
//
//   - the "<!-- projects: … -->" line becomes the sorted union of both days'
//     projects (the one line rewritten, and only when cur brings a new
//     project; added after the H1 when missing);
//   - learnings not present (same scope and title, case-insensitively) go
//     at the end of "## Learnings" in the canonical format, a blank line
//     between learnings as RenderDaily writes them;
//   - cur.Summary, when prevText's Sessions Summary does not contain it
//     already, is appended to that section as a "Later: …" line;
//   - Topics, Key Points, Commits and Files Created bullets not present
//     (same text, case-insensitively) go at the end of their section.
//
// A missing section is created in the canonical order (RenderDaily's),
// before the first user note or later canonical section, else at the end.
// Items are added in the order above, learnings first (they are what the
// day is kept for, and what routing takes), and adding stops at the first
// item that would take the text past DailyTarget. Items that
// cannot be written (an invalid learning, a NUL byte, invalid UTF-8) are
// left out; multi-line bullets and summaries are joined onto one line.
// MergeDaily(MergeDaily(p, c), c) is MergeDaily(p, c), and a merge that
// adds nothing returns prevText as it is.
//
// A prevText that ParseDaily refuses is returned as its *ParseError: the
// caller leaves the day alone. An empty prevText gives RenderDaily(cur).
func MergeDaily(prevText string, cur Daily) (string, error) {
	if prevText == "" {
		return RenderDaily(cur), nil
	}
	prev, err := ParseDaily(cur.Date+".md", prevText)
	if err != nil {
		return "", err
	}
	d := &mergeDoc{lines: strings.Split(strings.TrimSuffix(prevText, "\n"), "\n")}
	d.mergeProjects(prev.Projects, cur.Projects)

	// Learnings first: they are what the day is kept for, and what
	// routing takes; past DailyTarget the bullets give way.
	full := false // set once an item would pass DailyTarget: nothing more is added
	seen := map[string]bool{}
	for _, l := range prev.Learnings {
		seen[learningID(l)] = true
	}
	for _, l := range cur.Learnings {
		l.Line = 0
		if full || l.Validate() != nil || !writable(l.Format()) || seen[learningID(l)] {
			continue
		}
		seen[learningID(l)] = true
		full = !d.add(dailyLearnings, strings.Split(l.Format(), "\n"), true)
	}
	if s := oneLine(cur.Summary); s != "" && !full && writable(s) && !strings.Contains(fold(prev.Summary), fold(s)) {
		line := s
		if d.section(dailySummary) != nil {
			line = "Later: " + s
		}
		full = !d.add(dailySummary, []string{line}, false)
	}
	for _, b := range []struct {
		heading   string
		have, add []string
	}{
		{dailyTopics, prev.Topics, cur.Topics},
		{dailyKeyPoints, prev.KeyPoints, cur.KeyPoints},
		{dailyCommits, prev.Commits, cur.Commits},
		{dailyFilesCreated, prev.FilesCreated, cur.FilesCreated},
	} {
		seen := map[string]bool{}
		for _, h := range b.have {
			seen[fold(oneLine(h))] = true
		}
		for _, it := range b.add {
			it = oneLine(it)
			if full || it == "" || !writable(it) || seen[fold(it)] {
				continue
			}
			seen[fold(it)] = true
			full = !d.add(b.heading, []string{"- " + it}, false)
		}
	}
	if !d.changed {
		return prevText, nil
	}
	return strings.Join(d.lines, "\n") + "\n", nil
}

// learningID is what says a learning of a day is there already: its scope
// and title, case-insensitively.
func learningID(l Learning) string {
	return strings.ToLower(strings.TrimSpace(l.Scope)) + "|" + normTitle(l.Title)
}

// oneLine joins s's lines and spaces into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fold is s on one line, lower-cased, for "already there" checks.
func fold(s string) string { return strings.ToLower(oneLine(s)) }

// writable reports whether s can go into a daily summary: valid UTF-8, no
// NUL byte.
func writable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// mergeDoc is a daily summary's lines (without their "\n") as MergeDaily
// inserts into them.
type mergeDoc struct {
	lines   []string
	changed bool
}

// mergeSec is a "## " section of a mergeDoc: its name, its heading's index
// and the index just past its last line.
type mergeSec struct {
	name      string
	head, end int
}

// sections lists d's sections as splitDaily finds them (headings inside
// code fences do not count).
func (d *mergeDoc) sections() []mergeSec {
	var out []mergeSec
	fence := false
	for i, raw := range d.lines {
		l := strings.TrimRight(raw, "\r")
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(l, "## ") {
			if n := len(out); n > 0 {
				out[n-1].end = i
			}
			out = append(out, mergeSec{name: strings.TrimSpace(l[3:]), head: i, end: len(d.lines)})
		}
	}
	return out
}

// section is the last section named name, or nil.
func (d *mergeDoc) section(name string) *mergeSec {
	secs := d.sections()
	for i := len(secs) - 1; i >= 0; i-- {
		if secs[i].name == name {
			return &secs[i]
		}
	}
	return nil
}

// size is the length of d's text.
func (d *mergeDoc) size() int {
	n := 0
	for _, l := range d.lines {
		n += len(l) + 1
	}
	return n
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// add puts lines at the end of the last section named heading (after its
// last non-blank line; after a blank line when spaced and the section has
// content), creating the section where the canonical order puts it when
// missing. It adds nothing and reports false when the text would then
// pass DailyTarget.
func (d *mergeDoc) add(heading string, lines []string, spaced bool) bool {
	var at int
	var ins []string
	if s := d.section(heading); s != nil {
		at = s.head + 1
		for i := s.end - 1; i > s.head; i-- {
			if !blank(d.lines[i]) {
				at = i + 1
				break
			}
		}
		if spaced && at > s.head+1 {
			ins = append(ins, "")
		}
		ins = append(ins, lines...)
	} else {
		at = d.newSectionAt(heading)
		if at > 0 && !blank(d.lines[at-1]) {
			ins = append(ins, "")
		}
		ins = append(append(ins, "## "+heading), lines...)
		if at < len(d.lines) {
			ins = append(ins, "")
		}
	}
	n := 0
	for _, l := range ins {
		n += len(l) + 1
	}
	if d.size()+n > DailyTarget {
		return false
	}
	d.lines = slices.Insert(d.lines, at, ins...)
	d.changed = true
	return true
}

// canonical is the order of a daily summary's sections, as RenderDaily
// writes them.
var canonical = []string{dailySummary, dailyTopics, dailyKeyPoints, dailyLearnings, dailyCommits, dailyFilesCreated}

// newSectionAt is where a missing canonical section goes: before the first
// user note or canonical section that comes after it, else at the end.
func (d *mergeDoc) newSectionAt(heading string) int {
	rank := slices.Index(canonical, heading)
	for _, s := range d.sections() {
		if userNoteRE.MatchString(s.name) || slices.Index(canonical, s.name) > rank {
			return s.head
		}
	}
	return len(d.lines)
}

// mergeProjects makes the projects line the sorted union of have and add
// when add brings a project have lacks: the first projects line of the
// preamble is rewritten, or one is added after the H1 (or at the top).
func (d *mergeDoc) mergeProjects(have, add []string) {
	set := map[string]bool{}
	for _, p := range have {
		set[p] = true
	}
	grown := false
	for _, p := range add {
		if p = strings.TrimSpace(p); p != "" && !set[p] && writable(p) && !strings.ContainsAny(p, ",\n\r") && !strings.Contains(p, "-->") {
			set[p] = true
			grown = true
		}
	}
	if !grown {
		return
	}
	union := make([]string, 0, len(set))
	for p := range set {
		union = append(union, p)
	}
	sort.Strings(union)
	line := "<!-- projects: " + strings.Join(union, ", ") + " -->"
	end := len(d.lines)
	if secs := d.sections(); len(secs) > 0 {
		end = secs[0].head
	}
	h1 := -1
	for i := 0; i < end; i++ {
		l := strings.TrimSpace(d.lines[i])
		if projectsRE.MatchString(l) {
			if strings.HasSuffix(d.lines[i], "\r") {
				line += "\r"
			}
			d.lines[i] = line
			d.changed = true
			return
		}
		if h1 < 0 && strings.HasPrefix(l, "# ") {
			h1 = i
		}
	}
	if h1 < 0 {
		d.lines = slices.Insert(d.lines, 0, line, "")
	} else {
		d.lines = slices.Insert(d.lines, h1+1, "", line)
	}
	d.changed = true
}
