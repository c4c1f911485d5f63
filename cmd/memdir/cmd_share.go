package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// shareCmd is 'memdir share' (a private memory becomes a team memory,
// after review) or, with un, 'memdir unshare' (back to private).
func (a *app) shareCmd(un bool) *cobra.Command {
	var yes, dryRun bool
	use, short, help := "share NAME [--yes] [--dry-run]", "Make a private memory a team memory, committed with the project (after review)", "share"
	example := `  memdir share deploy-flow --dry-run
  memdir share deploy-flow
  memdir share deploy-flow --yes && git add .memdir/team`
	if un {
		use, short, help = "unshare NAME [--yes] [--dry-run]", "Make a team memory private again (the team folder keeps a tombstone)", "unshare"
		example = `  memdir unshare team/deploy-flow.md
  memdir unshare deploy-flow --yes && git add -A .memdir/team`
	}
	cmd := &cobra.Command{
		Use: use, Short: short, Long: longHelp(help), Example: example,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runShare(un, strings.Join(args, " "), yes, dryRun)
		},
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "do it without asking (required when standard input is not a terminal)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only show the memory as it would be written")
	return cmd
}

func (a *app) runShare(un bool, name string, yes, dryRun bool) error {
	verb, scope := "share", memdir.ScopeTeam
	if un {
		verb, scope = "unshare", memdir.ScopePrivate
	}
	if err := workspace.ShareableName(name); err != nil {
		return err
	}
	ws, err := a.workspace(un) // unshare may make the private folder
	if err != nil {
		return err
	}
	var p workspace.SharePlan
	if un {
		p, err = ws.PlanUnshare(name)
	} else {
		p, err = ws.PlanShare(name)
	}
	if err != nil {
		return err
	}
	where := p.File + " (private)"
	if scope == memdir.ScopeTeam {
		where = "team/" + p.File + " (as it will be committed)"
	}
	if dryRun {
		if a.json {
			return a.printJSON(struct {
				workspace.SharePlan
				DryRun bool `json:"dry_run"`
			}{p, true})
		}
		workspace.WritePreview(a.stdout, where, p.Preview)
		a.printf("dry run: nothing was written\n")
		return nil
	}
	if !yes {
		if !isTerminal(a.stdin) || a.json {
			if !a.json {
				workspace.WritePreview(a.stdout, where, p.Preview)
			}
			q := workspace.ShellQuote(name)
			return withHint(fmt.Errorf("memdir %s asks before it writes, and standard input is not a terminal", verb),
				"read the memory above (memdir %s %s --dry-run), then run: memdir %s %s --yes", verb, q, verb, q)
		}
		workspace.WritePreview(a.stdout, where, p.Preview)
		q := "Share it with everyone who clones this repository?"
		if un {
			q = "Make it private (the team folder keeps a tombstone)?"
		}
		fmt.Fprintf(a.stderr, "%s [y/N] ", q)
		line, _ := bufio.NewReader(a.stdin).ReadString('\n')
		if ans := strings.ToLower(strings.TrimSpace(line)); ans != "y" && ans != "yes" {
			return withHint(errors.New("nothing was changed"), "run memdir %s %s again when it is ready", verb, workspace.ShellQuote(name))
		}
	}
	var res workspace.ShareResult
	if un {
		res, err = ws.Unshare(a.ctx, p)
	} else {
		res, err = ws.Share(a.ctx, p)
	}
	for _, w := range res.Warnings {
		a.warnf("%s", w)
	}
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(res)
	}
	return res.WriteText(a.stdout, un)
}
