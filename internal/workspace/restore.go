package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// Versions lists the kept versions of a memory (those edits replaced and
// forgets moved aside), newest first.
func (w *Workspace) Versions(name string) ([]memdir.Version, error) {
	vs, err := w.Store.Versions(name)
	if errors.Is(err, memdir.ErrNotFound) {
		if m, gerr := w.Store.Get(name); gerr == nil {
			// The memory is there; it has no version kept yet.
			return nil, hint.With(fmt.Errorf("%s has no kept version yet: %w", m.File, memdir.ErrNotFound), "versions are kept by 'memdir edit' and 'memdir forget' (not --purge), not by a save that replaces a memory")
		}
		return nil, hint.With(err, "versions are kept by 'memdir edit' and 'memdir forget' (not --purge); name the memory by its file or its name")
	}
	return vs, err
}

// Restore puts a kept version of a memory back, the newest unless version
// names another: its file and its MEMORY.md line. The live version it
// replaces, if any, is kept in turn, so a restore can be undone by another.
func (w *Workspace) Restore(ctx context.Context, name, version string) (memdir.RestoreResult, error) {
	res, err := w.Store.Restore(ctx, name, version)
	switch {
	case errors.Is(err, memdir.ErrNotFound) && version != "":
		return res, hint.With(err, "'memdir restore %s --list' shows its versions", name)
	case errors.Is(err, memdir.ErrNotFound):
		return res, hint.With(err, "versions are kept by 'memdir edit' and 'memdir forget' (not --purge); 'memdir list' shows the live memories")
	case errors.Is(err, memdir.ErrInvalid):
		return res, hint.With(err, "'memdir restore %s --list' shows its other versions", name)
	}
	return res, err
}
