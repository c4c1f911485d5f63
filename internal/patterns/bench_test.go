package patterns

import (
	"fmt"
	"path/filepath"
	"testing"
)

// manyDiaries is n diaries made of the four labelled halves, repeated under
// new names as often as needed (the repeats are new tasks to the engine).
func manyDiaries(b testing.TB, n int) []Doc {
	var base []Doc
	for _, h := range []string{"tune", "tune2", "heldout", "fresh"} {
		docs, _ := loadSet(b, filepath.Join("testdata", h))
		base = append(base, docs...)
	}
	out := make([]Doc, 0, n)
	for i := 0; len(out) < n; i++ {
		d := base[i%len(base)]
		d.ID = fmt.Sprintf("%s-r%d", d.ID, i/len(base))
		out = append(out, d)
	}
	return out
}

// BenchmarkFind times the offline engine over a year of diaries of a busy
// team (150, 600) and more (1,500).
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{150, 600, 1500} {
		docs := manyDiaries(b, n)
		b.Run(fmt.Sprintf("diaries=%d", n), func(b *testing.B) {
			for b.Loop() {
				Find(docs, Options{})
			}
		})
	}
}
