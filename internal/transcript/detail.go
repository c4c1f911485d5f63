package transcript

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// MaxDetail bounds ToolCall.Detail.
const MaxDetail = 1 << 10

// failMarkers are the words whose presence in a result's first line or
// its last tailBytes says it may report a failure, though the tool did not
// flag it as an error (a test run piped through tail, "|| true"). They are
// plain ASCII that JSON never escapes, so a raw string holds them as is.
var failMarkers = []string{"FAIL", "panic:", "Traceback", "Error", "error:", "ERR!", "Exception", "exit status", "Exit code", "failed", "assert"}

// tailBytes is how much of a result's end is looked at for failMarkers.
const tailBytes = 512

// errLineRe matches a line that carries an error: what Detail keeps.
var errLineRe = lazyre.New(`(?i)error|fail|panic|exception|exit (?:code|status)|traceback|assert|cannot|undefined|not found|no such|denied|refused|timed? ?out|ERR!`)

// hasFailMarker reports whether s holds one of failMarkers.
func hasFailMarker(s string) bool {
	for _, m := range failMarkers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// showsFailure reports whether a result's decoded text, or its summary,
// reads like a failure: the rule Detail is filled by for results the tool
// did not flag as errors.
func showsFailure(text, summary string) bool {
	if hasFailMarker(summary) {
		return true
	}
	tail := text
	if len(tail) > tailBytes {
		tail = tail[len(tail)-tailBytes:]
	}
	return hasFailMarker(tail)
}

// rawMayShowFailure is a cheap superset of showsFailure's tail rule on a
// raw JSON string body: a decoded byte comes from at most 6 raw bytes, and
// a marker is only hidden from a raw search by a \u escape.
func rawMayShowFailure(body []byte) bool {
	if n := 6*tailBytes + 8; len(body) > n {
		body = body[len(body)-n:]
	}
	if bytes.Contains(body, []byte(`\u`)) {
		return true
	}
	for _, m := range failMarkers {
		if bytes.Contains(body, []byte(m)) {
			return true
		}
	}
	return false
}

// errorDetail picks the error-bearing lines of a failed result's text,
// each clipped to one short line, within MaxDetail; when no line reads as
// an error, the last few lines.
func errorDetail(text string) string {
	var lines []string
	for l := range strings.SplitSeq(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	var b strings.Builder
	picked := false
	for _, l := range lines {
		if !isErrLine(l) {
			continue
		}
		picked = true
		if !addLine(&b, l) {
			break // full: the lines after it are never read
		}
	}
	if !picked {
		for _, l := range lines[max(0, len(lines)-4):] {
			if !addLine(&b, l) {
				break
			}
		}
	}
	return b.String()
}

// addLine adds l, clipped, to b on a line of its own, unless it would take
// b past MaxDetail; it reports whether it did.
func addLine(b *strings.Builder, l string) bool {
	l = clip(l, 200)
	if b.Len()+len(l)+1 > MaxDetail {
		return false
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(l)
	return true
}

// errWords are errLineRe's alternatives in lower case, for ASCII lines:
// a failed result of thousands of lines was read by the regexp at about
// 4 MB/s, most of a transcript's parse.
var errWords = []string{"error", "fail", "panic", "exception", "exit code", "exit status", "traceback", "assert",
	"cannot", "undefined", "not found", "no such", "denied", "refused", "timeout", "timed out", "time out", "timedout", "err!"}

// isErrLine is errLineRe.MatchString(l): by errWords on an ASCII line, by
// the regexp (and its Unicode case folding) on any other.
func isErrLine(l string) bool {
	var lower []byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c >= utf8.RuneSelf {
			return errLineRe.MatchString(l)
		}
		if 'A' <= c && c <= 'Z' {
			if lower == nil {
				lower = []byte(l)
			}
			lower[i] = c + 'a' - 'A'
		}
	}
	s := l
	if lower != nil {
		s = string(lower)
	}
	for _, w := range errWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
