package main

import (
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) verifyCmd() *cobra.Command {
	var opt workspace.VerifyOptions
	cmd := &cobra.Command{
		Use:   "verify [--dry-run] [--fix] [--json]",
		Short: "Check what memories name against the project; mark stale ones",
		Long: `Verify checks what each memory names (refs, description, body) against the project now:
paths exist or were renamed (git history gives the new path); symbols (ParseConfig(),
Store.Save, NewClient) and flags (given to make, a script or a program the project builds) are
found by git grep (outside git, a bounded search); a command's make target, npm script, script
or program (on PATH) exists; packages (go get x in code) are in go.mod, package.json, requirements*.txt,
pyproject.toml or Cargo.toml. Not checked: URLs, what a memory forbids ("never use X"). A failed claim marks the memory "stale:
<reason> (<date>)", shown by recall; a mark that no longer holds is cleared. --fix replaces
renamed paths. 'memdir restore NAME' undoes a change. No shell is run. Exit 0 when stale too.`,
		Example: "  memdir verify --dry-run\n  memdir verify --fix --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.workspace(false)
			if err != nil {
				return err
			}
			rep, err := ws.Verify(a.ctx, opt)
			if err != nil {
				return err
			} else if a.json {
				return a.printJSON(rep)
			}
			return workspace.WriteVerify(a.stdout, rep)
		},
	}
	cmd.Flags().BoolVar(&opt.DryRun, "dry-run", false, "report only: write no stale mark and no fix")
	cmd.Flags().BoolVar(&opt.Fix, "fix", false, "replace renamed paths by their new path")
	return cmd
}
