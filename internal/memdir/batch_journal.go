package memdir

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/paths"
)

// A journal is a folder BatchDir/<id>, id a UTC time to the millisecond and
// a random suffix, so ids sort in time:
//
//	data           every file's content before and after, one after the other
//	manifest.json  the files, where their contents lie in data, and hashes
//	done           the batch was applied
//	undoing        its undo began (the undo's commit point)
//	undone         its undo was applied
//
// and BatchDir/pending names the journal of a batch (or undo) under way.
// data is synced before the manifest is written atomically: the manifest's
// appearance is the batch's commit. A pending journal with no manifest is
// dropped, with one it is applied again (every step is idempotent). Open
// pays one Lstat for pending.
const (
	journalData     = "data"
	journalManifest = "manifest.json"
	markDone        = "done"
	markUndoing     = "undoing"
	markUndone      = "undone"
	pendingFile     = "pending"
)

// Journals kept: the newest keepJournals, none older than keepJournalsFor.
const (
	keepJournals    = 20
	keepJournalsFor = 90 * 24 * time.Hour
)

type manifest struct {
	Version int           `json:"version"`
	ID      string        `json:"id"`
	Label   string        `json:"label"`
	Time    time.Time     `json:"time"`
	Files   []journalFile `json:"files"`
}

type journalFile struct {
	Path       string    `json:"path"`
	Before     *segment  `json:"before"` // nil: the file did not exist
	After      *segment  `json:"after"`  // nil: the batch removes it
	BeforeTime time.Time `json:"before_mtime,omitzero"`
}

// segment is where a content lies in the journal's data.
type segment struct {
	Off    int64  `json:"off"`
	Len    int64  `json:"len"`
	SHA256 string `json:"sha256"`
}

func (s *Store) journalDir(id string) string { return s.Path(filepath.Join(BatchDir, id)) }

// newBatchID returns an id later than every journal's, even on a clock
// that stands still (a test's) or steps back.
func (s *Store) newBatchID() (string, error) {
	const layout = "20060102T150405.000Z"
	t := s.opt.Now().UTC().Truncate(time.Millisecond)
	ids, err := s.journalIDs()
	if err != nil {
		return "", err
	}
	if len(ids) > 0 {
		stamp, _, _ := strings.Cut(ids[0], "-")
		if last, err := time.Parse(layout, stamp); err == nil && !t.After(last) {
			t = last.Add(time.Millisecond)
		}
	}
	var r [3]byte
	_, _ = rand.Read(r[:])
	return t.Format(layout) + "-" + hex.EncodeToString(r[:]), nil
}

// journalIDs lists the journal folders, newest first.
func (s *Store) journalIDs() ([]string, error) {
	entries, err := os.ReadDir(s.Path(BatchDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && validBatchID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	return ids, nil
}

// validBatchID reports whether id can be a journal's name.
func validBatchID(id string) bool {
	if id == "" || len(id) > 64 || strings.HasPrefix(id, ".") {
		return false
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// writeJournal writes the batch's data, synced, and marks it pending; it
// returns the manifest that commits it.
func (s *Store) writeJournal(id, label string, now time.Time, changes []change) ([]byte, error) {
	top := s.Path(BatchDir)
	_, statErr := os.Stat(top)
	dir := s.journalDir(id)
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return nil, err
	}
	if statErr != nil {
		if err := atomicfile.SyncDir(s.dir); err != nil {
			return nil, err
		}
	}
	var data bytes.Buffer
	m := manifest{Version: 1, ID: id, Label: label, Time: now}
	put := func(b []byte, ok bool) *segment {
		if !ok {
			return nil
		}
		sum := sha256.Sum256(b)
		seg := &segment{Off: int64(data.Len()), Len: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
		data.Write(b)
		return seg
	}
	for _, c := range changes {
		m.Files = append(m.Files, journalFile{Path: c.Path, Before: put(c.Before, c.Existed), After: put(c.After, c.Exists), BeforeTime: c.BeforeTime})
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, journalData), data.Bytes(), FilePerm); err != nil {
		return nil, err
	}
	man, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	// Synced with BatchDir, so the journal's folder is found after a crash.
	return man, s.markPending(id)
}

// commitJournal writes the manifest: from here on the batch happens.
func (s *Store) commitJournal(id string, man []byte) error {
	return atomicfile.WriteFile(filepath.Join(s.journalDir(id), journalManifest), man, FilePerm)
}

// finishJournal writes the marker mark in journal id and clears pending.
func (s *Store) finishJournal(id, mark string) error {
	if err := s.finishMark(id, mark); err != nil {
		return err
	}
	return s.clearPending()
}

// finishMark writes the marker mark in journal id, synced.
func (s *Store) finishMark(id, mark string) error {
	stamp := []byte(s.opt.Now().UTC().Format(time.RFC3339) + "\n")
	return atomicfile.WriteFile(filepath.Join(s.journalDir(id), mark), stamp, FilePerm)
}

// markPending names journal id as under way, synced with BatchDir.
func (s *Store) markPending(id string) error {
	return atomicfile.WriteFile(s.Path(filepath.Join(BatchDir, pendingFile)), []byte(id+"\n"), FilePerm)
}

func (s *Store) clearPending() error {
	if err := os.Remove(s.Path(filepath.Join(BatchDir, pendingFile))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return atomicfile.SyncDir(s.Path(BatchDir))
}

// dropJournal takes back a batch that did not happen: the manifest goes
// first (no commit left), then pending, then the folder.
func (s *Store) dropJournal(id string) {
	dir := s.journalDir(id)
	if os.Remove(filepath.Join(dir, journalManifest)) == nil {
		_ = atomicfile.SyncDir(dir)
	}
	_ = s.clearPending()
	_ = os.RemoveAll(dir)
}

// has reports whether journal id holds the file name.
func (s *Store) has(id, name string) bool {
	_, err := os.Lstat(filepath.Join(s.journalDir(id), name))
	return err == nil
}

// readJournal reads journal id's manifest and contents, checking every
// path and hash.
func (s *Store) readJournal(id string) (manifest, []change, error) {
	var m manifest
	dir := s.journalDir(id)
	b, err := os.ReadFile(filepath.Join(dir, journalManifest))
	if err != nil {
		return m, nil, err
	}
	bad := func(format string, args ...any) error {
		return hint.With(fmt.Errorf("the journal of batch %s is damaged: %s", id, fmt.Sprintf(format, args...)),
			"run 'memdir doctor'; the journal is %s", dir)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, nil, bad("%v", err)
	}
	data, err := os.ReadFile(filepath.Join(dir, journalData))
	if err != nil {
		return m, nil, bad("%v", err)
	}
	get := func(seg *segment) ([]byte, bool, error) {
		if seg == nil {
			return nil, false, nil
		}
		if seg.Off < 0 || seg.Len < 0 || seg.Off+seg.Len > int64(len(data)) {
			return nil, false, bad("a content lies outside its data")
		}
		c := data[seg.Off : seg.Off+seg.Len : seg.Off+seg.Len]
		if sum := sha256.Sum256(c); hex.EncodeToString(sum[:]) != seg.SHA256 {
			return nil, false, bad("a content does not match its hash")
		}
		return c, true, nil
	}
	changes := make([]change, 0, len(m.Files))
	for _, f := range m.Files {
		if !validJournalPath(f.Path) {
			return m, nil, bad("it names %q, no file of a memory folder", f.Path)
		}
		c := change{Path: f.Path, BeforeTime: f.BeforeTime}
		if c.Before, c.Existed, err = get(f.Before); err != nil {
			return m, nil, err
		}
		if c.After, c.Exists, err = get(f.After); err != nil {
			return m, nil, err
		}
		changes = append(changes, c)
	}
	return m, changes, nil
}

// validJournalPath reports whether a journal may write rel: MEMORY.md, a
// top-level memory file or a file right under ForgottenDir. The journal
// is in a folder others can write: nothing else is ever touched.
func validJournalPath(rel string) bool {
	if IsIndexName(rel) || isMemoryName(rel) {
		return true
	}
	dir, name, ok := strings.Cut(rel, "/")
	return ok && dir == ForgottenDir && paths.ValidateName(name) == nil &&
		!strings.ContainsAny(name, "/\\") && !strings.HasPrefix(name, ".") && !strings.HasSuffix(name, ".md")
}

// openRecover finishes, at Open, a batch a crash cut short: a stat when
// there is none. When the lock is busy its holder is alive and the batch
// is finished by the next lock (every write takes it).
func (s *Store) openRecover() {
	if _, err := os.Lstat(s.Path(filepath.Join(BatchDir, pendingFile))); err != nil {
		return
	}
	unlock, err := lockfile.Lock(context.Background(), s.dir, lockfile.Options{Timeout: 100 * time.Millisecond, Holder: s.opt.Holder, Now: s.opt.Now})
	if err != nil {
		return
	}
	defer unlock()
	_ = s.recoverLocked() // a reader opens; the next write reports a failure
}

// giveUp is the hint of a batch that cannot be finished.
const giveUp = "run 'memdir doctor'; to give the batch up as it stands (some files changed, some not), remove %s"

// recoverLocked finishes the batch or undo pending names, or drops it when
// it was not committed. The caller holds the lock.
func (s *Store) recoverLocked() error {
	b, err := os.ReadFile(s.Path(filepath.Join(BatchDir, pendingFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	id := strings.TrimSpace(string(b))
	if !validBatchID(id) {
		return s.clearPending()
	}
	// Temporary files of the writes cut short: every writer of these
	// folders holds the lock, which is ours.
	_, _ = atomicfile.Sweep(s.dir, 0, time.Now().Add(time.Second))
	_, _ = atomicfile.Sweep(s.Path(ForgottenDir), 0, time.Now().Add(time.Second))
	switch {
	case !s.has(id, journalManifest):
		s.dropJournal(id)
		return nil
	case !s.has(id, markDone):
		_, changes, err := s.readJournal(id)
		if err == nil {
			err = s.applyChanges(changes, false)
		}
		if err != nil {
			return hint.With(fmt.Errorf("finish batch %s, cut short: %w", id, err), giveUp, s.Path(filepath.Join(BatchDir, pendingFile)))
		}
		return s.finishJournal(id, markDone)
	case s.has(id, markUndoing) && !s.has(id, markUndone):
		_, changes, err := s.readJournal(id)
		if err == nil {
			err = s.applyChanges(s.undoChanges(id, changes), true)
		}
		if err != nil {
			return hint.With(fmt.Errorf("finish the undo of batch %s, cut short: %w", id, err), giveUp, s.Path(filepath.Join(BatchDir, pendingFile)))
		}
		return s.finishJournal(id, markUndone)
	}
	return s.clearPending()
}

// Batches lists the journals, newest first.
func (s *Store) Batches() ([]BatchInfo, error) {
	ids, err := s.journalIDs()
	if err != nil {
		return nil, err
	}
	var out []BatchInfo
	for _, id := range ids {
		if info, ok := s.batchInfo(id); ok {
			out = append(out, info)
		}
	}
	return out, nil
}

// batchInfo reads journal id's summary; false for a journal never
// committed.
func (s *Store) batchInfo(id string) (BatchInfo, bool) {
	b, err := os.ReadFile(filepath.Join(s.journalDir(id), journalManifest))
	if err != nil {
		return BatchInfo{}, false
	}
	var m manifest
	if json.Unmarshal(b, &m) != nil {
		return BatchInfo{ID: id}, true
	}
	info := BatchInfo{ID: id, Label: m.Label, Time: m.Time, Undone: s.has(id, markUndone)}
	for _, f := range m.Files {
		info.Files = append(info.Files, f.Path)
	}
	return info, true
}

// pruneJournals keeps the newest keepJournals journals, none older than
// keepJournalsFor, and always keep, the batch just applied. It drops the
// folders of batches never committed. The caller holds the lock.
func (s *Store) pruneJournals(keep string, now time.Time) {
	ids, err := s.journalIDs()
	if err != nil {
		return
	}
	n := 0
	for _, id := range ids {
		if id == keep {
			n++
			continue
		}
		info, ok := s.batchInfo(id)
		if ok && n < keepJournals && now.Sub(info.Time) <= keepJournalsFor {
			n++
			continue
		}
		_ = os.RemoveAll(s.journalDir(id))
	}
}
