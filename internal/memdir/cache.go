package memdir

import (
	"context"
	"os"
	"path"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
)

// CacheDir holds what memdir derives from a memory folder (the recall
// snapshot, cached embeddings). Everything in it can be deleted: it is
// rebuilt from the memory files.
const CacheDir = ".memdir-cache"

// Read reads the memory file file (a file name, not a name to resolve).
func (s *Store) Read(file string) (Memory, error) {
	m, _, err := s.read(file)
	return m, err
}

// MakeCacheDir makes the cache folder if it is missing. Making it moves
// the memory folder's mtime, so a caller that compares that mtime makes it
// first. A folder that cannot be written (a read-only mount) is no error:
// derived data then lives in memory only.
func (s *Store) MakeCacheDir() {
	_ = os.Mkdir(s.Path(CacheDir), 0o700)
}

// WriteCache replaces the derived file name (a path under CacheDir)
// atomically, after sweeping the temp files killed writers left there
// (snapshots are megabytes).
func (s *Store) WriteCache(name string, data []byte) error {
	clean := path.Clean(name)
	if !strings.HasPrefix(clean, CacheDir+"/") || strings.Contains(strings.TrimPrefix(clean, CacheDir+"/"), "/") {
		return &os.PathError{Op: "write cache", Path: name, Err: os.ErrInvalid}
	}
	s.MakeCacheDir()
	_, _ = atomicfile.Sweep(s.Path(CacheDir), time.Minute, time.Now())
	return atomicfile.WriteFile(s.Path(clean), data, 0o600)
}

// NamedFile is a memory's file and its name (its title).
type NamedFile struct {
	File, Name string
}

// Names lists every memory's file and name, as fresh as the files. A
// store is given one by its opener (the recall snapshot keeps the names of
// 10,000 memories without reading them); without it, the store reads
// every file.
type Names func(ctx context.Context, s *Store) ([]NamedFile, error)

// allNames lists every memory's name, through opt.Names when set.
func (s *Store) allNames(ctx context.Context) ([]NamedFile, error) {
	if s.opt.Names != nil {
		return s.opt.Names(ctx, s)
	}
	files, err := s.Files()
	if err != nil {
		return nil, err
	}
	out := make([]NamedFile, 0, len(files))
	for _, f := range files {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if m, _, err := s.read(f); err == nil {
			out = append(out, NamedFile{File: f, Name: m.Title()})
		}
	}
	return out, nil
}
