package main

import (
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) forgetCmd() *cobra.Command {
	var purge bool
	var scope string
	cmd := &cobra.Command{
		Use:   "forget NAME [--purge] [--scope private|team]",
		Short: "Remove a memory and its index line",
		Long:  longHelp("forget"),
		Example: `  memdir forget prefer-tabs
  memdir forget "Release freeze" --purge
  memdir forget --scope team deploy-flow`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, scope, name, err := a.named(scope, strings.Join(args, " "), "forget")
			if err != nil {
				return err
			}
			st := ws.Store
			res, err := st.Forget(a.ctx, name, purge)
			if err != nil {
				// Not a private memory but a team one: a team delete is a
				// delete for every collaborator, so it takes --scope team.
				return a.notPrivate(scope, "forget", name, workspace.ForgetNotFound(st, name, err))
			}
			if a.json {
				return a.printJSON(res)
			}
			file := ws.ShownName(res.File)
			switch {
			case res.Tombstone != "":
				// The deletion travels with the repository: the file's
				// removal and its tombstone are committed together.
				a.printf("forgot %s; tombstone %s — commit both\n", file, filepath.ToSlash(filepath.Join(paths.TeamFolder, res.Tombstone)))
				if res.MovedTo != "" {
					a.printf("  (a local copy is kept in %s)\n", res.MovedTo)
				}
			case res.Removed && res.Purged:
				a.printf("deleted %s\n", file)
			case res.MovedTo != "":
				a.printf("forgot %s (kept in %s)\n", file, res.MovedTo)
			default:
				a.printf("removed the index line of %s (the file was already gone)\n", file)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&purge, "purge", false, "delete the file instead of keeping it in .forgotten/")
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team: forgetting a team memory deletes it for every collaborator once committed")
	return cmd
}
