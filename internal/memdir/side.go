package memdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/safefile"
)

// Side files are memdir's own files kept beside the memories, in the
// memory folder: dot files not ending in .md, so no memory scan (memdir's
// or Claude Code's *.md) reads them as memories, and not derived data
// (CacheDir) either: they are kept, and written only through UpdateSide.
const (
	// UsageFile holds the evidence of use (see internal/usage).
	UsageFile = ".memdir-usage.json"
)

// sideFiles is the allow-list of side files.
var sideFiles = []string{UsageFile}

// MaxSideSize bounds a side file's size.
const MaxSideSize = 64 << 20

// ErrSideCorrupt, wrapped in the error of an UpdateSide's function, says
// that the file it was given cannot be read: UpdateSide keeps it aside and
// calls the function again on nothing.
var ErrSideCorrupt = errors.New("side file is corrupt")

func checkSide(name string) error {
	if !slices.Contains(sideFiles, name) {
		return fmt.Errorf("%q is not one of memdir's side files %v: %w", name, sideFiles, ErrInvalid)
	}
	return nil
}

// ReadSide reads the side file name, bounded by MaxSideSize: nil and no
// error when it does not exist. Readers take no lock: writes are atomic.
func (s *Store) ReadSide(name string) ([]byte, error) {
	if err := checkSide(name); err != nil {
		return nil, err
	}
	if err := s.checkPath(name); err != nil {
		return nil, err
	}
	b, err := safefile.ReadFile(s.Path(name), MaxSideSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// UpdateSide replaces the side file name with what f makes of its bytes
// (nil when it does not exist), under the folder's lock, atomically (the
// file's permissions FilePerm). f returning nil bytes and no error writes
// nothing. When f's error wraps ErrSideCorrupt, the file is renamed aside
// (name + ".corrupt-<UTC time>", returned as aside: never overwritten
// silently) and f is called again with nil. Any other error of f is
// returned and nothing is written.
func (s *Store) UpdateSide(ctx context.Context, name string, f func(old []byte) ([]byte, error)) (aside string, err error) {
	if err := checkSide(name); err != nil {
		return "", err
	}
	unlock, err := s.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	old, err := s.ReadSide(name)
	if err != nil {
		return "", err
	}
	b, err := f(old)
	if errors.Is(err, ErrSideCorrupt) && old != nil {
		aside = name + ".corrupt-" + s.opt.Now().UTC().Format("20060102T150405.000000000Z")
		if rerr := os.Rename(s.Path(name), s.Path(aside)); rerr != nil {
			return "", errors.Join(err, rerr)
		}
		b, err = f(nil)
	}
	if err != nil || b == nil {
		return aside, err
	}
	s.sweep()
	if err := atomicfile.WriteFile(s.Path(name), b, FilePerm); err != nil {
		return aside, fmt.Errorf("write %s: %w", name, err)
	}
	return aside, nil
}
