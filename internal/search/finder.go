package search

import (
	"bytes"
	"regexp/syntax"
)

// finder looks for a needle by its rarest byte, as ripgrep does: IndexByte
// (vectorised) for that byte, then a comparison around it. With a byte that
// is rare in transcripts, most of the haystack is skipped at memory speed;
// when the byte proves common, it falls back to bytes.Index. A folding
// finder matches ASCII letters in either case: it looks for both cases of
// its rare byte, without copying the haystack.
type finder struct {
	needle []byte // lower-cased when fold
	rare   int    // index in needle of its rarest byte
	fold   bool
}

func newFinder(needle []byte, fold bool) *finder {
	if fold {
		needle = bytes.ToLower(needle)
	}
	f := &finder{needle: needle, fold: fold}
	for i, c := range needle {
		if f.rank(c) < f.rank(needle[f.rare]) {
			f.rare = i
		}
	}
	return f
}

// rank is how common c is; a folding finder counts both cases.
func (f *finder) rank(c byte) int {
	r := int(byteRank[c])
	if u := upper(c); f.fold && u != c {
		r += int(byteRank[u])
	}
	return r
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// adapt returns a finder whose rare byte is the needle's byte least
// frequent in sample (the start of the file about to be searched).
func (f *finder) adapt(sample []byte) *finder {
	if len(sample) < 4096 {
		return f
	}
	count := func(c byte) int {
		n := bytes.Count(sample, []byte{c})
		if u := upper(c); f.fold && u != c {
			n += bytes.Count(sample, []byte{u})
		}
		return n
	}
	best, bestN := f.rare, count(f.needle[f.rare])
	var seen [256]bool
	seen[f.needle[f.rare]] = true
	for i, c := range f.needle {
		if seen[c] {
			continue
		}
		seen[c] = true
		if n := count(c); n < bestN {
			best, bestN = i, n
		}
	}
	if best == f.rare {
		return f
	}
	return &finder{needle: f.needle, rare: best, fold: f.fold}
}

// index returns the first offset of the needle in h, or -1.
func (f *finder) index(h []byte) int {
	n, c := len(f.needle), f.needle[f.rare]
	if u := upper(c); f.fold && u != c {
		return f.indexFold(h, c, u)
	}
	if n == 1 && !f.fold {
		return bytes.IndexByte(h, c)
	}
	fails := 0
	for i := f.rare; i < len(h); {
		k := bytes.IndexByte(h[i:], c)
		if k < 0 {
			return -1
		}
		i += k
		start := i - f.rare
		if start+n > len(h) {
			return -1
		}
		if f.equal(h[start : start+n]) {
			return start
		}
		i++
		// A byte that is not rare here after all: let bytes.Index do it.
		if fails++; !f.fold && fails > 64 && fails > (i>>6) {
			if j := bytes.Index(h[i-f.rare:], f.needle); j >= 0 {
				return i - f.rare + j
			}
			return -1
		}
	}
	return -1
}

// indexFold finds the needle looking for its rare letter in both cases.
func (f *finder) indexFold(h []byte, lc, uc byte) int {
	n := len(f.needle)
	nextL, nextU := -2, -2 // next position of each case at or after i; -1: none
	for i := f.rare; i < len(h); {
		if nextL != -1 && nextL < i {
			if nextL = bytes.IndexByte(h[i:], lc); nextL >= 0 {
				nextL += i
			}
		}
		if nextU != -1 && nextU < i {
			if nextU = bytes.IndexByte(h[i:], uc); nextU >= 0 {
				nextU += i
			}
		}
		switch {
		case nextL < 0 && nextU < 0:
			return -1
		case nextL < 0 || (nextU >= 0 && nextU < nextL):
			i = nextU
		default:
			i = nextL
		}
		start := i - f.rare
		if start+n > len(h) {
			return -1
		}
		if f.equal(h[start : start+n]) {
			return start
		}
		i++
	}
	return -1
}

// equal compares a window of the haystack with the needle.
func (f *finder) equal(w []byte) bool {
	if !f.fold {
		return bytes.Equal(w, f.needle)
	}
	for i, c := range w {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f.needle[i] {
			return false
		}
	}
	return true
}

// requiredLiteral returns the longest literal every match of the regular
// expression re must contain, and whether it matches without case (then
// it is ASCII). It returns nil when it finds none worth looking for.
func requiredLiteral(re *syntax.Regexp) (lit []byte, fold bool) {
	var best []rune
	bestFold := false
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			if len(re.Rune) > len(best) {
				best, bestFold = re.Rune, re.Flags&syntax.FoldCase != 0
			}
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				walk(sub)
			}
		case syntax.OpCapture, syntax.OpPlus:
			walk(re.Sub[0]) // x+ holds at least one x
		case syntax.OpRepeat:
			if re.Min >= 1 {
				walk(re.Sub[0])
			}
		}
	}
	walk(re)
	if len(best) < 2 {
		return nil, false
	}
	s := string(best)
	if bestFold && !isASCII(s) {
		return nil, false
	}
	return []byte(s), bestFold
}

// byteRank orders bytes by how common they are in a real Claude Code
// transcript (the 2.1.328 fixture): 255 for the most common (space), 0 for
// bytes that never occur.
var byteRank = [256]uint8{
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 174, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	255, 0, 246, 173, 167, 0, 152, 206, 211, 210, 180, 163, 238, 234, 230, 225,
	223, 224, 226, 217, 220, 218, 219, 209, 216, 207, 235, 192, 183, 170, 184, 164,
	165, 203, 178, 214, 194, 202, 181, 179, 172, 204, 166, 168, 190, 193, 187, 191,
	199, 160, 205, 208, 215, 195, 171, 186, 175, 176, 169, 189, 232, 188, 151, 201,
	222, 250, 229, 243, 244, 254, 237, 236, 242, 248, 198, 228, 245, 239, 252, 251,
	240, 185, 247, 249, 253, 241, 227, 231, 221, 233, 182, 213, 177, 212, 159, 0,
	197, 0, 0, 0, 0, 0, 162, 0, 0, 150, 0, 0, 0, 0, 0, 0,
	0, 0, 161, 157, 196, 0, 155, 149, 0, 0, 0, 0, 0, 0, 0, 154,
	0, 0, 0, 0, 156, 0, 158, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 148, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 147, 146, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	153, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
}
