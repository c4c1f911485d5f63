package claudeinstall

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
)

// KeepBackups is how many of its backups of a settings file memdir keeps.
const KeepBackups = 5

// editFile applies edit to the JSON object in path (missing: empty) and,
// when it changed and this is no dry run, backs the file up into backupDir
// and replaces it atomically, keeping its mode; a file left with nothing
// in it (an uninstall from a file the install created) is removed. A
// read-only file is refused.
func editFile(path, backupDir string, o Options, edit func(*Object) (bool, error)) (FileEdit, error) {
	// A settings file linked from a dotfiles repo is edited where it lives:
	// replacing the link with a file would fork the user's settings.
	linked := false
	if real, err := filepath.EvalSymlinks(path); err == nil {
		linked = real != path
		path = real
	}
	e := FileEdit{File: path}
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return e, err
	}
	doc, err := Parse(old)
	if err != nil {
		return e, hint.With(fmt.Errorf("%s: %w", path, err), "fix the file (it must be one JSON object, without comments), then run the command again")
	}
	if e.Changed, err = edit(doc); err != nil {
		return e, hint.With(fmt.Errorf("%s: %w", path, err), "fix that part of the file by hand, then run the command again")
	}
	if !e.Changed {
		return e, nil
	}
	updated := Encode(doc)
	e.Diff = Diff(diffText(old), diffText(updated), 3)
	if o.DryRun {
		return e, nil
	}
	if exists {
		if err := writable(path); err != nil {
			return e, hint.With(err, "make it writable (chmod u+w %s) or choose another --scope", path)
		}
		e.Backup = backupName(filepath.Join(backupDir, filepath.Base(path)), o.Now)
		if err := os.MkdirAll(backupDir, 0o700); err != nil {
			return e, fmt.Errorf("back up %s: %w", path, err)
		}
		if err := atomicfile.WriteFile(e.Backup, old, 0o600); err != nil {
			return e, fmt.Errorf("back up %s: %w", path, err)
		}
		pruneBackups(filepath.Join(backupDir, filepath.Base(path)), KeepBackups)
		if !linked && strings.TrimSpace(string(updated)) == "{}" {
			e.Removed = true
			return e, os.Remove(path)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return e, err
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return e, atomicfile.WriteFile(path, updated, mode)
}

// diffText is a file's text for Diff: CRLF line ends read as LF, no
// final newline.
func diffText(b []byte) string {
	return strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
}

// writable checks that path may be written by this user: a read-only
// settings file is somebody's decision, and an atomic replace would
// silently override it.
func writable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only: nothing changed", path) // even for root
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s is read-only: nothing changed", path)
		}
		return err
	}
	return f.Close()
}

// backupName is a backup path for path that does not exist yet.
func backupName(path string, now time.Time) string {
	base := path + ".memdir-backup-" + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}

// pruneBackups removes all but the newest keep backups memdir made of path
// (their names sort by time).
func pruneBackups(path string, keep int) {
	entries, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + ".memdir-backup-"
	var old []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			old = append(old, e.Name())
		}
	}
	sort.Slice(old, func(i, j int) bool { return backupKey(old[i]) < backupKey(old[j]) })
	for len(old) > keep {
		os.Remove(filepath.Join(filepath.Dir(path), old[0]))
		old = old[1:]
	}
}

// backupKey orders backups by time, then by their -N suffix.
func backupKey(name string) string {
	stamp := name[strings.LastIndex(name, ".memdir-backup-")+len(".memdir-backup-"):]
	ts, n, _ := strings.Cut(stamp, "-")
	return fmt.Sprintf("%s-%06s", ts, n)
}
