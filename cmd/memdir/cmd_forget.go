package main

import (
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) forgetCmd() *cobra.Command {
	var purge bool
	cmd := &cobra.Command{
		Use:   "forget NAME [--purge]",
		Short: "Remove a memory and its index line",
		Long:  longHelp("forget"),
		Example: `  memdir forget prefer-tabs
  memdir forget "Release freeze" --purge`,
		Args: exactArgs(1, "a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, _, err := a.store(false)
			if err != nil {
				return err
			}
			res, err := st.Forget(a.ctx, args[0], purge)
			if err != nil {
				return workspace.ForgetNotFound(st, args[0], err)
			}
			if a.json {
				return a.printJSON(res)
			}
			switch {
			case res.Removed && res.Purged:
				a.printf("deleted %s\n", res.File)
			case res.MovedTo != "":
				a.printf("forgot %s (kept in %s)\n", res.File, res.MovedTo)
			default:
				a.printf("removed the index line of %s (the file was already gone)\n", res.File)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&purge, "purge", false, "delete the file instead of keeping it in .forgotten/")
	return cmd
}
