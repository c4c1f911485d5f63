package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/sessions"
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
			if res.Created {
				a.printf("created %s\n", res.Dir)
			} else {
				a.printf("%s exists already\n", res.Dir)
			}
			a.printf("link: %s\n", res.Link.Line())
			if res.Hook != nil {
				a.printf("pre-commit check: %s%s\n", res.Hook.Path, map[bool]string{false: " (already installed)"}[res.Hook.Changed])
			} else if hook {
				a.warnf("no pre-commit hook without a git repository")
			}
			a.printf("next: git add %s && git commit -m 'team memory'\n", paths.TeamFolder)
			return nil
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
			var fs []workspace.TeamFinding
			what := "the team memories"
			if staged {
				what = "the staged team memories"
				fs, err = workspace.TeamCheckStaged(a.ctx, a.env(), l)
			} else {
				fs, err = workspace.TeamCheckAt(a.ctx, a.env(), l)
				if errors.Is(err, workspace.ErrNoTeam) {
					if a.json {
						return a.printJSON(map[string]any{"dir": l.TeamDir, "exists": false, "problems": []workspace.TeamFinding{}})
					}
					a.printf("no team folder (%s): nothing to check\n", l.TeamDir)
					return nil
				}
			}
			if err != nil {
				return err
			}
			if fs == nil {
				fs = []workspace.TeamFinding{}
			}
			if a.json {
				if err := a.printJSON(map[string]any{"dir": l.TeamDir, "exists": true, "staged": staged, "problems": fs}); err != nil {
					return err
				}
			} else if len(fs) == 0 {
				a.printf("%s: nothing to fix\n", what)
			} else {
				workspace.WriteFindings(a.stdout, fs)
			}
			if len(fs) > 0 {
				h := "fix each as its line says, then run 'memdir team check' again"
				if staged {
					h = "fix each as its line says and 'git add' the result, then commit again"
				}
				return withHint(fmt.Errorf("%s in %s", sessions.Plural(len(fs), "problem"), what), "%s", h)
			}
			return nil
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
			switch {
			case uninstall && st.Changed:
				a.printf("removed memdir's check from %s\n", st.Path)
			case uninstall:
				a.printf("%s holds no memdir check: nothing to remove\n", st.Path)
			case st.Changed:
				a.printf("installed: %s runs %s team check --staged\n", st.Path, st.Binary)
			default:
				a.printf("already installed in %s\n", st.Path)
			}
			if st.Chained != "" && !uninstall {
				a.printf("the hook that was there runs after the check: %s\n", st.Chained)
			}
			return nil
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
		Args: exactArgs(1, "a team memory NAME"),
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
			res, err := ws.TeamResolve(a.ctx, args[0], choice)
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
