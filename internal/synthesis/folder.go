// Package synthesis is the only writer of the synthesis folder,
// <home>/memory: the transcripts' processing state, the projects index and,
// later, daily summaries and long-term memory files. Every write is atomic;
// read-modify-write runs under the folder's lock.
package synthesis

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/safefile"
)

// Folder is the synthesis folder. Opening it creates nothing: the first
// write or lock does.
type Folder struct {
	dir string
	opt lockfile.Options
}

// Open returns the folder at dir (absolute).
func Open(dir string, opt lockfile.Options) *Folder {
	return &Folder{dir: dir, opt: opt}
}

// Dir returns the folder's path.
func (f *Folder) Dir() string { return f.dir }

// Path returns the path of rel inside the folder, refusing one that would
// leave it.
func (f *Folder) Path(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%q is not a path inside the synthesis folder", rel)
	}
	return filepath.Join(f.dir, clean), nil
}

// Lock takes the folder's lock, creating the folder if needed.
func (f *Folder) Lock(ctx context.Context) (unlock func(), err error) {
	if err := os.MkdirAll(f.dir, 0o700); err != nil {
		return nil, err
	}
	return lockfile.Lock(ctx, f.dir, f.opt)
}

// maxRead bounds a file of the synthesis folder memdir reads (the state
// of many thousands of transcripts is a few megabytes).
const maxRead = 256 << 20

// ReadFile reads rel, a regular file (a FIFO there is refused, not waited
// on). A missing file is fs.ErrNotExist.
func (f *Folder) ReadFile(rel string) ([]byte, error) {
	p, err := f.Path(rel)
	if err != nil {
		return nil, err
	}
	return safefile.ReadFile(p, maxRead)
}

// ReadJSON decodes rel into v. It reports found=false, and no error, when
// the file does not exist; a file that is not valid JSON is an error naming
// it, and is left as it is.
func (f *Folder) ReadJSON(rel string, v any) (found bool, err error) {
	b, err := f.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		p, _ := f.Path(rel)
		return true, &CorruptError{Path: p, Err: err}
	}
	return true, nil
}

// WriteJSON writes v to rel atomically, indented, creating folders. The
// caller holds the lock when the write depends on what it read.
func (f *Folder) WriteJSON(rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return f.WriteFile(rel, append(b, '\n'))
}

// WriteStateJSON is WriteJSON without fsync (see
// atomicfile.WriteFileNoSync): for bookkeeping a hook rewrites on every
// prompt.
func (f *Folder) WriteStateJSON(rel string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return f.write(rel, append(b, '\n'), atomicfile.WriteFileNoSync)
}

// WriteFile writes data to rel atomically, creating folders.
func (f *Folder) WriteFile(rel string, data []byte) error {
	return f.write(rel, data, atomicfile.WriteFile)
}

func (f *Folder) write(rel string, data []byte, write func(string, []byte, os.FileMode) error) error {
	p, err := f.Path(rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return write(p, data, 0o600)
}

// AppendLine appends one line (a newline is added) to rel with a single
// write on a file opened for appending, so concurrent writers never
// interleave within a line. A crash can leave the last line torn; readers
// of these logs skip such a line.
func (f *Folder) AppendLine(rel string, line []byte) error {
	p, err := f.Path(rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	fh, err := safefile.OpenAppend(p, 0o600)
	if err != nil {
		return err
	}
	_, err = fh.Write(append(line[:len(line):len(line)], '\n'))
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// Take moves rel aside, reads it (up to limit bytes) and removes it: what
// a writer appends to rel after the move goes to a new rel, so no line is
// both read and kept, and a second taker finds nothing. A missing rel is
// fs.ErrNotExist, at the cost of one failed lstat (a failed rename costs
// two system calls). A file over limit is removed all the same, and is an
// error.
func (f *Folder) Take(rel string, limit int64) ([]byte, error) {
	p, err := f.Path(rel)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(p); err != nil {
		return nil, err
	}
	taken := p + ".taken"
	if err := os.Rename(p, taken); err != nil {
		return nil, err
	}
	defer os.Remove(taken)
	return safefile.ReadFile(taken, limit)
}

// Rotate moves rel aside to rel.1, replacing an older rel.1, when it is
// larger than limit bytes, so that a file only ever appended to stays
// bounded. It reports whether it moved the file; a missing rel is not an
// error. The move is a rename: a writer appending meanwhile finishes its
// line in rel.1, and the next append creates rel.
func (f *Folder) Rotate(rel string, limit int64) (bool, error) {
	p, err := f.Path(rel)
	if err != nil {
		return false, err
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil || fi.Size() <= limit {
		return false, err
	}
	if err := os.Rename(p, p+".1"); err != nil {
		return false, err
	}
	return true, nil
}

// Prune removes the regular files ending in ext directly in the folder rel
// whose modification time is older than keep, and returns how many it
// removed. A missing folder is no error.
func (f *Folder) Prune(rel, ext string, keep time.Duration, now time.Time) (int, error) {
	dir, err := f.Path(rel)
	if err != nil {
		return 0, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) <= keep {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// CorruptError is a file of the synthesis folder that cannot be decoded.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string { return fmt.Sprintf("%s is not valid JSON: %v", e.Path, e.Err) }
func (e *CorruptError) Unwrap() error { return e.Err }

// LongTermFile is the name of a project's long-term memory file, as the
// synthesize skill names it: the project name lower-cased, spaces as
// hyphens, only [a-z0-9-] kept, runs of hyphens collapsed and trimmed, then
// "-long-term-memory.md".
func LongTermFile(project string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(project) {
		switch {
		case r == ' ' || r == '-':
			if !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		// Nothing of the name is kept ("日本語", "--"): a short hash of it
		// keeps two such projects apart.
		name = fmt.Sprintf("project-%x", sha256.Sum256([]byte(project)))[:len("project-")+8]
	}
	return name + "-long-term-memory.md"
}

// MaxHookRead bounds a synthesis file a hook reads on the agent's path (a
// long-term file is pruned to ~40 KB, a daily summary refused past 8 KB):
// a larger one is skipped, and named, rather than parsed on every prompt.
const MaxHookRead = 1 << 20

// ReadFileMax is ReadFile with a smaller bound.
func (f *Folder) ReadFileMax(rel string, limit int64) ([]byte, error) {
	p, err := f.Path(rel)
	if err != nil {
		return nil, err
	}
	return safefile.ReadFile(p, limit)
}
