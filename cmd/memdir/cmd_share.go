package main

// TEMP STUB (issue 16): replaced by share/unshare's owner.

import (
	"errors"

	"github.com/spf13/cobra"
)

func (a *app) shareCmd(un bool) *cobra.Command {
	use := "share NAME"
	if un {
		use = "unshare NAME"
	}
	return &cobra.Command{Use: use, Short: "Share a private memory with the team", Args: exactArgs(1, "a memory NAME"), RunE: func(*cobra.Command, []string) error { return errors.New("not yet") }}
}
