package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/locomo"
	"github.com/memdir/memdir/internal/recall"
	"github.com/spf13/cobra"
)

func (b *bench) locomoCmd() *cobra.Command {
	var data, unit string
	var reference, stop bool
	window := 1
	cmd := &cobra.Command{
		Use:   "locomo --data FILE",
		Short: "Evidence retrieval on LoCoMo: R@k, hit@k, nDCG@10 by category",
		Long: `Locomo ranks, for every LoCoMo question, the turns (or sessions) of its
conversation and reports how much of the evidence comes back: R@1/5/10/25/50,
hit@5/10, all@10 and nDCG@10, per category (named by the authors' mapping:
1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial), for
categories 1-4 and for all 5.

The default is the shipped ranker: each turn is a memory whose name is the
speaker, whose description is what was said, and whose body is the --window
turns on each side (the exchange it belongs to). --reference runs the plain
BM25 of the reference script instead (its tokeniser, one field, --stop for
its stop list), which must reproduce that script's numbers.

The data is licensed CC BY-NC 4.0: read it where it is, never copy it into a
repository.`,
		Example: `  go run ./cmd/memdir-bench locomo --data ../shared/bench/locomo/locomo10.json
  go run ./cmd/memdir-bench locomo --data locomo10.json --reference --stop --unit session --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data == "" {
				return hint.With(errors.New("--data is required"), "pass LoCoMo's locomo10.json (from github.com/snap-research/locomo, data/; not shipped: CC BY-NC), e.g. --data ../shared/bench/locomo/locomo10.json")
			}
			u := locomo.Unit(unit)
			if u != locomo.TurnUnit && u != locomo.SessionUnit {
				return hint.With(fmt.Errorf("--unit %q is neither turn nor session", unit), "use --unit turn or --unit session")
			}
			raw, err := os.ReadFile(data)
			if err != nil {
				return hint.With(err, "pass the LoCoMo JSON file, locomo10.json from github.com/snap-research/locomo (data/); docs/benchmarks.md has the details")
			}
			samples, err := locomo.Load(data)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(raw)
			ranker, mode := locomo.Shipped(recall.DefaultParams, window), fmt.Sprintf("shipped (BM25F name 3 / description 2 / body 1, k1 1.2, b 0.75, stems, window %d)", window)
			if reference {
				ranker, mode = locomo.Reference(stop), fmt.Sprintf("reference (BM25 k1 1.2 b 0.75, [0-9a-z]+, stop list %v)", stop)
			}
			start := time.Now()
			rep := locomo.Evaluate(samples, u, ranker)
			if b.json {
				return b.printJSON(map[string]any{"file": data, "sha256": hex.EncodeToString(sum[:]), "mode": mode, "report": rep})
			}
			b.printf("file %s (sha256 %s…)\nunit %s, ranker %s\n%d questions skipped (no valid evidence); ties to the earlier document; %s\n\n",
				data, hex.EncodeToString(sum[:6]), u, mode, rep.Skipped, time.Since(start).Round(time.Millisecond))
			tw := tabwriter.NewWriter(b.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "category\tn\tR@1\tR@5\tR@10\tR@25\tR@50\thit@5\thit@10\tall@10\tnDCG@10\t\n")
			for _, bk := range locomo.Buckets {
				m := rep.Buckets[bk]
				label := bk + " " + locomo.CategoryNames[bk]
				if bk == "1-4" || bk == "all" {
					label = locomo.CategoryNames[bk]
				}
				fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", label, m.N,
					m.Recall[1], m.Recall[5], m.Recall[10], m.Recall[25], m.Recall[50], m.Hit[5], m.Hit[10], m.All10, m.NDCG10)
			}
			return tw.Flush()
		},
	}
	f := cmd.Flags()
	f.StringVar(&data, "data", "", "the LoCoMo JSON file")
	f.StringVar(&unit, "unit", "turn", "what a document is: turn or session")
	f.BoolVar(&reference, "reference", false, "run the plain BM25 reference instead of the shipped ranker")
	f.BoolVar(&stop, "stop", false, "with --reference: use the reference script's stop list (drop its stop words)")
	f.IntVar(&window, "window", window, "shipped ranker: turns on each side that make a memory's body")
	return cmd
}
