package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/spf13/cobra"
)

func (a *app) installCmd() *cobra.Command {
	return a.settingsCmd(true, &cobra.Command{
		Use:   "install claude [--scope user|project|local] [--dry-run]",
		Short: "Wire memdir into Claude Code's hooks",
		Long:  longHelp("install"),
		Example: `  memdir install claude
  memdir install claude --scope project --dry-run`,
	})
}

func (a *app) uninstallCmd() *cobra.Command {
	return a.settingsCmd(false, &cobra.Command{
		Use:   "uninstall claude [--scope user|project|local] [--dry-run]",
		Short: "Take memdir's hooks out of Claude Code's settings",
		Long:  longHelp("uninstall"),
		Example: `  memdir uninstall claude
  memdir uninstall claude --scope local --dry-run`,
	})
}

// settingsCmd completes install's or uninstall's command with their
// common arguments, flags and action.
func (a *app) settingsCmd(install bool, cmd *cobra.Command) *cobra.Command {
	o := claudeinstall.Options{Uninstall: !install}
	cmd.Args = a.agentArg
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var err error
		if o.Layout, err = a.layout(); err != nil {
			return err
		}
		if install {
			if o.Binary, err = os.Executable(); err != nil {
				return fmt.Errorf("find the memdir binary: %w", err)
			}
		}
		res, err := claudeinstall.Apply(o)
		if err != nil {
			return err
		}
		if a.json {
			return a.printJSON(res)
		}
		a.printInstall(res, o)
		return nil
	}
	if install {
		cmd.Flags().BoolVar(&o.Force, "force", false, "install even though the memdir plugin is enabled")
	}
	cmd.Flags().BoolVar(&o.NoMCP, "no-mcp", false, "leave the MCP server registration alone")
	cmd.Flags().StringVar(&o.Scope, "scope", "user", "which settings file: user, project or local")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "print the change, write nothing")
	return cmd
}

func (a *app) agentArg(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 1 && args[0] == "claude":
		return nil
	case len(args) == 1:
		// Other agents have no hooks memdir can install: they reach it
		// through MCP or the CLI.
		return withHint(fmt.Errorf("%s knows Claude Code only, not %q", cmd.CommandPath(), args[0]),
			"other agents use memdir through its MCP server ('memdir mcp --help' shows how to register it) or the CLI")
	}
	return withHint(fmt.Errorf("%s needs the agent: claude", cmd.CommandPath()), "run '%s claude'", cmd.CommandPath())
}

// printInstall says what an install or uninstall did, file by file.
func (a *app) printInstall(res claudeinstall.Result, o claudeinstall.Options) {
	verb := map[bool]string{true: "uninstall", false: "install"}[o.Uninstall]
	for _, e := range []*claudeinstall.FileEdit{&res.FileEdit, res.MCP} {
		if e == nil {
			continue
		}
		what := "memdir hooks: none"
		if len(res.Hooks) > 0 {
			what = "memdir hooks: " + strings.Join(res.Hooks, ", ")
		}
		if e == res.MCP {
			what = "memdir MCP server"
		}
		switch {
		case !e.Changed:
			a.printf("%s: nothing to %s (%s)\n", e.File, verb, what)
		case o.DryRun:
			a.printf("%s would change (--dry-run: nothing written):\n%s", e.File, e.Diff)
		default:
			a.printf("%s: %sed (%s)\n", e.File, verb, what)
			if e.Removed {
				a.printf("%s: removed, nothing was left in it\n", e.File)
			}
			if e.Backup != "" {
				a.printf("backup: %s\n", e.Backup)
			}
		}
	}
	if !o.Uninstall && !o.DryRun && (res.Changed || res.MCP != nil && res.MCP.Changed) {
		a.printf("next: start a new Claude Code session; 'memdir uninstall claude --scope %s' undoes this\n", o.Scope)
	}
}
