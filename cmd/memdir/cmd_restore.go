package main

import (
	"strings"

	"github.com/memdir/memdir/internal/paths"
	"github.com/spf13/cobra"
)

func (a *app) restoreCmd() *cobra.Command {
	var list bool
	var version, scope string
	cmd := &cobra.Command{
		Use:   "restore NAME [--list] [--version STAMP] [--scope private|team]",
		Short: "Undo an edit or a forget: put a kept version of a memory back",
		Long:  longHelp("restore"),
		Example: `  memdir restore prefer-tabs
  memdir restore prefer-tabs --list
  memdir restore prefer-tabs --version 20261125T140000Z
  memdir restore --scope team deploy-flow`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, scope, name, err := a.named(scope, strings.Join(args, " "), "restore")
			if err != nil {
				return err
			}
			if list {
				vs, err := ws.Versions(name)
				if err != nil {
					return a.notPrivate(scope, "restore", name, err)
				}
				if a.json {
					return a.printJSON(map[string]any{"versions": vs})
				}
				for _, v := range vs {
					a.printf("%s  %s  %s\n", v.Version, v.File, v.Description)
				}
				return nil
			}
			res, err := ws.Restore(a.ctx, name, version)
			if err != nil {
				return a.notPrivate(scope, "restore", name, err)
			}
			if a.json {
				return a.printJSON(res)
			}
			a.printf("restored %s (version %s)\n", ws.ShownName(res.File), res.Version)
			if ws.IsTeam() {
				a.printf("  commit %s\n", paths.TeamFolder)
			}
			if res.Replaced != "" {
				a.printf("the version it replaced is kept in %s\n", res.Replaced)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the kept versions, newest first, instead of restoring")
	cmd.Flags().StringVar(&version, "version", "", "restore this version (as --list shows it) instead of the newest")
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team")
	return cmd
}
