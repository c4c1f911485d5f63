package memdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
)

// BatchDir holds the journals of multi-file changes (Apply): one folder per
// batch, with the files' contents before and after, so a batch cut short by
// a crash is finished at the next Open and a finished one can be undone.
// Nothing in it ends in .md: no memory scan picks it up.
const BatchDir = ".memdir-batches"

// Batch is a change of several memories that lands whole or not at all.
type Batch struct {
	// Label says what made the batch ("dream"), for Batches and errors.
	Label string
	// Save lists memories to write, as Save writes them (a memory read by
	// the store keeps its unknown fields and its layout; only changed fields
	// are rewritten; secrets are redacted). The index line of each is
	// updated when the memory has one.
	Save []Memory
	// Retire lists memory files that leave the folder: each is kept as a
	// version in ForgottenDir (Restore finds it) and its index line goes.
	Retire []string
	// RebuildIndex lays MEMORY.md out again as RebuildIndex does, over the
	// folder as the batch leaves it (the most useful memories within the
	// budget, hand-written lines kept), instead of editing only the lines
	// of the memories the batch changes: an index over its caps is cut
	// back within the batch, and an undo puts it back too. An index too
	// large to keep in the journal is left as it is.
	RebuildIndex bool
	// Recent is when recall last gave each memory: a rebuilt index ranks a
	// memory within its class (pinned, user and feedback, the rest) by the
	// later of that and when it was written, so what is in use keeps its
	// line.
	Recent map[string]time.Time
	// IfMatch, per file, is the content the caller planned from: the batch
	// fails with ErrConflict, writing nothing, when a file changed since.
	IfMatch map[string][]byte
}

// BatchResult says what Apply did.
type BatchResult struct {
	ID      string   `json:"id"`      // for Undo
	Written []string `json:"written"` // memory files written
	Retired []string `json:"retired"` // memory files kept aside and removed
	KeptIn  []string `json:"kept_in"` // where the retired files' versions went, under ForgottenDir
	Index   bool     `json:"index"`   // MEMORY.md changed
	// LeftOut counts the memories a rebuilt MEMORY.md (RebuildIndex) has no
	// line for: they stay files that recall, list and the agent find.
	LeftOut int `json:"index_left_out,omitempty"`
}

// BatchInfo is one journal in BatchDir.
type BatchInfo struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Time   time.Time `json:"time"`
	Files  []string  `json:"files"` // every file the batch changed, MEMORY.md and versions included
	Undone bool      `json:"undone"`
	// Kept are the memories a forced undo found changed since the batch,
	// each as its version in ForgottenDir ('memdir restore' brings it back).
	Kept []string `json:"kept,omitempty"`
	// IndexKept counts the lines of MEMORY.md written since the batch (by
	// hand, or for a memory saved later) that a forced undo kept.
	IndexKept int `json:"index_lines_kept,omitempty"`
}

// change is one file a batch touches, by its slash path in the folder, with
// its content before and after; a nil content with its flag false is an
// absent file.
type change struct {
	Path          string
	Before, After []byte
	Existed       bool      // Before holds the file's content; else it did not exist
	Exists        bool      // After holds it; else the batch removes the file
	BeforeTime    time.Time // the file's modification time before; an undo sets it back (a memory without dates is dated by it)
}

// mtime is a file's modification time, zero without one.
func mtime(fi fs.FileInfo) time.Time {
	if fi == nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// testOnlyBatchCrash, when set by a test, is asked at each stage of an
// Apply ("journaled", "committed", "applied"): true makes Apply return at
// once, leaving every file as a process killed there would.
var testOnlyBatchCrash func(stage string) bool

// errCrashedForTest is what Apply returns when testOnlyBatchCrash stops it.
var errCrashedForTest = errors.New("batch stopped by a test")

// Apply writes a batch under the folder's lock: every file the batch
// changes (memories, MEMORY.md, versions under ForgottenDir) lands, or
// none does — after a crash the next Open finishes a batch that was
// committed and drops one that was not. The files' previous contents stay
// in the batch's journal for Undo.
//
// Every post-state is computed before anything is written: the memories
// as Save would write them, the retired files' versions, MEMORY.md with
// the retired files' lines gone, the saved memories' lines updated where
// they had one and a new memory's line placed as a save places it. A
// missing MEMORY.md stays missing, and one too large to edit is left alone.
// An empty batch writes nothing and returns an empty ID.
func (s *Store) Apply(ctx context.Context, b Batch) (BatchResult, error) {
	var res BatchResult
	if s.opt.Team {
		// Consolidating a team folder rewrites what others wrote and
		// would need every check a team save makes: not done yet.
		return res, hint.With(fmt.Errorf("%s is a team folder: multi-file changes (consolidation) are not applied there", s.dir), "edit or forget team memories one at a time ('memdir edit team/<file>', 'memdir forget --scope team')")
	}
	saves := slices.Clone(b.Save)
	byName := make([]bool, len(saves))
	for i := range saves {
		bn, _, err := normalizeSave(&saves[i])
		if err != nil {
			return res, err
		}
		byName[i] = bn
	}
	leaving := map[string]bool{}
	for _, f := range b.Retire {
		if !isMemoryName(f) {
			return res, fmt.Errorf("%w: %q cannot be retired: not a memory file name", ErrInvalid, f)
		}
		if leaving[f] {
			return res, fmt.Errorf("%w: %s is retired twice in one batch", ErrInvalid, f)
		}
		leaving[f] = true
	}
	if len(saves) == 0 && len(leaving) == 0 && !b.RebuildIndex {
		return res, nil
	}
	unlock, err := s.Lock(ctx) // finishes a batch a crash cut short first
	if err != nil {
		return res, err
	}
	defer unlock()
	saved := map[string]bool{}
	for i := range saves {
		if byName[i] {
			if saves[i].File, err = s.fileForName(ctx, saves[i].Name); err != nil {
				return res, err
			}
		}
		f := saves[i].File
		if saved[f] || leaving[f] {
			return res, fmt.Errorf("%w: %s is named twice in one batch", ErrInvalid, f)
		}
		saved[f] = true
	}
	now := s.opt.Now().UTC().Truncate(time.Second)
	for try := 0; ; try++ {
		changes, planned, err := s.planBatch(ctx, saves, b.Retire, leaving, b.IfMatch, b.RebuildIndex, b.Recent, now)
		if err != nil {
			return res, err
		}
		if len(changes) == 0 {
			return planned, nil
		}
		id, err := s.newBatchID()
		if err != nil {
			return res, err
		}
		planned.ID = id
		man, err := s.writeJournal(id, b.Label, now, changes)
		if err != nil {
			s.dropJournal(id)
			return res, fmt.Errorf("write the journal of batch %s: %w (nothing was changed)", id, err)
		}
		if testOnlyBatchCrash != nil && testOnlyBatchCrash("journaled") {
			return res, errCrashedForTest
		}
		// Claude Code writes without our lock: the files must still hold
		// what the plan was made from when the batch commits.
		if moved := s.movedSince(changes); moved != "" {
			s.dropJournal(id)
			if try == maxRetries {
				return res, hint.With(fmt.Errorf("%s keeps changing: %w", moved, ErrConflict), "run it again once nothing else writes the memory folder")
			}
			continue
		}
		if err := s.commitJournal(id, man); err != nil {
			s.dropJournal(id)
			return res, fmt.Errorf("commit batch %s: %w (nothing was changed)", id, err)
		}
		if testOnlyBatchCrash != nil && testOnlyBatchCrash("committed") {
			return res, errCrashedForTest
		}
		s.sweep()
		if err := s.applyChanges(changes, false); err != nil {
			return res, s.abortBatch(id, changes, err)
		}
		if testOnlyBatchCrash != nil && testOnlyBatchCrash("applied") {
			return res, errCrashedForTest
		}
		if err := s.finishJournal(id, markDone); err != nil {
			return planned, hint.With(fmt.Errorf("batch %s was applied, but not marked done: %w", id, err), "run 'memdir doctor': the next memdir command finishes it")
		}
		s.pruneJournals(id, now)
		return planned, nil
	}
}

// planBatch computes every file a batch changes and what it will hold. The
// caller holds the lock.
func (s *Store) planBatch(ctx context.Context, saves []Memory, retire []string, leaving map[string]bool, ifMatch map[string][]byte, rebuild bool, recent map[string]time.Time, now time.Time) ([]change, BatchResult, error) {
	res := BatchResult{Written: []string{}, Retired: []string{}, KeptIn: []string{}} // [] in JSON, not null
	for f, want := range ifMatch {
		if !isMemoryName(f) && !IsIndexName(f) {
			return nil, res, fmt.Errorf("%w: IfMatch names %q, not a memory file", ErrInvalid, f)
		}
		cur, _, err := s.readFile(f)
		if err != nil {
			return nil, res, err
		}
		if !bytes.Equal(cur, want) {
			return nil, res, hint.With(fmt.Errorf("%s: %w", f, ErrConflict), "make the plan again ('memdir dream --dry-run'): %s changed since it was planned", f)
		}
	}
	var changes []change
	merged := make([]Memory, 0, len(saves))
	created := map[string]bool{}
	for _, m := range saves {
		old, fi, err := s.readFile(m.File)
		if err != nil {
			return nil, res, err
		}
		mm, data, _, err := s.saveContent(ctx, m, old, Memory{}, now, false, func(f string) bool { return leaving[f] })
		if err != nil {
			return nil, res, fmt.Errorf("%s: %w", m.File, err)
		}
		mm.File = m.File
		merged = append(merged, mm)
		created[m.File] = old == nil
		if old != nil && bytes.Equal(old, data) {
			continue
		}
		changes = append(changes, change{Path: m.File, Before: old, Existed: old != nil, After: data, Exists: true, BeforeTime: mtime(fi)})
		res.Written = append(res.Written, m.File)
	}
	var versions []change
	for _, f := range retire {
		old, fi, err := s.readFile(f)
		if err != nil {
			return nil, res, err
		}
		if old == nil {
			return nil, res, hint.With(fmt.Errorf("%s: %w", f, ErrNotFound), "make the plan again ('memdir dream --dry-run'): %s is gone", f)
		}
		dst, err := s.asidePath(f)
		if err != nil {
			return nil, res, err
		}
		versions = append(versions, change{Path: ForgottenDir + "/" + filepath.Base(dst), After: old, Exists: true})
		changes = append(changes, change{Path: f, Before: old, Existed: true, BeforeTime: mtime(fi)})
		res.Retired = append(res.Retired, f)
		res.KeptIn = append(res.KeptIn, dst)
	}
	// The versions land first and the index last: a reader in between
	// sees no line to a missing file.
	changes = append(versions, changes...)
	old, err := s.readIndexUpTo(maxEditIndexSize)
	switch {
	case IsIndexTooBig(err) || err == nil && old == nil:
		return changes, res, nil
	case err != nil:
		return nil, res, err
	}
	if rebuild {
		data, leftOut, err := s.rebuiltIndex(ctx, merged, retire, recent)
		if err != nil {
			return nil, res, err
		}
		res.LeftOut = leftOut
		if !bytes.Equal(data, old) {
			changes = append(changes, change{Path: IndexFile, Before: old, Existed: true, After: data, Exists: true})
			res.Index = true
		}
		return changes, res, nil
	}
	ix := ParseIndex(old)
	for _, f := range retire {
		ix.Remove(f)
	}
	for _, m := range merged {
		line := EntryLine(m)
		switch {
		case m.SupersededBy != "":
			// History now: readable, never recalled, and no line pointing
			// an agent at it.
			ix.Remove(m.File)
		case slices.ContainsFunc(ix.Lines, func(l IndexLine) bool { return l.File == m.File }):
			ix.Upsert(m.File, line)
		case created[m.File]:
			s.placeEntry(&ix, m, &SaveResult{IndexLine: line})
		}
	}
	if data := ix.Bytes(); !bytes.Equal(data, old) {
		changes = append(changes, change{Path: IndexFile, Before: old, Existed: true, After: data, Exists: true})
		res.Index = true
	}
	return changes, res, nil
}

// movedSince names a file that no longer holds the content a batch was
// planned from, or returns "".
func (s *Store) movedSince(changes []change) string {
	for _, c := range changes {
		if testOnlyBeforeReplace != nil {
			testOnlyBeforeReplace(c.Path)
		}
		cur, ok, err := s.readJournaled(c.Path)
		if err != nil || ok != c.Existed || !bytes.Equal(cur, c.Before) {
			return c.Path
		}
	}
	return ""
}

// readJournaled reads a file a journal names (a memory file, MEMORY.md or
// a version), reporting whether it exists.
func (s *Store) readJournaled(rel string) ([]byte, bool, error) {
	if !strings.Contains(rel, "/") {
		b, _, err := s.readFile(rel)
		return b, b != nil, err
	}
	b, err := os.ReadFile(s.Path(filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// applyChanges writes every file's after-content (before-content when
// undo), or removes it. Each step is atomic and idempotent: a batch cut
// short is finished by running it again.
func (s *Store) applyChanges(changes []change, undo bool) error {
	order := slices.Clone(changes)
	if undo {
		slices.Reverse(order) // the index first, then the memories, then the versions
	}
	for _, c := range order {
		data, exists := c.After, c.Exists
		if undo {
			data, exists = c.Before, c.Existed
		}
		p := s.Path(filepath.FromSlash(c.Path))
		if path.Dir(c.Path) == "." && !strings.HasPrefix(c.Path, ".") && strings.HasSuffix(c.Path, ".md") && !IsIndexName(c.Path) {
			s.noteWritten(c.Path) // a memory file: before it changes
		}
		if exists {
			if err := os.MkdirAll(filepath.Dir(p), DirPerm); err != nil {
				return err
			}
			if err := atomicfile.WriteFile(p, data, FilePerm); err != nil {
				return fmt.Errorf("write %s: %w", c.Path, err)
			}
			if undo && !c.BeforeTime.IsZero() {
				_ = os.Chtimes(p, c.BeforeTime, c.BeforeTime) // best effort: the bytes are what matters
			}
		} else {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", c.Path, err)
			}
			if err := atomicfile.SyncDir(filepath.Dir(p)); err != nil {
				return err
			}
		}
	}
	return nil
}

// abortBatch puts every file of a committed batch that failed midway back
// as it was, then drops the journal; when that fails too, the journal stays
// committed and the next lock finishes the batch.
func (s *Store) abortBatch(id string, changes []change, cause error) error {
	if err := s.applyChanges(changes, true); err != nil {
		return hint.With(fmt.Errorf("batch %s failed midway (%w), and could not be taken back: %v", id, cause, err),
			"free the disk or fix the folder's permissions, then run 'memdir doctor': the next memdir command finishes the batch")
	}
	s.dropJournal(id)
	return fmt.Errorf("batch %s: %w (nothing was changed)", id, cause)
}

// isMemoryName reports whether f names a top-level memory file.
func isMemoryName(f string) bool {
	return paths.ValidateName(f) == nil && strings.HasSuffix(f, ".md") && !IsIndexName(f) &&
		!strings.HasPrefix(f, ".") && !strings.ContainsAny(f, "/\\")
}

// rebuiltIndex is MEMORY.md as RebuildIndex would write it once the batch
// has saved merged and retired retire. The caller holds the lock.
func (s *Store) rebuiltIndex(ctx context.Context, merged []Memory, retire []string, recent map[string]time.Time) ([]byte, int, error) {
	ranked, skipped, _, err := s.rankAll(ctx)
	if err != nil {
		return nil, 0, err
	}
	gone := map[string]bool{}
	for _, f := range retire {
		gone[f] = true
	}
	changed := map[string]Memory{}
	for _, m := range merged {
		if m.SupersededBy != "" {
			gone[m.File] = true // history: no line
			continue
		}
		changed[m.File] = m
	}
	out := ranked[:0]
	for _, c := range ranked {
		if m, ok := changed[c.File]; ok {
			c = candidateOf(m)
			delete(changed, c.File)
		}
		if !gone[c.File] {
			out = append(out, c)
		}
	}
	for _, m := range changed { // memories the batch creates
		out = append(out, candidateOf(m))
	}
	for i, c := range out {
		if t := recent[c.File]; t.After(c.Stamp) {
			out[i].Stamp = t
		}
	}
	slices.SortFunc(out, compareUseful)
	listed := map[string]bool{}
	for _, c := range out {
		listed[c.File] = true
	}
	keep := func(file string) bool { return !gone[file] && (slices.Contains(skipped, file) || s.inSubfolder(file)) }
	lines, _, _, err := s.scanIndexFile(func(f string) bool { return listed[f] })
	if err != nil {
		return nil, 0, err
	}
	p := planRebuild(lines, out, keep)
	return p.Index.Bytes(), p.LeftOut, nil
}
