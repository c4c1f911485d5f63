package main

import (
	"os"
	"time"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/spf13/cobra"
)

// hooksLog is where the hooks log their failures ('memdir doctor' reads it).
const hooksLog = hooks.LogFile

func (a *app) hookCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "hook EVENT",
		Short:   "Run as a Claude Code hook (reads the event JSON on stdin)",
		Long:    longHelp("hook"),
		Example: `  echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"deploy on friday?","cwd":"'$PWD'"}' | memdir hook UserPromptSubmit`,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.stdin == os.Stdin {
				// A hook that hangs on something nobody foresaw must not
				// hold the agent up to its own timeout: leave, silently.
				time.AfterFunc(hooks.Deadline, func() { os.Exit(exitOK) })
			}
			hooks.Runner{Env: a.env(), Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr}.Run(a.ctx, args)
			return nil // fail open: a hook always exits 0
		},
	}
}
