package main

import (
	"fmt"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) quickstartCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "See memdir work end to end in a throwaway folder, offline",
		Long:  longHelp("quickstart"),
		Example: `  memdir quickstart
  memdir quickstart --dir /tmp/try-memdir --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runQuickstart(dir)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "where to make the throwaway home and project (default: a new temporary folder)")
	return cmd
}

func (a *app) runQuickstart(dir string) error {
	sb, err := examples.NewSandbox(dir)
	if err != nil {
		return err
	}
	o := workspace.QuickstartOptions{Holder: a.cmdName, Report: a.report()}
	if !a.json {
		o.Say = a.printf
	}
	out, err := workspace.Quickstart(a.ctx, sb, o)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(out)
	}
	flags := fmt.Sprintf("--home %s --project %s", sb.Home, sb.Project)
	a.printf("\n\nNext, explore the throwaway folder (type 'go run ./cmd/memdir' for 'memdir' if it is not installed):\n")
	a.printf("   memdir %s list\n", flags)
	a.printf("   memdir %s show prefer-table-driven-tests\n", flags)
	a.printf("   memdir %s doctor\n", flags)
	a.printf("   memdir %s recall \"integration tests against the database\" --explain\n", flags)
	a.printf("   CODEX_HOME=%s memdir %s search --transcripts context\n", sb.CodexHome, flags)
	a.printf("   memdir %s context    # what an agent starts a session with: memories, learnings, daily summaries\n", flags)
	a.printf("   memdir %s diary list    # the task diaries; then: memdir %s patterns\n", flags, flags)
	a.printf("Then, in your own project:\n")
	a.printf("   memdir save --global --type user --name \"My role\" --description \"...\" --body \"...\"    # about you: recalled in every project\n")
	a.printf("   memdir install claude    # Claude Code gets recall with every prompt, and its sessions are extracted\n")
	a.printf("The throwaway folder stays for you to explore; when you are done: rm -rf %s\n", sb.Dir)
	return nil
}
