package memdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"

	"github.com/memdir/memdir/internal/atomicfile"
)

// ForgetResult says what Forget did.
type ForgetResult struct {
	File         string `json:"file"`
	Removed      bool   `json:"file_removed"`       // false when only a dangling index line was left
	MovedTo      string `json:"moved_to,omitempty"` // empty when purged or when the file was already gone
	Purged       bool   `json:"purged"`
	IndexRemoved bool   `json:"index_line_removed"`
	// Tombstone is the file a team folder keeps of the forgotten memory
	// (relative to the folder), so a branch that still has it does not
	// bring it back silently.
	Tombstone string `json:"tombstone,omitempty"`
}

// Forget removes a memory and its index line under the folder's lock. The
// file moves to ForgottenDir (renamed so it no longer ends in .md), or is
// deleted when purge is set. A dangling index line for a file that no longer
// exists is removed too. It fails with ErrNotFound when neither a file nor an
// index line matches.
func (s *Store) Forget(ctx context.Context, name string, purge bool) (ForgetResult, error) {
	file, err := s.Resolve(name)
	dangling := false
	if errors.Is(err, ErrNotFound) {
		// Perhaps only a dangling index line is left: only for what was
		// typed as a file name ("gone.md", "gone"), never a slug of a
		// name, which could be another memory's file.
		file = strings.TrimSpace(name)
		if !strings.HasSuffix(file, ".md") {
			file += ".md"
		}
		if IsIndexName(file) || paths.ValidateName(file) != nil {
			return ForgetResult{}, err // MEMORY.md is no memory
		}
		dangling = true
	} else if err != nil {
		return ForgetResult{}, err
	}
	res := ForgetResult{File: file, Purged: purge}
	unlock, err := s.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	if err := s.checkPath(file); err != nil {
		return res, err
	}
	src := s.Path(file)
	_, statErr := os.Lstat(src)
	// A name that did not resolve only ever removes an index line: a file
	// that appeared meanwhile is left alone.
	exists := statErr == nil && !dangling
	if dangling && statErr == nil {
		// Not a memory we resolved, yet a file: its line stays.
		return res, fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	res.Removed = exists
	// All or nothing: the file moves aside first (a rename needs no
	// space), then its line leaves the index; if that fails (a full disk),
	// the file comes back, so a retry finds it. A purge deletes the moved
	// file only once the index is written.
	var moved string
	if exists && s.opt.Team {
		// The tombstone first: a forget cut short leaves the memory and
		// its tombstone, which 'memdir team check' reports ("forgotten,
		// yet back"), never a memory gone without one.
		if err := s.checkTeamFolder(); err != nil {
			return res, err
		}
		undo, err := s.addTombstone(file, s.titleOf(file))
		if err != nil {
			return res, hint.With(fmt.Errorf("forget %s: its tombstone could not be written: %w (nothing was changed)", file, err), "check that %s can be written, then run the forget again", s.Path(TombstoneDir))
		}
		res.Tombstone = TombstoneFile(file)
		defer func() {
			if !res.Removed {
				undo()
				res.Tombstone = ""
			}
		}()
	}
	if exists {
		if moved, err = s.moveAside(file); err != nil {
			if moved != "" {
				_ = os.Rename(moved, src)
			}
			res.Removed = false
			return res, err
		}
	}
	// An index too large to edit keeps the line: the rebuild it asks for
	// drops it.
	if _, err := s.readIndexUpTo(maxEditIndexSize); err == nil {
		_, err = s.upsertIndex(ctx, func(ix *Index) bool {
			res.IndexRemoved = ix.Remove(file)
			return res.IndexRemoved
		})
		if err != nil {
			if moved != "" {
				if rerr := os.Rename(moved, src); rerr != nil {
					return res, fmt.Errorf("%w; and %s could not be put back from %s: %v", err, file, moved, rerr)
				}
				_ = atomicfile.SyncDir(s.dir)
			}
			res.Removed, res.IndexRemoved = false, false
			return res, fmt.Errorf("forget %s: %w (nothing was changed)", file, err)
		}
	}
	switch {
	case moved != "" && purge:
		// The memory is forgotten already (its line is gone): a copy
		// that cannot be deleted is reported where it stayed.
		if err := os.Remove(moved); err != nil {
			res.MovedTo = moved
			return res, fmt.Errorf("forgot %s, but its copy in %s could not be deleted: %w", file, ForgottenDir, err)
		}
		if err := atomicfile.SyncDir(filepath.Dir(moved)); err != nil {
			return res, err
		}
	case moved != "":
		res.MovedTo = moved
	}
	if !exists && !res.IndexRemoved {
		return res, fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	return res, nil
}

// moveAside renames file into ForgottenDir, stamped, and syncs both
// folders; it returns the new path.
func (s *Store) moveAside(file string) (string, error) {
	dst, err := s.asidePath(file)
	if err != nil {
		return "", err
	}
	s.noteWritten(file) // its name leaves the folder (or comes back)
	if err := os.Rename(s.Path(file), dst); err != nil {
		return "", err
	}
	if err := atomicfile.SyncDir(s.dir); err != nil {
		return dst, err
	}
	return dst, atomicfile.SyncDir(filepath.Dir(dst))
}

// IndexReport is the health of MEMORY.md against the files.
type IndexReport struct {
	Exists     bool     `json:"exists"`
	Dangling   []string `json:"dangling"`   // linked files that do not exist
	Orphans    []string `json:"orphans"`    // memory files with no line that a rebuild would list
	Duplicates []string `json:"duplicates"` // files linked more than once
	LeftOut    int      `json:"left_out"`   // memories with no line because the index is full: not a problem
	Usage      Usage    `json:"usage"`
	Loaded     Loaded   `json:"loaded"`
}

// OK reports whether the index has no problem that needs fixing.
func (r IndexReport) OK() bool {
	return r.Exists && len(r.Dangling) == 0 && len(r.Orphans) == 0 && len(r.Duplicates) == 0 &&
		!r.Loaded.Truncated
}

// CheckIndex compares MEMORY.md with the memory files. It only reads. A
// memory without a line is an orphan only when a rebuild would give it
// one: past the budget the index holds the most useful memories, and the
// others are counted in LeftOut.
func (s *Store) CheckIndex() (IndexReport, error) {
	var r IndexReport
	b, err := s.readIndex()
	if err != nil {
		return r, err
	}
	r.Exists = b != nil
	ix := ParseIndex(b)
	count := map[string]int{}
	for _, l := range ix.Lines {
		if l.File != "" {
			count[l.File]++
		}
	}
	for _, f := range ix.Files() {
		if _, err := os.Lstat(s.Path(f)); err != nil {
			r.Dangling = append(r.Dangling, f)
		}
		if count[f] > 1 {
			r.Duplicates = append(r.Duplicates, f)
		}
	}
	// A file that does not parse is no memory to list: doctor reports it.
	ranked, skipped, _, err := s.rankAll(context.Background())
	if err != nil {
		return r, err
	}
	p := planRebuild(ix.Lines, ranked, func(f string) bool { return slices.Contains(skipped, f) || s.inSubfolder(f) })
	r.Orphans, r.LeftOut = p.Added, p.LeftOut
	slices.Sort(r.Orphans)
	r.Usage = IndexUsage(string(b))
	r.Loaded = Load(string(b))
	return r, nil
}

// RebuildResult says what RebuildIndex changed.
type RebuildResult struct {
	Added    []string `json:"added"`
	Removed  []string `json:"removed"`  // lines whose file is gone, or listed twice
	Skipped  []string `json:"skipped"`  // files that could not be read or parsed: their lines are kept, none is added
	LeftOut  int      `json:"left_out"` // memories with no line: the index holds the most useful IndexBudgetLines
	Changed  bool     `json:"changed"`
	Problems []error  `json:"-"`
}

// RebuildIndex regenerates MEMORY.md from the files under the lock. The
// most useful readable memories get exactly one up-to-date line each, as
// many as the budget (IndexBudgetLines, IndexBudgetChars) holds; those
// already listed keep their place, the others are appended newest first.
// Lines linking missing files are dropped, and lines that are not
// entries (headings, notes written by hand) are kept, as are the lines of
// files it cannot judge (unreadable, or in a subfolder). An index of any
// size is read line by line, never whole. Running it twice changes
// nothing the second time.
func (s *Store) RebuildIndex(ctx context.Context) (RebuildResult, error) {
	var res RebuildResult
	unlock, err := s.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	// A rebuild is the repair after a crash: it clears dead temporary
	// files even when the index it finds is already right.
	s.sweepNow()
	ranked, skipped, problems, err := s.rankAll(ctx)
	if err != nil {
		return res, err
	}
	res.Skipped, res.Problems = skipped, problems
	listed := make(map[string]bool, len(ranked))
	for _, c := range ranked {
		listed[c.File] = true
	}
	keep := func(file string) bool {
		// Not ours to judge: a file that does not parse, or one in a
		// subfolder (Claude Code's team/…), keeps its line.
		return slices.Contains(skipped, file) || s.inSubfolder(file)
	}
	for try := 0; ; try++ {
		lines, small, stamp, err := s.scanIndexFile(func(f string) bool { return listed[f] })
		if err != nil {
			return res, err
		}
		p := planRebuild(lines, ranked, keep)
		if stamp == nil {
			p.Added = p.Index.Files()
		}
		res.Added, res.Removed, res.LeftOut = p.Added, p.Removed, p.LeftOut
		data := p.Index.Bytes()
		res.Changed = stamp == nil || small == nil || !bytes.Equal(small, data)
		if !res.Changed {
			return res, nil
		}
		if testOnlyBeforeReplace != nil {
			testOnlyBeforeReplace(IndexFile)
		}
		if !s.indexUnchanged(stamp, small) {
			if try == maxRetries {
				return res, fmt.Errorf("%s keeps changing: %w", IndexFile, ErrConflict)
			}
			continue
		}
		if err := atomicfile.WriteFile(s.Path(IndexFile), data, FilePerm); err != nil {
			return res, fmt.Errorf("write %s: %w", IndexFile, err)
		}
		return res, nil
	}
}

// rankAll reads every memory file and ranks the readable ones most useful
// first, keeping of each only what the index needs. Files it cannot read
// or parse are skipped (ErrNotFound aside: removed meanwhile) and their
// errors returned as problems.
func (s *Store) rankAll(ctx context.Context) (ranked []candidate, skipped []string, problems []error, err error) {
	files, err := s.Files()
	if err != nil {
		return nil, nil, nil, err
	}
	ranked = make([]candidate, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		if s.opt.Team && s.tombstoned(f) {
			continue // forgotten, yet back: no line until a person settles it
		}
		m, _, err := s.read(f)
		if err != nil {
			// Unreadable (permissions, over MaxFileSize) or unparsable: not
			// ours to judge, so its line stays, and the caller says so.
			problems = append(problems, err)
			if !errors.Is(err, ErrNotFound) {
				skipped = append(skipped, f)
			}
			continue
		}
		ranked = append(ranked, candidateOf(m))
	}
	slices.SortFunc(ranked, compareUseful)
	return ranked, skipped, problems, nil
}

// scanIndexFile reads MEMORY.md line by line (scanIndex). small holds its
// bytes when it is small enough to edit, nil otherwise; stamp is its file
// info, nil when there is no index.
func (s *Store) scanIndexFile(regen func(string) bool) (lines []IndexLine, small []byte, stamp fs.FileInfo, err error) {
	if err := s.checkPath(IndexFile); err != nil {
		return nil, nil, nil, err
	}
	f, err := os.Open(s.Path(IndexFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	if stamp, err = f.Stat(); err != nil {
		return nil, nil, nil, err
	}
	if stamp.Size() <= maxEditIndexSize {
		if small, err = io.ReadAll(io.LimitReader(f, maxEditIndexSize+1)); err != nil {
			return nil, nil, nil, err
		}
		if len(small) <= maxEditIndexSize {
			return ParseIndex(small).Lines, small, stamp, nil
		}
		small = nil
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, nil, nil, err
		}
	}
	lines, err = scanIndex(f, regen)
	return lines, nil, stamp, err
}

// indexUnchanged reports whether MEMORY.md is still what scanIndexFile
// read: the same bytes when it was small, else the same file, size and
// time (a large index is not read twice).
func (s *Store) indexUnchanged(stamp fs.FileInfo, small []byte) bool {
	if small != nil {
		again, err := s.readIndexUpTo(maxEditIndexSize)
		return err == nil && again != nil && bytes.Equal(again, small)
	}
	fi, err := os.Lstat(s.Path(IndexFile))
	if stamp == nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err == nil && os.SameFile(fi, stamp) && fi.Size() == stamp.Size() && fi.ModTime().Equal(stamp.ModTime())
}

// LoadIndex returns MEMORY.md as an agent loads it (capped, with the warning
// line when cut). When the index is missing it is first rebuilt from the
// files, under the lock.
func (s *Store) LoadIndex(ctx context.Context) (Loaded, error) {
	b, err := s.readIndex()
	if err != nil {
		return Loaded{}, err
	}
	if b == nil {
		files, err := s.Files()
		if err != nil || len(files) == 0 {
			return Load(""), err
		}
		if _, err := s.RebuildIndex(ctx); err != nil {
			// A folder that cannot be written (or is locked) still shows
			// its memories: the index is built in memory.
			ix, ferr := s.freshIndex(ctx)
			if ferr != nil {
				return Loaded{}, err
			}
			return Load(string(ix.Bytes())), nil
		}
		if b, err = s.readIndex(); err != nil {
			return Loaded{}, err
		}
	}
	return Load(string(b)), nil
}

// inSubfolder reports whether an index line's target is a file in a
// subfolder of the memory folder (memdir keeps memories at the top level;
// Claude Code and people may not).
func (s *Store) inSubfolder(file string) bool {
	if !strings.Contains(file, "/") || slices.Contains(strings.Split(file, "/"), "..") || filepath.IsAbs(file) {
		return false
	}
	p := filepath.Join(s.dir, filepath.FromSlash(file))
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	ok, err := paths.Within(s.real, p)
	return err == nil && ok
}
