package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
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

// warnHome warns about what homeGap finds, for commands that only read.
func (a *app) warnHome(env transcriptsEnv) {
	if msg, _ := env.HomeGap(); msg != "" {
		a.warnf("%s", msg)
	}
}

// needHome is warnHome for the commands that write the state there: when
// the home does not exist and no transcript was found elsewhere (Codex's),
// it returns an error rather than create the home.
func (a *app) needHome(env transcriptsEnv) error {
	msg, noHome := env.HomeGap()
	if msg == "" {
		return nil
	}
	if noHome {
		if files, _ := sessions.Discover(env.Roots); len(files) == 0 {
			return withHint(errors.New(msg), "check --home (or MEMDIR_HOME); 'memdir where' shows the agent home in use")
		}
	}
	a.warnf("%s", msg)
	return nil
}

// readPending discovers the transcripts and reads each from its cursor,
// warning about unreadable files and skipped lines.
func (a *app) readPending(e transcriptsEnv, st *sessions.State) []sessions.Scan {
	files, errs := sessions.Discover(e.Roots)
	for _, err := range errs {
		a.warnf("%v", err)
	}
	done := a.progress("reading transcripts", files)
	scans := sessions.ReadPending(a.ctx, files, st, sessions.ReadOptions{Progress: done.add})
	done.stop()
	a.reportScans(scans)
	return scans
}

func (a *app) reportScans(scans []sessions.Scan) {
	for _, sc := range scans {
		if sc.Err != nil {
			a.warnf("%v", sc.Err)
		}
		if sc.Reset != "" {
			a.warnf("%s %s", sc.File.Path, sc.Reset)
		}
		if sc.Session != nil && len(sc.Session.Skipped) > 0 {
			s := sc.Session.Skipped[0]
			a.warnf("%s: skipped %d unusable line(s), the first at line %d (byte %d): %s",
				sc.File.Path, len(sc.Session.Skipped), s.Line, s.Offset, s.Reason)
		}
	}
}

type pendingDayJSON struct {
	Date     string   `json:"date"`
	Sessions int      `json:"sessions"`
	Messages int      `json:"messages"`
	Projects []string `json:"projects"`
}

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
			a.warnHome(env)
			days, err := a.pendingDays(env)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]any{"days": days})
			}
			a.printPending(days, "")
			return nil
		},
	}
}

// pendingDays summarises the days with pending content.
func (a *app) pendingDays(env transcriptsEnv) ([]pendingDayJSON, error) {
	st, err := env.LoadState()
	if err != nil {
		return nil, err
	}
	if err := env.ZoneConflict(st); err != nil {
		a.warnf("%v; the pending days may be off: %s", err, hintFor(err))
	}
	days := sessions.Pending(a.readPending(env, st), env.Loc)
	out := make([]pendingDayJSON, 0, len(days))
	for _, d := range days {
		j := pendingDayJSON{Date: d.Date, Sessions: len(d.Sessions), Messages: d.Messages, Projects: []string{}}
		for _, s := range d.Sessions {
			if p := filepath.Base(s.CWD); s.CWD != "" && !slices.Contains(j.Projects, p) {
				j.Projects = append(j.Projects, p)
			}
		}
		out = append(out, j)
	}
	return out, nil
}

// printPending prints days as list-pending does, each line after indent.
func (a *app) printPending(days []pendingDayJSON, indent string) {
	if len(days) == 0 {
		a.printf("%sNo pending transcripts.\n", indent)
		return
	}
	a.printf("%sPending transcript days:\n", indent)
	for _, d := range days {
		a.printf("%s  %s  %s, %s", indent, d.Date, sessions.Plural(d.Sessions, "session"), sessions.Plural(d.Messages, "message"))
		if len(d.Projects) > 0 {
			a.printf("  (%s)", strings.Join(d.Projects, ", "))
		}
		a.printf("\n")
	}
}

// parseDate accepts YYYY-MM-DD, "today" and "yesterday" (local).
func parseDate(s string, loc *time.Location) (string, error) {
	d, err := sessions.ParseDay(s, loc, time.Now())
	if err != nil {
		return "", withHint(err, "write dates as YYYY-MM-DD (or today, yesterday)")
	}
	return d, nil
}

type extractMessageJSON struct {
	Role      string                `json:"role"`
	Content   string                `json:"content"`
	Timestamp time.Time             `json:"timestamp,omitzero"`
	Line      int                   `json:"line"`
	UUID      string                `json:"uuid,omitempty"`
	Sidechain bool                  `json:"sidechain,omitempty"`
	Tools     []transcript.ToolCall `json:"tools,omitempty"`
}

type extractSessionJSON struct {
	SessionID    string               `json:"session_id"`
	Agent        string               `json:"agent,omitempty"`
	Filepath     string               `json:"filepath"`
	Dialect      string               `json:"dialect"`
	Project      string               `json:"project,omitempty"`
	GitBranch    string               `json:"git_branch,omitempty"`
	MessageCount int                  `json:"message_count"`
	Messages     []extractMessageJSON `json:"messages"`
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
			var want []string
			if len(args) == 1 {
				d, err := parseDate(args[0], env.Loc)
				if err != nil {
					return err
				}
				want = []string{d}
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
	if err := a.needHome(env); err != nil {
		return err
	}
	st, unlock, err := env.LockState(a.ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if env.ZoneConflict(st) != nil {
		a.warnf("the days were counted in the time zone %s, and are now counted in %s: days marked done past a cursor are pending again", st.DaysZone, env.Zone)
		st.Recount(env.Zone)
	}
	scans := a.readPending(env, st)
	days := sessions.Pending(scans, env.Loc, want...)
	if len(days) == 0 {
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
	if !raw {
		// The text goes to a model next: secrets stay out of it, as they
		// stay out of memories.
		if n := redactDays(days); n > 0 {
			a.warnf("redacted %s in the output (--raw keeps them)", sessions.Plural(n, "secret"))
		}
	}
	var buf bytes.Buffer
	if a.json {
		err = printJSONTo(&buf, extractJSON(days))
	} else {
		err = sessions.WriteText(&buf, days, env.Loc)
	}
	if err != nil {
		return err
	}
	if output != "" {
		if err := atomicfile.WriteFile(output, buf.Bytes(), 0o600); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "Output written to: %s\n", output)
	} else if _, err := io.Copy(a.stdout, &buf); err != nil {
		return err
	}
	// The output is out: only now record what it showed.
	sessions.MarkExtracted(st, scans, days)
	return env.Folder.WriteJSON(sessions.StateFile, st)
}

func extractJSON(days []sessions.Day) map[string][]extractSessionJSON {
	out := map[string][]extractSessionJSON{}
	for _, d := range days {
		for _, s := range d.Sessions {
			js := extractSessionJSON{SessionID: cmp.Or(s.SessionID, filepath.Base(s.Path)), Agent: s.Agent, Filepath: s.Path,
				Dialect: string(s.Dialect), Project: s.CWD, GitBranch: s.Branch, MessageCount: len(s.Messages)}
			for _, m := range s.Messages {
				js.Messages = append(js.Messages, extractMessageJSON{Role: m.Role, Content: m.Text, Timestamp: m.Timestamp,
					Line: m.Line, UUID: m.UUID, Sidechain: m.Sidechain, Tools: m.Tools})
			}
			out[d.Date] = append(out[d.Date], js)
		}
	}
	return out
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
			var dates []string
			for _, arg := range args {
				d, err := parseDate(arg, env.Loc)
				if err != nil {
					return err
				}
				dates = append(dates, d)
			}
			if archive != "" && !filepath.IsAbs(archive) {
				archive = filepath.Join(a.cwd, archive)
			}
			if err := a.needHome(env); err != nil {
				return err
			}
			st, unlock, err := env.LockState(a.ctx)
			if err != nil {
				return err
			}
			defer unlock()
			if err := env.ZoneConflict(st); err != nil {
				return err
			}
			scans := a.readPending(env, st)
			type result struct {
				Date     string   `json:"date"`
				Marked   int      `json:"marked"`
				Left     int      `json:"still_pending"`
				Archived []string `json:"archived,omitempty"`
			}
			var results []result
			var moved []sessions.Advance
			for _, date := range dates {
				r := result{Date: date}
				if archive != "" {
					if r.Archived, err = archiveDay(archive, date, env.Roots, sessions.Pending(scans, env.Loc, date)); err != nil {
						return err
					}
				}
				n, mv := sessions.MarkDone(st, scans, date, env.Loc)
				r.Marked, moved = n, append(moved, mv...)
				for _, d := range sessions.Pending(scans, env.Loc, date) {
					r.Left += d.Messages
				}
				results = append(results, r)
			}
			for _, mv := range moved {
				m, err := sessions.MarkAt(mv.Path, mv.Offset, mv.Line)
				if err != nil {
					return err
				}
				st.Transcripts[mv.Path].Cursor = m
				st.Transcripts[mv.Path].Reset = ""
			}
			if err := env.Folder.WriteJSON(sessions.StateFile, st); err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]any{"done": results})
			}
			for _, r := range results {
				switch {
				case r.Marked == 0 && r.Left == 0:
					a.printf("Nothing pending on %s.\n", r.Date)
				default:
					a.printf("Marked %s done: %s.\n", r.Date, sessions.Plural(r.Marked, "message"))
				}
				if len(r.Archived) > 0 {
					a.printf("Archived %s to %s.\n", sessions.Plural(len(r.Archived), "transcript"), filepath.Join(archive, r.Date))
				}
				if r.Left > 0 {
					verb := "stay"
					if r.Left == 1 {
						verb = "stays"
					}
					a.warnf("%s of %s arrived after the last extract and %s pending; run 'memdir transcripts extract %s'", sessions.Plural(r.Left, "message"), r.Date, verb, r.Date)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&archive, "archive", "", "copy the day's transcripts into this folder first")
	return cmd
}

// archiveDay copies the transcripts holding content of date into
// dir/date/, atomically each, at their path under <home>/projects (Codex
// rollouts under codex/, at theirs under <CODEX_HOME>/sessions).
func archiveDay(dir, date string, roots sessions.Roots, days []sessions.Day) ([]string, error) {
	var done []string
	for _, d := range days {
		for _, s := range d.Sessions {
			if slices.Contains(done, s.Path) {
				continue
			}
			data, err := os.ReadFile(s.Path)
			if err != nil {
				return done, err
			}
			to := filepath.Join(dir, date, archivePath(roots, s))
			if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
				return done, err
			}
			if err := atomicfile.WriteFile(to, data, 0o600); err != nil {
				return done, err
			}
			done = append(done, s.Path)
		}
	}
	return done, nil
}

// archivePath is where a transcript goes in a day's archive folder: its
// path under the folder it was found in.
func archivePath(roots sessions.Roots, s sessions.DaySession) string {
	base, prefix := filepath.Join(roots.Claude, "projects"), ""
	if s.Dialect == transcript.Codex {
		base, prefix = filepath.Join(roots.Codex, "sessions"), "codex"
	}
	rel, err := filepath.Rel(base, s.Path)
	if err != nil || !filepath.IsLocal(rel) {
		rel = filepath.Base(s.Path)
	}
	return filepath.Join(prefix, rel)
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
			if err := a.needHome(env); err != nil {
				return err
			}
			st, unlock, err := env.LockState(a.ctx)
			if err != nil {
				return err
			}
			defer unlock()
			ix, unplaced := a.projectsIndex(env, st)
			if err := env.Folder.WriteJSON(sessions.StateFile, st); err != nil {
				return err
			}
			if err := env.Folder.WriteJSON(sessions.IndexFile, ix); err != nil {
				return err
			}
			if unplaced > 0 {
				a.warnf("%s name no working directory and are left out", sessions.Plural(unplaced, "transcript"))
			}
			if a.json {
				return a.printJSON(ix)
			}
			a.printf("Built project index: %s\nProjects found: %d\n", filepath.Join(env.Folder.Dir(), sessions.IndexFile), len(ix.Projects))
			for _, p := range sortedProjects(ix) {
				a.printf("  %s: %s (%s)\n", p.Name, sessions.Plural(len(p.WorkDays), "work day"), p.OriginalPath)
			}
			return nil
		},
	}
}

// projectsIndex brings the summaries in st up to date and builds the index.
func (a *app) projectsIndex(env transcriptsEnv, st *sessions.State) (sessions.ProjectsIndex, int) {
	files, errs := sessions.Discover(env.Roots)
	for _, err := range errs {
		a.warnf("%v", err)
	}
	done := a.progress("indexing transcripts", files)
	errs = sessions.UpdateSummaries(a.ctx, files, st, env.Loc, sessions.ReadOptions{Progress: done.add})
	done.stop()
	for _, err := range errs {
		a.warnf("%v", err)
	}
	return sessions.BuildIndex(st, time.Now())
}

// sortedProjects lists the index's projects, most recently seen first.
func sortedProjects(ix sessions.ProjectsIndex) []*sessions.Project {
	ps := make([]*sessions.Project, 0, len(ix.Projects))
	for _, p := range ix.Projects {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(x, y *sessions.Project) int {
		if c := y.LastSeen.Compare(x.LastSeen); c != 0 {
			return c
		}
		return cmp.Compare(x.OriginalPath, y.OriginalPath)
	})
	return ps
}

// redactDays redacts secrets in the messages and tool lines of days, in
// place, and returns how many it found.
func redactDays(days []sessions.Day) int {
	n := 0
	red := func(s *string) {
		out, found := redact.String(*s)
		for _, f := range found {
			n += f.Count
		}
		*s = out
	}
	for i := range days {
		for j := range days[i].Sessions {
			msgs := days[i].Sessions[j].Messages
			for k := range msgs {
				red(&msgs[k].Text)
				for t := range msgs[k].Tools {
					red(&msgs[k].Tools[t].Summary)
				}
			}
		}
	}
	return n
}
