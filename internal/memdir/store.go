package memdir

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
)

// File and folder permissions for everything memdir creates.
const (
	FilePerm = 0o600
	DirPerm  = 0o700
)

// ForgottenDir holds forgotten memories. Files there are renamed so they no
// longer end in .md: no memory scan, memdir's or Claude Code's, picks them up.
const ForgottenDir = ".forgotten"

// Options configure a Store.
type Options struct {
	// Create makes the folder (and its parents) when it does not exist.
	Create bool
	// LockTimeout bounds the wait for the folder's lock. Default 10s.
	LockTimeout time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Holder describes this process in the lock file ("memdir save").
	Holder string
	// Names lists every memory's name for a save or lookup by name; nil
	// reads every file.
	Names Names
	// Team marks a team folder (committed with a repository and pushed to
	// every collaborator): a save that holds a potential secret is refused
	// (SecretError) instead of redacted, a memory it creates gets Author,
	// and Forget leaves a tombstone (see team.go).
	Team bool
	// Author is who adds memories to a team folder.
	Author string
}

// Store is a memory folder. It is the only writer of memory files and of
// MEMORY.md: every write is atomic, and every read-modify-write runs under
// the folder's cross-process lock. Readers take no lock. A Store is safe for
// concurrent use by several goroutines and several processes.
type Store struct {
	dir   string // as given, cleaned
	real  string // dir with symlinks resolved, for escape checks
	opt   Options
	swept sync.Once
	noted atomic.Int64 // names given to the written log, for its links
	lost  atomic.Int64 // names it could not carry
}

// Open opens the memory folder dir. It fails when dir does not exist,
// unless opt.Create is set. Temporary files left by writers that died
// mid-write are swept by the store's first write: readers (recall, in a
// hook on every prompt) do not pay for listing the folder. A batch (Apply)
// a crash cut short is finished, or dropped when it was not committed:
// one Lstat when there is none.
func Open(dir string, opt Options) (*Store, error) {
	if opt.LockTimeout <= 0 {
		opt.LockTimeout = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Holder == "" {
		opt.Holder = "memdir"
	}
	dir = filepath.Clean(dir)
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && opt.Create:
		if err := os.MkdirAll(dir, DirPerm); err != nil {
			return nil, fmt.Errorf("create memory folder: %w", err)
		}
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("memory folder %s does not exist: %w", dir, ErrNotFound)
	case err != nil:
		return nil, err
	case !info.IsDir():
		return nil, fmt.Errorf("memory folder %s is not a folder", dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, real: real, opt: opt}
	if opt.Team {
		if err := s.checkTeamFolder(); err != nil {
			return nil, err
		}
	}
	s.openRecover()
	return s, nil
}

// sweep removes stale temporary files before a Store's first write, at
// most once per sweepEvery per folder: listing a folder of 100,000
// memories costs more than the save itself, and a dead writer's temporary
// file (".x.md.tmp-…") is no memory to any scan. A rebuild always sweeps.
func (s *Store) sweep() {
	s.swept.Do(func() {
		stamp := s.Path(sweepStamp)
		if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < sweepEvery && !fi.ModTime().After(time.Now()) {
			return
		}
		s.sweepFolder()
	})
}

// sweepNow sweeps whatever the time of the last sweep.
func (s *Store) sweepNow() { s.swept.Do(func() {}); s.sweepFolder() }

func (s *Store) sweepFolder() {
	atomicfile.Sweep(s.dir, time.Minute, s.opt.Now())
	// The stamp is derived data: when it cannot be written (a read-only
	// cache), every store sweeps, as before.
	stamp := s.Path(sweepStamp)
	now := time.Now()
	if os.Chtimes(stamp, now, now) != nil {
		_ = s.WriteCache(sweepStamp, nil)
	}
}

// sweepStamp's time is when the folder was last swept; sweepEvery is how
// often a save sweeps.
const (
	sweepStamp = CacheDir + "/swept"
	sweepEvery = time.Hour
)

// Dir returns the memory folder.
func (s *Store) Dir() string { return s.dir }

// Path returns the full path of a file in the memory folder.
func (s *Store) Path(file string) string { return filepath.Join(s.dir, file) }

// checkPath refuses a memory file that is a symlink leading out of the
// folder, or that is not a regular file.
func (s *Store) checkPath(file string) error {
	p := s.Path(file)
	info, err := os.Lstat(p)
	if err != nil {
		return nil // missing is fine; the caller sees it on read
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		ok, err := paths.Within(s.real, p)
		if err != nil || !ok {
			return fmt.Errorf("%s: %w", file, ErrSymlinkEscape)
		}
		info, err = os.Stat(p)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", file)
	}
	return nil
}

// readFile reads a memory file, bounded by MaxFileSize. It returns nil and
// no error when the file does not exist.
func (s *Store) readFile(file string) ([]byte, fs.FileInfo, error) {
	if err := s.checkPath(file); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(s.Path(file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, nil, err
	}
	if len(b) > MaxFileSize {
		return nil, nil, fmt.Errorf("%s is larger than %d bytes: not a memory file", file, MaxFileSize)
	}
	return b, info, nil
}

// Get reads the memory that name resolves to.
func (s *Store) Get(name string) (Memory, error) {
	file, err := s.Resolve(name)
	if err != nil {
		return Memory{}, err
	}
	m, _, err := s.read(file)
	return m, err
}

// Raw returns the bytes of the memory that name resolves to, and its file name.
func (s *Store) Raw(name string) ([]byte, string, error) {
	file, err := s.Resolve(name)
	if err != nil {
		return nil, "", err
	}
	b, _, err := s.readFile(file)
	if err == nil && b == nil {
		err = fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	return b, file, err
}

func (s *Store) read(file string) (Memory, []byte, error) {
	b, info, err := s.readFile(file)
	if err != nil {
		return Memory{}, nil, err
	}
	if b == nil {
		return Memory{}, nil, fmt.Errorf("%s: %w", file, ErrNotFound)
	}
	if s.opt.Team && HasConflictMarkers(b) {
		// Half of a merge is no memory: never injected, never rewritten
		// over ('memdir team resolve' settles it).
		return Memory{File: file}, b, hint.With(fmt.Errorf("%s: %w", file, ErrConflictMarkers), "settle it with 'memdir team resolve %s' (it shows both sides)", strings.TrimSuffix(file, ".md"))
	}
	m, err := Parse(file, b)
	m.ModTime, m.Size = info.ModTime(), info.Size()
	return m, b, err
}

// Files lists the memory files in the folder: top-level *.md except
// MEMORY.md and dot files, sorted by name.
func (s *Store) Files() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if isMemoryEntry(e) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// isMemoryEntry reports whether a folder entry is a memory file's: a
// top-level *.md but MEMORY.md and dot files.
func isMemoryEntry(e fs.DirEntry) bool {
	n := e.Name()
	return !strings.HasPrefix(n, ".") && !IsIndexName(n) && strings.HasSuffix(n, ".md") && !e.IsDir()
}

// List reads every memory in the folder, sorted by file name. A file that
// cannot be read or parsed does not stop the listing: it is reported in
// problems and left out of mems.
func (s *Store) List() (mems []Memory, problems []error, err error) {
	files, err := s.Files()
	if err != nil {
		return nil, nil, err
	}
	mems = make([]Memory, 0, len(files))
	for _, f := range files {
		m, _, err := s.read(f)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		mems = append(mems, m)
	}
	return mems, problems, nil
}

// SaveOptions adjust one Save.
type SaveOptions struct {
	// IfMatch, when not nil, is the file content the caller read: the save
	// fails with ErrConflict if the file now holds anything else.
	IfMatch []byte
	// MustExist makes a save that would create the file fail with
	// ErrNotFound instead: an update of a memory forgotten meanwhile.
	MustExist bool
	// Defaults fill the fields left empty of a memory the save creates
	// (an update keeps the stored values): the CLI's source and trust.
	Defaults Memory
	// KeepPrevious keeps the version a save replaces in ForgottenDir
	// (<file>.<UTC time>), where Restore finds it: the undo of an edit.
	KeepPrevious bool
	// KeepUpdated leaves the updated time as it is: a mark that changes
	// no fact the memory states (verify's stale) does not make it look
	// newer to recall.
	KeepUpdated bool
	// Revive lets a save into a team folder bring back a memory that was
	// forgotten there (removing its tombstone); without it such a save
	// fails with ErrTombstoned, so nothing automatic undoes a forget.
	Revive bool
	// Refs, when set, gives the saved memory's refs (even none) from the
	// stored memory (zero when the save creates it) and the memory given:
	// a front end's rule for which refs outlive an edit. It runs under
	// the lock, on the version the save replaces.
	Refs func(stored, given Memory) []string
}

// SaveResult says what a Save did.
type SaveResult struct {
	File       string           `json:"file"`
	Path       string           `json:"path"`
	Created    bool             `json:"created"` // false when an existing memory was updated
	Memory     Memory           `json:"-"`
	Redactions []RedactionCount `json:"redactions,omitempty"`
	Warnings   []string         `json:"warnings,omitempty"`
	IndexLine  string           `json:"index_line"`
	// NotIndexed is set when MEMORY.md got no line for the memory: the
	// index is full of more useful ones, or too large to edit (a warning
	// says how to fix it). The memory is saved all the same.
	NotIndexed bool `json:"not_indexed,omitempty"`
	// Unlisted are the memories whose lines gave way to this one in a full
	// MEMORY.md; they stay files.
	Unlisted []string `json:"unlisted,omitempty"`
	KeptIn   string   `json:"kept_previous_in,omitempty"` // where KeepPrevious kept the replaced version
	// Revived is set when the save brought back a team memory that had
	// been forgotten (its tombstone is removed).
	Revived bool `json:"revived,omitempty"`
}

// RedactionCount is one kind of secret removed before writing.
type RedactionCount struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// testOnlyBeforeReplace, when set by a test, runs between computing a
// file's new content and the re-read that guards its replacement.
var testOnlyBeforeReplace func(file string)

// maxRetries bounds the re-reads when another writer (Claude Code, which
// does not take our lock) changes a file between our read and our write.
const maxRetries = 5

// Save writes m and then upserts its index line, under the folder's lock.
// The file is m.File, or the slug of m.Name plus ".md". When the file exists
// the memory is updated: fields left empty in m keep their stored value,
// unknown frontmatter fields are kept, created is kept and updated is set to
// now. Secrets are redacted from every field and the body first. Save fails
// with paths.ErrInvalidName, ErrInvalid, ErrConflict, ErrSymlinkEscape or a
// *LockedError and then leaves every file as it was.
func (s *Store) Save(ctx context.Context, m Memory, opt SaveOptions) (SaveResult, error) {
	byName, red, err := normalizeSave(&m)
	if err != nil {
		return SaveResult{}, err
	}
	res := SaveResult{Redactions: red}
	if s.opt.Team && len(red) > 0 {
		return SaveResult{}, secretError(m, red)
	}

	unlock, err := s.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	if byName {
		// The memory of that name, wherever it lives (Claude Code names
		// files its own way), or a file of its own: never another memory
		// that only shares the slug.
		if m.File, err = s.fileForName(ctx, m.Name); err != nil {
			return res, err
		}
	}
	res.File, res.Path = m.File, s.Path(m.File)
	if s.opt.Team {
		if err := s.checkTeamFolder(); err != nil {
			return res, err
		}
		if !opt.Revive && s.tombstoned(m.File) {
			return res, fmt.Errorf("%s: %w; bring it back on purpose with 'memdir team resolve %s --keep' (or save it again with 'memdir save --scope team')", m.File, ErrTombstoned, strings.TrimSuffix(m.File, ".md"))
		}
	}

	now := s.opt.Now().UTC().Truncate(time.Second)
	var typeChange string
	for try := 0; ; try++ {
		old, _, err := s.readFile(m.File)
		if err != nil {
			return res, err
		}
		if opt.IfMatch != nil && !bytes.Equal(old, opt.IfMatch) {
			return res, fmt.Errorf("%s: %w", m.File, ErrConflict)
		}
		if opt.MustExist && old == nil {
			return res, fmt.Errorf("%s: %w", m.File, ErrNotFound)
		}
		res.Created = old == nil
		if opt.Refs != nil {
			var cur Memory
			if old != nil {
				if cur, err = Parse(m.File, old); err != nil {
					cur = Memory{}
				}
			}
			m.Refs, m.refsSet = opt.Refs(cur, m), true
		}
		var merged Memory
		var data []byte
		merged, data, typeChange, err = s.saveContent(ctx, m, old, opt.Defaults, now, opt.KeepUpdated, nil)
		if err != nil {
			return res, err
		}
		// Claude Code writes without our lock: re-read just before the
		// rename, and re-apply on top of its version if it changed.
		if testOnlyBeforeReplace != nil {
			testOnlyBeforeReplace(m.File)
		}
		again, _, err := s.readFile(m.File)
		if err != nil {
			return res, err
		}
		if !bytes.Equal(again, old) {
			if try == maxRetries {
				return res, fmt.Errorf("%s keeps changing: %w", m.File, ErrConflict)
			}
			continue
		}
		s.sweep()
		if opt.KeepPrevious && old != nil && res.KeptIn == "" {
			if res.KeptIn, err = s.keepVersion(m.File, old); err != nil {
				return res, fmt.Errorf("keep the previous version of %s: %w (nothing was changed)", m.File, err)
			}
		}
		s.noteWritten(m.File)
		if err := atomicfile.WriteFile(s.Path(m.File), data, FilePerm); err != nil {
			return res, fmt.Errorf("write %s: %w", m.File, err)
		}
		res.Memory = merged
		if s.opt.Team {
			// A memory saved again on purpose is no longer forgotten.
			res.Revived, err = s.removeTombstone(m.File)
			if err != nil {
				res.Warnings = append(res.Warnings, err.Error())
			}
		}
		break
	}
	res.IndexLine = EntryLine(res.Memory)
	warned := len(res.Warnings)
	usage, err := s.upsertIndex(ctx, func(ix *Index) bool {
		res.Warnings = res.Warnings[:warned] // the edit runs again when another writer got in between
		return s.placeEntry(ix, res.Memory, &res)
	})
	var big *IndexTooBigError
	switch {
	case errors.As(err, &big):
		// An index an older memdir (or a person) grew past any cap is
		// not read, let alone rewritten, on every save: the save stands
		// and says once what fixes it.
		res.NotIndexed = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("%v: this save left it alone; run 'memdir index --rebuild' to cut it to the %d most useful memories (the others stay files: 'memdir list', recall)", big, IndexBudgetLines))
	case err != nil:
		return res, fmt.Errorf("%s was saved, but its index line was not: %w (run 'memdir index --rebuild')", res.File, err)
	}
	indexWarned := len(res.Warnings) > warned
	if typeChange != "" {
		res.Warnings = append(res.Warnings, typeChange)
	}
	res.Warnings = append(res.Warnings, memoryWarnings(res.Memory)...)
	if w := usage.Warning(); w != "" && !indexWarned { // said once
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// saveContent computes what a save of m writes over old, the file's
// current content (nil: a new file): m merged into the stored memory,
// created kept or set, updated set to now. leaving, when not nil, names
// files on their way out (a batch retires them), whose names m may take.
func (s *Store) saveContent(ctx context.Context, m Memory, old []byte, defaults Memory, now time.Time, keepUpdated bool, leaving func(file string) bool) (merged Memory, data []byte, typeChange string, err error) {
	merged = m
	if old != nil && s.opt.Team && m.front == nil && HasConflictMarkers(old) {
		return Memory{}, nil, "", fmt.Errorf("%s: %w: settle it first with 'memdir team resolve %s'", m.File, ErrConflictMarkers, strings.TrimSuffix(m.File, ".md"))
	}
	var kept Memory // what a whole file given in place of the stored one keeps of it
	if old != nil {
		cur, err := Parse(m.File, old)
		kept = Memory{Created: cur.Created, Author: cur.Author}
		if err != nil {
			if m.front == nil {
				return Memory{}, nil, "", fmt.Errorf("existing file is invalid, fix it with 'memdir edit' first: %w", err)
			}
		} else {
			// A rename onto another memory's name would leave a name
			// that show, edit and forget cannot tell apart.
			if m.Name != "" && !SameName(cur.Title(), m.Name) {
				other, err := s.fileNamed(ctx, m.Name, true)
				var fe *FrontmatterError
				if errors.As(err, &fe) && fe.File != m.File {
					other, err = fe.File, nil // a file of that name that does not parse still holds it
				}
				if errors.Is(err, ErrAmbiguous) || err == nil && other != "" && other != m.File && (leaving == nil || !leaving(other)) {
					return Memory{}, nil, "", fmt.Errorf("%q is the name of %s: %w", m.Name, cmp.Or(other, "other memories"), ErrNameTaken)
				}
			}
			merged = merge(cur, m)
			if cur.Type != "" && merged.Type != cur.Type {
				typeChange = fmt.Sprintf("%s changed its type from %s to %s", m.File, cur.Type, merged.Type)
			}
		}
	}
	if old == nil {
		merged.Source = cmp.Or(merged.Source, defaults.Source)
		merged.Trust = cmp.Or(merged.Trust, defaults.Trust)
	}
	if s.opt.Team {
		// Who added it; for a memory that came without (written through
		// the link by another tool), whoever saves it first.
		merged.Author = oneLine(cmp.Or(merged.Author, kept.Author, defaults.Author, s.opt.Author))
	}
	// A whole file given in place of the stored one (edit) that leaves
	// out when the memory was created and who added it keeps them: an
	// edit changes neither.
	merged.Author = cmp.Or(merged.Author, kept.Author)
	if merged.Created.IsZero() {
		merged.Created = kept.Created
	}
	if s.opt.Team {
		merged.Scope = ScopeTeam
		if merged.Type == TypeUser {
			return Memory{}, nil, "", fmt.Errorf("%w: %s is a user memory, about one person: it is never a team memory (keep it private)", ErrInvalid, m.File)
		}
	}
	if merged.Created.IsZero() {
		merged.Created = now
	}
	if !keepUpdated || merged.Updated.IsZero() {
		merged.Updated = now
	}
	data = Format(merged)
	if len(data) > MaxFileSize {
		return Memory{}, nil, "", fmt.Errorf("%w: %s would be %d bytes, over the %d-byte limit of a memory file; keep one fact per memory", ErrInvalid, m.File, len(data), MaxFileSize)
	}
	if _, err := Parse(m.File, data); err != nil {
		return Memory{}, nil, "", err // never write what we could not read back
	}
	return merged, data, typeChange, nil
}

// placeEntry gives the saved memory m its line in ix and reports whether ix
// changed: its line is replaced where it is listed; else appended while the
// index fits memdir's budget; else it takes the place of less useful
// entries (makeRoom), read for their type and date — at most a budget's
// worth of small files, whatever the folder holds. An index already past
// Claude Code's caps is left alone, with a warning: only a rebuild, which
// reads every memory, can choose what it should list.
func (s *Store) placeEntry(ix *Index, m Memory, res *SaveResult) bool {
	res.NotIndexed, res.Unlisted = false, nil
	if slices.ContainsFunc(ix.Lines, func(l IndexLine) bool { return l.File == m.File }) {
		return ix.Upsert(m.File, res.IndexLine)
	}
	add := candidateOf(m)
	add.Line = res.IndexLine
	if overCaps(*ix) {
		trial := Index{Lines: slices.Clone(ix.Lines)}
		trial.Upsert(m.File, res.IndexLine)
		if withinBudget(trial) {
			*ix = trial // hand-written lines alone can be past the caps' lines and not their characters
			return true
		}
		res.NotIndexed = true
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s is past Claude Code's caps, so %s got no line; run 'memdir index --rebuild' to list the %d most useful memories", IndexFile, m.File, IndexBudgetLines))
		return false
	}
	dropped, ok := makeRoom(ix, s.indexCandidates(*ix), add)
	res.NotIndexed, res.Unlisted = !ok, dropped
	return ok
}

// indexCandidates are the entries of ix a save may drop to make room, as
// the cap ranks them: lines of top-level memory files, ranked by type and
// date, and lines whose file is gone (dropped first). Lines that are not
// memdir's to judge — a subfolder's file, one that does not parse — are no
// candidates, as a rebuild keeps them. A file unchanged since a save last
// ranked it (same size and time) is not read again (rankCache).
func (s *Store) indexCandidates(ix Index) []candidate {
	cached, _, _ := s.readIndexFileUpTo(rankCache, maxEditIndexSize)
	ranks := parseRanks(cached)
	fresh := make(map[string]rankEntry, len(ranks))
	var out []candidate
	for _, l := range ix.Lines {
		if l.File == "" || IsIndexName(l.File) || paths.ValidateName(l.File) != nil {
			continue
		}
		if _, dup := fresh[l.File]; dup {
			continue
		}
		fi, err := os.Lstat(s.Path(l.File))
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, candidate{File: l.File, Class: classGone})
			continue
		}
		if err != nil {
			continue
		}
		if e, ok := ranks[l.File]; ok && fi.Mode().IsRegular() && e.size == fi.Size() && e.mtime == fi.ModTime().UnixNano() {
			fresh[l.File] = e
			out = append(out, candidate{File: l.File, Class: e.class, Stamp: e.stamp})
			continue
		}
		m, _, err := s.read(l.File)
		if err != nil {
			continue // a link out, a file that does not parse: not ours to drop
		}
		c := candidateOf(m)
		out = append(out, c)
		if fi.Mode().IsRegular() {
			fresh[l.File] = rankEntry{class: c.Class, stamp: c.Stamp, size: fi.Size(), mtime: fi.ModTime().UnixNano()}
		}
	}
	if b := formatRanks(fresh); !bytes.Equal(b, cached) {
		// Derived data: not synced, and a failure costs only re-reads.
		s.MakeCacheDir()
		_ = atomicfile.WriteFileNoSync(s.Path(rankCache), b, FilePerm)
	}
	return out
}

// readIndexFileUpTo reads a small derived file, nil when it is missing or
// over limit.
func (s *Store) readIndexFileUpTo(name string, limit int64) ([]byte, bool, error) {
	f, err := os.Open(s.Path(name))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(b)) > limit {
		return nil, false, err
	}
	return b, true, nil
}

// upsertIndex applies edit to MEMORY.md and writes it back if it changed,
// re-applying when another writer changed the file meanwhile. The caller
// holds the lock. A missing index is first rebuilt from the files.
func (s *Store) upsertIndex(ctx context.Context, edit func(*Index) bool) (Usage, error) {
	path := s.Path(IndexFile)
	for try := 0; ; try++ {
		old, err := s.readIndexUpTo(maxEditIndexSize)
		if err != nil {
			return Usage{}, err
		}
		var ix Index
		if old == nil {
			ix, err = s.freshIndex(ctx)
			if err != nil {
				return Usage{}, err
			}
		} else {
			ix = ParseIndex(old)
		}
		changed := edit(&ix) || old == nil
		data := ix.Bytes()
		if !changed {
			return IndexUsage(string(data)), nil
		}
		if testOnlyBeforeReplace != nil {
			testOnlyBeforeReplace(IndexFile)
		}
		again, err := s.readIndexUpTo(maxEditIndexSize)
		if IsIndexTooBig(err) {
			continue // replaced meanwhile by a large one: edit that
		}
		if err != nil {
			return Usage{}, err
		}
		if !bytes.Equal(again, old) {
			if try == maxRetries {
				return Usage{}, fmt.Errorf("%s keeps changing: %w", IndexFile, ErrConflict)
			}
			continue
		}
		s.sweep()
		if err := atomicfile.WriteFile(path, data, FilePerm); err != nil {
			return Usage{}, fmt.Errorf("write %s: %w", IndexFile, err)
		}
		return IndexUsage(string(data)), nil
	}
}

// readIndex returns MEMORY.md's bytes, or nil when it does not exist.
func (s *Store) readIndex() ([]byte, error) {
	b, err := s.readIndexUpTo(maxIndexSize)
	if IsIndexTooBig(err) {
		return nil, fmt.Errorf("%s is larger than %d bytes; rebuild it with 'memdir index --rebuild'", IndexFile, maxIndexSize)
	}
	return b, err
}

// readIndexUpTo returns MEMORY.md's bytes, nil when it does not exist, or
// an *IndexTooBigError when it is over limit bytes: it reads no further.
func (s *Store) readIndexUpTo(limit int64) ([]byte, error) {
	if err := s.checkPath(IndexFile); err != nil {
		return nil, err
	}
	f, err := os.Open(s.Path(IndexFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, &IndexTooBigError{Size: fi.Size()}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &IndexTooBigError{Size: int64(len(b))}
	}
	return b, nil
}

// maxIndexSize bounds what is read of MEMORY.md (Claude Code loads its
// first 25 KB).
const maxIndexSize = MaxIndexSize

// MaxIndexSize bounds a MEMORY.md memdir reads.
const MaxIndexSize = 8 << 20

// ReadIndex returns MEMORY.md's bytes, nil when there is none. Like a
// memory file, it must not be a link out of the folder.
func (s *Store) ReadIndex() ([]byte, error) { return s.readIndex() }

// freshIndex builds an index from the files alone: a line for each of the
// most useful readable memories, as many as the budget holds, newest first
// as Claude Code's backfill orders them. It reads every memory: it runs
// only when MEMORY.md is missing.
func (s *Store) freshIndex(ctx context.Context) (Index, error) {
	ranked, _, _, err := s.rankAll(ctx)
	if err != nil {
		return Index{}, err
	}
	return planRebuild(nil, ranked, nil).Index, nil
}
