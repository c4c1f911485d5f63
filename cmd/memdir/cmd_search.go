package main

import (
	"bufio"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/spf13/cobra"
)

type memoryHitJSON struct {
	File string `json:"file"`
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

func (a *app) searchCmd() *cobra.Command {
	var (
		transcripts bool
		opt         search.Options
		since       string
	)
	cmd := &cobra.Command{
		Use:   "search PATTERN",
		Short: "Search the project's memories, or every transcript with --transcripts",
		Long: `Search finds PATTERN, a literal string unless --regex is given (Go RE2
syntax; ^ and $ match at the start and end of each line), case-sensitive
unless --ignore-case.

Without --transcripts it searches the project's memory files and prints
file:line: text for each matching line.

With --transcripts it searches the conversation text of every transcript
under the agent home (and Codex's, when present): the user's and the
assistant's words, not tool output or bookkeeping records. Each result names
the date, role, project, session and transcript line. Transcripts are
streamed and searched in parallel, so gigabytes take seconds.

  --project P   only sessions run in P or below it (default: all projects)
  --since DATE  only messages from DATE (YYYY-MM-DD, local) on
  --role R      only the user's or only the assistant's words
  --context N   N lines of the message's text around each match`,
		Example: `  memdir search tabs
  memdir search --transcripts "connection pool"
  memdir search --transcripts --regex 'pnpm|yarn' --role user --since 2026-11-01
  memdir search --transcripts -C 2 --project ~/src/api --json migration`,
		Args: exactArgs(1, "a PATTERN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = args[0]
			if opt.Role != "" && opt.Role != "user" && opt.Role != "assistant" {
				return withHint(fmt.Errorf("--role %q is neither user nor assistant", opt.Role), "use --role user or --role assistant")
			}
			if opt.Context < 0 || opt.Limit < 0 {
				return withHint(errors.New("--context and --limit take a number ≥ 0"), "see 'memdir search --help'")
			}
			if !transcripts {
				if since != "" || opt.Role != "" || opt.Context > 0 {
					return withHint(errors.New("--since, --role and --context apply to transcripts"), "add --transcripts")
				}
				return a.searchMemories(opt)
			}
			return a.searchTranscripts(opt, since)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&transcripts, "transcripts", false, "search the session transcripts instead of the memories")
	f.BoolVar(&opt.Regex, "regex", false, "PATTERN is a regular expression")
	f.BoolVarP(&opt.IgnoreCase, "ignore-case", "i", false, "match without regard to case")
	f.StringVar(&since, "since", "", "only messages from this date (YYYY-MM-DD) on")
	f.StringVar(&opt.Role, "role", "", "only messages of this role: user or assistant")
	f.IntVarP(&opt.Context, "context", "C", 0, "lines of message text to show around each match")
	f.IntVar(&opt.Limit, "limit", 0, "stop after this many results (0: all)")
	return cmd
}

func (a *app) searchTranscripts(opt search.Options, since string) error {
	env, err := a.transcriptsEnv()
	if err != nil {
		return err
	}
	a.warnHome(env)
	if since != "" {
		d, err := parseDate(since, env.Loc)
		if err != nil {
			return err
		}
		opt.Since, _ = time.ParseInLocation(time.DateOnly, d, env.Loc)
	}
	if a.project != "" {
		opt.Project = a.projectPath()
	}
	if _, err := search.NewMatcher(opt); err != nil {
		return withHint(err, "see 'memdir search --help'")
	}
	files, errs := sessions.Discover(env.Roots)
	for _, err := range errs {
		a.warnf("%v", err)
	}
	var results []search.Result
	out := bufio.NewWriterSize(a.stdout, 64<<10)
	defer out.Flush()
	start := time.Now()
	stats, err := search.Run(a.ctx, files, opt, func(r search.Result) error {
		if a.json {
			results = append(results, r)
			return nil
		}
		writeResult(out, r, env.Loc, opt.Context > 0)
		return nil
	})
	if err != nil {
		a.warnf("%v", err)
	}
	if a.json {
		if results == nil {
			results = []search.Result{}
		}
		return printJSONTo(out, map[string]any{"results": results, "stats": stats})
	}
	if stats.Results == 0 {
		fmt.Fprintf(a.stderr, "No matches in %s (%s).\n", sessions.Plural(stats.Files, "transcript"), mb(stats.Bytes))
	} else if isTerminal(a.stdout) {
		fmt.Fprintf(a.stderr, "%s in %s (%s) in %s\n", sessions.Plural(stats.Results, "result"),
			sessions.Plural(stats.Files, "transcript"), mb(stats.Bytes), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// projectPath is the --project folder itself, absolute, cleaned and with
// symlinks resolved: not widened to its git root, as sessions run in P or
// below are wanted (a monorepo's package, say).
func (a *app) projectPath() string {
	p := a.project
	if home := a.getenv("HOME"); home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.cwd, p)
	}
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// writeResult prints one result: a heading naming where it was said, then
// the line; with context, the lines around it marked with '|' and the match
// with '>'.
func writeResult(w *bufio.Writer, r search.Result, loc *time.Location, context bool) {
	when := "????-??-?? ??:??"
	if !r.Time.IsZero() {
		when = r.Time.In(loc).Format("2006-01-02 15:04")
	}
	project := filepath.Base(r.Project)
	if r.Project == "" {
		project = "?"
	}
	session := r.SessionID
	if len(session) > 8 {
		session = session[:8]
	}
	if !context {
		fmt.Fprintf(w, "%s %-9s %s %s:%d: %s\n", when, r.Role, project, session, r.Line, strings.TrimSpace(r.Text))
		return
	}
	fmt.Fprintf(w, "%s %s %s %s:%d (%s)\n", when, r.Role, project, session, r.Line, r.Path)
	for _, l := range r.Before {
		fmt.Fprintf(w, "  | %s\n", l)
	}
	fmt.Fprintf(w, "  > %s\n", r.Text)
	for _, l := range r.After {
		fmt.Fprintf(w, "  | %s\n", l)
	}
	w.WriteString("--\n")
}

func (a *app) searchMemories(opt search.Options) error {
	m, err := search.NewMatcher(opt)
	if err != nil {
		return withHint(err, "see 'memdir search --help'")
	}
	st, l, err := a.store(false)
	if errors.Is(err, memdir.ErrNotFound) {
		if a.json {
			return a.printJSON(map[string]any{"results": []memoryHitJSON{}})
		}
		fmt.Fprintf(a.stderr, "No memories yet for %s.\n", l.ProjectRoot)
		return nil
	}
	if err != nil {
		return err
	}
	files, err := st.Files()
	if err != nil {
		return err
	}
	hits := []memoryHitJSON{}
	for _, f := range files {
		raw, _, err := st.Raw(f)
		if err != nil {
			a.warnf("%v", err)
			continue
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if m.Match(line) {
				hits = append(hits, memoryHitJSON{File: f, Path: st.Path(f), Line: i + 1, Text: line})
			}
			if opt.Limit > 0 && len(hits) >= opt.Limit {
				break
			}
		}
	}
	if a.json {
		return a.printJSON(map[string]any{"results": hits})
	}
	for _, h := range hits {
		a.printf("%s:%d: %s\n", h.File, h.Line, h.Text)
	}
	if len(hits) == 0 {
		fmt.Fprintf(a.stderr, "No matches in %s.\n", sessions.Plural(len(files), "memory file"))
	}
	return nil
}
