package search

import "bytes"

// finder looks for a needle by its rarest byte, as ripgrep does: IndexByte
// (vectorised) for that byte, then a comparison around it. With a byte that
// is rare in transcripts, most of the haystack is skipped at memory speed;
// when the byte proves common, it falls back to bytes.Index.
type finder struct {
	needle []byte
	rare   int // index in needle of its rarest byte
}

func newFinder(needle []byte) *finder {
	f := &finder{needle: needle}
	for i, c := range needle {
		if byteRank[c] < byteRank[needle[f.rare]] {
			f.rare = i
		}
	}
	return f
}

// adapt returns a finder whose rare byte is the needle's byte least
// frequent in sample (the start of the file about to be searched), ties
// going to the static ranking.
func (f *finder) adapt(sample []byte) *finder {
	if len(sample) < 4096 {
		return f
	}
	best, bestN := f.rare, bytes.Count(sample, f.needle[f.rare:f.rare+1])
	var seen [256]bool
	seen[f.needle[f.rare]] = true
	for i, c := range f.needle {
		if seen[c] {
			continue
		}
		seen[c] = true
		if n := bytes.Count(sample, f.needle[i:i+1]); n < bestN {
			best, bestN = i, n
		}
	}
	if best == f.rare {
		return f
	}
	return &finder{needle: f.needle, rare: best}
}

// index returns the first offset of the needle in h, or -1.
func (f *finder) index(h []byte) int {
	n, c := len(f.needle), f.needle[f.rare]
	if n == 1 {
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
		if bytes.Equal(h[start:start+n], f.needle) {
			return start
		}
		i++
		// A byte that is not rare here after all: let bytes.Index do it.
		if fails++; fails > 64 && fails > (i>>6) {
			if j := bytes.Index(h[i-f.rare:], f.needle); j >= 0 {
				return i - f.rare + j
			}
			return -1
		}
	}
	return -1
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
