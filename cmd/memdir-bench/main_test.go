package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hint"
)

func runBench(t *testing.T, args ...string) (stdout string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, &out, &errOut)
	t.Logf("memdir-bench %s\nstderr:\n%s", strings.Join(args, " "), errOut.String())
	return out.String(), err
}

func TestLocomo_NoData_Hints(t *testing.T) {
	_, err := runBench(t, "locomo")
	if err == nil || !strings.Contains(hint.Of(err), "locomo10.json") {
		t.Fatalf("err %v, hint %q: want a hint naming locomo10.json", err, hint.Of(err))
	}
}

func TestLocomo_ShippedNumbers(t *testing.T) {
	data := locomoData(t)
	out, err := runBench(t, "locomo", "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	// docs/benchmarks.md: all 5 categories, R@5 0.641, R@10 0.729.
	if !strings.Contains(out, "all 5  1982  0.323  0.641  0.729") {
		t.Errorf("the shipped ranker's all-5 row moved from docs/benchmarks.md's figures:\n%s", out)
	}
}

// locomoData finds locomo10.json as internal/locomo's tests do:
// $MEMDIR_LOCOMO_DIR, else shared/bench/locomo in a parent folder, else
// /work/shared/bench/locomo. Its licence keeps it out of this repository.
func locomoData(t *testing.T) string {
	var dirs []string
	if v := os.Getenv("MEMDIR_LOCOMO_DIR"); v != "" {
		dirs = append(dirs, v)
	}
	wd, _ := os.Getwd()
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		dirs = append(dirs, filepath.Join(d, "shared", "bench", "locomo"))
	}
	for _, d := range append(dirs, "/work/shared/bench/locomo") {
		if p := filepath.Join(d, "locomo10.json"); fileExists(p) {
			return p
		}
	}
	t.Skip("LoCoMo data (locomo10.json) not found; set MEMDIR_LOCOMO_DIR")
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestLatency_InProcess: a small folder, no cold runs (so nothing is
// built), JSON out.
func TestLatency_InProcess(t *testing.T) {
	out, err := runBench(t, "latency", "--memories", "50", "--queries", "20", "--cold-runs", "0", "--dir", t.TempDir(), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rs []latencyJSON
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rs) != 1 || rs[0].Memories != 50 || rs[0].Queries != 20 || rs[0].ColdRuns != 0 || rs[0].InjectedShare == 0 {
		t.Fatalf("got %+v", rs)
	}
}

// TestLatency_Cold builds memdir as the default does and runs it.
func TestLatency_Cold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/memdir")
	}
	out, err := runBench(t, "latency", "--memories", "30", "--queries", "4", "--cold-runs", "2", "--dir", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Go hello-world p50", "(2 runs)", "process floor p50", "relevant   recall process p50", "unrelated  recall process p50", "× hello-world"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in the cold figures:\n%s", want, out)
		}
	}
	// The floor's main lives in an overlay, never in the clone.
	if b, err := os.ReadFile(filepath.Join("..", "memdir", "main.go")); err != nil || bytes.Contains(b, []byte("process floor")) {
		t.Errorf("cmd/memdir/main.go was changed for the process floor (%v)", err)
	}
}

func TestLatency_BadSizes(t *testing.T) {
	if _, err := runBench(t, "latency", "--memories", "10,x"); err == nil || hint.Of(err) == "" {
		t.Fatalf("err %v: want an error with a hint", err)
	}
}

// TestPatterns_ShippedNumbers runs memdir patterns over the labelled
// diary sets through the workspace and holds the figures
// docs/benchmarks.md reports. It prints counts only: a held-back set's
// misses are for nobody to read.
func TestPatterns_ShippedNumbers(t *testing.T) {
	out, err := runBench(t, "patterns", "--dir", filepath.Join("..", "..", patternsDir), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rs []patternsHalf
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatalf("%v", err)
	}
	want := map[string][2]int{ // found, coincidences
		"tune": {7, 0}, "tune2": {4, 0}, "tune3": {4, 0}, "tune4": {2, 0}, "tune5": {1, 0},
		"tune6": {2, 1}, "tune7": {1, 0}, "tune8": {3, 0}, "tune9": {2, 0}, "tune10": {3, 0},
		"tune11": {1, 0}, "tune12": {4, 0}, "tune13": {4, 0}, "tune14": {3, 0},
		"heldout": {2, 0}, "fresh": {2, 0}, "fresh2": {1, 0}, "fresh3": {1, 0}, "fresh4": {3, 0}, "fresh5": {3, 0},
		"fresh6": {3, 0}, "fresh7": {2, 0},
	}
	if len(rs) != len(want) {
		t.Fatalf("%d sets scored, want %d", len(rs), len(want))
	}
	for _, r := range rs {
		w, ok := want[r.Half]
		if !ok || r.Diaries < 38 || r.Score.Found != w[0] || r.Score.Coincidences != w[1] || r.Score.OneOffs != 0 {
			t.Errorf("%s moved from docs/benchmarks.md's figures: found %d (want %d), coincidences %d (want %d), one-offs %d, %d diaries",
				r.Half, r.Score.Found, w[0], r.Score.Coincidences, w[1], r.Score.OneOffs, r.Diaries)
		}
	}
}
