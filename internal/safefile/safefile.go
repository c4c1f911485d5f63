// Package safefile opens the files memdir reads and appends to without
// trusting what is in their place: a FIFO or a device there must not block
// the open (a hook would hang past any context), a link must not be written
// through, and a file must not be read without bound (a settings.json
// linked to /dev/zero ran a hook out of memory, and a Go runtime that dies
// exits 2, which blocks the agent).
package safefile

import (
	"fmt"
	"io"
	"os"
)

// NotRegularError says a path names something other than a regular file.
type NotRegularError struct {
	Path string
	Mode os.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, Kind(e.Mode))
}

// Kind names a file mode's type for a person.
func Kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	case m&os.ModeSymlink != 0:
		return "a link"
	}
	return "mode " + m.String()
}

// OpenRegular opens path for reading without blocking, then checks the
// open handle (so a file swapped after a check is caught too): anything
// but a regular file is a *NotRegularError.
func OpenRegular(path string) (*os.File, error) {
	return open(path, os.O_RDONLY|nonBlock, 0)
}

// ReadFile reads the regular file path, refusing one larger than limit
// bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	fh, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, nil
}

// OpenAppend opens path for appending, creating it with perm: never
// through a link (where the system can tell), never blocking, and only a
// regular file.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonBlock|noFollow, perm)
}

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	fh, err := os.OpenFile(path, flag, perm)
	if err != nil {
		// ELOOP (a link, with O_NOFOLLOW), ENXIO (a FIFO opened to
		// write with no reader): say what is there.
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
		}
		return nil, err
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		fh.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return fh, nil
}
