package memdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/redact"
)

// HasFrontmatter reports whether b, a memory file's content, opens with a
// frontmatter block. Parse reads a file without one (Claude Code writes
// some), but an edit that drops it would silently keep the old fields.
func HasFrontmatter(b []byte) bool {
	_, _, ok, _ := splitFrontmatter(b)
	return ok
}

// Version is a kept version of a memory in ForgottenDir: one a forget
// moved there, or one an edit replaced (SaveOptions.KeepPrevious).
type Version struct {
	File        string `json:"file"`    // the memory's file name
	Version     string `json:"version"` // the UTC time it was kept, as its name ends
	Path        string `json:"path"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Size        int64  `json:"size"`
}

// keepVersion writes old, file's content, to a new stamped file in
// ForgottenDir and returns its path. The caller holds the lock.
func (s *Store) keepVersion(file string, old []byte) (string, error) {
	dst, err := s.asidePath(file)
	if err != nil {
		return "", err
	}
	return dst, atomicfile.WriteFile(dst, old, FilePerm)
}

// asidePath is a free <file>.<UTC time> path in ForgottenDir, made.
func (s *Store) asidePath(file string) (string, error) {
	dir := s.Path(ForgottenDir)
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return "", err
	}
	stamp := s.opt.Now().UTC().Format("20060102T150405Z")
	dst := filepath.Join(dir, file+"."+stamp)
	for i := 2; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			return dst, nil
		}
		dst = filepath.Join(dir, fmt.Sprintf("%s.%s-%d", file, stamp, i))
	}
}

// Versions lists the kept versions of the memory called name (its file
// name, with or without .md, or its title), newest first. It fails with
// ErrNotFound when there are none.
func (s *Store) Versions(name string) ([]Version, error) {
	entries, err := os.ReadDir(s.Path(ForgottenDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	want := strings.TrimSuffix(strings.TrimSpace(name), ".md")
	var out []Version
	for _, e := range entries {
		i := strings.LastIndex(e.Name(), ".md.")
		if i <= 0 || !e.Type().IsRegular() {
			continue
		}
		v := Version{File: e.Name()[:i+3], Version: e.Name()[i+4:], Path: filepath.Join(s.Path(ForgottenDir), e.Name())}
		if !restorable(v.File) {
			continue // not a name memdir gives a memory: never put back
		}
		if fi, err := e.Info(); err != nil || fi.Size() > MaxFileSize {
			continue
		}
		b, err := os.ReadFile(v.Path)
		if err != nil || len(b) > MaxFileSize {
			continue
		}
		v.Size = int64(len(b))
		m, err := Parse(v.File, b)
		if err == nil {
			v.Name, v.Description = m.Title(), m.Description
		}
		if strings.TrimSuffix(v.File, ".md") == want || err == nil && SameName(m.Title(), name) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no kept version of %q: %w", name, ErrNotFound)
	}
	slices.SortFunc(out, func(a, b Version) int { return compareVersions(b.Version, a.Version) })
	return out, nil
}

// restorable reports whether a kept file's name may become a memory again:
// a plain memory file name, never MEMORY.md, a dot file or a name with a
// line break (its index line would carry it).
func restorable(file string) bool {
	return paths.ValidateName(file) == nil && !IsIndexName(file) && !strings.HasPrefix(file, ".") &&
		!strings.ContainsAny(file, "\r\n") && strings.HasSuffix(file, ".md")
}

// compareVersions orders version stamps "20261125T101010Z[-N]" in time,
// then by N as a number ("-10" after "-2").
func compareVersions(a, b string) int {
	as, an, _ := strings.Cut(a, "-")
	bs, bn, _ := strings.Cut(b, "-")
	if c := strings.Compare(as, bs); c != 0 {
		return c
	}
	ai, _ := strconv.Atoi(an)
	bi, _ := strconv.Atoi(bn)
	return ai - bi
}

// RestoreResult says what Restore did.
type RestoreResult struct {
	File      string `json:"file"`
	Version   string `json:"version"`
	From      string `json:"from"`                       // the kept version's path (gone now: it is the memory again)
	Replaced  string `json:"replaced_kept_in,omitempty"` // where the live version it replaced was kept
	IndexLine string `json:"index_line"`
}

// Restore puts a kept version of the memory called name back: the newest,
// or the one whose Version is version. A live memory of that file is not
// lost: it is kept in ForgottenDir first, so a restore is undone by another.
// The file and its MEMORY.md line change under the lock, all or nothing.
func (s *Store) Restore(ctx context.Context, name, version string) (RestoreResult, error) {
	vs, err := s.Versions(name)
	if err != nil {
		return RestoreResult{}, err
	}
	v := vs[0]
	if version != "" {
		i := slices.IndexFunc(vs, func(v Version) bool { return v.Version == version })
		if i < 0 {
			return RestoreResult{}, fmt.Errorf("%q has no version %s: %w", name, version, ErrNotFound)
		}
		v = vs[i]
	}
	res := RestoreResult{File: v.File, Version: v.Version, From: v.Path}
	unlock, err := s.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	if err := s.checkPath(v.File); err != nil || !restorable(v.File) {
		return res, fmt.Errorf("%q cannot be restored as a memory: %w", v.File, ErrInvalid)
	}
	b, err := os.ReadFile(v.Path)
	if err != nil {
		return res, err
	}
	// A version kept before redaction caught a kind of secret (or one
	// Claude Code wrote) comes back redacted, as any save does; a team
	// folder refuses it instead, as its saves do.
	if red, found := redact.String(string(b)); len(found) > 0 {
		if s.opt.Team {
			return res, secretError(Memory{File: v.File}, redactionCounts(found))
		}
		b = []byte(red)
	}
	m, err := Parse(v.File, b)
	if err != nil {
		return res, fmt.Errorf("the kept version %s does not parse: %w", v.Path, err)
	}
	if s.opt.Team {
		if labels := SecretsIn(m); len(labels) > 0 {
			return res, &SecretError{File: v.File, Labels: labels}
		}
		if m.Type == TypeUser {
			return res, fmt.Errorf("%w: %s is a user memory: it is never a team memory", ErrInvalid, v.File)
		}
	}
	live := s.Path(v.File)
	cur, _, err := s.readFile(v.File)
	if err != nil {
		return res, err
	}
	if cur != nil {
		if bytes.Equal(cur, b) {
			return res, fmt.Errorf("%s already holds version %s: %w", v.File, v.Version, ErrInvalid)
		}
		if res.Replaced, err = s.moveAside(v.File); err != nil {
			if res.Replaced != "" {
				_ = os.Rename(res.Replaced, live)
			}
			return res, err
		}
	}
	undo := func() {
		_ = os.Remove(live)
		if res.Replaced != "" {
			_ = os.Rename(res.Replaced, live)
		}
		_ = atomicfile.SyncDir(s.dir)
	}
	// Written, not renamed: the bytes are the redacted ones. The kept
	// version goes only once the index line is in.
	s.noteWritten(v.File)
	if err := atomicfile.WriteFile(live, b, FilePerm); err != nil {
		undo()
		return res, err
	}
	res.IndexLine = EntryLine(m)
	// The restored memory takes its line as a save would: in a full
	// index, only in the place of less useful ones.
	placed := SaveResult{IndexLine: res.IndexLine}
	m.File = v.File
	if _, err := s.upsertIndex(ctx, func(ix *Index) bool { return s.placeEntry(ix, m, &placed) }); err != nil && !IsIndexTooBig(err) {
		undo()
		return res, fmt.Errorf("restore %s: %w (nothing was changed)", v.File, err)
	}
	if err := os.Remove(v.Path); err == nil {
		_ = atomicfile.SyncDir(s.Path(ForgottenDir))
	}
	if s.opt.Team {
		// A restore is a person bringing the memory back on purpose.
		if _, err := s.removeTombstone(v.File); err != nil {
			return res, fmt.Errorf("restored %s, but %w", v.File, err)
		}
	}
	return res, nil
}
