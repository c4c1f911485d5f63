package main

import (
	"errors"
	"os"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) dreamCmd() *cobra.Command {
	var o workspace.DreamOptions
	var dryRun, undo, force, auto bool
	var planFile, batch, session string
	cmd := &cobra.Command{
		Use:   "dream",
		Short: "Consolidate memories: merge, supersede, date, expire, prune, as a plan",
		Long:  longHelp("dream"),
		Example: `  memdir dream                      # the plan; nothing is written
  memdir dream --apply              # write it, as one batch
  memdir dream --apply --only merge:a.md+b.md
  memdir dream --undo               # put the last batch back, byte for byte`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w, err := a.workspace(false)
			if err != nil {
				return err
			}
			switch o.Now = a.now(); {
			case undo:
				info, err := w.DreamUndo(a.ctx, batch, force)
				return a.answer(info, err, func() error { return workspace.WriteUndo(a.stdout, info) })
			case auto:
				res, err := w.DreamAuto(a.ctx, o.Now, session)
				return a.answer(res, err, func() error { return workspace.WriteDreamAuto(a.stdout, res) })
			case planFile != "":
				if o.Plan, err = os.ReadFile(planFile); err != nil {
					return withHint(err, "write the plan first, in the format of 'memdir dream --dry-run --json'")
				}
			}
			if len(o.Only) > 0 && !o.Apply {
				return withHint(errors.New("--only chooses what --apply writes"), "add --apply, or drop --only to see the whole plan")
			}
			o.Apply = o.Apply && !dryRun
			rep, err := w.Dream(a.ctx, o)
			return a.answer(rep, err, func() error { return workspace.WriteDream(a.stdout, rep) })
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dryRun, "dry-run", false, "show the plan; write nothing (the default without --apply)")
	f.BoolVar(&o.Apply, "apply", false, "write the plan as one batch ('--undo' takes it back)")
	f.StringSliceVar(&o.Only, "only", nil, "apply only these operation ids (see --dry-run)")
	f.BoolVar(&o.Lossless, "lossless", false, "apply only operations that lose no fact, as the automatic run does")
	f.StringVar(&o.Engine, "engine", "", "heuristic (offline, default), anthropic, openai or claude")
	f.StringVar(&planFile, "plan", "", "use this plan (an agent's, in the --json format) instead of an engine's")
	f.BoolVar(&undo, "undo", false, "put back every file of the last batch (or --batch ID)")
	f.StringVar(&batch, "batch", "", "with --undo: the batch id")
	f.BoolVar(&force, "force", false, "with --undo: even over files changed since (their later versions are kept: 'memdir restore')")
	f.BoolVar(&auto, "auto", false, "the automatic run: only when due, only lossless operations")
	f.StringVar(&session, "session", "", "with --auto: the session that just ended (not counted)")
	cmd.MarkFlagsMutuallyExclusive("undo", "apply", "auto")
	cmd.MarkFlagsMutuallyExclusive("undo", "plan")
	return cmd
}

// answer prints v as JSON with --json, else as text, unless err.
func (a *app) answer(v any, err error, text func() error) error {
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(v)
	}
	return text()
}
