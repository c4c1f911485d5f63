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

// textModel is a model the heuristic engine embeds: it reads whether a
// sentence says a memory of one type. Files are relative to the module
// root.
type textModel struct {
	typ  string // the memory type whose sentences are its positives
	file string
}

var textModels = []textModel{
	{"user", "internal/extract/selfmodel.txt"},
	{"project", "internal/extract/projectmodel.txt"},
}

// The sets the models learn from: only what rules were tuned on. The
// held-out parts (fresh2, fresh4, fresh9, fresh11, fresh13, fresh15, fresh17, fresh18, and the facts halves
// named heldout) stay out, so they still measure them.
var (
	selfTrainConversations = []string{"tune", "heldout", "fresh", "fresh3", "fresh5", "fresh6", "fresh7", "fresh8", "fresh10"}
	selfTrainFacts         = []string{"tune", "tune2", "tune3", "tune4", "tune5", "tune6", "tune7", "tune8"}
)

// modelOptions are the models' training settings, chosen by leaving one
// training set out at a time.
var modelOptions = textclf.Options{Epochs: 8, Rate: 0.05, L2: 1e-4, Seed: 17, Prune: 0.1}

// modelExamples are the training sets' sentences, each labelled by
// whether it says a memory of type typ: for each such memory expected of
// a conversation or message, the sentences that hold the most of its
// phrases.
func modelExamples(typ, extractionDir, componentsDir string) ([]textclf.Example, []string, error) {
	var out []textclf.Example
	var sets []string // the set each example comes from
	set := ""
	add := func(texts []string, expected [][]string) {
		var sents []string
		for _, t := range texts {
			sents = append(sents, extract.Sentences(t)...)
		}
		pos := make([]bool, len(sents))
		for _, must := range expected {
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
			out = append(out, textclf.Example{Features: extract.SentenceFeatures(s), Positive: pos[i]})
			sets = append(sets, set)
		}
	}
	ofType := func(types []string, musts [][]string) [][]string {
		var out [][]string
		for i, t := range types {
			if t == typ {
				out = append(out, musts[i])
			}
		}
		return out
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
			add(texts, ofType(types, musts))
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
			add([]string{it.Text}, ofType(types, musts))
		}
	}
	return out, sets, nil
}

// trainModel is a model's file as training makes it now.
func trainModel(m textModel, extractionDir, componentsDir string) ([]byte, int, error) {
	ex, _, err := modelExamples(m.typ, extractionDir, componentsDir)
	if err != nil {
		return nil, 0, err
	}
	text, err := textclf.Train(ex, modelOptions).MarshalText()
	return text, len(ex), err
}

// crossValidate trains once per training set with that set left out and
// scores the set left out: how the model does on talk it did not learn
// from, at each threshold.
func (b *bench) crossValidate(m textModel, extractionDir, componentsDir string) error {
	ex, sets, err := modelExamples(m.typ, extractionDir, componentsDir)
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
		model := textclf.Train(train, modelOptions)
		for i, e := range ex {
			if sets[i] == left {
				all = append(all, scored{model.Score(e.Features), e.Positive})
			}
		}
	}
	b.printf("%s model, leave one set out, %d sentences:\n%-9s %-17s %s\n", m.typ, len(all), "threshold", "precision", "recall")
	for _, th := range []float64{-3, -2, -1, 0, 0.5, 1, 1.5, 2, 3} {
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

func (b *bench) modelsCmd() *cobra.Command {
	var check, cv bool
	var only string
	cmd := &cobra.Command{
		Use:   "models",
		Short: "Train the models the heuristic engine embeds",
		Long: `models trains the heuristic engine's learned readers and writes each to the
file the engine embeds:

  user      ` + textModels[0].file + `: a sentence says who the speaker is
            ("backend guy, 10y java", "the spreadsheets are my day job")
  project   ` + textModels[1].file + `: a sentence says a lasting fact
            of the project

Each is a linear model over a sentence's words (internal/textclf). It
learns from the sentences of the tuning sets only: extraction sets
` + strings.Join(selfTrainConversations, ", ") + ` and facts halves
` + strings.Join(selfTrainFacts, ", ") + `. A sentence is positive when it holds the
most of the phrases of a memory of the model's type its message is
labelled with. The held-out sets stay out, so 'memdir-bench extraction'
and 'memdir-bench facts' still measure the engine on talk it never
learned from.

--cv leaves each training set out in turn, trains on the rest and prints
the precision and recall of the sentences left out, by threshold: how the
engine's thresholds were chosen.

--check trains and compares with the files instead of writing them: the
models in the repository must be what their training data give.`,
		Example: `  go run ./cmd/memdir-bench models
  go run ./cmd/memdir-bench models --cv --type project
  go run ./cmd/memdir-bench models --check`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			var models []textModel
			for _, m := range textModels {
				if only == "" || only == m.typ {
					models = append(models, m)
				}
			}
			if len(models) == 0 {
				return fmt.Errorf("--type %q: no such model (user or project)", only)
			}
			for _, m := range models {
				if cv {
					if err := b.crossValidate(m, extractionDir, componentsDir); err != nil {
						return err
					}
					continue
				}
				text, n, err := trainModel(m, extractionDir, componentsDir)
				if err != nil {
					return err
				}
				if err := b.saveModel(m.file, text, fmt.Sprintf("%d sentences", n), check, "go run ./cmd/memdir-bench models"); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "compare with the files, write nothing")
	cmd.Flags().BoolVar(&cv, "cv", false, "leave each training set out in turn and print precision and recall by threshold")
	cmd.Flags().StringVar(&only, "type", "", "only the model of this memory type (user or project)")
	return cmd
}

// saveModel writes a trained model's file, or with check only compares it
// with the file there, which must be what training gave (rerun says how
// to train again). what says what it learned from.
func (b *bench) saveModel(file string, text []byte, what string, check bool, rerun string) error {
	if check {
		old, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if !sameModel(old, text) {
			return fmt.Errorf("%s is not what its training sets give: run '%s'", file, rerun)
		}
		b.printf("%s: up to date (%s)\n", file, what)
		return nil
	}
	if err := atomicfile.WriteFile(file, text, 0o644); err != nil {
		return err
	}
	b.printf("%s: %s, %d bytes\n", file, what, len(text))
	return nil
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
