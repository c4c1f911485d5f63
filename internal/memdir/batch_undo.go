package memdir

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/hint"
)

// Undo puts back, byte for byte, every file the batch id changed (id ""
// is the newest batch not undone), under the lock; a file changed since
// the batch is ErrConflict, unless force. The files a batch created (a
// new memory, a version in ForgottenDir) are removed; with force, what a
// memory file held since is kept first as a version in ForgottenDir
// (info.Kept), so nothing is lost. An undo is atomic as a batch is: one
// cut short is finished by the next Open.
func (s *Store) Undo(ctx context.Context, id string, force bool) (BatchInfo, error) {
	unlock, err := s.Lock(ctx) // finishes a batch or undo a crash cut short first
	if err != nil {
		return BatchInfo{}, err
	}
	defer unlock()
	infos, err := s.Batches()
	if err != nil {
		return BatchInfo{}, err
	}
	var info BatchInfo
	found := false
	for _, in := range infos {
		if id == "" && !in.Undone || id != "" && in.ID == id {
			info, found = in, true
			break
		}
	}
	switch {
	case !found && id == "":
		return BatchInfo{}, hint.With(fmt.Errorf("no batch to undo: %w", ErrNotFound), "'memdir dream --apply' makes one; every batch applied is undone already")
	case !found:
		return BatchInfo{}, hint.With(fmt.Errorf("no batch %s (journals are kept for the last %d batches, 90 days): %w", id, keepJournals, ErrNotFound), "run 'memdir dream --undo' to undo the newest batch")
	case info.Undone:
		return info, hint.With(fmt.Errorf("batch %s was undone already: %w", info.ID, ErrInvalid), "run 'memdir dream --undo' to undo the newest batch not undone")
	}
	_, changes, err := s.readJournal(info.ID)
	if err != nil {
		return info, err
	}
	var moved []string
	later := map[string][]byte{} // memories changed since the batch: what they hold now
	for _, c := range changes {
		cur, ok, err := s.readJournaled(c.Path)
		if err != nil {
			return info, err
		}
		if ok != c.Exists || !bytes.Equal(cur, c.After) {
			moved = append(moved, c.Path)
			if ok && !strings.Contains(c.Path, "/") && !IsIndexName(c.Path) {
				later[c.Path] = cur
			}
		}
	}
	if len(moved) > 0 && !force {
		return info, hint.With(fmt.Errorf("%s changed since batch %s: %w", strings.Join(moved, ", "), info.ID, ErrConflict),
			"undo the later batches first ('memdir dream --undo'), or undo this one anyway with --force: the later versions of those memories are kept ('memdir restore')")
	}
	for _, f := range slices.Sorted(maps.Keys(later)) {
		kept, err := s.keepVersion(f, later[f])
		if err != nil {
			return info, fmt.Errorf("keep the later version of %s: %w (nothing was undone)", f, err)
		}
		info.Kept = append(info.Kept, filepath.ToSlash(strings.TrimPrefix(kept, s.Dir()+string(filepath.Separator))))
	}
	if err := s.markPending(info.ID); err != nil {
		return info, err
	}
	if err := s.finishMark(info.ID, markUndoing); err != nil {
		_ = s.clearPending()
		return info, fmt.Errorf("undo batch %s: %w (nothing was changed)", info.ID, err)
	}
	if err := s.applyChanges(changes, true); err != nil {
		return info, hint.With(fmt.Errorf("undo batch %s, cut short: %w", info.ID, err), "free the disk or fix the folder's permissions, then run 'memdir doctor': the next memdir command finishes the undo")
	}
	if err := s.finishJournal(info.ID, markUndone); err != nil {
		return info, hint.With(fmt.Errorf("batch %s was undone, but not marked so: %w", info.ID, err), "run 'memdir doctor': the next memdir command finishes it")
	}
	// A ForgottenDir the batch made holds nothing now: gone with it, so the
	// folder is as it was.
	_ = os.Remove(s.Path(ForgottenDir)) // fails, as it should, when it holds anything
	info.Undone = true
	return info, nil
}
