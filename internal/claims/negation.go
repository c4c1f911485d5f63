package claims

import "strings"

// Negation: a memory that forbids or retires something ("never use
// `time.Sleep` in tests", "X is gone", "use Y instead of X") names it as
// something not to use, and its absence proves nothing.

// negBefore are the words after which, to the clause's end, what is named
// is not to be used.
var negBefore = []string{"never", "don't", "don’t", "do not", "does not", "must not", "mustn't", "should not",
	"shouldn't", "avoid", "avoiding", "no longer", "instead of", "rather than", "stop using", "not use", "not pass",
	"not call", "not run", "forbidden", "banned", "deprecated", "not to use"}

// negAfter are the words before which, from the clause's start, what is
// named is gone.
var negAfter = []string{"is gone", "are gone", "was removed", "were removed", "has been removed", "have been removed",
	"is deprecated", "are deprecated", "was deleted", "were deleted", "no longer exists", "no longer exist",
	"is obsolete", "are obsolete", "was dropped", "were dropped", "was replaced", "were replaced", "is no longer",
	"are no longer", "was renamed", "were renamed"}

// clauseBreakers start a new clause after a comma: "avoid X, use Y".
var clauseBreakers = set(`use prefer but instead and then so run call try which`)

// segment is a part of a line, negated or not.
type segment struct {
	text string
	neg  bool
}

// masked returns line in lower case with its code spans' bytes replaced
// by 'x' (same length), so markers and clause ends are found only in prose.
func masked(line string) string {
	// Lower-cased byte for byte (the negation words are ASCII): the result
	// must keep line's offsets, which strings.ToLower does not on invalid
	// UTF-8 or on letters whose lower case is longer.
	b := []byte(line)
	for k, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[k] = c + 'a' - 'A'
		}
	}
	for off := 0; ; {
		i := strings.IndexByte(line[off:], '`')
		if i < 0 {
			break
		}
		i += off
		n := 1
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		j := strings.Index(line[i+n:], line[i:i+n])
		if j < 0 {
			break
		}
		end := i + n + j + n
		for k := i; k < end; k++ {
			b[k] = 'x'
		}
		off = end
	}
	return string(b)
}

// segments splits a line of prose into clauses and each clause into its
// negated and plain parts.
func segments(line string) []segment {
	low := masked(line)
	var out []segment
	start := 0
	emit := func(end int) {
		s, e := start, end
		start = end
		if s >= e {
			return
		}
		clause := low[s:e]
		negFrom, negTo := e, s
		for _, m := range negBefore {
			if i := wordIndex(clause, m); i >= 0 && s+i < negFrom {
				negFrom = s + i
			}
		}
		for _, m := range negAfter {
			if i := wordIndex(clause, m); i >= 0 && s+i+len(m) > negTo {
				negTo = s + i + len(m)
			}
		}
		if negTo > s {
			out = append(out, segment{line[s:negTo], true})
			s = negTo
		}
		if negFrom > s {
			out = append(out, segment{line[s:negFrom], false})
			s = negFrom
		}
		if s < e {
			out = append(out, segment{line[s:e], negFrom < e})
		}
	}
	for i := 0; i < len(low); i++ {
		switch c := low[i]; {
		case c == ';' || c == '!' || c == '?' || c == '(' && (i == 0 || low[i-1] == ' ') || c == ')' && i > 0 && low[i-1] != '(' || c == '.' && (i+1 == len(low) || low[i+1] == ' '):
			emit(i + 1)
		case c == ' ' && strings.HasPrefix(low[i:], " but "):
			emit(i + 1)
		case c == ',' && i+1 < len(low) && low[i+1] == ' ':
			next, _, _ := strings.Cut(strings.TrimSpace(low[i+1:]), " ")
			if clauseBreakers.has(next) {
				emit(i + 1)
			}
		}
	}
	emit(len(line))
	return out
}

// wordIndex finds m in s as whole words, or returns -1.
func wordIndex(s, m string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], m)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(m)
		if (i == 0 || !isLetter(s[i-1])) && (end == len(s) || !isLetter(s[end])) {
			return i
		}
		off = i + 1
	}
}

func isLetter(c byte) bool { return isLower(c) || isUpper(c) || c == '\'' }
