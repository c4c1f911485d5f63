package main

import (
	"strings"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) markCmd() *cobra.Command {
	var helpful, wrong bool
	var note, scope string
	cmd := &cobra.Command{
		Use:     "mark NAME --helpful|--wrong [--note TEXT] [--scope private|team]",
		Short:   "Mark a memory helpful or wrong (evidence that 'list --stats' shows)",
		Long:    "Mark records that a memory helped or was wrong, with a note, beside the memory folder\n(in .memdir-usage.json, never in the memory file).",
		Example: "  memdir mark deploy-freeze --wrong --note 'the freeze ended in March'\n  memdir mark team/deploy-flow.md --helpful",
		Args:    wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// A team memory (team/<file>, or --scope team) is marked in
			// the team folder's own usage file, which stays local.
			ws, scope, name, err := a.named(scope, strings.Join(args, " "), "mark")
			if err != nil {
				return err
			}
			m, err := ws.Mark(a.ctx, name, workspace.Verdict(helpful, wrong), note, "cli")
			if err != nil {
				return a.notPrivate(scope, "mark", name, err)
			}
			a.printedJSON = a.json
			return m.Write(a.stdout, a.stderr, a.json)
		},
	}
	cmd.Flags().BoolVar(&helpful, "helpful", false, "the memory helped")
	cmd.Flags().BoolVar(&wrong, "wrong", false, "the memory is wrong")
	cmd.MarkFlagsMutuallyExclusive("helpful", "wrong")
	cmd.Flags().StringVar(&note, "note", "", "why, in a few words")
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team: a team memory's marks stay on this machine (the team folder's .memdir-usage.json is not committed)")
	return cmd
}
