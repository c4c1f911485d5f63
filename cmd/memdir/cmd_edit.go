package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) editCmd() *cobra.Command {
	var from, scope string
	cmd := &cobra.Command{
		Use:   "edit NAME [--scope private|team]",
		Short: "Open a memory in $EDITOR, and check it before saving",
		Long:  longHelp("edit"),
		Example: `  memdir edit prefer-tabs
  EDITOR="code --wait" memdir edit "Release freeze"
  memdir edit prefer-tabs --from /tmp/memdir-edit-123-prefer-tabs.md
  memdir edit team/deploy-flow.md`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runEdit(scope, strings.Join(args, " "), from)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "take the new version from this file instead of opening an editor")
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team")
	return cmd
}

func (a *app) runEdit(scope, name, from string) error {
	ws, scope, name, err := a.named(scope, name, "edit")
	if err != nil {
		return err
	}
	orig, file, err := ws.Store.Raw(name)
	if err != nil {
		return a.notPrivate(scope, "edit", name, err)
	}
	draft := from
	if from == "" {
		if draft, err = a.editInEditor(file, orig, "memdir edit "+strings.TrimSuffix(file, ".md")); err != nil {
			return err
		}
	}
	edited, err := workspace.ReadEdit(draft)
	if err != nil {
		return err
	}
	res, changed, err := ws.SaveEdit(a.ctx, file, orig, edited, draft)
	if err != nil {
		return err
	}
	if from == "" {
		os.Remove(draft)
	}
	if !changed {
		if a.json {
			return a.printJSON(map[string]any{"file": file, "changed": false})
		}
		a.printf("no changes to %s\n", file)
		return nil
	}
	return a.reportSave(res)
}

// editInEditor writes orig to a draft file named after file, opens it in
// $VISUAL or $EDITOR (vi on a terminal) and returns the draft's path once
// the editor exits. retry is the command that takes a file instead.
func (a *app) editInEditor(file string, orig []byte, retry string) (string, error) {
	editor := cmp.Or(a.getenv("VISUAL"), a.getenv("EDITOR"))
	if editor == "" && !isTerminal(a.stdin) {
		// No one to type into vi: a script or an agent would hang.
		return "", withHint(errors.New("no $EDITOR or $VISUAL is set and standard input is not a terminal"),
			"give the new version with '%s --from FILE', or set $EDITOR", retry)
	}
	editor = cmp.Or(editor, "vi")
	draft, err := workspace.Draft(file, orig)
	if err != nil {
		return "", err
	}
	argv := strings.Fields(editor)
	c := exec.CommandContext(a.ctx, argv[0], append(argv[1:], draft)...)
	c.Stdin, c.Stdout, c.Stderr = a.stdin, a.stderr, a.stderr
	if f, ok := a.stdin.(*os.File); ok {
		c.Stdin = f
	}
	if err := c.Run(); err != nil {
		os.Remove(draft)
		return "", withHint(fmt.Errorf("editor %q: %w", editor, err), "set $EDITOR to an editor that waits until you close the file")
	}
	return draft, nil
}
