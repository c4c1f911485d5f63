//go:build !unix

package snapshot

import (
	"os"
	"path/filepath"

	"github.com/memdir/memdir/internal/recall"
)

func readSnapshot(base, delta string) *recall.Snapshot {
	b, err := os.ReadFile(base)
	if err != nil {
		return nil
	}
	d, _ := os.ReadFile(delta)
	snap, err := recall.OpenSegments(b, d)
	if err == recall.ErrStaleDelta {
		snap, err = recall.OpenSegments(b, nil)
	}
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
