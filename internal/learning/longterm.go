package learning

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// Kind says which long-term file a File is.
type Kind int

// The long-term files.
const (
	GlobalFile  Kind = iota // global-long-term-memory.md
	ProjectFile             // project-memory/{project}-long-term-memory.md
)

// File is a parsed long-term memory file. It formats back to the bytes it
// was parsed from until a decision changes it.
type File struct {
	Kind    Kind
	Name    string // the file's name relative to the synthesis folder, for errors and Source notes
	Project string // ProjectFile: the project's name
	doc     *doc
}

// Section names of the long-term files.
const (
	AboutMe          = "About Me"
	CurrentProjects  = "Current Projects"
	TechEnvironment  = "Technical Environment"
	PatternsPrefs    = "Patterns & Preferences"
	Pinned           = "Pinned"
	KeyLearnings     = "Key Learnings"
	ErrorPatterns    = "Error Patterns to Avoid"
	BestPractices    = "Best Practices"
	DataQuirks       = "Data Quirks"
	KeyDecisions     = "Key Decisions"
	UsefulCommands   = "Useful Commands"
	GlobalFileName   = "global-long-term-memory.md"
	ProjectMemoryDir = "project-memory"
	ArchiveFileName  = ".decay-archive.md"
)

// ProjectFileName is a project's long-term file name relative to the
// synthesis folder: project-memory/{project}-long-term-memory.md.
func ProjectFileName(project string) string {
	return ProjectMemoryDir + "/" + project + "-long-term-memory.md"
}

// templateSection is a section of a template: its name and its hint.
type templateSection struct{ name, hint string }

// globalSections are the global file's sections, in order.
var globalSections = []templateSection{
	{AboutMe, "Who the user is: role, preferences, communication style"},
	{CurrentProjects, "Active work with context"},
	{TechEnvironment, "Tools, systems, workflows"},
	{PatternsPrefs, "Coding style, decision patterns"},
	{Pinned, "These survive decay"},
	{KeyLearnings, "General insights, data quirks, useful commands"},
	{ErrorPatterns, "Mistakes encountered and how to prevent them"},
	{BestPractices, "Patterns and approaches that worked well"},
}

// projectSections are a project file's sections, in order (the skill's
// template with Pinned after the H1).
var projectSections = []templateSection{
	{Pinned, "These survive decay"},
	{ErrorPatterns, "Mistakes encountered and how to prevent them"},
	{BestPractices, "Patterns and approaches that worked well"},
	{DataQuirks, "Gotchas, edge cases, data quality issues"},
	{KeyDecisions, "Important choices made and their rationale"},
	{UsefulCommands, "Queries, scripts, commands that helped"},
}

func (k Kind) sections() []templateSection {
	if k == GlobalFile {
		return globalSections
	}
	return projectSections
}

// autoPinned are the global file's sections that never decay.
var autoPinned = map[string]bool{AboutMe: true, CurrentProjects: true, TechEnvironment: true, PatternsPrefs: true, Pinned: true}

// profileSections are the global file's sections a person describes
// themselves in: a tagged line there is a learning only when its tag names
// one of the five types ("- **Stack** [Go/Python]: …" is plain text).
var profileSections = map[string]bool{AboutMe: true, CurrentProjects: true, TechEnvironment: true, PatternsPrefs: true}

// profile reports whether section is a profile section of a file of kind k.
func (k Kind) profile(section string) bool { return k == GlobalFile && profileSections[section] }

// decayEligible reports whether section's learnings decay in a file of kind k.
func decayEligible(k Kind, section string) bool {
	if k == GlobalFile {
		return section == KeyLearnings || section == ErrorPatterns || section == BestPractices
	}
	switch section {
	case ErrorPatterns, BestPractices, DataQuirks, KeyDecisions, UsefulCommands:
		return true
	}
	return false
}

func (k Kind) known(section string) bool {
	for _, s := range k.sections() {
		if s.name == section {
			return true
		}
	}
	return false
}

// template renders the empty file of kind k.
func template(k Kind, project string) string {
	var b strings.Builder
	footer := "*Last updated: YYYY-MM-DD*"
	if k == GlobalFile {
		b.WriteString("# Global Long-Term Memory\n\n")
		footer = "*Last synthesized: YYYY-MM-DD*"
	} else {
		b.WriteString("# " + project + "\n\n")
	}
	for _, s := range k.sections() {
		b.WriteString("## " + s.name + "\n<!-- " + s.hint + " -->\n\n")
	}
	b.WriteString("---\n" + footer + "\n")
	return b.String()
}

// NewGlobal is an empty global long-term file (the template, with Pinned).
// Its footer reads "*Last synthesized: YYYY-MM-DD*" until SetDate or a
// decision writes a date.
func NewGlobal() *File {
	f, err := ParseFile(GlobalFile, GlobalFileName, "", template(GlobalFile, ""))
	if err != nil {
		panic(err)
	}
	return f
}

// NewProject is an empty project long-term file (the skill's template,
// with Pinned after the H1).
func NewProject(project string) *File {
	f, err := ParseFile(ProjectFile, ProjectFileName(project), project, template(ProjectFile, project))
	if err != nil {
		panic(fmt.Sprintf("learning: template of project %q: %v", project, err))
	}
	return f
}

// ParseFile parses a long-term file's text. A malformed learning (a tagged
// line that does not parse), invalid UTF-8, a NUL byte or a known section
// heading given twice is a *ParseError with its line: the caller reports
// it and leaves the file untouched. Anything else (free text, unknown
// sections, comments, plain bullets) is kept as it is. In the global
// file's profile sections (About Me, Current Projects, Technical
// Environment, Patterns & Preferences) a tagged line whose type is not one
// of the five is plain text, not a malformed learning: see the package doc.
func ParseFile(kind Kind, name, project, text string) (*File, error) {
	d, err := parseDoc(name, text, kind.known, kind.profile, true)
	if err != nil {
		return nil, err
	}
	return &File{Kind: kind, Name: name, Project: project, doc: d}, nil
}

// Format renders f; unchanged files give back their bytes exactly.
func (f *File) Format() string {
	if f == nil || f.doc == nil {
		return ""
	}
	return f.doc.format()
}

// Learnings returns the learnings of section (all sections when section
// is ""), in file order.
func (f *File) Learnings(section string) []Learning {
	if f == nil || f.doc == nil {
		return nil
	}
	var out []Learning
	for _, s := range f.doc.secs {
		if section != "" && s.name != section {
			continue
		}
		for _, it := range s.items {
			if it.l != nil {
				out = append(out, it.learning())
			}
		}
	}
	return out
}

// SectionText returns the raw text of section's body ("" when absent).
func (f *File) SectionText(section string) string {
	if f == nil || f.doc == nil {
		return ""
	}
	s := f.doc.section(section)
	if s == nil {
		return ""
	}
	var lines []string
	for _, it := range s.items {
		lines = append(lines, it.lines...)
	}
	return strings.Join(lines, "\n")
}

// SetDate writes today as the file's "Last synthesized" (global) or "Last
// updated" (project) date, adding the footer when the file has none. It
// reports whether the text changed.
func (f *File) SetDate(today string) bool {
	if f == nil || f.doc == nil {
		return false
	}
	label := "Last updated"
	if f.Kind == GlobalFile {
		label = "Last synthesized"
	}
	return f.doc.setFooterDate(label, today)
}

// ---- the lossless document shared by long-term files and the archive ----

// item is a run of a section's lines: one line of free text, or a learning
// with its sub-lines. lines are the bytes of the file (less "\n").
type item struct {
	lines []string
	l     *Learning // nil: not a learning
	line  int       // 1-based line of lines[0] when parsed; 0 when new
	f     *features // cached by feats; nil until then and after an edit
}

// learning returns the item's learning with its Lesson, Notes and Line.
func (it *item) learning() Learning {
	l := *it.l
	l.Notes = append([]string(nil), l.Notes...)
	l.Line = it.line
	return l
}

// newItem is a learning item rendered from l.
func newItem(l Learning) *item {
	l.Line = 0
	lines := strings.Split(l.Format(), "\n")
	return &item{lines: lines, l: &l}
}

// setLines replaces an item's lines and re-reads its learning from them.
func (it *item) setLines(lines []string) {
	it.lines = lines
	it.f = nil
	l, _, ok, err := parseLine(lines[0])
	if !ok || err != nil {
		panic(fmt.Sprintf("learning: edited entry does not parse: %q", lines[0]))
	}
	l.parseSubLines(lines[1:])
	it.l = &l
}

// section is a "## " section: its heading line and the items under it.
// The preamble (lines before the first heading) is a section named "" with
// no heading line.
type section struct {
	name    string
	heading string
	items   []*item
}

// doc is a parsed file: sections, an optional footer ("---" and the
// "*Last …: date*" line) and whether the text ended in a newline.
type doc struct {
	secs    []*section
	footer  []string
	finalNL bool
}

// footerRE matches the footer's date line.
var footerRE = lazyre.New(`^\*(Last synthesized|Last updated): (.*)\*\s*$`)

// parseDoc parses text into a doc. known tells the sections that must not
// appear twice; profile the sections where a tag whose type is not one of
// the five is plain text (nil: none); footer says whether to look for a
// footer.
func parseDoc(name, text string, known, profile func(string) bool, footer bool) (*doc, error) {
	if err := checkText(name, text); err != nil {
		return nil, err
	}
	d := &doc{finalNL: strings.HasSuffix(text, "\n")}
	var lines []string
	if text != "" {
		lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	}
	end := len(lines)
	if footer {
		end = footerStart(lines)
		d.footer = lines[end:]
	}
	cur := &section{}
	d.secs = append(d.secs, cur)
	seen := map[string]int{}
	fence := false
	for i := 0; i < end; i++ {
		raw := lines[i]
		l := strings.TrimSuffix(raw, "\r")
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence {
			cur.items = append(cur.items, &item{lines: []string{raw}, line: i + 1})
			continue
		}
		if strings.HasPrefix(l, "## ") {
			n := strings.TrimSpace(l[3:])
			if first, dup := seen[n]; dup && known(n) {
				return nil, &ParseError{File: name, Line: i + 1, Msg: fmt.Sprintf("section \"## %s\" appears twice (first at line %d)", n, first)}
			}
			seen[n] = i + 1
			cur = &section{name: n, heading: raw}
			d.secs = append(d.secs, cur)
			continue
		}
		lr, ok, err := ParseLine(l)
		if ok && profile != nil && profile(cur.name) && !typedTag(l) {
			ok, err = false, nil
		}
		if err != nil {
			return nil, &ParseError{File: name, Line: i + 1, Msg: err.Error()}
		}
		if !ok {
			cur.items = append(cur.items, &item{lines: []string{raw}, line: i + 1})
			continue
		}
		it := &item{lines: []string{raw}, l: &lr, line: i + 1}
		for i+1 < end {
			next := strings.TrimSuffix(lines[i+1], "\r")
			if !strings.HasPrefix(next, "  ") || strings.TrimSpace(next) == "" || strings.HasPrefix(strings.TrimSpace(next), "```") {
				break
			}
			i++
			it.lines = append(it.lines, lines[i])
		}
		lr.parseSubLines(it.lines[1:])
		cur.items = append(cur.items, it)
	}
	return d, nil
}

// footerStart is the index of the footer's first line ("---" before the
// last "*Last …: date*" line, blank lines after it allowed), or len(lines).
func footerStart(lines []string) int {
	i := len(lines) - 1
	for i >= 0 && strings.TrimSpace(lines[i]) == "" {
		i--
	}
	if i < 0 || !footerRE.MatchString(strings.TrimSuffix(lines[i], "\r")) {
		return len(lines)
	}
	j := i - 1
	for j >= 0 && strings.TrimSpace(lines[j]) == "" {
		j--
	}
	if j >= 0 && strings.TrimSpace(lines[j]) == "---" {
		return j
	}
	return i
}

// format renders the doc.
func (d *doc) format() string {
	var lines []string
	for _, s := range d.secs {
		if s.name != "" || s.heading != "" {
			lines = append(lines, s.heading)
		}
		for _, it := range s.items {
			lines = append(lines, it.lines...)
		}
	}
	lines = append(lines, d.footer...)
	out := strings.Join(lines, "\n")
	if d.finalNL && len(lines) > 0 {
		out += "\n"
	}
	return out
}

// section returns the first section named name, or nil.
func (d *doc) section(name string) *section {
	for _, s := range d.secs {
		if s.name == name && (name != "" || s.heading != "") {
			return s
		}
	}
	return nil
}

// setFooterDate writes date into the footer line, adding "---" and the
// line when the doc has no footer. It reports whether the text changed.
func (d *doc) setFooterDate(label, date string) bool {
	for i, l := range d.footer {
		m := footerRE.FindStringSubmatch(strings.TrimSuffix(l, "\r"))
		if m == nil {
			continue
		}
		nl := "*" + m[1] + ": " + date + "*"
		if strings.HasSuffix(l, "\r") {
			nl += "\r"
		}
		if nl == l {
			return false
		}
		d.footer[i] = nl
		return true
	}
	last := d.secs[len(d.secs)-1]
	if n := len(last.items); (n > 0 && strings.TrimSpace(last.items[n-1].lines[len(last.items[n-1].lines)-1]) != "") || (n == 0 && last.heading != "") {
		last.items = append(last.items, &item{lines: []string{""}})
	}
	d.footer = []string{"---", "*" + label + ": " + date + "*"}
	d.finalNL = true
	return true
}

// insertAt is where a new learning goes in s: before its first learning,
// or after its last non-blank line when it has none.
func (s *section) insertAt() int {
	for i, it := range s.items {
		if it.l != nil {
			return i
		}
	}
	i := len(s.items)
	for i > 0 && isBlankItem(s.items[i-1]) {
		i--
	}
	return i
}

func isBlankItem(it *item) bool {
	return it.l == nil && len(it.lines) == 1 && strings.TrimSpace(it.lines[0]) == ""
}

// insert puts it at index i of s.
func (s *section) insert(i int, it *item) {
	s.items = append(s.items, nil)
	copy(s.items[i+1:], s.items[i:])
	s.items[i] = it
}

// remove takes it out of s; it reports whether it was there.
func (s *section) remove(it *item) bool {
	for i, x := range s.items {
		if x == it {
			s.items = append(s.items[:i], s.items[i+1:]...)
			return true
		}
	}
	return false
}

// ensureSection returns f's section name, adding it (heading, hint, blank
// line) where the template puts it when missing: after the nearest
// preceding template section present, else after the preamble. added
// reports whether it was added.
func (f *File) ensureSection(name string) (s *section, added bool) {
	if s := f.doc.section(name); s != nil {
		return s, false
	}
	tmpl := f.Kind.sections()
	hint := ""
	pos := 1 // after the preamble
	for i, ts := range tmpl {
		if ts.name == name {
			hint = ts.hint
			for j := i - 1; j >= 0; j-- {
				if k := f.doc.index(tmpl[j].name); k >= 0 {
					pos = k + 1
					break
				}
			}
			if pos == 1 && i > 0 {
				// No earlier section: before the first later one present.
				for j := i + 1; j < len(tmpl); j++ {
					if k := f.doc.index(tmpl[j].name); k >= 0 {
						pos = k
						break
					}
				}
			}
			break
		}
	}
	if hint == "" {
		pos = len(f.doc.secs)
	}
	prev := f.doc.secs[pos-1]
	if n := len(prev.items); n > 0 && !isBlankItem(prev.items[n-1]) {
		prev.items = append(prev.items, &item{lines: []string{""}})
	} else if n == 0 && prev.heading != "" {
		prev.items = append(prev.items, &item{lines: []string{""}})
	}
	s = &section{name: name, heading: "## " + name}
	if hint != "" {
		s.items = append(s.items, &item{lines: []string{"<!-- " + hint + " -->"}})
	}
	s.items = append(s.items, &item{lines: []string{""}})
	f.doc.secs = append(f.doc.secs, nil)
	copy(f.doc.secs[pos+1:], f.doc.secs[pos:])
	f.doc.secs[pos] = s
	if len(f.doc.footer) == 0 && pos == len(f.doc.secs)-1 {
		f.doc.finalNL = true
	}
	return s, true
}

// index is the position of section name in d.secs, or -1.
func (d *doc) index(name string) int {
	for i, s := range d.secs {
		if s.name == name && s.heading != "" {
			return i
		}
	}
	return -1
}

// entry is a learning item and the section it is in.
type entry struct {
	sec *section
	it  *item
}

// entries lists f's learnings with their sections, in file order.
func (f *File) entries() []entry {
	var out []entry
	for _, s := range f.doc.secs {
		for _, it := range s.items {
			if it.l != nil {
				out = append(out, entry{s, it})
			}
		}
	}
	return out
}
