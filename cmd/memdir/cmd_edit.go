package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/spf13/cobra"
)

func (a *app) editCmd() *cobra.Command {
	var from string
	cmd := &cobra.Command{
		Use:   "edit NAME",
		Short: "Open a memory in $EDITOR, and check it before saving",
		Long: `Edit opens a copy of the memory in $VISUAL or $EDITOR (default vi). When the
editor exits, the copy is checked: frontmatter must parse and the type must be
user, feedback, project or reference. A valid copy replaces the memory (its
updated date moves to now, its index line is refreshed, secrets are redacted);
an invalid one is kept aside and the memory is left as it was. If another
program changed the memory while you edited, nothing is overwritten.

--from FILE takes the new version from FILE instead of an editor, with the
same checks: the way back in for an edit that was kept aside.`,
		Example: `  memdir edit prefer-tabs
  EDITOR="code --wait" memdir edit "Release freeze"
  memdir edit prefer-tabs --from /tmp/memdir-edit-123-prefer-tabs.md`,
		Args: exactArgs(1, "a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runEdit(args[0], from)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "take the new version from this file instead of opening an editor")
	return cmd
}

func (a *app) runEdit(name, from string) error {
	st, _, err := a.store(false)
	if err != nil {
		return err
	}
	orig, file, err := st.Raw(name)
	if err != nil {
		return err
	}
	if from != "" {
		edited, err := readCapped(from)
		if err != nil {
			return err
		}
		return a.saveEdit(st, file, orig, edited, from)
	}
	editor := a.getenv("VISUAL")
	if editor == "" {
		editor = a.getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	draft, err := os.CreateTemp("", "memdir-edit-*-"+file)
	if err != nil {
		return err
	}
	draftPath := draft.Name()
	_, err = draft.Write(orig)
	if cerr := draft.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(draftPath)
		return err
	}
	argv := strings.Fields(editor)
	c := exec.CommandContext(a.ctx, argv[0], append(argv[1:], draftPath)...)
	c.Stdin, c.Stdout, c.Stderr = a.stdin, a.stderr, a.stderr
	if f, ok := a.stdin.(*os.File); ok {
		c.Stdin = f
	}
	if err := c.Run(); err != nil {
		os.Remove(draftPath)
		return withHint(fmt.Errorf("editor %q: %w", editor, err), "set $EDITOR to an editor that waits until you close the file")
	}
	edited, err := readCapped(draftPath)
	if err != nil {
		return err
	}
	if err := a.saveEdit(st, file, orig, edited, draftPath); err != nil {
		return err
	}
	os.Remove(draftPath)
	return nil
}

// saveEdit checks an edited version and saves it over orig; draft is where
// the edit stays when it cannot be saved.
func (a *app) saveEdit(st *memdir.Store, file string, orig, edited []byte, draft string) error {
	if bytes.Equal(edited, orig) {
		if a.json {
			return a.printJSON(map[string]any{"file": file, "changed": false})
		}
		a.printf("no changes to %s\n", file)
		return nil
	}
	again := fmt.Sprintf("memdir edit %s --from %s", strings.TrimSuffix(file, ".md"), draft)
	m, err := memdir.Parse(file, edited)
	if err != nil {
		return withHint(err, "your edit is kept in %s; fix it there, then run '%s'", draft, again)
	}
	res, err := st.Save(a.ctx, m, memdir.SaveOptions{IfMatch: orig})
	if err != nil {
		if errors.Is(err, memdir.ErrNameTaken) {
			return withHint(err, "give this memory another name in %s, then run '%s' (or forget the other memory first)", draft, again)
		}
		if errors.Is(err, memdir.ErrConflict) {
			return withHint(err, "another program changed %s while you edited; your version is kept in %s ('%s' applies it over theirs)", file, draft, again)
		}
		return withHint(err, "your edit is kept in %s; '%s' tries again", draft, again)
	}
	return a.reportSave(res)
}

func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, memdir.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > memdir.MaxFileSize {
		return nil, fmt.Errorf("%s is over %d bytes: not a memory", filepath.Base(path), memdir.MaxFileSize)
	}
	return b, nil
}
