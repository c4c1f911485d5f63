package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) searchCmd() *cobra.Command {
	var (
		transcripts bool
		opt         search.Options
		since       string
	)
	cmd := &cobra.Command{
		Use:   "search PATTERN",
		Short: "Search the project's memories, or every transcript with --transcripts",
		Long:  longHelp("search"),
		Example: `  memdir search tabs
  memdir search --transcripts "connection pool"
  memdir search --transcripts --regex 'pnpm|yarn' --role user --since 2026-11-01
  memdir search --transcripts -C 2 --project ~/src/api --json migration`,
		Args: wordsArgs("a PATTERN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = strings.Join(args, " ")
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
	opt.Project = a.env().ProjectPath()
	results := []search.Result{}
	out := bufio.NewWriterSize(a.stdout, 64<<10)
	defer out.Flush()
	start := time.Now()
	stats, err := env.SearchTranscripts(a.ctx, opt, since, a.report(), func(r search.Result) error {
		if a.json {
			results = append(results, r)
		} else {
			search.WriteText(out, r, env.Loc, opt.Context > 0)
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case a.json:
		return printJSONTo(out, map[string]any{"results": results, "stats": stats})
	}
	return workspace.WriteSearchSummary(a.stderr, stats, time.Since(start), isTerminal(a.stdout))
}

func (a *app) searchMemories(opt search.Options) error {
	m, err := search.NewMatcher(opt)
	if err != nil {
		return withHint(err, "see 'memdir search --help'")
	}
	l, err := a.layout()
	if err == nil {
		err = a.env().CheckProject()
	}
	if err != nil {
		return err
	}
	hits, files, err := workspace.SearchProject(a.env(), l, m, opt.Limit, a.report())
	if errors.Is(err, memdir.ErrNotFound) {
		if a.json {
			return a.printJSON(map[string]any{"results": []workspace.MemoryHit{}})
		}
		fmt.Fprintf(a.stderr, "No memories yet for %s.\n", l.ProjectRoot)
		return nil
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(map[string]any{"results": hits})
	}
	return workspace.WriteMemoryHits(a.stdout, a.stderr, hits, files)
}
