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
		Long: `Transcripts reads the session logs agents write: Claude Code's
<home>/projects/<project>/*.jsonl (with subagents' files) and, when present,
Codex CLI's $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl (CODEX_HOME
defaults to ~/.codex, unless --home is given).

memdir keeps a processing state in <home>/memory/transcripts-state.json: per
transcript, the byte offset and last record uuid already processed, so each
run reads only what is new. A transcript that shrank or was replaced is read
again from its start. Days are local dates (set TZ to change the zone); done
refuses to mark a day counted in another zone than the extract's, and extract
in a new zone counts the pending days there.

The usual cycle, for an agent (or you) writing a summary of each day's
work into <home>/memory/ — the files 'memdir context' shows:
  memdir transcripts list-pending     which days have unprocessed content
  memdir transcripts extract DATE     read that day's conversations
  (write the day's summary)
  memdir transcripts done DATE        mark the day processed
For memories extracted without a model, see 'memdir extract'.

memdir never changes, moves or deletes an agent's transcripts.`,
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
		Long: `Extract prints the pending content of DATE (YYYY-MM-DD, today or yesterday),
or of every pending day without DATE: per session, the user's and the
assistant's text in order, each tool call on one line, failed tool results
flagged. Harness text and hook context are left out, so memdir never mines its
own injections.

--json gives {"DATE": [{session_id, filepath, message_count, messages:
[{role, content, timestamp, line, tools}]}]}. --output writes to a file
(atomically) instead of stdout.

Extract changes no cursor: it records how far it showed each day, and
'memdir transcripts done DATE' then marks no more than that, so content that
arrives in between stays pending.`,
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
		Long: `Done marks the pending content of each DATE processed: everything of that day
that 'memdir transcripts extract' showed (or, if the day was never extracted,
everything there is now). Content that arrived after the extract stays
pending, in a transcript extract showed as in one it did not. Cursors then move past the processed records, so later runs read
only what is new.

memdir never deletes an agent's transcripts. --archive DIR copies the
transcripts that held content of DATE into DIR/DATE/ before marking, for a
record of what was summarised: each at its path under <home>/projects
(<project folder>/<session>.jsonl, subagents' under their session's
folder), Codex rollouts under DIR/DATE/codex/.

Running done again for the same day changes nothing.`,
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
		Long: `Build-index reads every transcript (only what was appended since the last run)
and writes <home>/memory/projects-index.json: per project, keyed by its
lower-cased path, its name, the Claude Code folders it was seen in, its work
days (local dates with conversation), its session ids, when it was last seen,
its branches and the agents used: what a daily summary can be tagged with
(the projects worked on that day).`,
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
