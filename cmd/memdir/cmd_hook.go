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
		Use:   "hook EVENT",
		Short: "Run as a Claude Code hook (reads the event JSON on stdin)",
		Long: `Hook is what 'memdir install claude' registers with Claude Code. It reads the
event's JSON on stdin and answers on stdout:

  SessionStart      a one-line primer; when Claude Code's own auto memory is
                    off, the project's MEMORY.md as Claude Code would load it
  UserPromptSubmit  the memories recall picks for the prompt (see 'memdir
                    recall'), never one already given in this session, within
                    a per-session budget of 20,000 tokens and Claude Code's
                    10,000-character cap; nothing when none is relevant
  Stop, SubagentStop, PreCompact, SessionEnd
                    queue the transcript for extraction and return at once

A hook never blocks or breaks the agent: on any error it prints nothing,
exits 0, and writes one line to <home>/memory/logs/hooks.log. Every prompt
adds a line to <home>/memory/logs/recall.jsonl (session, prompt, files
injected, tokens). MEMDIR_DISABLE=1 turns every hook into a no-op.`,
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
