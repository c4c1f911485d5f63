package locomo_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/memdir/memdir/internal/locomo"
)

// DataPath finds a LoCoMo file: $MEMDIR_LOCOMO_DIR, else shared/bench/locomo
// in a parent of the working directory, else /work/shared/bench/locomo. The
// data's licence keeps it out of this repository.
func dataPath(t *testing.T, name string) string {
	t.Helper()
	var dirs []string
	if v := os.Getenv("MEMDIR_LOCOMO_DIR"); v != "" {
		dirs = append(dirs, v)
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		dirs = append(dirs, filepath.Join(d, "shared", "bench", "locomo"))
		if d == filepath.Dir(d) {
			break
		}
	}
	dirs = append(dirs, "/work/shared/bench/locomo")
	for _, d := range dirs {
		if p := filepath.Join(d, name); fileExists(p) {
			return p
		}
	}
	t.Skipf("LoCoMo data (%s) not found; set MEMDIR_LOCOMO_DIR", name)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestReference_MatchesScript: the reference mode reproduces the numbers
// of shared/bench/locomo_bm25_reference.py on the original file (from the
// benchmark notes, §5.2) within ±0.002.
func TestReference_MatchesScript(t *testing.T) {
	samples, err := locomo.Load(dataPath(t, "locomo10.json"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		bucket string
		n      int
		r      []float64 // R@1, R@5, R@10 (R@25, R@50 when given)
		hit10  float64
		ndcg10 float64
	}
	for _, tc := range []struct {
		name string
		unit locomo.Unit
		stop bool
		rows []row
	}{
		{"turn", locomo.TurnUnit, false, []row{
			{"4", 841, []float64{0.313, 0.533, 0.609, 0.705, 0.780}, 0.620, 0.459},
			{"1", 282, []float64{0.046, 0.143, 0.212, 0.309, 0.412}, 0.422, 0.158},
			{"1-4", 1536, []float64{0.244, 0.441, 0.519, 0.608, 0.686}, 0.576, 0.387},
			{"all", 1982, []float64{0.253, 0.462, 0.541, 0.630, 0.706}, 0.587, 0.400},
		}},
		{"turn stop", locomo.TurnUnit, true, []row{
			{"1-4", 1536, []float64{0.289, 0.504, 0.569, 0.653, 0.696}, 0.628, 0.440},
			{"all", 1982, []float64{0.301, 0.526, 0.595, 0.676, 0.717}, 0.641, 0.455},
		}},
		{"session", locomo.SessionUnit, false, []row{
			{"1-4", 1536, []float64{0.551, 0.809, 0.892}, 0.945, 0.744},
			{"all", 1982, []float64{0.589, 0.836, 0.910}, 0.952, 0.769},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := locomo.Evaluate(samples, tc.unit, locomo.Reference(tc.stop))
			if rep.Skipped != 4 {
				t.Errorf("skipped %d questions without evidence, want 4", rep.Skipped)
			}
			for _, w := range tc.rows {
				m := rep.Buckets[w.bucket]
				if m.N != w.n {
					t.Errorf("%s: n=%d, want %d", w.bucket, m.N, w.n)
				}
				check := func(what string, got, want float64) {
					if math.Abs(got-want) > 0.002 {
						t.Errorf("%s %s = %.4f, reference %.3f", w.bucket, what, got, want)
					}
				}
				for i, k := range locomo.Ks[:len(w.r)] {
					check("R@"+strconv.Itoa(k), m.Recall[k], w.r[i])
				}
				check("hit@10", m.Hit[10], w.hit10)
				check("nDCG@10", m.NDCG10, w.ndcg10)
			}
		})
	}
}

func TestNormEvidence(t *testing.T) {
	valid := map[string]bool{"D8:6": true, "D9:17": true, "D9:1": true, "D4:4": true, "D11:26": true, "D30:5": true}
	got := locomo.NormEvidence([]string{"D8:6; D9:17", "D9:1 D4:4 D4:6", "D:11:26", "(D30:05)", "D", "D8:6"}, valid)
	want := []string{"D8:6", "D9:17", "D9:1", "D4:4", "D11:26", "D30:5"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}
