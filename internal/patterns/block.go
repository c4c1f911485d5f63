package patterns

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// The memdir block of a CLAUDE.md: the rules `memdir patterns --apply`
// wrote, between two marker lines. Everything outside it is the
// person's; memdir never edits it. The begin marker records how the
// block was joined to the file, so removing it gives back the file's
// bytes exactly.
const (
	beginMark      = "<!-- memdir:patterns:begin -->"
	beginMarkNoEOL = "<!-- memdir:patterns:begin no-eol -->" // the file did not end in a newline
	endMark        = "<!-- memdir:patterns:end -->"
	blockHeading   = "## Patterns memdir found in task diaries (`memdir patterns --revert` removes this block)"
)

// ErrBlockDamaged is a memdir block whose markers are not where memdir
// put them: a begin without an end, or two blocks.
var ErrBlockDamaged = errors.New("the memdir block of CLAUDE.md is damaged (a marker is missing or repeated): fix the <!-- memdir:patterns --> markers by hand")

// block finds the memdir block: the byte range of its begin line's start
// to just past its end line, and whether it was joined to a file without
// a final newline.
func block(b []byte) (start, end int, noEOL, ok bool, err error) {
	start, end = -1, -1
	off := 0
	for off < len(b) {
		nl := bytes.IndexByte(b[off:], '\n')
		lineEnd := len(b)
		if nl >= 0 {
			lineEnd = off + nl + 1
		}
		line := strings.TrimRight(string(b[off:lineEnd]), "\r\n")
		switch line {
		case beginMark, beginMarkNoEOL:
			if start >= 0 {
				return 0, 0, false, false, ErrBlockDamaged
			}
			start, noEOL = off, line == beginMarkNoEOL
		case endMark:
			if start < 0 || end >= 0 {
				return 0, 0, false, false, ErrBlockDamaged
			}
			end = lineEnd
		}
		off = lineEnd
	}
	switch {
	case start < 0 && end < 0:
		return 0, 0, false, false, nil
	case start < 0 || end < 0:
		return 0, 0, false, false, ErrBlockDamaged
	}
	return start, end, noEOL, true, nil
}

// BlockRules returns the rule lines inside the memdir block.
func BlockRules(b []byte) ([]string, error) {
	start, end, _, ok, err := block(b)
	if err != nil || !ok {
		return nil, err
	}
	var out []string
	for l := range strings.SplitSeq(string(b[start:end]), "\n") {
		if strings.HasPrefix(l, "- ") {
			out = append(out, strings.TrimRight(l, "\r"))
		}
	}
	return out, nil
}

// AddRules returns b with lines added to its memdir block, creating the
// block at the end of the file. A line already in the block is not added
// twice, and a pattern's line (RuleID) replaces the line the block holds
// for that pattern (reworded, or counted again). It reports the lines it
// wrote.
func AddRules(b []byte, lines []string) ([]byte, []string, error) {
	start, end, _, ok, err := block(b)
	if err != nil {
		return nil, nil, err
	}
	have := map[string]bool{}
	byID := map[string]string{} // a pattern's line in the block now
	if ok {
		for l := range strings.SplitSeq(string(b[start:end]), "\n") {
			l = strings.TrimRight(l, "\r")
			have[l], have[ruleText(l)] = true, true
			if id, ok := RuleID(l); ok {
				byID[id] = l
			}
		}
	}
	var fresh, wrote []string
	replace := map[string]string{} // old line → new line
	for _, l := range lines {
		id, isRule := RuleID(l)
		if have[l] || isRule && byID[id] == "" && have[ruleText(l)] {
			continue // there already, or the same rule under another pattern's name
		}
		have[l] = true
		wrote = append(wrote, l)
		if id, ok := RuleID(l); ok && byID[id] != "" {
			replace[byID[id]] = l
		} else {
			fresh = append(fresh, l)
		}
	}
	if len(wrote) == 0 {
		return b, nil, nil
	}
	if len(replace) > 0 {
		var kept []string
		for l := range strings.SplitSeq(string(b[start:end]), "\n") {
			if nl, ok := replace[strings.TrimRight(l, "\r")]; ok {
				cr := ""
				if strings.HasSuffix(l, "\r") {
					cr = "\r"
				}
				l = nl + cr
			}
			kept = append(kept, l)
		}
		nb := append([]byte{}, b[:start]...)
		nb = append(nb, strings.Join(kept, "\n")...)
		b = append(nb, b[end:]...)
		_, end, _, ok, _ = block(b)
	}
	if len(fresh) == 0 {
		return b, wrote, nil
	}
	eol := "\n"
	if ok && bytes.HasSuffix(b[:end], []byte("\r\n")) {
		eol = "\r\n" // the block's lines end as its end marker does (a file git turned to CRLF)
	}
	ins := strings.Join(fresh, eol) + eol
	if ok {
		endLine := bytes.LastIndex(b[:end], []byte(endMark))
		out := append([]byte{}, b[:endLine]...)
		out = append(out, ins...)
		return append(out, b[endLine:]...), wrote, nil
	}
	var out bytes.Buffer
	out.Write(b)
	mark := beginMark
	switch {
	case len(b) == 0:
	case b[len(b)-1] == '\n':
		out.WriteByte('\n')
	default:
		out.WriteString("\n\n")
		mark = beginMarkNoEOL
	}
	fmt.Fprintf(&out, "%s\n%s\n\n%s%s\n", mark, blockHeading, ins, endMark)
	return out.Bytes(), wrote, nil
}

// RemoveBlock returns b without its memdir block and what joined it to
// the file: for a file memdir added the block to and nobody edited
// outside it since, the bytes from before the first --apply. ok is false
// when there is no block.
func RemoveBlock(b []byte) (out []byte, ok bool, err error) {
	start, end, noEOL, ok, err := block(b)
	if err != nil || !ok {
		return b, false, err
	}
	// What joined the block to the file: two line ends after a last line
	// that had none, one (a blank line) otherwise; as LF, or as CRLF once
	// the file was turned to CRLF.
	from := start
	before := b[:start]
	switch {
	case noEOL && bytes.HasSuffix(before, []byte("\r\n\r\n")):
		from -= 4
	case noEOL && bytes.HasSuffix(before, []byte("\n\n")):
		from -= 2
	case !noEOL && start > 0 && bytes.HasSuffix(before, []byte("\r\n\r\n")):
		from -= 2
	case !noEOL && start > 0 && bytes.HasSuffix(before, []byte("\n\n")):
		from--
	}
	return append(append([]byte{}, b[:from]...), b[end:]...), true, nil
}

// RemoveRule returns b without the block lines written for pattern id,
// and the block itself when no rule is left in it.
func RemoveRule(b []byte, id string) ([]byte, int, error) {
	start, end, _, ok, err := block(b)
	if err != nil || !ok {
		return b, 0, err
	}
	var kept []string
	n, rules := 0, 0
	for l := range strings.SplitSeq(string(b[start:end]), "\n") {
		if rid, ok := RuleID(l); ok && rid == id {
			n++
			continue
		}
		if strings.HasPrefix(l, "- ") {
			rules++
		}
		kept = append(kept, l)
	}
	if n == 0 {
		return b, 0, nil
	}
	if rules == 0 {
		out, _, err := RemoveBlock(b)
		return out, n, err
	}
	out := append([]byte{}, b[:start]...)
	out = append(out, strings.Join(kept, "\n")...)
	return append(out, b[end:]...), n, nil
}

// Diff is a unified diff of old and new (one hunk around what changed,
// three lines of context), as `diff -u` would print for one change.
func Diff(path string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	const ctx = 3
	from := max(pre-ctx, 0)
	toA, toB := min(len(a)-suf+ctx, len(a)), min(len(b)-suf+ctx, len(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(from, toA-from), hunkRange(from, toB-from))
	for _, l := range a[from:pre] {
		out.WriteString(" " + l)
	}
	for _, l := range a[pre : len(a)-suf] {
		out.WriteString("-" + l)
	}
	for _, l := range b[pre : len(b)-suf] {
		out.WriteString("+" + l)
	}
	for _, l := range a[len(a)-suf : toA] {
		out.WriteString(" " + l)
	}
	return out.String()
}

func hunkRange(from, n int) string {
	if n == 1 {
		return fmt.Sprint(from + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	return fmt.Sprintf("%d,%d", from+1, n)
}

// splitLines splits b after each newline; a last line without one gets
// diff's marker.
func splitLines(b []byte) []string {
	var out []string
	s := string(b)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s+"\n\\ No newline at end of file\n")
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// ruleText is a block line without its pattern marker: the rule as read.
func ruleText(line string) string {
	if i := strings.LastIndex(line, " <!-- memdir pattern "); i >= 0 {
		return "rule\x00" + line[:i]
	}
	return "rule\x00" + line
}
