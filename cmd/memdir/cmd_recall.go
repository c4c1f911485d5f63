package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

type recallJSON = workspace.RecallReport

func (a *app) recallCmd() *cobra.Command {
	p := recall.DefaultPolicy
	var tools, engine string
	var explain bool
	cmd := &cobra.Command{
		Use:   "recall QUERY",
		Short: "Print the memories worth injecting for a prompt, or nothing",
		Long:  longHelp("recall"),
		Example: `  memdir recall "why does the API return 500 on a cold cache?"
  memdir recall "run the integration tests" --tools docker,psql
  memdir recall "deploy on friday" --explain
  memdir recall "table tests" --json --k 3 --budget 800`,
		Args: wordsArgs("a QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if p.K < 1 || p.Budget < 1 || p.Threshold < 0 || p.Threshold > 1 {
				return withHint(errors.New("--k and --budget must be positive and --threshold between 0 and 1"), "see 'memdir recall --help'")
			}
			if p.Budget < recall.MinBudget() {
				// Else nothing could ever fit, and the empty answer would
				// read as "no memory is relevant".
				return withHint(fmt.Errorf("--budget %d leaves no room for a memory", p.Budget), "the frame around the memories alone takes most of that; use --budget %d or more", recall.MinBudget())
			}
			for _, t := range strings.Split(tools, ",") {
				if t = strings.TrimSpace(t); t != "" {
					p.Tools = append(p.Tools, t)
				}
			}
			engine = cmp.Or(engine, cmp.Or(a.getenv("MEMDIR_RECALL_ENGINE"), workspace.EngineLexical))
			if err := workspace.CheckEngine(engine); err != nil {
				return err
			}
			return a.runRecall(workspace.Query{Text: strings.Join(args, " "), Policy: p, Engine: engine}, explain)
		},
	}
	f := cmd.Flags()
	f.IntVar(&p.K, "k", p.K, "at most this many memories")
	f.IntVar(&p.Budget, "budget", p.Budget, "token budget for the whole output (tokens counted as bytes/3, rounded up)")
	f.Float64Var(&p.Threshold, "threshold", p.Threshold, "least share of the query a memory must cover (0..1)")
	f.StringVar(&tools, "tools", "", "tools in use, comma-separated: usage notes about them are skipped")
	f.BoolVar(&explain, "explain", false, "show every candidate's score by field and the decision, on stderr")
	f.StringVar(&engine, "engine", "", "lexical (offline, default; or $MEMDIR_RECALL_ENGINE), llm (a model picks from the manifest) or hybrid (lexical fused with embeddings)")
	return cmd
}

func (a *app) runRecall(q workspace.Query, explain bool) error {
	// Without --explain or --json only the rendering is printed: rank just
	// enough memories to select it.
	q.KeptOnly = !explain && !a.json
	out, err := a.recall(q, explain || a.json)
	if err != nil {
		return err
	}
	return a.printRecall(out, explain)
}

// recall runs the workspace's recall for q (the private and the team
// memories), warning about what it could not read; with detail,
// candidates carry their scores by field.
func (a *app) recall(q workspace.Query, detail bool) (recallJSON, error) {
	l, err := a.layout()
	if err == nil {
		err = a.env().CheckProject()
	}
	if err != nil {
		return workspace.EmptyReport(q.Text), err
	}
	rec, left, err := workspace.RecallIn(a.ctx, a.env(), l, q)
	for _, p := range left {
		a.warnf("%v", p)
	}
	for _, w := range rec.Warnings {
		a.warnf("%s", w)
	}
	return rec.Report(q.Text, detail), err
}

func (a *app) printRecall(out recallJSON, explain bool) error {
	if a.json {
		return a.printJSON(out)
	}
	a.printf("%s", out.Injected)
	if out.Injected == "" && isTerminal(a.stdout) {
		fmt.Fprintln(a.stderr, "no memory is relevant enough to this query ('--explain' shows why)")
	}
	if !explain {
		return nil
	}
	return out.WriteExplain(a.stderr)
}
