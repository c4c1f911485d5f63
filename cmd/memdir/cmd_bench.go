package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/memdir/memdir/internal/locomo"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/memgen"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/spf13/cobra"
)

func (a *app) benchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure recall quality (LoCoMo) and latency",
		Long: `Bench measures what recall promises: quality on the LoCoMo benchmark, and
latency on generated memory folders. Results go to stdout; record them in
docs/benchmarks.md with the command and the machine.`,
		Example: `  memdir bench locomo --data ../shared/bench/locomo/locomo10.json
  memdir bench latency --memories 1000,10000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.benchLocomoCmd(), a.benchLatencyCmd())
	return cmd
}

func (a *app) benchLocomoCmd() *cobra.Command {
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
		Example: `  memdir bench locomo --data ../shared/bench/locomo/locomo10.json
  memdir bench locomo --data locomo10.json --reference --stop --unit session --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if data == "" {
				return withHint(errors.New("--data is required"), "pass LoCoMo's locomo10.json (from github.com/snap-research/locomo, data/; not shipped: CC BY-NC), e.g. --data ../shared/bench/locomo/locomo10.json")
			}
			u := locomo.Unit(unit)
			if u != locomo.TurnUnit && u != locomo.SessionUnit {
				return withHint(fmt.Errorf("--unit %q is neither turn nor session", unit), "use --unit turn or --unit session")
			}
			raw, err := os.ReadFile(data)
			if err != nil {
				return withHint(err, "pass the LoCoMo JSON file, locomo10.json from github.com/snap-research/locomo (data/); docs/benchmarks.md has the details")
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
			if a.json {
				return a.printJSON(map[string]any{"file": data, "sha256": hex.EncodeToString(sum[:]), "mode": mode, "report": rep})
			}
			a.printf("file %s (sha256 %s…)\nunit %s, ranker %s\n%d questions skipped (no valid evidence); ties to the earlier document; %s\n\n",
				data, hex.EncodeToString(sum[:6]), u, mode, rep.Skipped, time.Since(start).Round(time.Millisecond))
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintf(tw, "category\tn\tR@1\tR@5\tR@10\tR@25\tR@50\thit@5\thit@10\tall@10\tnDCG@10\t\n")
			for _, b := range locomo.Buckets {
				m := rep.Buckets[b]
				label := b + " " + locomo.CategoryNames[b]
				if b == "1-4" || b == "all" {
					label = locomo.CategoryNames[b]
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
	f.BoolVar(&stop, "stop", false, "with --reference: drop the reference stop list")
	f.IntVar(&window, "window", window, "shipped ranker: turns on each side that make a memory's body")
	return cmd
}

type latencyJSON struct {
	Memories      int     `json:"memories"`
	Queries       int     `json:"queries"`
	BuildMS       float64 `json:"build_ms"`
	InProcP50MS   float64 `json:"in_process_p50_ms"`
	InProcP95MS   float64 `json:"in_process_p95_ms"`
	ColdP50MS     float64 `json:"cold_process_p50_ms,omitempty"`
	ColdP95MS     float64 `json:"cold_process_p95_ms,omitempty"`
	ColdRuns      int     `json:"cold_runs,omitempty"`
	HookP50MS     float64 `json:"hook_p50_ms,omitempty"`
	HookP95MS     float64 `json:"hook_p95_ms,omitempty"`
	InjectedShare float64 `json:"queries_with_injection"`
	MeanTokens    float64 `json:"mean_tokens_when_injected"`
}

func (a *app) benchLatencyCmd() *cobra.Command {
	var sizes, dir string
	var queries, coldRuns int
	cmd := &cobra.Command{
		Use:   "latency [--memories 1000,10000,100000]",
		Short: "Recall latency on generated memory folders, in process and as a new process",
		Long: `Latency generates a folder of N realistic memories (seeded: the same folder
every run), builds recall's snapshot once, then measures:

  in-process   ranking, selection and rendering for --queries prompts (half
               about the memories, half about nothing they hold), with the
               snapshot loaded: what a long-running server pays;
  cold process a new 'memdir recall' process per prompt, --cold-runs times:
               what an agent's hook pays, start-up and freshness check included.

It prints p50 and p95 per folder size.`,
		Example: `  memdir bench latency
  memdir bench latency --memories 100000 --cold-runs 0 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ns []int
			for _, s := range strings.Split(sizes, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n <= 0 {
					return withHint(fmt.Errorf("--memories %q is not a list of positive numbers", sizes), "use e.g. --memories 1000,10000")
				}
				ns = append(ns, n)
			}
			root := dir
			if root == "" {
				tmp, err := os.MkdirTemp("", "memdir-latency-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				root = tmp
			}
			exe, err := os.Executable()
			if err != nil {
				coldRuns = 0
			}
			var results []latencyJSON
			for _, n := range ns {
				r, err := a.latency(root, n, queries, coldRuns, exe)
				if err != nil {
					return err
				}
				results = append(results, r)
				if !a.json {
					a.printf("%7d memories: build %.0f ms; in-process p50 %.3f ms, p95 %.3f ms", n, r.BuildMS, r.InProcP50MS, r.InProcP95MS)
					if r.ColdRuns > 0 {
						a.printf("; cold process p50 %.1f ms, p95 %.1f ms; UserPromptSubmit hook p50 %.1f ms, p95 %.1f ms (%s each)",
							r.ColdP50MS, r.ColdP95MS, r.HookP50MS, r.HookP95MS, sessions.Plural(r.ColdRuns, "run"))
					}
					a.printf("; %.0f%% of prompts got memories, %.0f tokens on average\n", 100*r.InjectedShare, r.MeanTokens)
				}
			}
			if a.json {
				return a.printJSON(results)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&sizes, "memories", "1000,10000,100000", "folder sizes, comma-separated")
	f.IntVar(&queries, "queries", 400, "prompts per folder, in process")
	f.IntVar(&coldRuns, "cold-runs", 40, "new processes per folder (0: skip)")
	f.StringVar(&dir, "dir", "", "where to generate the folders (default: a temporary folder, removed after)")
	return cmd
}

func (a *app) latency(root string, n, queries, coldRuns int, exe string) (latencyJSON, error) {
	r := latencyJSON{Memories: n, Queries: queries}
	home := filepath.Join(root, fmt.Sprintf("home-%d", n))
	project := filepath.Join(root, fmt.Sprintf("project-%d", n))
	if err := os.MkdirAll(project, 0o700); err != nil {
		return r, err
	}
	q := &app{sys: a.sys, ctx: a.ctx, home: home, project: project}
	q.getenv = func(string) string { return "" }
	l, err := q.layout()
	if err != nil {
		return r, err
	}
	if _, err := os.Stat(l.MemoryDir); err != nil {
		fmt.Fprintf(a.stderr, "memdir: generating %d memories in %s\n", n, l.MemoryDir)
		if err := memgen.Write(l.MemoryDir, 1, n); err != nil {
			return r, err
		}
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if err != nil {
		return r, err
	}
	start := time.Now()
	if _, _, err := snapshot.Fresh(context.Background(), st); err != nil {
		return r, err
	}
	r.BuildMS = ms(time.Since(start))
	// A folder changed within the last two seconds is listed again by
	// every recall (its time may hide a change) until the snapshot is
	// written once the window has passed: measure the steady state an
	// agent's prompts meet, not that window.
	fmt.Fprintf(a.stderr, "memdir: waiting 2 s for the folder's times to settle (recall re-reads files changed within 2 s of its snapshot)\n")
	time.Sleep(2 * time.Second)
	snap, _, err := snapshot.Fresh(context.Background(), st)
	if err != nil {
		return r, err
	}
	var times []time.Duration
	injected := 0
	for i := range queries {
		query := memgen.Query(1, n, i)
		t := time.Now()
		rec, _ := snapshot.From(st, snap, project, query, recall.DefaultPolicy, time.Now())
		out := rec.Text
		times = append(times, time.Since(t))
		if out != "" {
			injected++
			r.MeanTokens += float64(recall.Tokens(out))
		}
	}
	r.InProcP50MS, r.InProcP95MS = percentiles(times)
	r.InjectedShare = float64(injected) / float64(max(queries, 1))
	r.MeanTokens /= float64(max(injected, 1))
	if coldRuns > 0 {
		times = times[:0]
		for i := range coldRuns {
			cmd := exec.Command(exe, "--home", home, "--project", project, "recall", memgen.Query(1, n, i))
			cmd.Env = []string{"HOME=" + root, "PATH=" + os.Getenv("PATH")}
			t := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				return r, fmt.Errorf("memdir recall: %v\n%s", err, out)
			}
			times = append(times, time.Since(t))
		}
		r.ColdRuns = coldRuns
		r.ColdP50MS, r.ColdP95MS = percentiles(times)
		// The UserPromptSubmit hook as Claude Code runs it: event JSON on
		// stdin, a new session each time (so no prompt is deduplicated).
		times = times[:0]
		for i := range coldRuns {
			in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("bench-%d-%d", n, i), "hook_event_name": "UserPromptSubmit",
				"cwd": project, "prompt": memgen.Query(1, n, i)})
			cmd := exec.Command(exe, "--home", home, "hook", "UserPromptSubmit")
			cmd.Env = []string{"HOME=" + root, "PATH=" + os.Getenv("PATH")}
			cmd.Stdin = bytes.NewReader(in)
			t := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				return r, fmt.Errorf("memdir hook: %v\n%s", err, out)
			}
			times = append(times, time.Since(t))
		}
		r.HookP50MS, r.HookP95MS = percentiles(times)
	}
	return r, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// percentiles returns the p50 and p95 of ts, in milliseconds.
func percentiles(ts []time.Duration) (p50, p95 float64) {
	if len(ts) == 0 {
		return 0, 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	return ms(s[len(s)/2]), ms(s[min(len(s)-1, len(s)*95/100)])
}
