package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) contextCmd() *cobra.Command {
	var days int
	var list bool
	cmd := &cobra.Command{
		Use:   "context [PROJECT_PATH]",
		Short: "Print a project's memory context, or list the known projects",
		Long:  longHelp("context"),
		Example: `  memdir context
  memdir context ~/src/api --days 3
  memdir context --list --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list && len(args) > 0 {
				return withHint(errors.New("--list takes no PROJECT_PATH"), "run 'memdir context --list', then 'memdir context PATH'")
			}
			if days < 0 {
				return withHint(fmt.Errorf("--days %d is negative", days), "use --days 7 for the last seven work days")
			}
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			env.WarnHome(a.report())
			ix, err := env.LoadProjectsIndex(a.ctx, a.report())
			if err != nil {
				return err
			}
			if list {
				return a.listProjects(ix)
			}
			if len(args) == 1 {
				a.project = args[0]
				if !filepath.IsAbs(a.project) {
					a.project = filepath.Join(a.cwd, a.project)
				}
				if _, err := os.Stat(a.project); err != nil {
					a.warnf("%s does not exist here; showing what memdir has recorded for that path", a.project)
				}
				if env, err = a.transcriptsEnv(); err != nil {
					return err
				}
			}
			return a.printContext(env, ix, days)
		},
	}
	cmd.Flags().IntVar(&days, "days", 7, "how many of the latest work days to show")
	cmd.Flags().BoolVar(&list, "list", false, "list the known projects")
	return cmd
}

func (a *app) listProjects(ix sessions.ProjectsIndex) error {
	out := workspace.KnownProjects(ix)
	if a.json {
		return a.printJSON(map[string]any{"projects": out})
	}
	return workspace.WriteKnownProjects(a.stdout, out)
}

func (a *app) printContext(env transcriptsEnv, ix sessions.ProjectsIndex, days int) error {
	c, err := env.Context(ix, days)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(c)
	}
	a.printf("%s", c.Markdown())
	return nil
}
