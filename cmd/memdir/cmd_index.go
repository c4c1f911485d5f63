package main

import (
	"errors"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) indexCmd() *cobra.Command {
	var check, rebuild bool
	var scope string
	cmd := &cobra.Command{
		Use:   "index [--check | --rebuild] [--scope private|team]",
		Short: "Print, check or rebuild MEMORY.md",
		Long:  longHelp("index"),
		Example: `  memdir index
  memdir index --check
  memdir index --rebuild --json
  memdir index --scope team`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if check && rebuild {
				return withHint(errors.New("--check and --rebuild go separately"), "run 'memdir index --rebuild', then 'memdir index --check'")
			}
			ws, _, err := a.scoped(scope, false)
			if err != nil {
				return err
			}
			st := ws.Store
			switch {
			case check:
				return a.indexCheck(st)
			case rebuild:
				res, err := st.RebuildIndex(a.ctx)
				if err != nil {
					return err
				}
				for _, p := range res.Problems {
					a.warnf("%v", p)
				}
				if a.json {
					if err := a.printJSON(res); err != nil || len(res.Skipped) == 0 {
						return err
					}
					return errSilent
				}
				if err := workspace.WriteRebuild(a.stdout, res); err != nil {
					return err
				}
				return workspace.RebuildProblem(res)
			}
			l, err := st.LoadIndex(a.ctx)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(l)
			}
			if l.Text != "" {
				a.printf("%s\n", l.Text)
			}
			if l.Truncated {
				a.warnf("%s", l.Warning)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "report problems and cap usage; exit 1 on problems")
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "regenerate the index from the memory files")
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team: the team folder's MEMORY.md is derived and local, never committed")
	return cmd
}

func (a *app) indexCheck(st *memdir.Store) error {
	r, err := st.CheckIndex()
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(r); err != nil {
			return err
		}
	} else if err := workspace.WriteIndexCheck(a.stdout, r); err != nil {
		return err
	}
	return workspace.IndexProblem(r)
}
