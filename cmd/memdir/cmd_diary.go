package main

import (
	"cmp"
	"context"
	"fmt"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) diaryCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "diary",
		Short: "Task diaries: what each task tried, what failed, what worked",
		Long:  longHelp("diary"),
		Example: `  memdir diary add --task "Fix the login test" --mistake "ran the tests before make migrate" --worked "make migrate first"
  memdir diary add --from notes.md
  memdir diary draft --session 8c1f0b2e-…
  memdir diary list --drafts
  memdir diary accept 2026-03-02-fix-the-login-test`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.diaryAddCmd(), a.diaryDraftCmd(), a.diaryListCmd(), a.diaryShowCmd(), a.diaryEditCmd(), a.diaryAcceptCmd(), a.diaryRmCmd())
	return cmd
}

// diaries opens the diaries; for list and patterns, --project may also
// name a project as diaries record it (its folder's name).
func (a *app) diaries(projectName bool) (*workspace.Diaries, string, error) {
	env := a.env()
	if !projectName {
		if env.ProjectFlag != "" {
			if err := env.CheckProject(); err != nil {
				return nil, "", err
			}
		}
		d, err := workspace.OpenDiaries(env)
		return d, "", err
	}
	return workspace.OpenDiariesOf(env)
}

func (a *app) diaryAddCmd() *cobra.Command {
	var in workspace.DiaryInput
	var from string
	lines := map[diary.Kind]*[]string{}
	cmd := &cobra.Command{
		Use:   "add [--from FILE|-] [--task T] [--attempted L]… [--worked L]… [--mistake L]… [--error L]… [--edge-case L]… [--pattern L]…",
		Short: "Write a diary entry by hand (or from a file in the diary format)",
		Long:  longHelp("diary"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from != "" {
				b, err := workspace.ReadDiaryEdit(from, a.stdin)
				if err != nil {
					return err
				}
				in.From, in.FromName = b, from
			}
			in.Lines = map[diary.Kind][]string{}
			for k, v := range lines {
				in.Lines[k] = *v
			}
			e, err := in.Entry()
			if err != nil {
				return err
			}
			d, _, err := a.diaries(false)
			if err != nil {
				return err
			}
			w, err := d.Write(a.ctx, e, cmp.Or(e.Source, diary.SourceHand), a.now())
			return a.answer(w, err, func() error { return workspace.WriteDiaryWritten(a.stdout, w, e) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&from, "from", "", "read the entry from this file (- for stdin), in the diary format")
	f.StringVar(&in.Task, "task", "", "the task, in one line")
	f.StringVar(&in.Outcome, "outcome", "", "success, partial, failed or abandoned")
	f.StringVar(&in.Session, "session", "", "the agent session the task ran in")
	f.StringVar(&in.Date, "date", "", "YYYY-MM-DD (default today)")
	f.StringSliceVar(&in.Tags, "tag", nil, "a tag (repeatable, or comma-separated)")
	for _, s := range []struct {
		flag string
		kind diary.Kind
	}{{"attempted", diary.Attempted}, {"worked", diary.Worked}, {"mistake", diary.Mistakes}, {"error", diary.Errors}, {"edge-case", diary.EdgeCases}, {"pattern", diary.Patterns}} {
		v := new([]string)
		lines[s.kind] = v
		f.StringArrayVar(v, s.flag, nil, fmt.Sprintf("a line of %q (repeatable)", s.kind.Title()))
	}
	return cmd
}

func (a *app) diaryDraftCmd() *cobra.Command {
	var src workspace.DraftSource
	cmd := &cobra.Command{
		Use:   "draft (--session ID | --transcript FILE) [--dry-run] [--force]",
		Short: "Draft a diary entry from a finished session's transcript",
		Long:  longHelp("diary"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, _, err := a.diaries(false)
			if err != nil {
				return err
			}
			w, e, err := d.Draft(a.ctx, src, a.now())
			if err == nil && a.json {
				return a.printJSON(workspace.NewDraftJSON(w, e))
			}
			return a.answer(w, err, func() error { return workspace.WriteDiaryWritten(a.stdout, w, e) })
		},
	}
	f := cmd.Flags()
	f.StringVar(&src.Session, "session", "", "the session id (a transcript's file name without .jsonl)")
	f.StringVar(&src.Transcript, "transcript", "", "the transcript file")
	f.BoolVar(&src.DryRun, "dry-run", false, "print the draft; write nothing")
	f.BoolVar(&src.Force, "force", false, "draft even when the session has a diary")
	cmd.MarkFlagsMutuallyExclusive("session", "transcript")
	return cmd
}

func (a *app) diaryListCmd() *cobra.Command {
	var f workspace.DiaryFilter
	cmd := &cobra.Command{
		Use:   "list [--all] [--project P] [--since D] [--drafts]",
		Short: "List the diaries of this project (or --all)",
		Long:  longHelp("diary"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, name, err := a.diaries(true)
			if err != nil {
				return err
			}
			f.Project = name
			infos, bad, err := d.List(f, a.now())
			if err == nil && a.json {
				return a.printJSON(workspace.NewDiaryListJSON(infos, bad))
			}
			return a.answer(nil, err, func() error { return workspace.WriteDiaryList(a.stdout, infos, bad) })
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.All, "all", false, "every project's diaries")
	fl.StringVar(&f.Since, "since", "", "only entries dated on or after YYYY-MM-DD (or today, yesterday, 30d)")
	fl.BoolVar(&f.Drafts, "drafts", false, "only drafts waiting to be accepted")
	return cmd
}

func (a *app) diaryShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show STEM",
		Short: "Print a diary",
		Long:  longHelp("diary"),
		Args:  exactArgs(1, "a diary's name (see 'memdir diary list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, _, err := a.diaries(false)
			if err != nil {
				return err
			}
			info, err := d.Show(args[0])
			return a.answer(info, err, func() error {
				fmt.Fprintf(a.stderr, "%s\n", info.Path) // stdout is the diary alone: 'memdir diary edit STEM --from -' takes it back
				return workspace.WriteDiaryShow(a.stdout, info)
			})
		},
	}
}

func (a *app) diaryEditCmd() *cobra.Command {
	var from string
	cmd := &cobra.Command{
		Use:   "edit STEM [--from FILE]",
		Short: "Open a diary in $EDITOR, and check it before saving",
		Long:  longHelp("diary"),
		Args:  exactArgs(1, "a diary's name (see 'memdir diary list')"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runDiaryEdit(args[0], from)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "take the new version from this file instead of opening an editor")
	return cmd
}

func (a *app) runDiaryEdit(stem, from string) error {
	d, _, err := a.diaries(false)
	if err != nil {
		return err
	}
	w, changed, err := d.Edit(a.ctx, stem, from, a.stdin, func(orig []byte) (string, error) {
		return a.editInEditor(stem+".md", orig, "memdir diary edit "+stem)
	})
	if err != nil {
		return err // the draft stays: the hint names it
	}
	if !changed {
		if a.json {
			return a.printJSON(map[string]any{"stem": stem, "changed": false})
		}
		a.printf("no changes to %s\n", stem)
		return nil
	}
	return a.answer(w, nil, func() error { return workspace.WriteDiaryWritten(a.stdout, w, diary.Entry{}) })
}

func (a *app) diaryAcceptCmd() *cobra.Command {
	return a.diaryStemsCmd("accept STEM…", "Accept drafts, so patterns reads them", "accepted", (*workspace.Diaries).Accept)
}

func (a *app) diaryRmCmd() *cobra.Command {
	return a.diaryStemsCmd("rm STEM…", "Remove diaries (a draft you reject)", "removed", (*workspace.Diaries).Remove)
}

// diaryStemsCmd is a command that does one thing to each diary named.
func (a *app) diaryStemsCmd(use, short, verb string, do func(*workspace.Diaries, context.Context, []string) ([]string, error)) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Long:  longHelp("diary"),
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, _, err := a.diaries(false)
			if err != nil {
				return err
			}
			done, err := do(d, a.ctx, args)
			return a.stemsDone(verb, args, done, err)
		},
	}
}

// stemsDone prints what accept or rm did to each diary, the ones it could
// not act on included, and returns err (exit 1) when there were any.
func (a *app) stemsDone(verb string, args, done []string, err error) error {
	r, nerr := workspace.NewStemsDone(verb, args, done, err)
	if nerr != nil {
		return nerr // nothing was done
	}
	var perr error
	if a.json {
		perr = a.printJSON(r.JSON())
	} else {
		perr = workspace.WriteStemsDone(a.stdout, r)
	}
	return cmp.Or(perr, err)
}
