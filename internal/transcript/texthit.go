package transcript

import "bytes"

var (
	keyText    = []byte("text")
	keyContent = []byte("content")
	keyMessage = []byte("message")
)

// TextHit reports whether any of the byte offsets offs of line lies inside
// a JSON string that can hold conversation text: the value of a "text" key
// (content blocks of both dialects), or of the "content" key of a
// "message" object (a prompt typed as a plain string). It walks the line's
// structure without decoding it, jumping over strings, so a search can
// leave undecoded the lines whose matches all lie in tool output, thinking
// or bookkeeping. It errs towards true: a line it cannot walk reports true,
// and LineMessage decides.
func TextHit(line []byte, offs []int) bool {
	w := textWalker{line: line, offs: offs}
	i := skipSpace(line, 0)
	return i >= len(line) || w.value(i, nil, nil, 0) < 0 || w.found
}

type textWalker struct {
	line  []byte
	offs  []int
	found bool // stops the walk: value returns -1 from then on
}

// value walks the value at i, the value of key in an object that is itself
// the value of parent. It returns the index past the value, or -1.
func (w *textWalker) value(i int, key, parent []byte, depth int) int {
	b := w.line
	if i >= len(b) || depth > 64 {
		return -1
	}
	switch b[i] {
	case '"':
		end := skipString(b, i)
		if end < 0 {
			return -1
		}
		// Keys compare like encoding/json matches them: without case.
		if bytes.EqualFold(key, keyText) || bytes.EqualFold(key, keyContent) && bytes.EqualFold(parent, keyMessage) {
			for _, o := range w.offs {
				if o > i && o < end-1 {
					w.found = true
					return -1
				}
			}
		}
		return end
	case '{':
		return members(b, i, func(k []byte, v int) int { return w.value(v, k, key, depth+1) })
	case '[':
		// An element's keys belong to the array's key: content[i].text.
		return elements(b, i, func(v int) int { return w.value(v, key, parent, depth+1) })
	}
	return skipValue(b, i)
}
