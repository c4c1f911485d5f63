package learning

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// Daily is a daily summary, daily/YYYY-MM-DD.md:
//
//	# YYYY-MM-DD
//
//	<!-- projects: a, b -->
//
//	## Sessions Summary
//	## Topics
//	## Key Points
//	## Learnings
//	## Commits        (optional)
//	## Files Created  (optional)
//	## HH:MM - User Note   (kept verbatim on every rewrite)
type Daily struct {
	Date         string     `json:"date"`
	Projects     []string   `json:"projects"`
	Summary      string     `json:"sessions_summary"` // one or two sentences
	Topics       []string   `json:"topics"`           // bullet texts, without "- "
	KeyPoints    []string   `json:"key_points"`       // bullet texts, without "- "
	Learnings    []Learning `json:"learnings"`
	Commits      []string   `json:"commits,omitempty"`       // `abc1234 - "subject"` (project: …)
	FilesCreated []string   `json:"files_created,omitempty"` // bullet texts
	UserNotes    []Section  `json:"user_notes,omitempty"`    // "## HH:MM - User Note" sections, verbatim
	Other        []Section  `json:"other,omitempty"`         // other sections an agent wrote, verbatim
}

// Section is a "## Heading" and the lines under it, verbatim.
type Section struct {
	Heading string   `json:"heading"` // without "## "
	Lines   []string `json:"lines"`
}

// The daily summary's section headings.
const (
	dailySummary      = "Sessions Summary"
	dailyTopics       = "Topics"
	dailyKeyPoints    = "Key Points"
	dailyLearnings    = "Learnings"
	dailyCommits      = "Commits"
	dailyFilesCreated = "Files Created"
)

// userNoteRE matches a user note's heading (without "## ").
var userNoteRE = lazyre.New(`^\d{1,2}:\d{2} - User Note\s*$`)

// projectsRE matches the projects comment under the H1.
var projectsRE = lazyre.New(`^<!--\s*projects:(.*?)-->\s*$`)

// RenderDaily formats d as the file's text (ending in one newline): the
// sections in the order above, empty optional sections left out, user
// notes last. The projects comment is left out when Projects is empty, and
// learnings are separated by a blank line, as the skill writes them.
func RenderDaily(d Daily) string {
	var b strings.Builder
	b.WriteString("# " + d.Date + "\n")
	if len(d.Projects) > 0 {
		b.WriteString("\n<!-- projects: " + strings.Join(d.Projects, ", ") + " -->\n")
	}
	section := func(heading string, body []string) {
		b.WriteString("\n## " + heading + "\n")
		for _, l := range body {
			b.WriteString(l + "\n")
		}
	}
	bullets := func(items []string) []string {
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = "- " + it
		}
		return out
	}
	var summary []string
	if s := strings.TrimSpace(d.Summary); s != "" {
		summary = strings.Split(s, "\n")
	}
	section(dailySummary, summary)
	section(dailyTopics, bullets(d.Topics))
	section(dailyKeyPoints, bullets(d.KeyPoints))
	var ls []string
	for i, l := range d.Learnings {
		if i > 0 {
			ls = append(ls, "")
		}
		ls = append(ls, strings.Split(l.Format(), "\n")...)
	}
	section(dailyLearnings, ls)
	if len(d.Commits) > 0 {
		section(dailyCommits, bullets(d.Commits))
	}
	if len(d.FilesCreated) > 0 {
		section(dailyFilesCreated, bullets(d.FilesCreated))
	}
	for _, s := range d.Other {
		section(s.Heading, s.Lines)
	}
	for _, s := range d.UserNotes {
		section(s.Heading, s.Lines)
	}
	return b.String()
}

// dailyPart is a "## " section of a daily summary as parsed: its heading
// (without "## "), its heading's 1-based line and its body lines with
// trailing blank lines dropped.
type dailyPart struct {
	heading string
	line    int
	lines   []string
}

// splitDaily cuts text into its preamble (the lines before the first
// "## ") and its sections. Headings inside code fences do not count.
func splitDaily(text string) (pre []string, parts []dailyPart) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	fence := false
	var cur *dailyPart
	for i, raw := range lines {
		l := strings.TrimRight(raw, "\r")
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(l, "## ") {
			parts = append(parts, dailyPart{heading: strings.TrimSpace(l[3:]), line: i + 1})
			cur = &parts[len(parts)-1]
			continue
		}
		if cur == nil {
			pre = append(pre, l)
		} else {
			cur.lines = append(cur.lines, strings.TrimRight(raw, "\r"))
		}
	}
	for i := range parts {
		ls := parts[i].lines
		for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
			ls = ls[:len(ls)-1]
		}
		parts[i].lines = ls
	}
	return pre, parts
}

// checkText is the file-level check every parser runs first: valid UTF-8
// and no NUL byte, reported at their line.
func checkText(name, text string) error {
	line := 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return &ParseError{File: name, Line: line, Msg: "invalid UTF-8"}
		case r == 0:
			return &ParseError{File: name, Line: line, Msg: "NUL byte"}
		case r == '\n':
			line++
		}
		i += size
	}
	return nil
}

// bulletItems reads a list section: "- x" starts an item, an indented
// line continues the previous one (joined with "\n", verbatim), any other
// non-blank line is an item of its own.
func bulletItems(lines []string) []string {
	var out []string
	for _, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "- "):
			out = append(out, strings.TrimSpace(l[2:]))
		case (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && len(out) > 0:
			out[len(out)-1] += "\n" + l
		default:
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// dailyLearningsOf parses the learnings of a Learnings section whose
// heading is at line first; a malformed one is a *ParseError.
func dailyLearningsOf(name string, first int, lines []string) ([]Learning, error) {
	var out []Learning
	var cur *Learning
	var sub []string
	flush := func() {
		if cur != nil {
			cur.parseSubLines(sub)
			out = append(out, *cur)
		}
		cur, sub = nil, nil
	}
	for i, l := range lines {
		lineNo := first + 1 + i
		if cur != nil && strings.HasPrefix(l, "  ") && strings.TrimSpace(l) != "" {
			sub = append(sub, l)
			continue
		}
		flush()
		got, ok, err := ParseLine(l)
		if err != nil {
			return nil, &ParseError{File: name, Line: lineNo, Msg: err.Error()}
		}
		if ok {
			got.Line = lineNo
			cur = &got
		}
	}
	flush()
	return out, nil
}

// ParseDaily parses a daily summary's text. name is the file's name, for
// errors. Learnings that do not parse are a *ParseError with their line.
// Lines of the preamble other than the H1 and the projects comment, and
// non-learning lines of the Learnings section, are not kept.
func ParseDaily(name, text string) (Daily, error) {
	if err := checkText(name, text); err != nil {
		return Daily{}, err
	}
	var d Daily
	pre, parts := splitDaily(text)
	for _, l := range pre {
		l = strings.TrimSpace(l)
		if h, ok := strings.CutPrefix(l, "# "); ok && d.Date == "" {
			d.Date = strings.TrimSpace(h)
		}
		if m := projectsRE.FindStringSubmatch(l); m != nil {
			for _, p := range strings.Split(m[1], ",") {
				if p = strings.TrimSpace(p); p != "" {
					d.Projects = append(d.Projects, p)
				}
			}
		}
	}
	for _, p := range parts {
		switch {
		case p.heading == dailySummary:
			d.Summary = strings.TrimSpace(strings.Join(p.lines, "\n"))
		case p.heading == dailyTopics:
			d.Topics = append(d.Topics, bulletItems(p.lines)...)
		case p.heading == dailyKeyPoints:
			d.KeyPoints = append(d.KeyPoints, bulletItems(p.lines)...)
		case p.heading == dailyLearnings:
			ls, err := dailyLearningsOf(name, p.line, p.lines)
			if err != nil {
				return Daily{}, err
			}
			d.Learnings = append(d.Learnings, ls...)
		case p.heading == dailyCommits:
			d.Commits = append(d.Commits, bulletItems(p.lines)...)
		case p.heading == dailyFilesCreated:
			d.FilesCreated = append(d.FilesCreated, bulletItems(p.lines)...)
		case userNoteRE.MatchString(p.heading):
			d.UserNotes = append(d.UserNotes, Section{Heading: p.heading, Lines: p.lines})
		default:
			d.Other = append(d.Other, Section{Heading: p.heading, Lines: p.lines})
		}
	}
	return d, nil
}

// Size limits of a daily summary, as the skill gives them.
const (
	DailyTarget = 4 << 10 // over it: a warning
	DailyMax    = 8 << 10 // over it: refused
)

// Problem is one finding of CheckDaily.
type Problem struct {
	Line    int    `json:"line,omitempty"`
	Warning bool   `json:"warning"` // a warning lets the file through; an error refuses it
	Msg     string `json:"message"`
}

// CheckDaily validates the text of a daily summary for date, as apply and
// the model engines do before anything is written: the H1 is the date, the
// required sections are present, every top-level bullet of "## Learnings"
// ("- " or "* " indented less than two spaces) is a learning line that
// parses (sub-bullets, blank lines, comments and code fences are fine:
// a learning line routing would not see is an error, not a silent loss),
// with a known scope (Global or one of projects, when projects is not
// empty) and type and a date that is not after the day; size over DailyTarget is a
// warning, over DailyMax an error whose message is the skill's ("Daily
// summary YYYY-MM-DD.md is 9.1 KB (max 4 KB)" and "Re-synthesize with more
// aggressive compaction").
//
// The size messages are the skill's two printed lines joined by "\n". An
// undated learning is a warning (routing dates it with the day it is
// routed). Problems come size first, then in line order.
func CheckDaily(date, text string, projects []string) []Problem {
	var ps []Problem
	name := date + ".md"
	kb := float64(len(text)) / 1024
	switch {
	case len(text) > DailyMax:
		ps = append(ps, Problem{Msg: fmt.Sprintf("Daily summary %s is %.1f KB (max 4 KB)\nRe-synthesize with more aggressive compaction", name, kb)})
	case len(text) > DailyTarget:
		ps = append(ps, Problem{Warning: true, Msg: fmt.Sprintf("Daily summary %s is %.1f KB (target: 1-4 KB)\nConsider removing less important details", name, kb)})
	}
	if err := checkText(name, text); err != nil {
		pe := err.(*ParseError)
		return append(ps, Problem{Line: pe.Line, Msg: pe.Msg})
	}
	if err := checkDate(date); err != nil {
		ps = append(ps, Problem{Msg: "the day: " + err.Error()})
	}
	pre, parts := splitDaily(text)
	h1Line := 0
	for i, l := range pre {
		if strings.TrimSpace(l) != "" {
			h1Line = i + 1
			if strings.TrimSpace(l) != "# "+date {
				ps = append(ps, Problem{Line: h1Line, Msg: fmt.Sprintf("the first line is %q, want \"# %s\"", strings.TrimSpace(l), date)})
			}
			break
		}
	}
	if h1Line == 0 {
		ps = append(ps, Problem{Line: 1, Msg: fmt.Sprintf("no H1 heading, want \"# %s\" on the first line", date)})
	}
	have := map[string]bool{}
	for _, p := range parts {
		have[p.heading] = true
	}
	for _, h := range []string{dailySummary, dailyTopics, dailyKeyPoints, dailyLearnings} {
		if !have[h] {
			ps = append(ps, Problem{Msg: fmt.Sprintf("missing section \"## %s\"", h)})
		}
	}
	known := map[string]bool{}
	for _, p := range projects {
		known[p] = true
	}
	for _, p := range parts {
		if p.heading != dailyLearnings {
			continue
		}
		fence, comment := false, false
		for i, l := range p.lines {
			lineNo := p.line + 1 + i
			t := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(t, "```"):
				fence = !fence
				continue
			case fence:
				continue
			case comment || strings.HasPrefix(t, "<!--"):
				comment = !strings.Contains(t, "-->")
				continue
			}
			got, ok, err := ParseLine(l)
			switch {
			case err != nil:
				for _, msg := range strings.Split(err.Error(), "\n") {
					ps = append(ps, Problem{Line: lineNo, Msg: msg})
				}
				if got.Scope != "" && !strings.ContainsAny(got.Scope, "/") && !strings.EqualFold(got.Scope, Global) && len(projects) > 0 && !known[got.Scope] {
					ps = append(ps, Problem{Line: lineNo, Msg: fmt.Sprintf("learning %q has scope %q: want global or one of the day's projects (%s)", got.Title, got.Scope, strings.Join(projects, ", "))})
				}
				continue
			case !ok && topBullet(l):
				ps = append(ps, Problem{Line: lineNo, Msg: "not a learning line (want `- **Title** [scope/type] (YYYY-MM-DD): description`)"})
				continue
			case !ok:
				continue
			}
			if !strings.EqualFold(got.Scope, Global) && len(projects) > 0 && !known[got.Scope] {
				ps = append(ps, Problem{Line: lineNo, Msg: fmt.Sprintf("learning %q has scope %q: want global or one of the day's projects (%s)", got.Title, got.Scope, strings.Join(projects, ", "))})
			}
			if err := got.Validate(); err != nil {
				ps = append(ps, Problem{Line: lineNo, Msg: err.Error()})
			}
			switch {
			case got.Date == "":
				ps = append(ps, Problem{Line: lineNo, Warning: true, Msg: fmt.Sprintf("learning %q has no date: add (%s) after the tag", got.Title, date)})
			case got.Date > date && checkDate(date) == nil:
				ps = append(ps, Problem{Line: lineNo, Msg: fmt.Sprintf("learning %q is dated %s, after the day %s", got.Title, got.Date, date)})
			case got.Date < date && checkDate(date) == nil:
				// Decay counts a learning's age from its date: one dated a year
				// back would be archived as soon as it is routed.
				ps = append(ps, Problem{Line: lineNo, Msg: fmt.Sprintf("learning %q is dated %s, before the day %s: a learning of the day is dated %s", got.Title, got.Date, date, date)})
			}
		}
	}
	return ps
}

// topBullet reports whether l is a top-level bullet: "- " or "* " after
// fewer than two spaces (a sub-bullet is indented two or more).
func topBullet(l string) bool {
	if reTaggedItem.MatchString(l) {
		// A list item of any kind or depth that carries a bold title and a
		// [x/y] tag is meant as a learning, whatever its bullet.
		return true
	}
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) >= 2 {
		return false
	}
	return strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || t == "-" || t == "*" || t == "+" || reNumbered.MatchString(t)
}

var (
	reNumbered   = lazyre.New(`^\d+[.)] `)
	reTaggedItem = lazyre.New(`^\s*(?:[-*+]|\d+[.)])\s+\*\*.*\*\*.*\[[^\]/]+/[^\]]+\]`)
)

// MergeNotes returns text with the user notes of old (the previous version
// of the same day's file) that text lacks appended, verbatim. A note is
// there when text has a user note with the same heading and lines.
func MergeNotes(text, old string) string {
	_, oldParts := splitDaily(old)
	_, newParts := splitDaily(text)
	has := map[string]bool{}
	for _, p := range newParts {
		if userNoteRE.MatchString(p.heading) {
			has[p.heading+"\n"+strings.Join(p.lines, "\n")] = true
		}
	}
	out := text
	for _, p := range oldParts {
		if !userNoteRE.MatchString(p.heading) {
			continue
		}
		k := p.heading + "\n" + strings.Join(p.lines, "\n")
		if has[k] {
			continue
		}
		has[k] = true
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		if out != "" {
			out += "\n"
		}
		out += "## " + p.heading + "\n"
		for _, l := range p.lines {
			out += l + "\n"
		}
	}
	return out
}
