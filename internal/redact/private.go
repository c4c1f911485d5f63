package redact

import "strings"

// PrivateMarker stands where a <private>…</private> block was.
const PrivateMarker = "[private]"

// Private removes what a person marked private: each <private>…</private>
// block (the tags in any case, the block over any number of lines) becomes
// PrivateMarker, and an opening tag never closed hides everything after
// it. It returns the text and how many blocks it removed. Memdir applies
// it where text enters (transcripts as they are parsed, a hook's prompt)
// and again where text leaves (the store's writes, a model's requests,
// String), so private text is never saved, sent, summarised or found.
func Private(s string) (string, int) {
	const open, close = "<private>", "</private>"
	i := indexFold(s, open, 0)
	if i < 0 {
		return s, 0
	}
	var b []byte
	n, from := 0, 0
	for i >= 0 {
		b = append(b, s[from:i]...)
		b = append(b, PrivateMarker...)
		n++
		j := indexFold(s, close, i+len(open))
		if j < 0 {
			return string(b), n
		}
		from = j + len(close)
		i = indexFold(s, open, from)
	}
	return string(append(b, s[from:]...)), n
}

// indexFold is the index of sub (lower-case ASCII, starting with a
// byte that has no case) in s at or after from, ASCII letters compared in
// any case; -1 when absent.
func indexFold(s, sub string, from int) int {
	for from+len(sub) <= len(s) {
		j := strings.IndexByte(s[from:], sub[0])
		if j < 0 || from+j+len(sub) > len(s) {
			return -1
		}
		if equalFold(s[from+j:from+j+len(sub)], sub) {
			return from + j
		}
		from += j + 1
	}
	return -1
}

// equalFold compares a with lower-case ASCII b, a's letters in any case.
func equalFold(a, b string) bool {
	for k := 0; k < len(b); k++ {
		c := a[k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[k] {
			return false
		}
	}
	return true
}
