package main

import (
	"fmt"
	"os"

	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) initCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the memory folder for this project",
		Long: `Init creates this project's memory folder (mode 0700) and the synthesis
folder, and prints where they are. Running it again changes nothing. Saving a
memory creates the folder too; init is for seeing where memories will go.`,
		Example: `  cd ~/src/api && memdir init`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.layout()
			if err != nil {
				return err
			}
			_, statErr := os.Stat(l.MemoryDir)
			ws, err := workspace.Init(a.env(), l)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(map[string]any{"memory_dir": ws.Store.Dir(), "synthesis_dir": l.SynthesisDir, "project_root": l.ProjectRoot, "existed": statErr == nil})
			}
			a.printf("memory folder: %s%s\nsynthesis folder: %s\n", ws.Store.Dir(), map[bool]string{true: " (already exists; nothing changed)"}[statErr == nil], l.SynthesisDir)
			a.printf("next: memdir save --type user --name \"My role\" --description \"...\" --body \"...\"\n")
			return nil
		},
	}
}

func (a *app) doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the memory folder, its files and its index",
		Long:  longHelp("doctor"),
		Example: `  memdir doctor
  memdir doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			checks := workspace.Doctor(a.env(), workspace.DoctorOptions{HooksLog: hooksLog})
			fails := workspace.Failed(checks)
			if a.json {
				if err := a.printJSON(map[string]any{"checks": checks, "problems": fails}); err != nil {
					return err
				}
			} else {
				for _, c := range checks {
					a.printf("%-5s %-12s %s\n", c.Status, c.Name, c.Line())
				}
			}
			if fails > 0 {
				return withHint(fmt.Errorf("%s found", sessions.Plural(fails, "problem")), "fix what is marked fail above; 'memdir index --rebuild' fixes index lines")
			}
			return nil
		},
	}
}
