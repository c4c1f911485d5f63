package memdir

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// IndexFile is the index's file name. Claude Code loads it into every session.
const IndexFile = "MEMORY.md"

// Index caps, as Claude Code applies them when it loads MEMORY.md.
const (
	MaxIndexLines = 200
	MaxIndexChars = 25000 // JavaScript string length: UTF-16 code units
	MaxEntryChars = 150   // one index line
	// NearCapRatio is where a save starts warning that the index is filling up.
	NearCapRatio = 0.8
)

// Index is MEMORY.md as a list of lines. Lines that link a memory file are
// entries; every other line (headings, prose written by hand) is kept
// verbatim. ParseIndex followed by Bytes reproduces the input exactly.
type Index struct {
	Lines []IndexLine
}

// IndexLine is one line of MEMORY.md.
type IndexLine struct {
	Text string // the whole line, without its newline
	File string // the linked memory file for an entry, "" for any other line
}

// ParseIndex splits MEMORY.md into lines and finds the entries. It never
// fails: any text is a valid index.
func ParseIndex(b []byte) Index {
	if len(b) == 0 {
		return Index{}
	}
	parts := strings.Split(string(b), "\n")
	ix := Index{Lines: make([]IndexLine, len(parts))}
	for i, p := range parts {
		ix.Lines[i] = IndexLine{Text: p, File: entryFile(p)}
	}
	return ix
}

// entryFile returns the file an index line links, or "" when the line is
// not an entry. An entry is a list item whose text starts with a markdown
// link to a .md file: "- [Title](file.md) …", "* [Title](./file.md)". It is
// hand-written rather than a regexp because it runs on every index line at
// every save.
func entryFile(line string) string {
	_, target := entryParts(line)
	return target
}

// entryParts splits an index entry into its link text and target file;
// both are "" for any other line. The link text may hold brackets of its
// own ("[Use [[name]] links]", as Claude Code encourages), and the target
// may be written "<a b.md>" or "a%20b.md" when it has spaces.
func entryParts(line string) (title, target string) {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 2 || (s[0] != '-' && s[0] != '*' && s[0] != '+') || (s[1] != ' ' && s[1] != '\t') {
		return "", ""
	}
	s = strings.TrimLeft(s[1:], " \t")
	if !strings.HasPrefix(s, "[") {
		return "", ""
	}
	end, depth := -1, 0
	for i := 0; i < len(s) && end < 0; i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				end = i
			}
		case '\n':
			return "", ""
		}
	}
	if end < 0 || !strings.HasPrefix(s[end+1:], "(") {
		return "", ""
	}
	title, s = s[1:end], s[end+2:]
	if strings.HasPrefix(s, "<") {
		close := strings.IndexByte(s, '>')
		if close < 0 || !strings.HasPrefix(s[close+1:], ")") {
			return "", ""
		}
		target = s[1:close]
	} else {
		close := strings.IndexByte(s, ')')
		if close < 0 {
			return "", ""
		}
		target = strings.TrimSpace(s[:close])
		if strings.ContainsAny(target, " \t") {
			return "", ""
		}
		target = strings.ReplaceAll(target, "%20", " ")
	}
	target = strings.TrimPrefix(target, "./")
	if len(target) <= len(".md") || !strings.HasSuffix(target, ".md") || strings.ContainsAny(target, "\r\n") {
		return "", ""
	}
	return title, target
}

// entryTitle returns the link text of an index entry ("Title" in
// "- [Title](file.md)"), "" for any other line.
func entryTitle(line string) string {
	title, _ := entryParts(line)
	return title
}

// Bytes returns the index as file content.
func (ix Index) Bytes() []byte {
	var b strings.Builder
	for i, l := range ix.Lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
	}
	return []byte(b.String())
}

// Files returns the linked files in order, each once.
func (ix Index) Files() []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range ix.Lines {
		if l.File != "" && !seen[l.File] {
			seen[l.File] = true
			out = append(out, l.File)
		}
	}
	return out
}

// Upsert makes line the one entry for file: it replaces the first line
// linking file, drops later duplicates of it, or appends the line at the end
// (before any trailing empty line). Every other line is left untouched. It
// reports whether the index changed.
func (ix *Index) Upsert(file, line string) bool {
	changed := false
	found := false
	out := ix.Lines[:0:0]
	for _, l := range ix.Lines {
		if l.File != file {
			out = append(out, l)
			continue
		}
		if found {
			changed = true
			continue
		}
		found = true
		if l.Text != line {
			changed = true
		}
		out = append(out, IndexLine{Text: line, File: file})
	}
	if !found {
		end := len(out)
		if end > 0 && out[end-1].Text == "" {
			end--
		}
		out = append(out[:end], append([]IndexLine{{Text: line, File: file}}, out[end:]...)...)
		if len(out) == 1 || out[len(out)-1].Text != "" {
			out = append(out, IndexLine{}) // end the file with a newline
		}
		changed = true
	}
	ix.Lines = out
	return changed
}

// Remove drops every line linking file and reports whether there was one.
func (ix *Index) Remove(file string) bool {
	n := len(ix.Lines)
	out := ix.Lines[:0:0]
	for _, l := range ix.Lines {
		if l.File != file {
			out = append(out, l)
		}
	}
	ix.Lines = out
	return len(out) != n
}

// EntryLine formats a memory's index line: "- [Title](file.md) — hook",
// with the title and hook on one line each and the whole line cut to
// MaxEntryChars characters (the hook is shortened, ending in "…").
func EntryLine(m Memory) string {
	title := strings.NewReplacer("[", "(", "]", ")").Replace(oneLine(m.Title()))
	target := m.File
	if strings.ContainsAny(target, " \t()<>") {
		target = "<" + target + ">" // a link target with spaces or parentheses
	}
	head := fmt.Sprintf("- [%s](%s)", title, target)
	hook := oneLine(m.Summary())
	if hook == "" {
		return head
	}
	line := head + " — " + hook
	if jsLen(line) <= MaxEntryChars {
		return line
	}
	room := MaxEntryChars - jsLen(head+" — ") - 1
	if room < 10 {
		return head
	}
	return head + " — " + strings.TrimRight(cutJS(hook, room), " ") + "…"
}

// jsLen is the length of s as JavaScript counts it: UTF-16 code units.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cutJS returns the longest prefix of s that is at most n UTF-16 units long.
func cutJS(s string, n int) string {
	used := 0
	for i, r := range s {
		used += utf16.RuneLen(r)
		if used > n {
			return s[:i]
		}
	}
	return s
}

// Loaded is MEMORY.md as Claude Code loads it: capped, with a warning line
// appended when something was cut.
type Loaded struct {
	Text           string `json:"text"`
	Truncated      bool   `json:"truncated"`
	Lines          int    `json:"lines"` // lines before capping
	Chars          int    `json:"chars"` // characters before capping
	LinesDropped   int    `json:"lines_dropped"`
	EntriesDropped int    `json:"entries_dropped"`
	Warning        string `json:"warning,omitempty"`
}

// Load applies Claude Code's index caps to MEMORY.md content: trim it, keep
// at most MaxIndexLines lines, then if it is still over MaxIndexChars cut at
// the last newline before that (or hard-cut inside line 1), and append a
// warning line naming the cap and what was left out. Truncation is never
// silent.
func Load(content string) Loaded {
	content = strings.TrimSpace(content)
	lines := strings.Split(content, "\n")
	l := Loaded{Lines: len(lines), Chars: jsLen(content)}
	if content == "" {
		l.Lines = 0
		return l
	}
	kept := content
	overLines := len(lines) > MaxIndexLines
	if overLines {
		kept = strings.Join(lines[:MaxIndexLines], "\n")
	}
	overChars := jsLen(kept) > MaxIndexChars
	hardCut := false
	if overChars {
		prefix := cutJS(kept, MaxIndexChars)
		if i := strings.LastIndexByte(prefix, '\n'); i > 0 {
			kept = prefix[:i]
		} else {
			kept = prefix
			hardCut = true
		}
	}
	if !overLines && !overChars {
		l.Text = content
		return l
	}
	keptLines := strings.Count(kept, "\n") + 1
	l.Truncated = true
	l.LinesDropped = len(lines) - keptLines
	for _, line := range lines[keptLines:] {
		if entryFile(line) != "" {
			l.EntriesDropped++
		}
	}
	if hardCut && entryFile(lines[0]) != "" {
		l.EntriesDropped++ // the entry on line 1 survives only in part
	}
	var reason string
	switch {
	case overLines && jsLen(content) > MaxIndexChars:
		reason = fmt.Sprintf("%d lines and %s", len(lines), formatSize(l.Chars))
	case overLines:
		reason = fmt.Sprintf("%d lines (limit: %d)", len(lines), MaxIndexLines)
	default:
		reason = fmt.Sprintf("%s (limit: %s) — index entries are too long", formatSize(l.Chars), formatSize(MaxIndexChars))
	}
	var detail string
	if hardCut {
		detail = fmt.Sprintf("everything after the first %d characters of line 1 was cut off", MaxIndexChars)
	} else {
		detail = fmt.Sprintf("%d of %d lines were cut off, starting at line %d (%q)",
			l.LinesDropped, len(lines), keptLines+1, cutJS(lines[keptLines], 80))
	}
	l.Warning = fmt.Sprintf("> WARNING: MEMORY.md is %s. Only part of it was loaded: %s; %d index entries left out. "+
		"Keep each index entry to one line under ~200 characters and move detail into topic files.",
		reason, detail, l.EntriesDropped)
	l.Text = kept + "\n\n" + l.Warning
	return l
}

// formatSize formats a character count as Claude Code does: KB or MB with
// one decimal.
func formatSize(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
}

// Usage is how full the index is, against each cap.
type Usage struct {
	Lines     int     `json:"lines"`
	Chars     int     `json:"chars"`
	LineRatio float64 `json:"line_ratio"` // Lines / MaxIndexLines
	CharRatio float64 `json:"char_ratio"` // Chars / MaxIndexChars
}

// IndexUsage measures content against the caps, after the same trim Load does.
func IndexUsage(content string) Usage {
	content = strings.TrimSpace(content)
	u := Usage{}
	if content != "" {
		u.Lines = strings.Count(content, "\n") + 1
		u.Chars = jsLen(content)
	}
	u.LineRatio = float64(u.Lines) / MaxIndexLines
	u.CharRatio = float64(u.Chars) / MaxIndexChars
	return u
}

// Warning returns a sentence about the cap the index is nearest to when it
// has passed NearCapRatio of it, else "".
func (u Usage) Warning() string {
	switch {
	case u.LineRatio > 1 || u.CharRatio > 1:
		return fmt.Sprintf("MEMORY.md is over its cap (%d/%d lines, %d/%d characters): Claude Code loads only part of it; run 'memdir index --check'",
			u.Lines, MaxIndexLines, u.Chars, MaxIndexChars)
	case u.LineRatio >= NearCapRatio:
		return fmt.Sprintf("MEMORY.md has %d of %d lines (%.0f%% of the line cap): consolidate entries before it is cut", u.Lines, MaxIndexLines, 100*u.LineRatio)
	case u.CharRatio >= NearCapRatio:
		return fmt.Sprintf("MEMORY.md has %d of %d characters (%.0f%% of the size cap): shorten entries before it is cut", u.Chars, MaxIndexChars, 100*u.CharRatio)
	}
	return ""
}
