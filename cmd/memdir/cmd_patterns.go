package main

import (
	"errors"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) patternsCmd() *cobra.Command {
	var o workspace.ApplyOptions
	var apply, revert bool
	cmd := &cobra.Command{
		Use:   "patterns [--min-tasks 3] [--since D] [--project P|--all] [--apply ID… [--kind …] | --revert [ID…]]",
		Short: "What recurs across task diaries in 3+ tasks, with proposals you can apply",
		Long:  longHelp("patterns"),
		Example: `  memdir patterns                       # patterns, candidates, conflicts; nothing written
  memdir patterns --all --json
  memdir patterns --apply p1a2b3c        # its rule into CLAUDE.md, its memory
  memdir patterns --apply p1a2b3c --kind command --dry-run
  memdir patterns --apply p1a2b3c --rule "Run the migrations before the integration tests."
  memdir patterns --revert               # take back this project's rules and commands (--all: every project's)`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && !apply && !revert {
				return withHint(errors.New("pattern ids go with --apply or --revert"), "see 'memdir patterns --help'")
			}
			if err := workspace.CheckMinTasks(o.MinTasks); err != nil {
				return err
			}
			if (len(o.Kinds) > 0 || o.DryRun || o.Rule != "") && !apply {
				return withHint(errors.New("--kind, --rule and --dry-run go with --apply"), "add --apply ID")
			}
			d, name, err := a.diaries(true)
			if err != nil {
				return err
			}
			o.Project = name
			switch {
			case revert:
				rep, err := d.PatternsRevert(a.ctx, args, o.All, a.now())
				return a.answer(rep, err, func() error { return workspace.WriteRevert(a.stdout, rep) })
			case apply:
				o.IDs = args
				rep, err := d.PatternsApply(a.ctx, o, a.now())
				return a.answer(rep, err, func() error { return workspace.WriteApply(a.stdout, rep) })
			}
			rep, err := d.Patterns(a.ctx, o.PatternsOptions, a.now())
			return a.answer(rep, err, func() error { return workspace.WritePatterns(a.stdout, rep) })
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.MinTasks, "min-tasks", 3, "distinct tasks a lesson must recur in to be a pattern")
	f.StringVar(&o.Since, "since", "", "only diaries dated on or after YYYY-MM-DD (or today, yesterday, 30d)")
	f.BoolVar(&o.All, "all", false, "every project's diaries (default: this project's)")
	f.StringVar(&o.Engine, "engine", "", "heuristic (offline, default), or anthropic, openai, claude: a model regroups the lines by meaning and words the rules; agent: the agent running the plugin's skill is that model")
	f.StringVar(&o.Rule, "rule", "", "with --apply of one pattern: the rule in your words, instead of memdir's")
	f.BoolVar(&apply, "apply", false, "write the proposals of the patterns named")
	f.StringSliceVar(&o.Kinds, "kind", nil, "with --apply: rule, command, memory (default rule,memory)")
	f.BoolVar(&o.DryRun, "dry-run", false, "with --apply: say what would be written; write nothing")
	f.BoolVar(&revert, "revert", false, "take back what --apply wrote for the patterns named (none: this project's; with --all every project's)")
	cmd.MarkFlagsMutuallyExclusive("apply", "revert")
	return cmd
}
