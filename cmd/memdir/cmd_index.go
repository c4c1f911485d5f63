package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) indexCmd() *cobra.Command {
	var check, rebuild bool
	cmd := &cobra.Command{
		Use:   "index [--check | --rebuild]",
		Short: "Print, check or rebuild MEMORY.md",
		Long: `Index prints MEMORY.md as an agent loads it: at most 200 lines, then at most
25,000 characters, with a warning line when anything was cut. A missing index
is rebuilt from the files first.

--check reports lines that point at missing files, memory files with no line,
files listed twice, and how close the index is to each cap; it exits 1 when
anything needs fixing.

--rebuild regenerates the index from the files: one fresh line for each of
the most useful memories (pinned, then user and feedback, then the rest,
newest first), up to 140 lines and 17,500 characters — 70% of Claude Code's
caps, as its own backfill fills it; dangling lines dropped, headings and notes
written by hand kept. The other memories stay files: 'memdir list' and recall
find them. It also repairs an index of any size an older memdir left.`,
		Example: `  memdir index
  memdir index --check
  memdir index --rebuild --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if check && rebuild {
				return withHint(errors.New("--check and --rebuild go separately"), "run 'memdir index --rebuild', then 'memdir index --check'")
			}
			st, _, err := a.store(false)
			if err != nil {
				return err
			}
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
				if !res.Changed {
					a.printf("MEMORY.md is up to date\n")
				} else {
					a.printf("rebuilt MEMORY.md: %d added, %d removed\n", len(res.Added), len(res.Removed))
				}
				if res.LeftOut > 0 {
					a.printf("%d of the memories have no line: MEMORY.md holds the most useful (at most %d lines); 'memdir list' and 'memdir recall QUERY' find the others\n",
						res.LeftOut, memdir.IndexBudgetLines)
				}
				if len(res.Skipped) > 0 {
					return withHint(fmt.Errorf("%s could not be read; their index lines were kept: %s", sessions.Plural(len(res.Skipped), "memory file"), strings.Join(res.Skipped, ", ")),
						"'memdir doctor' says why; fix them ('memdir edit NAME'), then run 'memdir index --rebuild' again")
				}
				return nil
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
	} else {
		a.printf("MEMORY.md: %d/%d lines (%.0f%%), %d/%d characters (%.0f%%)\n",
			r.Usage.Lines, memdir.MaxIndexLines, 100*r.Usage.LineRatio,
			r.Usage.Chars, memdir.MaxIndexChars, 100*r.Usage.CharRatio)
		if !r.Exists {
			a.printf("  missing: it will be rebuilt from the files on the next save or 'memdir index'\n")
		}
		for _, f := range r.Dangling {
			a.printf("  dangling: a line points at %s, which does not exist\n", f)
		}
		for _, f := range r.Orphans {
			a.printf("  orphan: %s has no index line\n", f)
		}
		for _, f := range r.Duplicates {
			a.printf("  duplicate: %s is listed more than once\n", f)
		}
		if r.LeftOut > 0 {
			a.printf("  full: %d memories have no line (it holds the most useful; 'memdir list' finds the others)\n", r.LeftOut)
		}
		if r.Loaded.Truncated {
			a.printf("  truncated: %s\n", r.Loaded.Warning)
		} else if w := r.Usage.Warning(); w != "" {
			a.printf("  near cap: %s\n", w)
		}
	}
	return workspace.IndexProblem(r)
}
