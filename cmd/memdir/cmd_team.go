package main

import (
	"cmp"
	"fmt"
	"os"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) teamCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "team",
		Short: "Team memory shared through git: status, init, check, resolve, hook",
		Long:  longHelp("team"),
		Example: `  memdir team
  memdir team init --hook
  memdir team check
  memdir team resolve deploy-flow --both`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runTeamStatus() },
	}
	cmd.AddCommand(a.teamInitCmd(), a.teamCheckCmd(), a.teamInstallHookCmd(), a.teamResolveCmd(), a.teamLinkCmd())
	return cmd
}

// teamLayout is the layout of a team command, its project checked.
func (a *app) teamLayout() (paths.Layout, error) {
	l, err := a.layout()
	if err == nil {
		err = a.env().CheckProject()
	}
	return l, err
}

func (a *app) runTeamStatus() error {
	l, err := a.teamLayout()
	if err != nil {
		return err
	}
	s, err := workspace.TeamStatusOf(a.ctx, a.env(), l)
	if err != nil {
		return err
	}
	if a.json {
		return a.printJSON(s)
	}
	return s.WriteText(a.stdout)
}

func (a *app) teamInitCmd() *cobra.Command {
	var hook bool
	cmd := &cobra.Command{
		Use:   "init [--hook]",
		Short: "Create the team memory folder (.memdir/team) and link it for Claude Code",
		Long:  longHelp("team-init"),
		Example: `  memdir team init
  memdir team init --hook`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.teamLayout()
			if err != nil {
				return err
			}
			bin := ""
			if hook {
				if bin, err = selfPath(); err != nil {
					return err
				}
			}
			res, err := workspace.TeamInit(a.ctx, a.env(), l, bin)
			if err != nil {
				return err
			}
			if !res.Git {
				a.warnf("%s is not a git repository: the team folder is shared with no one until it is committed (run 'git init')", l.ProjectRoot)
			}
			if a.json {
				return a.printJSON(res)
			}
			return res.WriteText(a.stdout, hook)
		},
	}
	cmd.Flags().BoolVar(&hook, "hook", false, "also install the pre-commit hook ('memdir team install-hook')")
	return cmd
}

func (a *app) teamCheckCmd() *cobra.Command {
	var staged bool
	cmd := &cobra.Command{
		Use:   "check [--staged]",
		Short: "Scan the team memories for secrets, conflicts and misplaced files (exit 1 if any)",
		Long:  longHelp("team-check"),
		Example: `  memdir team check
  memdir team check --staged   # what the pre-commit hook runs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.teamLayout()
			if err != nil {
				return err
			}
			r, err := workspace.TeamCheckRun(a.ctx, a.env(), l, staged)
			if err != nil {
				return err
			}
			if a.json {
				err = a.printJSON(r)
			} else {
				err = r.WriteText(a.stdout)
			}
			return cmp.Or(err, r.Err())
		},
	}
	cmd.Flags().BoolVar(&staged, "staged", false, "check the versions staged for the next commit (git's index), as the pre-commit hook does")
	return cmd
}

func (a *app) teamInstallHookCmd() *cobra.Command {
	var uninstall bool
	cmd := &cobra.Command{
		Use:   "install-hook [--uninstall]",
		Short: "Install the git pre-commit hook that runs 'memdir team check --staged'",
		Long:  longHelp("team-install-hook"),
		Example: `  memdir team install-hook
  memdir team install-hook --uninstall`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.teamLayout()
			if err != nil {
				return err
			}
			var st workspace.TeamHookState
			if uninstall {
				st, err = workspace.UninstallTeamHook(a.ctx, a.env(), l)
			} else {
				bin, serr := selfPath()
				if serr != nil {
					return serr
				}
				st, err = workspace.InstallTeamHook(a.ctx, a.env(), l, bin)
			}
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(st)
			}
			return st.WriteText(a.stdout, uninstall)
		},
	}
	cmd.Flags().BoolVar(&uninstall, "uninstall", false, "remove exactly what install-hook added")
	return cmd
}

// selfPath is the running memdir's absolute path, for the hook to call.
func selfPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", withHint(fmt.Errorf("find the memdir executable: %w", err), "put memdir on your PATH, then run 'memdir team install-hook'")
	}
	return p, nil
}

func (a *app) teamResolveCmd() *cobra.Command {
	var ours, theirs, both, keep, drop bool
	cmd := &cobra.Command{
		Use:   "resolve NAME [--ours|--theirs|--both|--keep|--drop]",
		Short: "Settle a team memory with a git conflict, or one back despite its tombstone",
		Long:  longHelp("team-resolve"),
		Example: `  memdir team resolve deploy-flow
  memdir team resolve deploy-flow --both
  memdir team resolve old-runbook --drop`,
		Args: wordsArgs("a team memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			choice := ""
			for _, c := range []struct {
				set  bool
				name string
			}{{ours, workspace.ResolveOurs}, {theirs, workspace.ResolveTheirs}, {both, workspace.ResolveBoth}, {keep, workspace.ResolveKeep}, {drop, workspace.ResolveDrop}} {
				if !c.set {
					continue
				}
				if choice != "" {
					return withHint(fmt.Errorf("--%s and --%s: choose one", choice, c.name), "see 'memdir team resolve --help'")
				}
				choice = c.name
			}
			ws, _, err := a.scoped(memdir.ScopeTeam, false)
			if err != nil {
				return err
			}
			res, err := ws.TeamResolve(a.ctx, strings.Join(args, " "), choice)
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				a.warnf("%s", w)
			}
			if a.json {
				return a.printJSON(res)
			}
			return res.WriteText(a.stdout)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&ours, "ours", false, "keep the version of the branch you merged into (HEAD)")
	f.BoolVar(&theirs, "theirs", false, "keep the version of the branch you merged in")
	f.BoolVar(&both, "both", false, "keep the newer description and the lines of both bodies")
	f.BoolVar(&keep, "keep", false, "a memory back despite its tombstone stays (the tombstone goes)")
	f.BoolVar(&drop, "drop", false, "a memory back despite its tombstone is forgotten again")
	return cmd
}

func (a *app) teamLinkCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "link",
		Short:   "Link the team folder where Claude Code keeps team memory (<memory dir>/team/<mount>)",
		Long:    longHelp("team-link"),
		Example: "  memdir team link",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ws, l, err := a.scoped(memdir.ScopeTeam, false)
			if err != nil {
				return err
			}
			if err := ws.RelinkTeam(); err != nil {
				return withHint(err, "move it away, then run 'memdir team link' again")
			}
			s := workspace.TeamLink(l)
			if a.json {
				return a.printJSON(s)
			}
			a.printf("%s\n", s.Line())
			return nil
		},
	}
}
