package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/textclf"
)

// samenessFile is the sameness model the heuristic dream engine embeds
// (are two memories one, told twice?), relative to the module root.
const samenessFile = "internal/consolidate/sameness.txt"

// mergesDir holds the labelled merge folders: one project's memories each,
// with duplicates told in other words and look-alikes that are not.
const mergesDir = "internal/consolidate/testdata/merges"

// The folders the sameness model learns from, and those only scored. The
// dream halves it learns from are those whose misses were read before it
// existed; fresh2 and fresh4 were only ever scored, fresh5, fresh6 and
// fresh7 were written while this model was made, and fresh10 and fresh11
// with fresh8 and fresh9 after it: all only scored.
var (
	samenessDream = []string{"tune", "heldout", "fresh", "fresh3"}
	// fresh8 and fresh9 were read and tuned on by the rules, but are not
	// learned from: with them, the leave-one-out table was no better
	// (140 of 218 merges on the other folders, 20 look-alikes merged,
	// against 141 and 19 without).
	samenessReadOnly  = []string{"fresh8", "fresh9", "fresh12", "fresh13", "fresh16", "fresh18", "fresh19", "fresh22", "fresh23", "fresh24", "fresh25", "fresh28", "fresh29", "fresh32", "fresh33", "fresh36", "fresh37", "fresh40", "fresh42", "fresh44", "fresh46", "fresh48", "fresh50"}
	samenessMerges    = []string{"m1", "m2", "m3", "m4", "m7", "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16"}
	samenessHeldDream = []string{"fresh2", "fresh4", "fresh5", "fresh6", "fresh7", "fresh10", "fresh11", "fresh14", "fresh15", "fresh17", "fresh20", "fresh21", "fresh26", "fresh27", "fresh30", "fresh31", "fresh34", "fresh35", "fresh38", "fresh39", "fresh41", "fresh43", "fresh45", "fresh47", "fresh49", "fresh51"}
	samenessHeldMerge = []string{"m5", "m6", "m17", "m18"}
)

// labelledFolder is one labelled folder as 'memdir dream' reads it.
type labelledFolder struct {
	name string
	in   consolidate.Input
	e    consolidate.Expected
}

// loadFolders reads labelled folders through a throwaway workspace each.
func loadFolders(ctx context.Context, dir string, names []string) ([]labelledFolder, error) {
	var out []labelledFolder
	for _, n := range names {
		w, e, done, err := openDreamFolder([]string{filepath.Join(dir, n)})
		if err != nil {
			return nil, err
		}
		in, err := w.DreamInput(ctx, e.Now)
		done()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, labelledFolder{n, in, e})
	}
	return out, nil
}

// samenessFolders loads every folder the model learns from.
func samenessFolders(ctx context.Context, dreamDir, mergesDir string) ([]labelledFolder, error) {
	a, err := loadFolders(ctx, dreamDir, samenessDream)
	if err != nil {
		return nil, err
	}
	b, err := loadFolders(ctx, mergesDir, samenessMerges)
	return append(a, b...), err
}

// trainSameness trains the model on the learning folders and returns its
// file and how many pairs of memories it learned from.
func trainSameness(ctx context.Context, dreamDir, mergesDir string) ([]byte, int, error) {
	fs, err := samenessFolders(ctx, dreamDir, mergesDir)
	if err != nil {
		return nil, 0, err
	}
	var ex []textclf.Example
	for _, f := range fs {
		ex = append(ex, consolidate.MergeExamples(f.in, f.e)...)
	}
	text, err := textclf.Train(ex, consolidate.SamenessOptions).MarshalText()
	return text, len(ex), err
}

// writeSameness trains the model and writes it, or with check only
// compares it with the file.
func (b *bench) writeSameness(dreamDir, mergesDir string, check bool) error {
	text, n, err := trainSameness(b.ctx, dreamDir, mergesDir)
	if err != nil {
		return err
	}
	return b.saveModel(samenessFile, text, fmt.Sprintf("%d pairs of memories", n), check, "go run ./cmd/memdir-bench dream --train")
}

// samenessCV leaves each learning folder out in turn, trains on the
// others and scores the merges planned on the one left out, at the
// embedded threshold and about it (t=+0.5 is the model with its bias
// lowered by 0.5), beside the overlap rule the model replaced (without
// the rule's old gates, which the model now weighs).
func (b *bench) samenessCV(dreamDir, mergesDir string) error {
	fs, err := samenessFolders(b.ctx, dreamDir, mergesDir)
	if err != nil {
		return err
	}
	ex := make([][]textclf.Example, len(fs))
	for i, f := range fs {
		ex[i] = consolidate.MergeExamples(f.in, f.e)
	}
	shifts := []float64{-1, -0.5, 0, 0.5, 1}
	tot := make([]mergeTally, len(shifts)+1)
	head := []string{fmt.Sprintf("%-13s", "overlap rule")}
	for _, t := range shifts {
		head = append(head, fmt.Sprintf("%-13s", fmt.Sprintf("t=%+g", t)))
	}
	b.printf("%-9s %s   (matched/expected, produced, merge violations)\n", "left out", strings.Join(head, " "))
	for hi, held := range fs {
		var train []textclf.Example
		for i := range fs {
			if i != hi {
				train = append(train, ex[i]...)
			}
		}
		m := textclf.Train(train, consolidate.SamenessOptions)
		models := []*textclf.Model{oldMergeRule}
		for _, t := range shifts {
			models = append(models, &textclf.Model{Bias: m.Bias - t, Weights: m.Weights})
		}
		var row []string
		for k, m := range models {
			t := tallyMerges(consolidate.Score(held.in, consolidate.HeuristicWith(held.in, m), held.e))
			row = append(row, fmt.Sprintf("%-13s", fmt.Sprintf("%d/%d p%d v%d", t.matched, t.expected, t.produced, t.violations)))
			tot[k].add(t)
		}
		b.printf("%-9s %s\n", held.name, strings.Join(row, " "))
	}
	var row []string
	for _, t := range tot {
		row = append(row, fmt.Sprintf("%-13s", fmt.Sprintf("%d/%d p%d v%d", t.matched, t.expected, t.produced, t.violations)))
	}
	b.printf("%-9s %s\n", "total", strings.Join(row, " "))
	return nil
}

// oldMergeRule is the rule the sameness model replaced, as a model: merged
// (a log-odds of 1.5 at least) when the weighted Jaccard index reaches 0.16,
// or 0.11 with 80% of the smaller memory's weight shared.
var oldMergeRule = &textclf.Model{Bias: 0.5, Weights: map[string]float64{"j≥0.16": 2, "c≥0.8": 0.5, "j≥0.11": 0.5}}

// mergeTally is a report's merge row and its merge violations.
type mergeTally struct{ expected, produced, matched, violations int }

func (t *mergeTally) add(o mergeTally) {
	t.expected += o.expected
	t.produced += o.produced
	t.matched += o.matched
	t.violations += o.violations
}

func tallyMerges(r consolidate.Report) mergeTally {
	var t mergeTally
	for _, k := range r.Kinds {
		if k.Kind == consolidate.Merge {
			t = mergeTally{expected: k.Expected, produced: k.Produced, matched: k.Matched}
		}
	}
	for _, v := range r.Violations {
		if strings.HasPrefix(v, string(consolidate.Merge)) {
			t.violations++
		}
	}
	return t
}
