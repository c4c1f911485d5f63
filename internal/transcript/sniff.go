package transcript

import "bytes"

// sniffType returns the value of the top-level "type" key of a JSON object
// line without decoding it, skipping nested objects, arrays and strings. ok
// is false when the line is not an object it can walk, or has no such key;
// the caller then decodes it in full, which also reports malformed JSON.
// Records that carry no conversation (request logs of tens of kilobytes)
// are counted from this alone, which is what makes parsing fast.
func sniffType(line []byte) (typ string, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", false
	}
	i++
	for {
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != '"' {
			return "", false
		}
		keyStart := i + 1
		i = skipString(line, i)
		if i < 0 {
			return "", false
		}
		key := line[keyStart : i-1]
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != ':' {
			return "", false
		}
		i = skipSpace(line, i+1)
		if i >= len(line) {
			return "", false
		}
		if string(key) == "type" {
			if line[i] != '"' {
				return "", false
			}
			end := skipString(line, i)
			if end < 0 || bytes.IndexByte(line[i+1:end-1], '\\') >= 0 {
				return "", false
			}
			return string(line[i+1 : end-1]), true
		}
		i = skipValue(line, i)
		if i < 0 {
			return "", false
		}
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != ',' {
			return "", false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"',
// or -1. It jumps from quote to quote (IndexByte is vectorised) and counts
// the backslashes before each: an even number means the quote ends it.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j)
				if j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\r' && b[j] != '\t' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
