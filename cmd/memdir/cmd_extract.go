package main

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) extractMemoriesCmd() *cobra.Command {
	var file, session, engine, sweep, dream string
	var pending, dryRun, trailing bool
	cmd := &cobra.Command{
		Use:   "extract [--transcript FILE | --session ID | --pending]",
		Short: "Turn new session turns into memories (offline heuristic engine)",
		Long:  longHelp("extract"),
		Example: `  memdir extract --pending
  memdir extract --transcript ~/.claude/projects/-home-me-api/5f0c….jsonl --dry-run --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			engine = cmp.Or(engine, cmp.Or(a.getenv("MEMDIR_EXTRACT_ENGINE"), workspace.ExtractHeuristic))
			if err := workspace.CheckExtractEngine(engine); err != nil {
				return err
			}
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			o := workspace.ExtractOptions{Session: session, Engine: engine, DryRun: dryRun, Trailing: trailing, Warn: a.warnErr}
			if file != "" {
				o.Transcripts = []string{file}
			}
			res, err := env.ExtractMemories(a.ctx, a.env(), o)
			if sweep != "" {
				// The hooks' recall snapshot sweep rides along, off the
				// agent's path; its failure is no extraction's.
				if serr := workspace.SweepIfDue(a.ctx, sweep); serr != nil {
					a.warnErr(serr)
				}
			}
			if dream != "" {
				a.dreamAfter(dream)
			}
			if err != nil {
				return err
			}
			return a.printExtract(res, dryRun)
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "transcript", "", "extract from this transcript file")
	f.StringVar(&session, "session", "", "extract from the transcript of this session id")
	f.BoolVar(&pending, "pending", true, "extract from every transcript with new turns")
	f.BoolVar(&dryRun, "dry-run", false, "show what would be saved, and why; write nothing, move no cursor")
	f.StringVar(&engine, "engine", "", "heuristic (offline, default; or $MEMDIR_EXTRACT_ENGINE), anthropic, openai or claude")
	f.BoolVar(&trailing, "trailing", false, "bypass the throttle (used for staged work)")
	f.MarkHidden("trailing")
	f.StringVar(&sweep, "sweep", "", "then check every file of this memory folder against the recall snapshot, if due (used by the hooks)")
	f.MarkHidden("sweep")
	f.StringVar(&dream, "then-dream", "", "then run the automatic consolidation if due, the session SESSION aside (used by the hooks)")
	f.MarkHidden("then-dream")
	return cmd
}

// dreamAfter runs the automatic consolidation a session's end asks for;
// what it did or why it failed is DreamLog's line.
func (a *app) dreamAfter(session string) {
	w, err := a.workspace(false)
	if err == nil {
		_, err = w.DreamAuto(a.ctx, a.now(), session)
	}
	if err != nil && !errors.Is(err, memdir.ErrNotFound) {
		a.warnErr(err)
	}
}

// warnErr says on stderr what went wrong without stopping the command,
// with its hint.
func (a *app) warnErr(err error) {
	a.warnf("%v", err)
	if h := hintFor(err); h != "" {
		fmt.Fprintf(a.stderr, "memdir: hint: %s\n", h)
	}
}

func (a *app) printExtract(res workspace.ExtractResult, dryRun bool) error {
	var err error
	switch {
	case res.Staged && a.json:
		return a.printJSON(map[string]any{"staged": true, "transcripts": res.Targets})
	case a.json:
		err = a.printJSON(map[string]any{"transcripts": append([]workspace.ExtractReport{}, res.Reports...)})
	default:
		err = res.WriteText(a.stdout, dryRun)
	}
	if err == nil && !res.Staged && res.Failed() {
		return errSilent // said on stderr and in the report
	}
	return err
}
