//go:build !unix

package snapshot

import (
	"os"
	"path/filepath"

	"github.com/memdir/memdir/internal/recall"
)

func readSnapshot(path string) *recall.Snapshot {
	_, err := os.Stat(path)
	if err != nil {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	snap, err := recall.Open(b)
	if err != nil {
		return nil
	}
	return snap
}

func statAll(dir string, files []string) []fileStat {
	out := make([]fileStat, len(files))
	for i, f := range files {
		fi, err := os.Stat(filepath.Join(dir, f))
		switch {
		case err != nil:
			out[i].err = err
		case !fi.Mode().IsRegular():
			out[i].err = &os.PathError{Op: "recall", Path: f, Err: errNotRegular}
		default:
			out[i] = fileStat{size: fi.Size(), stamp: fi.ModTime().UnixNano()}
		}
	}
	return out
}
