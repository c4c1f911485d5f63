package main

import (
	"errors"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// named opens the folder a name-taking command works on — the one --scope
// says, or the team folder for a name written team/<file> — and returns
// the scope and name it settled on (team for a team/ name; a name written
// global/<file> is that file of the user's global folder, as --global). command names the command in hints: a
// private folder that does not exist, when the team folder holds the
// name, says to use --scope team.
func (a *app) named(scope, name, command string) (*workspace.Workspace, string, string, error) {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(name), workspace.GlobalPrefix); ok && rest != "" && scope == "" {
		// global/<file>, as recall names a memory of the global folder.
		a.global, name = true, rest
	}
	scope, name = workspace.SplitScope(scope, name)
	ws, _, err := a.scoped(scope, false)
	if err != nil {
		if scope == "" && errors.Is(err, memdir.ErrNotFound) {
			return nil, scope, name, a.notPrivate(scope, command, name, err)
		}
		return nil, scope, name, err
	}
	return ws, scope, name, nil
}

// notPrivate is err, from looking name up among the private memories
// without --scope, turned into one that says name is a team memory when
// it is (workspace.NotPrivate). With a scope, err is returned as it is.
func (a *app) notPrivate(scope, command, name string, err error) error {
	if scope != "" || !errors.Is(err, memdir.ErrNotFound) {
		return err
	}
	l, lerr := a.layout()
	if lerr != nil {
		return err
	}
	return workspace.NotPrivate(a.env(), l, command, name, err)
}
