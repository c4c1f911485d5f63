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

	"github.com/memdir/memdir/internal/atomicfile"
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
	var index []byte             // MEMORY.md as a forced undo leaves it, when it changed since
	indexMoved := false
	touched := map[string]bool{} // the memory files the batch changed: the undo decides their lines
	for _, c := range changes {
		if !strings.Contains(c.Path, "/") && !IsIndexName(c.Path) {
			touched[c.Path] = true
		}
	}
	for _, c := range changes {
		cur, ok, err := s.readJournaled(c.Path)
		if err != nil {
			return info, err
		}
		if ok != c.Exists || !bytes.Equal(cur, c.After) {
			moved = append(moved, c.Path)
			switch {
			case ok && IsIndexName(c.Path):
				index, info.IndexKept = undoIndex(c.Before, c.After, cur, touched)
				indexMoved = !bytes.Equal(index, c.Before) && (c.Existed || len(bytes.TrimSpace(index)) > 0)
			case ok && !strings.Contains(c.Path, "/") && !IsIndexName(c.Path):
				later[c.Path] = cur
			}
		}
	}
	if len(moved) > 0 && !force {
		h := "those files were edited after the batch: undo it anyway with --force, which keeps the edits (a memory's as a version, 'memdir restore'; MEMORY.md's lines written since stay in it)"
		if laterBatches(infos, info.ID) {
			h = "undo the later batches first ('memdir dream --undo'), or " + strings.TrimPrefix(h, "those files were edited after the batch: ")
		}
		return info, hint.With(fmt.Errorf("%s changed since batch %s: %w", strings.Join(moved, ", "), info.ID, ErrConflict), "%s", h)
	}
	for _, f := range slices.Sorted(maps.Keys(later)) {
		kept, err := s.keepVersion(f, later[f])
		if err != nil {
			return info, fmt.Errorf("keep the later version of %s: %w (nothing was undone)", f, err)
		}
		info.Kept = append(info.Kept, filepath.ToSlash(strings.TrimPrefix(kept, s.Dir()+string(filepath.Separator))))
	}
	if indexMoved {
		// MEMORY.md as the undo leaves it goes in the journal before the
		// undo begins: an undo cut short is finished with it, not with
		// the bytes of before the batch.
		if err := atomicfile.WriteFile(filepath.Join(s.journalDir(info.ID), journalUndoIndex), index, FilePerm); err != nil {
			return info, fmt.Errorf("undo batch %s: %w (nothing was changed)", info.ID, err)
		}
		changes = withUndoIndex(changes, index)
	}
	if err := s.markPending(info.ID); err != nil {
		return info, err
	}
	if err := s.finishMark(info.ID, markUndoing); err != nil {
		_ = s.clearPending()
		return info, fmt.Errorf("undo batch %s: %w (nothing was changed)", info.ID, err)
	}
	if testOnlyBatchCrash != nil && testOnlyBatchCrash("undoing") {
		return info, errCrashedForTest
	}
	if err := s.applyChanges(changes, true); err != nil {
		return info, hint.With(fmt.Errorf("undo batch %s, cut short: %w", info.ID, err), "free the disk or fix the folder's permissions, then run 'memdir doctor': the next memdir command finishes the undo")
	}
	if err := s.finishJournal(info.ID, markUndone); err != nil {
		return info, hint.With(fmt.Errorf("batch %s was undone, but not marked so: %w", info.ID, err), "run 'memdir doctor': the next memdir command finishes it")
	}
	info.Undone = true
	// A ForgottenDir the batch made holds nothing now: gone with it, so the
	// folder is as it was.
	_ = os.Remove(s.Path(ForgottenDir)) // fails, as it should, when it holds anything
	return info, nil
}

// laterBatches reports a batch applied after id and not undone (infos are
// newest first).
func laterBatches(infos []BatchInfo, id string) bool {
	for _, in := range infos {
		if in.ID == id {
			return false
		}
		if !in.Undone {
			return true
		}
	}
	return false
}

// undoIndex takes a batch's change to MEMORY.md (before → after) back out
// of what the index holds now (cur), line by line: the lines the batch
// added go, the lines it removed come back (each after the line it
// followed), and every line written since (by hand, or for a memory saved
// later) stays, but for a memory the batch changed (touched): the undo
// puts that file back as it was, so its line is the one of before, or
// none. kept counts the lines that stay.
func undoIndex(before, after, cur []byte, touched map[string]bool) (out []byte, kept int) {
	lines := func(b []byte) []string { return strings.SplitAfter(string(b), "\n") }
	b, a, c := lines(before), lines(after), lines(cur)
	inB, inA := lineSet(b), lineSet(a)
	var res []string
	for _, l := range c {
		if inA[l] && !inB[l] && strings.TrimSpace(l) != "" {
			continue // the batch's line
		}
		if !inB[l] && touched[indexLineFile(l)] {
			continue // a memory the undo puts back (or removes): its line of before, if any, comes back below
		}
		if !inB[l] && strings.TrimSpace(l) != "" {
			kept++
		}
		res = append(res, l)
	}
	for i, l := range b {
		if inA[l] || slices.Contains(res, l) {
			continue
		}
		at := 0 // after the nearest line before it that is still there, else first
		for j := i - 1; j >= 0; j-- {
			if k := slices.Index(res, b[j]); k >= 0 {
				at = k + 1
				break
			}
		}
		if at > 0 && !strings.HasSuffix(res[at-1], "\n") {
			res[at-1] += "\n"
		}
		res = slices.Insert(res, at, l)
	}
	return []byte(strings.Join(res, "")), kept
}

func lineSet(lines []string) map[string]bool {
	m := make(map[string]bool, len(lines))
	for _, l := range lines {
		m[l] = true
	}
	return m
}

// journalUndoIndex is MEMORY.md as a forced undo leaves it (undoIndex), in
// the batch's journal.
const journalUndoIndex = "undo-index"

// withUndoIndex is changes with MEMORY.md's content before the batch
// replaced by index: what an undo writes.
func withUndoIndex(changes []change, index []byte) []change {
	out := slices.Clone(changes)
	for i := range out {
		if IsIndexName(out[i].Path) {
			out[i].Before, out[i].Existed = index, true
		}
	}
	return out
}

// undoChanges is journal id's changes as its undo writes them: with
// MEMORY.md's merged content when a forced undo put one in the journal.
func (s *Store) undoChanges(id string, changes []change) []change {
	if b, err := os.ReadFile(filepath.Join(s.journalDir(id), journalUndoIndex)); err == nil {
		return withUndoIndex(changes, b)
	}
	return changes
}

// indexLineFile is the memory file an index line links to ("- [Title](file.md) — …"), or "".
func indexLineFile(l string) string {
	i := strings.Index(l, "](")
	if i < 0 {
		return ""
	}
	rest := l[i+2:]
	j := strings.IndexByte(rest, ')')
	if j < 0 {
		return ""
	}
	return rest[:j]
}
