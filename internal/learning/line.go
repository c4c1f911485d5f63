package learning

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// looksRE matches a line that looks like a learning: a bold title followed
// by a [scope/type] tag. Group 3 is what follows the tag.
var looksRE = lazyre.New(`^- \*\*(.+?)\*\*[ \t]*\[([^\[\]/]*)/([^\[\]]*)\](.*)$`)

// dateRE matches the shape of a learning's date, before its calendar check.
var dateRE = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)

// ParseLine parses a learning's first line ("- **Title** [scope/type]
// (YYYY-MM-DD): description"; the date is optional). ok is false for a
// line that is not a learning at all; err is set for one that looks like a
// learning (a bold title followed by a [x/y] tag) but is malformed: an
// unknown type, an impossible date, an empty scope.
func ParseLine(line string) (l Learning, ok bool, err error) {
	l, _, ok, err = parseLine(line)
	return l, ok, err
}

// parseLine is ParseLine that also returns the byte offset just after the
// tag's "]" (where a date goes), for editing a line in place.
func parseLine(line string) (l Learning, tagEnd int, ok bool, err error) {
	line = strings.TrimSuffix(line, "\r")
	m := looksRE.FindStringSubmatchIndex(line)
	if m == nil {
		return Learning{}, 0, false, nil
	}
	title := strings.TrimSpace(line[m[2]:m[3]])
	scope := strings.TrimSpace(line[m[4]:m[5]])
	typ := strings.TrimSpace(line[m[6]:m[7]])
	rest := line[m[8]:m[9]]
	tagEnd = m[8]
	// Every problem of the line, not the first: an agent fixes them in one
	// go (the synthesize skill allows three refusals a day).
	var errs []error
	if title == "" {
		errs = append(errs, fmt.Errorf("learning has an empty title"))
	}
	switch {
	case scope == "":
		errs = append(errs, fmt.Errorf("learning %q has an empty scope in its tag (want [global/type] or [project/type])", title))
	case strings.ContainsAny(scope, "/"):
		errs = append(errs, fmt.Errorf("learning %q has a scope with '/' in its tag", title))
	}
	t, known := parseType(typ)
	if !known {
		errs = append(errs, fmt.Errorf("learning %q has unknown type %q (want one of %s)", title, typ, typeList()))
	}
	l = Learning{Title: title, Scope: scope, Type: t}
	r := strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(r, "(") {
		end := strings.IndexByte(r, ')')
		if end < 0 {
			return Learning{}, 0, true, errors.Join(append(errs, fmt.Errorf("learning %q: unclosed date after the tag", title))...)
		}
		d := strings.TrimSpace(r[1:end])
		if err := checkDate(d); err != nil {
			errs = append(errs, fmt.Errorf("learning %q: %v", title, err))
		}
		l.Date = d
		r = strings.TrimLeft(r[end+1:], " \t")
	}
	if !strings.HasPrefix(r, ":") {
		errs = append(errs, fmt.Errorf("learning %q: want \": description\" after the tag", title))
	} else {
		l.Description = strings.TrimSpace(r[1:])
	}
	if len(errs) > 0 {
		return l, 0, true, errors.Join(errs...)
	}
	return l, tagEnd, true, nil
}

// typedTag reports whether line looks like a learning whose tag's type is
// one of the five types (whatever else is wrong with it).
func typedTag(line string) bool {
	m := looksRE.FindStringSubmatch(strings.TrimSuffix(line, "\r"))
	if m == nil {
		return false
	}
	_, ok := parseType(strings.TrimSpace(m[3]))
	return ok
}

// parseType returns the Type named s (case-insensitively).
func parseType(s string) (Type, bool) {
	for _, t := range Types {
		if strings.EqualFold(s, string(t)) {
			return t, true
		}
	}
	return "", false
}

func typeList() string {
	s := make([]string, len(Types))
	for i, t := range Types {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// checkDate reports whether d is a real calendar date written YYYY-MM-DD.
func checkDate(d string) error {
	if !dateRE.MatchString(d) {
		return fmt.Errorf("date %q is not YYYY-MM-DD", d)
	}
	if _, err := time.Parse(time.DateOnly, d); err != nil {
		return fmt.Errorf("impossible date %q", d)
	}
	return nil
}

// parseDay parses a YYYY-MM-DD date; ok is false when it is not one.
func parseDay(d string) (time.Time, bool) {
	if !dateRE.MatchString(d) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, d)
	return t, err == nil
}

// daysBetween is the number of whole days from a to b (b - a); ok is false
// when either is not a date.
func daysBetween(a, b string) (int, bool) {
	ta, ok1 := parseDay(a)
	tb, ok2 := parseDay(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return int(tb.Sub(ta).Hours() / 24), true
}

// firstLine renders the learning's first line.
func (l Learning) firstLine() string {
	var b strings.Builder
	b.WriteString("- **")
	b.WriteString(l.Title)
	b.WriteString("** [")
	b.WriteString(l.Scope)
	b.WriteString("/")
	b.WriteString(string(l.Type))
	b.WriteString("]")
	if l.Date != "" {
		b.WriteString(" (")
		b.WriteString(l.Date)
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(l.Description)
	return b.String()
}

// Format renders l as its lines, joined by "\n", without a final newline:
// the first line, then "  - Lesson: …" when Lesson is set, then each note
// as "  - note".
func (l Learning) Format() string {
	var b strings.Builder
	b.WriteString(l.firstLine())
	if l.Lesson != "" {
		b.WriteString("\n  - Lesson: ")
		b.WriteString(l.Lesson)
	}
	for _, n := range l.Notes {
		b.WriteString("\n  - ")
		b.WriteString(n)
	}
	return b.String()
}

// Validate checks a learning memdir is about to write: title and
// description set and on one line each, scope Global or a project name
// (no '/', ']', newline), a known Type, Date "" or a real YYYY-MM-DD.
func (l Learning) Validate() error {
	switch {
	case strings.TrimSpace(l.Title) == "":
		return fmt.Errorf("learning has no title")
	case strings.TrimSpace(l.Description) == "":
		return fmt.Errorf("learning %q has no description", l.Title)
	case strings.TrimSpace(l.Scope) == "":
		return fmt.Errorf("learning %q has no scope", l.Title)
	case strings.ContainsAny(l.Scope, "/[]\n\r"):
		return fmt.Errorf("learning %q: scope %q has '/', '[', ']' or a newline", l.Title, l.Scope)
	}
	if _, ok := parseType(string(l.Type)); !ok || string(l.Type) != strings.ToLower(string(l.Type)) {
		return fmt.Errorf("learning %q has unknown type %q (want one of %s)", l.Title, l.Type, typeList())
	}
	if l.Date != "" {
		if err := checkDate(l.Date); err != nil {
			return fmt.Errorf("learning %q: %v", l.Title, err)
		}
	}
	for _, s := range append([]string{l.Title, l.Description, l.Lesson}, l.Notes...) {
		if strings.ContainsAny(s, "\n\r") {
			return fmt.Errorf("learning %q: %q spans lines", l.Title, s)
		}
		if strings.ContainsRune(s, 0) {
			return fmt.Errorf("learning %q holds a NUL byte", l.Title)
		}
	}
	// The first line must parse back to the same fields (a title with "**"
	// or a description starting oddly would not).
	back, ok, err := ParseLine(l.firstLine())
	if !ok || err != nil || back.Title != l.Title || back.Scope != l.Scope || back.Type != l.Type ||
		back.Date != l.Date || back.Description != strings.TrimSpace(l.Description) {
		return fmt.Errorf("learning %q does not format to a line that parses back (check the title for '**' and spaces)", l.Title)
	}
	return nil
}

// Key is what dedupe compares: the learning's scope and the stemmed,
// lower-cased content words of title, description and lesson.
func (l Learning) Key() string {
	return strings.ToLower(l.Scope) + "|" + l.contentKey()
}

// contentKey is Key without the scope: the sorted stemmed content words.
func (l Learning) contentKey() string {
	set := wordSet(l.Title + " " + l.Description + " " + l.Lesson)
	words := make([]string, 0, len(set))
	for w := range set {
		words = append(words, w)
	}
	sort.Strings(words)
	return strings.Join(words, " ")
}

// parseSubLines fills l's Lesson and Notes from an entry's sub-lines
// ("  - Lesson: …", "  - note"); deeper or other lines stay raw only.
func (l *Learning) parseSubLines(sub []string) {
	l.Lesson, l.Notes = "", nil
	for _, s := range sub {
		s = strings.TrimSuffix(s, "\r")
		t, ok := strings.CutPrefix(s, "  - ")
		if !ok {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "Lesson:"); ok && l.Lesson == "" {
			l.Lesson = strings.TrimSpace(rest)
			continue
		}
		l.Notes = append(l.Notes, t)
	}
}
