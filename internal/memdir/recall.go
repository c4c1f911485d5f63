package memdir

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/recall"
)

// RecallIndexFile is the ranking index, in a dot folder of the memory
// folder: not markdown, so neither memdir nor an agent takes it for a
// memory, and in a folder of its own, so replacing it does not touch the
// memory folder's mtime (which tells recall whether files came or went). It
// is derived from the memory files and rebuilt from them whenever it is
// missing, corrupt or out of date.
const RecallIndexFile = CacheDir + "/recall.idx"

// CacheDir holds what memdir derives from a memory folder.
const CacheDir = ".memdir-cache"

// RecallMemory is what recall needs of a memory.
func RecallMemory(m Memory) recall.Memory {
	saved := m.Updated
	if saved.IsZero() {
		saved = m.Created
	}
	if saved.IsZero() {
		saved = m.ModTime
	}
	return recall.Memory{File: m.File, Name: m.Title(), Description: m.Summary(), Type: string(m.Type),
		Body: m.Body, Saved: saved, SupersededBy: m.SupersededBy}
}

// RecallIndex returns the folder's ranking snapshot, up to date with the
// files. It reads the snapshot file, checks every file's size and mtime
// against it (listing the folder only when its mtime moved), re-reads the
// files that changed, and replaces the snapshot file atomically when
// anything did. Files that cannot be parsed are left out and reported in
// problems. A folder that cannot be written still gets its snapshot, in
// memory.
func (s *Store) RecallIndex(ctx context.Context) (snap *recall.Snapshot, problems []error, err error) {
	// The cache folder first: making it moves the folder's mtime.
	if err := os.Mkdir(s.Path(CacheDir), 0o700); err != nil && !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrPermission) {
		return nil, nil, err
	}
	dirInfo, err := os.Stat(s.dir)
	if err != nil {
		return nil, nil, err
	}
	dirMtime := dirInfo.ModTime().UnixNano()
	if b, err := os.ReadFile(s.Path(RecallIndexFile)); err == nil {
		if old, err := recall.Open(b); err == nil {
			snap = old
		}
	}
	// The files, as the snapshot knows them or as the folder lists them.
	var files []string
	if snap != nil && snap.DirMtime() == dirMtime {
		files = make([]string, snap.Len())
		for i := range files {
			files[i] = snap.File(i)
		}
	} else if files, err = s.Files(); err != nil {
		return nil, nil, err
	}
	known := map[string]int{}
	if snap != nil {
		for i := range snap.Len() {
			known[snap.File(i)] = i
		}
	}
	stats := statAll(s.dir, files)
	changed := snap == nil || len(files) != snap.Len()
	for i, f := range files {
		j, ok := known[f]
		if !ok || stats[i].err != nil {
			changed = true
			continue
		}
		size, mtime := snap.Stat(j)
		if size != stats[i].size || mtime != stats[i].mtime {
			changed = true
		}
	}
	if !changed {
		return snap, nil, nil
	}
	entries := make([]recall.Entry, 0, len(files))
	for i, f := range files {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if stats[i].err != nil {
			if !errors.Is(stats[i].err, fs.ErrNotExist) {
				problems = append(problems, stats[i].err)
			}
			continue
		}
		if j, ok := known[f]; ok {
			if size, mtime := snap.Stat(j); size == stats[i].size && mtime == stats[i].mtime {
				if e, err := snap.Entry(j); err == nil {
					entries = append(entries, e)
					continue
				}
			}
		}
		m, _, err := s.read(f)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		entries = append(entries, recall.NewEntry(RecallMemory(m), m.Refs, m.Size, m.ModTime.UnixNano()))
	}
	data := recall.Encode(entries, dirMtime)
	// A snapshot that fails to write is still used; the next call retries.
	_ = atomicfile.WriteFile(s.Path(RecallIndexFile), data, 0o600)
	snap, err = recall.Open(data)
	return snap, problems, err
}

type fileStat struct {
	size, mtime int64
	err         error
}

// statAll stats files in dir, a few at a time: on a cold start the stats
// are most of recall's time.
func statAll(dir string, files []string) []fileStat {
	out := make([]fileStat, len(files))
	workers := min(runtime.GOMAXPROCS(0), 4, max(1, len(files)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(files); i += workers {
				fi, err := os.Stat(dir + string(os.PathSeparator) + files[i])
				switch {
				case err != nil:
					out[i].err = err
				case !fi.Mode().IsRegular():
					out[i].err = &fs.PathError{Op: "recall", Path: files[i], Err: errors.New("not a regular file")}
				default:
					out[i] = fileStat{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
				}
			}
		}()
	}
	wg.Wait()
	return out
}
