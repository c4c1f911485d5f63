// Package atomicfile writes files so that a reader, or a process that
// survives a crash, sees either the old content or the new content, never a
// mix of the two.
//
// A write goes to a temporary file in the destination's folder, is synced,
// renamed over the destination, and the folder is synced so the rename
// itself is durable. Temporary files are named ".<base>.tmp-<random>"; a
// writer killed mid-write leaves one behind, and Sweep removes them.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// TempMarker appears in the name of every temporary file this package makes.
const TempMarker = ".tmp-"

// WriteFile atomically replaces name with data, created with perm.
// On error the destination is untouched and the temporary file is removed.
// It is safe for concurrent use: concurrent writers to one name each write
// a whole file, and the last rename wins.
func WriteFile(name string, data []byte, perm fs.FileMode) (err error) {
	return write(name, data, perm, true)
}

// WriteFileNoSync is WriteFile without the fsyncs: still all or nothing for
// readers and after a crash of the writer, but a crash of the machine may
// bring back the old content. For derived state on a hot path (a hook's
// per-session bookkeeping), where losing the last update is harmless and
// two fsyncs are most of the time.
func WriteFileNoSync(name string, data []byte, perm fs.FileMode) error {
	return write(name, data, perm, false)
}

func write(name string, data []byte, perm fs.FileMode, sync bool) (err error) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+TempMarker+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if sync {
		if err = f.Sync(); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = rename(tmp, name); err != nil {
		return err
	}
	if !sync {
		return nil
	}
	return SyncDir(dir)
}

// rename retries briefly on Windows, where a rename fails while another
// process holds the destination open.
func rename(from, to string) error {
	err := os.Rename(from, to)
	for i := 0; err != nil && runtime.GOOS == "windows" && i < 5; i++ {
		time.Sleep(20 * time.Millisecond)
		err = os.Rename(from, to)
	}
	return err
}

// SyncDir fsyncs a folder so that renames and removals in it are durable.
// It is a no-op on Windows, where folders cannot be opened for syncing.
func SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// IsTemp reports whether a base name is one of this package's temporary files.
func IsTemp(base string) bool {
	return strings.HasPrefix(base, ".") && strings.Contains(base, TempMarker)
}

// Sweep removes temporary files older than minAge left in dir by writers
// that died mid-write, and returns how many it removed. Files younger than
// minAge may belong to a writer that is still running and are kept.
func Sweep(dir string, minAge time.Duration, now time.Time) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || !IsTemp(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed by its writer meanwhile
		}
		if now.Sub(info.ModTime()) < minAge {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
			n++
		}
	}
	return n, nil
}
