package memdir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	if exists {
		if moved, err = s.moveAside(file); err != nil {
			if moved != "" {
				_ = os.Rename(moved, src)
			}
			return res, err
		}
	}
	if _, err := s.readIndex(); err == nil {
		_, err = s.upsertIndex(func(ix *Index) bool {
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
	Orphans    []string `json:"orphans"`    // memory files with no line
	Duplicates []string `json:"duplicates"` // files linked more than once
	Usage      Usage    `json:"usage"`
	Loaded     Loaded   `json:"loaded"`
}

// OK reports whether the index has no problem that needs fixing.
func (r IndexReport) OK() bool {
	return r.Exists && len(r.Dangling) == 0 && len(r.Orphans) == 0 && len(r.Duplicates) == 0 &&
		!r.Loaded.Truncated
}

// CheckIndex compares MEMORY.md with the memory files. It only reads.
func (s *Store) CheckIndex() (IndexReport, error) {
	var r IndexReport
	b, err := s.readIndex()
	if err != nil {
		return r, err
	}
	r.Exists = b != nil
	files, err := s.Files()
	if err != nil {
		return r, err
	}
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
	for _, f := range files {
		if count[f] == 0 {
			if _, _, err := s.read(f); err != nil && !errors.Is(err, ErrNotFound) {
				continue // a file that does not parse is no memory to list: doctor reports it
			}
			r.Orphans = append(r.Orphans, f)
		}
	}
	r.Usage = IndexUsage(string(b))
	r.Loaded = Load(string(b))
	return r, nil
}

// RebuildResult says what RebuildIndex changed.
type RebuildResult struct {
	Added    []string `json:"added"`
	Removed  []string `json:"removed"`
	Skipped  []string `json:"skipped"` // files that could not be read or parsed: their lines are kept, none is added
	Changed  bool     `json:"changed"`
	Problems []error  `json:"-"`
}

// RebuildIndex regenerates MEMORY.md from the files under the lock: every
// readable memory gets exactly one up-to-date entry line (existing entries
// keep their place, new ones are appended newest first), lines linking
// missing files are dropped, and lines that are not entries (headings, notes
// written by hand) are kept. Running it twice changes nothing the second time.
func (s *Store) RebuildIndex(ctx context.Context) (RebuildResult, error) {
	var res RebuildResult
	unlock, err := s.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	// A rebuild is the repair after a crash: it clears dead temporary
	// files even when the index it finds is already right.
	s.sweep()
	files, err := s.Files()
	if err != nil {
		return res, err
	}
	var mems []Memory
	for _, f := range files {
		m, _, err := s.read(f)
		if err != nil {
			// Unreadable (permissions, over MaxFileSize) or unparsable: not
			// ours to judge, so its line stays, and the caller says so.
			res.Problems = append(res.Problems, err)
			if !errors.Is(err, ErrNotFound) {
				res.Skipped = append(res.Skipped, f)
			}
			continue
		}
		mems = append(mems, m)
	}
	byFile := map[string]Memory{}
	for _, m := range mems {
		byFile[m.File] = m
	}
	before, err := s.readIndex()
	if err != nil {
		return res, err
	}
	_, err = s.upsertIndex(func(ix *Index) bool {
		res = RebuildResult{Skipped: res.Skipped, Problems: res.Problems}
		if before == nil {
			res.Added, res.Changed = ix.Files(), true
			return true
		}
		var out []IndexLine
		seen := map[string]bool{}
		for _, l := range ix.Lines {
			if l.File == "" {
				out = append(out, l)
				continue
			}
			m, ok := byFile[l.File]
			if slices.Contains(res.Skipped, l.File) || !ok && s.inSubfolder(l.File) {
				// Not ours to judge: a file that does not parse, or one in
				// a subfolder (Claude Code's team/…), keeps its line.
				ok, m = true, Memory{}
			}
			if !ok || seen[l.File] {
				res.Removed = append(res.Removed, l.File)
				continue
			}
			seen[l.File] = true
			if m.File != "" {
				l.Text = EntryLine(m)
			}
			out = append(out, l)
		}
		var missing []Memory
		for _, m := range mems {
			if !seen[m.File] {
				missing = append(missing, m)
			}
		}
		sortNewestFirst(missing)
		rebuilt := Index{Lines: out}
		for _, m := range missing {
			rebuilt.Upsert(m.File, EntryLine(m))
			res.Added = append(res.Added, m.File)
		}
		res.Changed = string(rebuilt.Bytes()) != string(ix.Bytes())
		*ix = rebuilt
		return res.Changed
	})
	return res, err
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
			ix, ferr := s.freshIndex()
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
