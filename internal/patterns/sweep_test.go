package patterns

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSweep prints the tuning halves' scores over a grid of weights; run
// by hand with MEMDIR_SWEEP=1. It reads the tuning halves only.
func TestSweep(t *testing.T) {
	if os.Getenv("MEMDIR_SWEEP") == "" {
		t.Skip("set MEMDIR_SWEEP=1 to sweep the weights on the tuning halves")
	}
	type set struct {
		docs []Doc
		key  Labels
	}
	var sets []set
	for _, h := range []string{"tune", "tune2"} {
		d, k := loadSet(t, filepath.Join("testdata", h))
		sets = append(sets, set{d, k})
	}
	type knob struct {
		p    *float64
		vals []float64
		name string
	}
	kTop := float64(topK)
	knobs := []knob{
		{&wConcept, []float64{0, 0.5, 1, 1.5}, "concept"},
		{&wArea, []float64{0, 0.3}, "area"},
		{&singletonWeight, []float64{0.25, 0.5}, "single"},
		{&kTop, []float64{6, 8, 12}, "topk"},
	}
	ths := []float64{0.1, 0.125, 0.15, 0.175, 0.2, 0.25}
	var rec func(i int, desc string)
	rec = func(i int, desc string) {
		if i == len(knobs) {
			topK = int(kTop)
			for _, th := range ths {
				var parts []string
				found, planted, bad := 0, 0, 0
				for _, s := range sets {
					sc := Evaluate(Find(s.docs, Options{Threshold: th}), s.key)
					found += sc.Found
					planted += sc.Planted
					bad += sc.Coincidences + sc.OneOffs
					parts = append(parts, fmt.Sprintf("%d/%d c%d s%d", sc.Found, sc.Planted, sc.Coincidences+sc.OneOffs, sc.Spurious))
				}
				fmt.Printf("SW %s th=%.3f total=%d/%d bad=%d | %s\n", desc, th, found, planted, bad, strings.Join(parts, " | "))
			}
			return
		}
		k := knobs[i]
		old := *k.p
		for _, v := range k.vals {
			*k.p = v
			rec(i+1, fmt.Sprintf("%s %s=%.2f", desc, k.name, v))
		}
		*k.p = old
	}
	rec(0, "")
	topK = int(kTop)
}
