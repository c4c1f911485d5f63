package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) transcriptsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "transcripts",
		Short: "Find, extract and track the agents' session transcripts",
		Long:  longHelp("transcripts"),
		Example: `  memdir transcripts list-pending
  memdir transcripts extract yesterday --output /tmp/day.txt
  memdir transcripts done yesterday`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.listPendingCmd(), a.extractCmd(), a.doneCmd(), a.buildIndexCmd())
	return cmd
}

// transcriptsEnv resolves the transcripts and the synthesis folder.
func (a *app) transcriptsEnv() (transcriptsEnv, error) {
	l, err := a.layout()
	if err != nil {
		return transcriptsEnv{}, err
	}
	return a.env().TranscriptsAt(l)
}

type transcriptsEnv = workspace.Transcripts

func (a *app) listPendingCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list-pending",
		Short: "List the days that have unprocessed transcript content",
		Long: `List-pending prints each local date with conversation not yet marked done,
with its number of sessions and messages and the projects worked on. Harness
text (command expansions, system reminders, hook context) does not count.`,
		Example: `  memdir transcripts list-pending
  memdir transcripts list-pending --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			env.WarnHome(a.report())
			days, err := env.PendingDays(a.ctx, a.report())
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]any{"days": days})
			}
			return workspace.WritePending(a.stdout, days, "")
		},
	}
}

func (a *app) extractCmd() *cobra.Command {
	var output string
	var raw bool
	cmd := &cobra.Command{
		Use:   "extract [DATE]",
		Short: "Print the pending conversation of a day (or of every pending day)",
		Long:  longHelp("transcripts-extract"),
		Example: `  memdir transcripts extract 2026-11-20
  memdir transcripts extract --output /tmp/transcripts.txt
  memdir transcripts extract yesterday --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			want, err := env.Days(args)
			if err != nil {
				return err
			}
			return a.extract(env, want, output, raw)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of stdout")
	cmd.Flags().BoolVar(&raw, "raw", false, "keep secrets (API keys, tokens, passwords) as written; by default they are redacted")
	return cmd
}

// extract writes the pending content of the wanted days (all without
// any) to output or stdout, then records in the state what it showed.
func (a *app) extract(env transcriptsEnv, want []string, output string, raw bool) error {
	found, err := env.ExtractDays(a.ctx, workspace.ExtractRequest{Days: want, Raw: raw, JSON: a.json}, a.report(), func(b []byte) error {
		if output == "" {
			_, err := a.stdout.Write(b)
			return err
		}
		if err := atomicfile.WriteFile(output, b, 0o600); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "Output written to: %s\n", output)
		return nil
	})
	if err != nil || found {
		return err
	}
	what := "any day"
	if len(want) == 1 {
		what = want[0]
	}
	// Nothing to do is no failure: exit 0, as list-pending and done do.
	if a.json {
		return a.printJSON(map[string]any{})
	}
	a.printf("No pending transcript content for %s ('memdir transcripts list-pending' shows the pending days).\n", what)
	return nil
}

func (a *app) doneCmd() *cobra.Command {
	var archive string
	cmd := &cobra.Command{
		Use:   "done DATE...",
		Short: "Mark days processed",
		Long:  longHelp("done"),
		Example: `  memdir transcripts done 2026-11-20
  memdir transcripts done 2026-11-19 2026-11-20 --archive ~/transcript-archive`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return withHint(errors.New("memdir transcripts done needs a DATE"), "see 'memdir transcripts list-pending' for the pending days")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			dates, err := env.Days(args)
			if err != nil {
				return err
			}
			if archive != "" && !filepath.IsAbs(archive) {
				archive = filepath.Join(a.cwd, archive)
			}
			results, err := env.MarkDone(a.ctx, dates, archive, a.report())
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]any{"done": results})
			}
			return workspace.WriteDone(a.stdout, results, archive, a.warnf)
		},
	}
	cmd.Flags().StringVar(&archive, "archive", "", "copy the day's transcripts into this folder first")
	return cmd
}

func (a *app) buildIndexCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "build-index",
		Short: "Write projects-index.json: each project's work days and sessions",
		Long:  longHelp("build-index"),
		Example: `  memdir transcripts build-index
  memdir transcripts build-index --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			ix, err := env.BuildIndex(a.ctx, a.report())
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(ix)
			}
			return workspace.WriteProjectsIndex(a.stdout, filepath.Join(env.Folder.Dir(), sessions.IndexFile), ix)
		},
	}
}
