package workspace

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// ScopeAll is the list filter that keeps both folders: the private
// memories, then the team folder's.
const ScopeAll = "all"

// SplitScope is the scope and name a front end was given: a name written
// "team/<file>" with no scope (or scope team) is that file of the team
// folder. An explicit scope private leaves the name as it is.
func SplitScope(scope, name string) (string, string) {
	name = strings.TrimSpace(name)
	if rest, ok := strings.CutPrefix(name, TeamPrefix); ok && rest != "" && (scope == "" || scope == memdir.ScopeTeam) {
		return memdir.ScopeTeam, rest
	}
	return scope, name
}

// CheckScope refuses a scope other than private, team (or, with all set,
// all); "" is accepted.
func CheckScope(scope string, all bool) error {
	switch scope {
	case "", memdir.ScopePrivate, memdir.ScopeTeam:
		return nil
	case ScopeAll:
		if all {
			return nil
		}
	}
	if all {
		return hint.With(fmt.Errorf("invalid scope %q", scope), "use --scope private, team or all")
	}
	return hint.With(fmt.Errorf("invalid scope %q", scope), "use --scope private or --scope team")
}

// ForScope is the workspace of scope beside w: w itself for "" and
// private, its team folder for team (ErrNoTeam, with a hint, when the
// project has none and create is unset).
func (w *Workspace) ForScope(scope string, create bool) (*Workspace, error) {
	if err := CheckScope(scope, false); err != nil {
		return nil, err
	}
	if scope == memdir.ScopeTeam {
		return w.Team(create)
	}
	return w, nil
}

// ShownName is how a memory of w is named next to memories of the other
// folders: its file, with TeamPrefix for a team memory and GlobalPrefix
// for one of the user's global folder.
func (w *Workspace) ShownName(file string) string {
	switch {
	case w.isTeam:
		return TeamPrefix + file
	case w.isGlobal:
		return GlobalPrefix + file
	}
	return file
}

// TeamMemoryError says a name given without a scope, not found among the
// private memories, is a memory of the project's team folder. It is
// memdir.ErrNotFound for the private folder (errors.Is), but its text
// says only what is true: the name is a team memory.
type TeamMemoryError struct {
	Name string // as given
	File string // the team folder's file
}

func (e *TeamMemoryError) Error() string {
	return fmt.Sprintf("%q is a team memory (%s%s)", e.Name, TeamPrefix, e.File)
}

// Unwrap is memdir.ErrNotFound: the name is no private memory.
func (e *TeamMemoryError) Unwrap() error { return memdir.ErrNotFound }

// NotPrivate turns err, name not found among the private memories, into
// a TeamMemoryError, with a hint naming team/<file>, when the project's
// team folder holds name: the command then needs that name or --scope
// team (for a forget, that is a delete for every collaborator once
// committed). The private folder may not exist at all. Any other err is
// returned as it is.
func NotPrivate(env Env, l paths.Layout, command, name string, err error) error {
	if !errors.Is(err, memdir.ErrNotFound) {
		return err
	}
	var te *TeamMemoryError
	if errors.As(err, &te) {
		return err
	}
	file, ok := TeamFileOf(env, l, name)
	if !ok {
		return err
	}
	msg := &TeamMemoryError{Name: name, File: file}
	if command == "" {
		return msg
	}
	arg := name
	if strings.ContainsAny(arg, " \t'\"") {
		arg = fmt.Sprintf("%q", arg)
	}
	if command == "forget" {
		return hint.With(msg, "memdir forget %s%s (or --scope team %s); a team delete is a delete for every collaborator once committed", TeamPrefix, file, arg)
	}
	return hint.With(msg, "memdir %s %s%s (or --scope team %s)", command, TeamPrefix, file, arg)
}

// TeamFileOf is the file of the project's team folder that name (a name,
// slug or file name) resolves to, and whether there is one.
func TeamFileOf(env Env, l paths.Layout, name string) (string, bool) {
	t, err := OpenTeam(env, l, false)
	if err != nil {
		return "", false
	}
	file, err := t.Store.Resolve(name)
	return file, err == nil
}

// SavedTo is the scope of the folder a save of w wrote to: team when it
// went to the project's team folder (w itself, or Save with scope team),
// else private.
func (w *Workspace) SavedTo(res memdir.SaveResult) string {
	t := w
	if !w.isTeam {
		if w.team == nil {
			return memdir.ScopePrivate
		}
		t = w.team
	}
	if filepath.Dir(res.Path) == t.Store.Dir() {
		return memdir.ScopeTeam
	}
	return memdir.ScopePrivate
}
