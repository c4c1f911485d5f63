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
		Long: `Synthesize runs the synthesize skill's whole cycle on <home>/memory/:
  1. once: migrate long-term memory (a Pinned section, dates on undated
     learnings, conservative pinning) and write .migration-complete
  2. build projects-index.json
  3. each pending day before today → daily/YYYY-MM-DD.md: Sessions Summary,
     Topics, Key Points, Learnings tagged [scope/type] (YYYY-MM-DD), Commits;
     user notes (## HH:MM - User Note) are kept
  4. route learnings: global → global-long-term-memory.md, a project's →
     project-memory/<project>-long-term-memory.md, each to the section of its
     type; a learning already there is skipped, one that contradicts an entry
     replaces it; a file over ~10k tokens is pruned (oldest first)
  5. mark the day done, only now
  6. decay: learnings older than decay.ageDays (30) move to .decay-archive.md,
     archive groups older than decay.archiveRetentionDays (365) are purged;
     Pinned and the profile sections never decay, nor undated learnings
  7. write .last-synthesis

Engines: heuristic (offline, the default) writes an extractive summary from the
prompts, what extraction classifies and the day's commits; anthropic, openai
and claude (keys as 'memdir extract --help' says) write it with a model. Every
summary is checked before it is written: over 8 KB, or a malformed learning,
and the day stays pending. Settings: <home>/memory/settings.json. The clock is
$MEMDIR_NOW (an RFC 3339 time) when set, for tests and reproducible runs.

An agent can be the model: 'memdir synthesize prepare --json' gives it a day
and the rules, and 'memdir synthesize apply FILE' checks what it wrote and does
the rest (the plugin's synthesize skill does this).`,
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
	return &cobra.Command{
		Use:   "prepare [DATE]",
		Short: "Give an agent one pending day to summarise, with the rules",
		Long: `Prepare readies the oldest pending day before today (or DATE) for an agent to
summarise: its conversation (secrets redacted), its projects, their commits,
the learnings already kept (not to repeat), the day's current summary and the
format rules. The agent writes the summary to the "daily_file" path given (a
draft), then runs 'memdir synthesize apply' on it. "work" is null when no day
is pending.`,
		Example: `  memdir synthesize prepare --json
  memdir synthesize prepare 2026-11-20 --json`,
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
			p, err := t.Prepare(a.ctx, a.env(), date, a.now(), a.report())
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
}

func (a *app) applyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "apply DAILY_FILE",
		Short: "Check a day's summary an agent wrote, and do the rest",
		Long: `Apply checks a daily summary (the H1 names its day): the format, its learning
lines' tags and dates, its size (over 4 KB a warning, over 8 KB refused: exit 1
with the problems, so the agent rewrites it). Then it writes the daily file
(keeping its user notes), routes the learnings, prunes, marks the day done,
decays and writes .last-synthesis.`,
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
		Use:   "decay",
		Short: "Archive long-term learnings older than decay.ageDays",
		Long: `Decay moves dated learnings older than decay.ageDays (default 30) out of the
long-term memory files into .decay-archive.md, and purges archive groups older
than decay.archiveRetentionDays (default 365). Pinned learnings, the profile
sections of global memory and undated learnings never decay. 'memdir
synthesize' runs it too.`,
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
