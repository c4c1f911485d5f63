package main

// TEMP STUB (issue 16): replaced by the team commands' owner.

import (
	"errors"

	"github.com/spf13/cobra"
)

func (a *app) teamCmd() *cobra.Command {
	return &cobra.Command{Use: "team", Short: "Team memory shared through git", RunE: func(*cobra.Command, []string) error { return errors.New("not yet") }}
}
