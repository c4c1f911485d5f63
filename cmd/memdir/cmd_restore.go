package main

import (
	"github.com/spf13/cobra"
)

func (a *app) restoreCmd() *cobra.Command {
	var list bool
	var version string
	cmd := &cobra.Command{
		Use:   "restore NAME [--list] [--version STAMP]",
		Short: "Undo an edit or a forget: put a kept version of a memory back",
		Long:  longHelp("restore"),
		Example: `  memdir restore prefer-tabs
  memdir restore prefer-tabs --list
  memdir restore prefer-tabs --version 20261125T140000Z`,
		Args: exactArgs(1, "a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.workspace(false)
			if err != nil {
				return err
			}
			if list {
				vs, err := ws.Versions(args[0])
				if err != nil {
					return err
				}
				if a.json {
					return a.printJSON(map[string]any{"versions": vs})
				}
				for _, v := range vs {
					a.printf("%s  %s  %s\n", v.Version, v.File, v.Description)
				}
				return nil
			}
			res, err := ws.Restore(a.ctx, args[0], version)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(res)
			}
			a.printf("restored %s (version %s)\n", res.File, res.Version)
			if res.Replaced != "" {
				a.printf("the version it replaced is kept in %s\n", res.Replaced)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the kept versions, newest first, instead of restoring")
	cmd.Flags().StringVar(&version, "version", "", "restore this version (as --list shows it) instead of the newest")
	return cmd
}
