package memdir

import (
	"context"
	"errors"
	"io/fs"
	"os"

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
	snap = readSnapshot(s.Path(RecallIndexFile))
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
	stats := statAll(s.dir, files)
	// When the folder's mtime has not moved, files are the snapshot's, in
	// its order: compare record by record.
	if snap != nil && snap.DirMtime() == dirMtime && len(files) == snap.Len() {
		same := true
		for i := range files {
			size, mtime := snap.Stat(i)
			if stats[i].err != nil || size != stats[i].size || mtime != stats[i].mtime {
				same = false
				break
			}
		}
		if same {
			return snap, nil, nil
		}
	}
	known := map[string]int{}
	if snap != nil {
		for i := range snap.Len() {
			known[snap.File(i)] = i
		}
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

var errNotRegular = errors.New("not a regular file")
