package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/textclf"
	"github.com/spf13/cobra"
)

// selfModelFile is the model the heuristic engine embeds, relative to
// the module root.
const selfModelFile = "internal/extract/selfmodel.txt"

// The sets the self model learns from: only what rules were tuned on.
// The held-out parts (fresh2, fresh4, fresh9, fresh11, and the facts
// halves named heldout) stay out, so they still measure it.
var (
	selfTrainConversations = []string{"tune", "heldout", "fresh", "fresh3", "fresh5", "fresh6", "fresh7", "fresh8", "fresh10"}
	selfTrainFacts         = []string{"tune", "tune2", "tune3", "tune4", "tune5", "tune6"}
)

// selfOptions are the model's training settings, chosen by leaving one
// training set out at a time.
var selfOptions = textclf.Options{Epochs: 8, Rate: 0.05, L2: 1e-4, Seed: 17, Prune: 0.1}

// selfExamples are the training sets' sentences, each labelled by
// whether it says who the speaker is: for each user memory expected of a
// conversation or message, the sentences that hold the most of its
// phrases.
func selfExamples(extractionDir, componentsDir string) ([]textclf.Example, []string, error) {
	var out []textclf.Example
	var sets []string // the set each example comes from
	set := ""
	add := func(texts []string, user [][]string) {
		var sents []string
		for _, t := range texts {
			sents = append(sents, extract.Sentences(t)...)
		}
		pos := make([]bool, len(sents))
		for _, must := range user {
			counts := make([]int, len(sents))
			best := 0
			for i, s := range sents {
				l := strings.ToLower(s)
				for _, m := range must {
					if strings.Contains(l, strings.ToLower(m)) {
						counts[i]++
					}
				}
				best = max(best, counts[i])
			}
			for i, n := range counts {
				pos[i] = pos[i] || best > 0 && n == best
			}
		}
		for i, s := range sents {
			out = append(out, textclf.Example{Features: extract.SelfFeatures(s), Positive: pos[i]})
			sets = append(sets, set)
		}
	}
	userMust := func(types []string, musts [][]string) [][]string {
		var user [][]string
		for i, t := range types {
			if t == "user" {
				user = append(user, musts[i])
			}
		}
		return user
	}
	for _, name := range selfTrainConversations {
		set = "extraction " + name
		convs, err := loadExtractionSet(extractionDir, name)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range convs {
			var types []string
			var musts [][]string
			for _, e := range c.Expect {
				types, musts = append(types, e.Type), append(musts, e.Must)
			}
			var texts []string
			for _, m := range c.Messages {
				if m.Role == "user" && !m.Meta {
					texts = append(texts, m.Text)
				}
			}
			add(texts, userMust(types, musts))
		}
	}
	for _, half := range selfTrainFacts {
		set = "facts " + half
		var items []factItem
		if err := readSet(setFile(componentsDir, "facts", half), &items); err != nil {
			return nil, nil, err
		}
		for _, it := range ofHalf(half, items, func(it factItem) string { return it.ID }) {
			var types []string
			var musts [][]string
			for _, e := range it.Expect {
				types, musts = append(types, e.Type), append(musts, e.Must)
			}
			add([]string{it.Text}, userMust(types, musts))
		}
	}
	return out, sets, nil
}

// trainSelfModel is the model's file as training makes it now.
func trainSelfModel(extractionDir, componentsDir string) ([]byte, int, error) {
	ex, _, err := selfExamples(extractionDir, componentsDir)
	if err != nil {
		return nil, 0, err
	}
	text, err := textclf.Train(ex, selfOptions).MarshalText()
	return text, len(ex), err
}

// selfCrossValidate trains once per training set with that set left
// out and scores the set left out: how the model does on talk it did not
// learn from, at each threshold.
func (b *bench) selfCrossValidate(extractionDir, componentsDir string) error {
	ex, sets, err := selfExamples(extractionDir, componentsDir)
	if err != nil {
		return err
	}
	type scored struct {
		z   float64
		pos bool
	}
	var all []scored
	for _, left := range slices.Compact(slices.Clone(sets)) {
		var train []textclf.Example
		for i, e := range ex {
			if sets[i] != left {
				train = append(train, e)
			}
		}
		m := textclf.Train(train, selfOptions)
		for i, e := range ex {
			if sets[i] == left {
				all = append(all, scored{m.Score(e.Features), e.Positive})
			}
		}
	}
	b.printf("leave one set out, %d sentences:\n%-9s %-17s %s\n", len(all), "threshold", "precision", "recall")
	for _, th := range []float64{-1, 0, 0.5, 1, 1.5, 2, 3} {
		var tp, fp, pos int
		for _, s := range all {
			if s.pos {
				pos++
			}
			if s.z >= th {
				if s.pos {
					tp++
				} else {
					fp++
				}
			}
		}
		b.printf("%-9.1f %-17s %s\n", th, newRatio(tp, tp+fp), newRatio(tp, pos))
	}
	return nil
}

func (b *bench) selfModelCmd() *cobra.Command {
	var check, cv bool
	cmd := &cobra.Command{
		Use:   "selfmodel",
		Short: "Train the model that reads what people say of themselves",
		Long: `selfmodel trains the heuristic engine's reader of self-descriptions ("backend
guy, 10y java", "the spreadsheets are my day job") and writes it to
` + selfModelFile + `, which the engine embeds.

It learns from the sentences of the tuning sets only: extraction sets
` + strings.Join(selfTrainConversations, ", ") + ` and facts halves
` + strings.Join(selfTrainFacts, ", ") + `. A sentence is positive when it holds a
phrase of a user memory its message is labelled with. The held-out sets
stay out, so 'memdir-bench extraction' and 'memdir-bench facts' still
measure the engine on talk it never learned from.

--cv leaves each training set out in turn, trains on the rest and prints
the precision and recall of the sentences left out, by threshold: how the
engine's threshold (extract.selfThreshold) was chosen.

--check trains and compares with the file instead of writing it: the
model in the repository must be what its training data gives.`,
		Example: `  go run ./cmd/memdir-bench selfmodel
  go run ./cmd/memdir-bench selfmodel --cv
  go run ./cmd/memdir-bench selfmodel --check`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if cv {
				return b.selfCrossValidate(extractionDir, componentsDir)
			}
			text, n, err := trainSelfModel(extractionDir, componentsDir)
			if err != nil {
				return err
			}
			if check {
				old, err := os.ReadFile(selfModelFile)
				if err != nil {
					return err
				}
				if !sameModel(old, text) {
					return fmt.Errorf("%s is not what its training sets give: run 'go run ./cmd/memdir-bench selfmodel'", selfModelFile)
				}
				b.printf("%s: up to date (%d sentences)\n", selfModelFile, n)
				return nil
			}
			if err := atomicfile.WriteFile(selfModelFile, text, 0o644); err != nil {
				return err
			}
			b.printf("%s: %d sentences, %d bytes\n", selfModelFile, n, len(text))
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "compare with the file, write nothing")
	cmd.Flags().BoolVar(&cv, "cv", false, "leave each training set out in turn and print precision and recall by threshold")
	return cmd
}

// sameModel reports two model files whose weights differ by rounding at
// most: floating point may round the last digit otherwise on another
// platform.
func sameModel(a, b []byte) bool {
	ma, err1 := textclf.Parse(a)
	mb, err2 := textclf.Parse(b)
	if err1 != nil || err2 != nil || abs(ma.Bias-mb.Bias) > 2e-3 {
		return false
	}
	for _, pair := range [][2]*textclf.Model{{ma, mb}, {mb, ma}} {
		for f, w := range pair[0].Weights {
			if abs(w-pair[1].Weights[f]) > 0.02 { // a weight near the pruning line may be in one file only
				return false
			}
		}
	}
	return true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
