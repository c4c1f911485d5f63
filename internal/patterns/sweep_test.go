package patterns

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSweep prints the tuning half's score over thresholds; run by hand
// with MEMDIR_SWEEP=1 (tuning looks at the tuning half only).
func TestSweep(t *testing.T) {
	if os.Getenv("MEMDIR_SWEEP") == "" {
		t.Skip("set MEMDIR_SWEEP=1 to sweep the threshold on the tuning half")
	}
	docs, key := loadSet(t, filepath.Join("testdata", "tune"))
	for th := 0.10; th <= 0.45; th += 0.025 {
		s := Evaluate(Find(docs, Options{Threshold: th}), key)
		fmt.Printf("th=%.3f found=%d/%d exact=%d proposed=%d spurious=%d coinc=%d oneoff=%d conflicts=%d\n", th, s.Found, s.Planted, s.Exact, s.Proposed, s.Spurious, s.Coincidences, s.OneOffs, s.ConflictsFound)
	}
	if th := os.Getenv("MEMDIR_TH"); th != "" {
		var x float64
		fmt.Sscan(th, &x)
		res := Find(docs, Options{Threshold: x})
		s := Evaluate(res, key)
		for _, m := range s.Missed {
			fmt.Println("MISSED", m)
		}
		for _, n := range append(s.ProposedCoincident, append(s.ProposedOneOff, s.Notes...)...) {
			fmt.Println("BAD", n)
		}
		for _, p := range append(res.Patterns, res.Candidates...) {
			fmt.Printf("== %s %d tasks %v sig=%v\n", p.ID, len(p.Tasks), p.Terms, p.Signatures)
			for _, l := range p.Support {
				fmt.Printf("     %.20s | %s\n", l.Diary, l.Text)
			}
		}
	}
}
