package main

import (
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) markCmd() *cobra.Command {
	var helpful, wrong bool
	var note string
	cmd := &cobra.Command{
		Use:     "mark NAME --helpful|--wrong [--note TEXT]",
		Short:   "Mark a memory helpful or wrong (evidence that 'list --stats' shows)",
		Long:    "Mark records that a memory helped or was wrong, with a note, beside the memory folder\n(in .memdir-usage.json, never in the memory file).",
		Example: "  memdir mark deploy-freeze --wrong --note 'the freeze ended in March'",
		Args:    exactArgs(1, "a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, err := a.workspace(false)
			if err != nil {
				return err
			}
			m, err := ws.Mark(a.ctx, args[0], workspace.Verdict(helpful, wrong), note, "cli")
			if err != nil {
				return err
			}
			a.printedJSON = a.json
			return m.Write(a.stdout, a.stderr, a.json)
		},
	}
	cmd.Flags().BoolVar(&helpful, "helpful", false, "the memory helped")
	cmd.Flags().BoolVar(&wrong, "wrong", false, "the memory is wrong")
	cmd.MarkFlagsMutuallyExclusive("helpful", "wrong")
	cmd.Flags().StringVar(&note, "note", "", "why, in a few words")
	return cmd
}
