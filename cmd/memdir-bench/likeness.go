package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/patterns"
	"github.com/memdir/memdir/internal/textclf"
)

// likenessFile is the likeness model the patterns engine embeds, relative
// to the module root.
const likenessFile = "internal/patterns/likeness.txt"

// likenessOptions are the likeness model's training settings: those of
// the extraction models, with less weight decay and pruning, tried by
// leaving one tuning set out at a time (--cv scores thresholds only).
var likenessOptions = textclf.Options{Epochs: 8, Rate: 0.05, L2: 1e-5, Seed: 17, Prune: 0.05}

// labelledSet is one labelled diary set, loaded.
type labelledSet struct {
	name string
	docs []patterns.Doc
	key  patterns.Labels
}

func loadSets(dir string, names []string) ([]labelledSet, error) {
	var out []labelledSet
	for _, n := range names {
		docs, _, key, err := loadLabelled(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		out = append(out, labelledSet{n, docs, key})
	}
	return out, nil
}

// trainLikeness trains the likeness model on the tuning sets of dir and
// returns its file and how many pairs of lines it learned from.
func trainLikeness(dir string) ([]byte, int, error) {
	sets, err := loadSets(dir, patternsTune)
	if err != nil {
		return nil, 0, err
	}
	var ex []textclf.Example
	for _, s := range sets {
		ex = append(ex, patterns.PairExamples(s.docs, s.key)...)
	}
	text, err := textclf.Train(ex, likenessOptions).MarshalText()
	return text, len(ex), err
}

// writeLikeness trains the model and writes it, or with check only
// compares it with the file.
func (b *bench) writeLikeness(dir string, check bool) error {
	text, n, err := trainLikeness(dir)
	if err != nil {
		return err
	}
	return b.saveModel(likenessFile, text, fmt.Sprintf("%d pairs of lines", n), check, "go run ./cmd/memdir-bench patterns --train")
}

// likenessCV leaves each tuning set out in turn, trains on the others and
// scores the one left out at each threshold: how the threshold was
// chosen, without a held-back set.
func (b *bench) likenessCV(dir string) error {
	sets, err := loadSets(dir, patternsTune)
	if err != nil {
		return err
	}
	ex := make([][]textclf.Example, len(sets))
	for i, s := range sets {
		ex[i] = patterns.PairExamples(s.docs, s.key)
	}
	ths := []float64{0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}
	type tally struct{ found, planted, bad int }
	total := make([]tally, len(ths))
	var out bytes.Buffer
	for hi, held := range sets {
		var train []textclf.Example
		for i := range sets {
			if i != hi {
				train = append(train, ex[i]...)
			}
		}
		m := textclf.Train(train, likenessOptions)
		var row []string
		for k, th := range ths {
			s := patterns.Evaluate(patterns.Find(held.docs, patterns.Options{Model: m, Threshold: th}), held.key)
			row = append(row, fmt.Sprintf("%2d/%-2d c%d s%d", s.Found, s.Planted, s.Coincidences+s.OneOffs, s.Spurious))
			total[k].found += s.Found
			total[k].planted += s.Planted
			total[k].bad += s.Coincidences + s.OneOffs
		}
		fmt.Fprintf(&out, "%-8s %s\n", held.name, strings.Join(row, "  "))
	}
	var head, row []string
	for k, th := range ths {
		head = append(head, fmt.Sprintf("%-11.2f", th))
		row = append(row, fmt.Sprintf("%2d/%-2d c%-4d", total[k].found, total[k].planted, total[k].bad))
	}
	b.printf("%-8s %s\n%s%-8s %s\n", "left out", strings.Join(head, " "), out.String(), "total", strings.Join(row, " "))
	return nil
}
