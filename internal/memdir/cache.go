package memdir

import (
	"context"
	"os"
	"path"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/safefile"
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
// (snapshots are megabytes). It does not fsync: derived data is rebuilt
// from the memory files whenever it is missing, stale or corrupt (the
// snapshot checks its layout and checksum), so a machine crash that brings
// back an older or an empty file costs a rebuild, never a memory — and a
// sync is most of the time a prompt that follows a change pays.
func (s *Store) WriteCache(name string, data []byte) error {
	clean := path.Clean(name)
	if !strings.HasPrefix(clean, CacheDir+"/") || strings.Contains(strings.TrimPrefix(clean, CacheDir+"/"), "/") {
		return &os.PathError{Op: "write cache", Path: name, Err: os.ErrInvalid}
	}
	s.MakeCacheDir()
	_, _ = atomicfile.Sweep(s.Path(CacheDir), time.Minute, time.Now())
	return atomicfile.WriteFileNoSync(s.Path(clean), data, 0o600)
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

// WrittenLog names the memory files the store wrote, one per line, for
// readers of derived data that otherwise trust a file by its inode when
// the folder changes (the recall snapshot): a file replaced twice between
// two looks can get its old inode back, as ext4 hands a freed inode out
// again at once. The log is a hint, never the truth: appended to without
// a sync, rotated to WrittenLog+".1" past writtenLogMax (under the
// folder's lock, which every writer of memory files holds), so a reader
// that looks once in a few hundred writes misses none.
const WrittenLog = CacheDir + "/written"

// writtenLogMax bounds each generation of the written log (about 300 names).
const writtenLogMax = 8 << 10

// noteWritten adds file to the written log. Failures only lose the hint.
func (s *Store) noteWritten(file string) {
	s.MakeCacheDir()
	p := s.Path(WrittenLog)
	if fi, err := os.Lstat(p); err == nil && fi.Size() > writtenLogMax {
		_ = os.Rename(p, p+".1")
	}
	f, err := safefile.OpenAppend(p, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(file + "\n")
	_ = f.Close()
}

// Written returns the memory files the written log names (both
// generations), each once: the files written lately, to be checked by
// stat rather than trusted by inode.
func (s *Store) Written() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range []string{s.Path(WrittenLog + ".1"), s.Path(WrittenLog)} {
		b, err := safefile.ReadFile(p, 4*writtenLogMax)
		if err != nil {
			continue
		}
		for _, name := range strings.Split(string(b), "\n") {
			// Only a plain memory file name: the log is in a folder others
			// can write, and its names are joined to the folder's path.
			if seen[name] || name == "" || strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || IsIndexName(name) {
				continue
			}
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
