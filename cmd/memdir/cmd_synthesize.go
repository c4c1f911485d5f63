package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) synthesizeCmd() *cobra.Command {
	var engine string
	var dates []string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "synthesize",
		Short: "Summarise each day's sessions and keep their learnings in long-term memory",
		Long:  longHelp("synthesize"),
		Example: `  memdir synthesize
  memdir synthesize --dry-run
  memdir synthesize --date yesterday --engine anthropic`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			o := workspace.SynthesizeOptions{Engine: cmp.Or(engine, a.getenv("MEMDIR_EXTRACT_ENGINE")), DryRun: dryRun, Now: a.now()}
			if o.Dates, err = t.Days(dates); err != nil {
				return err
			}
			res, err := t.Synthesize(a.ctx, a.env(), o, a.report())
			return a.printSynthesis(res, err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&engine, "engine", "", "heuristic (offline, default; or $MEMDIR_EXTRACT_ENGINE), anthropic, openai or claude")
	f.StringSliceVar(&dates, "date", nil, "summarise only this day (YYYY-MM-DD, today, yesterday; repeatable)")
	f.BoolVar(&dryRun, "dry-run", false, "show what would be written and why; write nothing, mark nothing")
	cmd.AddCommand(a.prepareCmd(), a.applyCmd())
	return cmd
}

func (a *app) printSynthesis(res workspace.SynthesisResult, err error) error {
	if err != nil {
		return err
	}
	if a.json {
		err = a.printJSON(res)
	} else {
		err = res.WriteText(a.stdout)
	}
	if err == nil && res.Failed() {
		return errSilent // each failed day was named
	}
	return err
}

func (a *app) prepareCmd() *cobra.Command {
	var skip []string
	cmd := &cobra.Command{
		Use:   "prepare [DATE] [--skip DATE]...",
		Short: "Give an agent one pending day to summarise, with the rules",
		Long:  longHelp("prepare"),
		Example: `  memdir synthesize prepare --json
  memdir synthesize prepare 2026-11-20 --json
  memdir synthesize prepare --skip 2026-11-29 --json   # the next pending day but that one`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			date := ""
			if len(args) == 1 {
				if date, err = t.Day(args[0]); err != nil {
					return err
				}
			}
			for i, d := range skip {
				if skip[i], err = t.Day(d); err != nil {
					return err
				}
			}
			p, err := t.Prepare(a.ctx, a.env(), date, skip, a.now(), a.report())
			if err != nil {
				return err
			}
			switch {
			case a.json:
				return a.printJSON(p)
			case p.Work == nil:
				a.printf("No day is pending.\n")
			default:
				a.printf("Summarise %s (%s) into %s, following the rules ('--json' gives them),\nfrom the conversation in %s; then run 'memdir synthesize apply %s'.\n",
					p.Work.Date, strings.Join(p.Work.Projects, ", "), p.Work.Path, p.Work.ConversationFile, p.Work.Path)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&skip, "skip", nil, "pass over this pending day (repeat it for more): it stays pending")
	return cmd
}

func (a *app) applyCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "apply DAILY_FILE",
		Short:   "Check a day's summary an agent wrote, and do the rest",
		Long:    longHelp("apply"),
		Example: `  memdir synthesize apply ~/.claude/memory/drafts/2026-11-20.md`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			res, err := t.Apply(a.ctx, a.env(), args[0], a.now(), a.report())
			return a.printSynthesis(res, err)
		},
	}
}

func (a *app) decayCmd() *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:     "decay",
		Short:   "Archive long-term learnings older than decay.ageDays",
		Long:    longHelp("decay"),
		Example: `  memdir decay --dry-run`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.changeLongTerm(dryRun, "Nothing to decay.", func(m *learning.Memory, s learning.Settings, today string) []learning.Op {
				return learning.Decay(m, s, today)
			}, false)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "show what would be archived; write nothing")
	return cmd
}

func (a *app) pinCmd(unpin bool) *cobra.Command {
	var dryRun bool
	use, short, long := "pin PATTERN", "Move matching long-term learnings to Pinned, where they never decay",
		`Pin moves the long-term learnings whose title, description or lesson contain
PATTERN (any case) into their file's Pinned section, where decay never reaches
them. With --project, only that project's long-term file.`
	if unpin {
		use, short, long = "unpin PATTERN", "Move matching pinned learnings back to the section of their type",
			`Unpin moves the pinned learnings matching PATTERN back to the section of their
type, where they decay again.`
	}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long,
		Example: "  memdir " + use[:len(use)-len(" PATTERN")] + ` "subagent permissions"`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			decide := learning.Pin
			if unpin {
				decide = learning.Unpin
			}
			project := ""
			if cmd.Flag("project").Changed {
				t, err := a.transcriptsEnv()
				if err != nil {
					return err
				}
				project = t.ProjectKey()
			}
			none := fmt.Sprintf("no long-term learning outside Pinned matches %q", args[0])
			if unpin {
				none = fmt.Sprintf("no pinned learning matches %q", args[0])
			}
			return a.changeLongTerm(dryRun, none, func(m *learning.Memory, _ learning.Settings, today string) []learning.Op {
				return decide(m, args[0], project, today)
			}, true)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "show what would move; write nothing")
	return cmd
}

// changeLongTerm runs decide on the long-term files and prints what it
// did; with a pattern, matching nothing is an error.
func (a *app) changeLongTerm(dryRun bool, none string, decide func(*learning.Memory, learning.Settings, string) []learning.Op, mustMatch bool) error {
	t, err := a.transcriptsEnv()
	if err != nil {
		return err
	}
	today := t.Today(a.now())
	c, err := t.ChangeLongTerm(a.ctx, dryRun, func(m *learning.Memory, s learning.Settings) []learning.Op { return decide(m, s, today) })
	if err != nil {
		return err
	}
	if len(c.Plan) == 0 && mustMatch {
		return withHint(errors.New(none), "'memdir context' shows the long-term memory files")
	}
	if a.json {
		return a.printJSON(c)
	}
	return c.WriteText(a.stdout, none)
}

// now is the clock of the synthesis commands: $MEMDIR_NOW (an RFC 3339
// time) when set, for tests and reproducible runs, else the time.
func (a *app) now() time.Time {
	if t, err := time.Parse(time.RFC3339, a.getenv("MEMDIR_NOW")); err == nil {
		return t
	}
	return time.Now()
}
