package sessions

import (
	"errors"
	"fmt"
	"os"

	"github.com/memdir/memdir/internal/safefile"
)

// OpenRegular opens a transcript for reading, refusing anything but a
// regular file without blocking on it: the file is opened non-blocking
// (a FIFO without a writer, or a device, would otherwise block the open
// itself, beyond any context's reach), then checked with fstat on the
// handle, so a file swapped between a check and the open is caught too.
func OpenRegular(path string) (*os.File, error) {
	fh, err := safefile.OpenRegular(path)
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		return nil, &NotRegularError{Path: path, Mode: nr.Mode}
	}
	return fh, err
}

// NotRegularError says a transcript path names no regular file.
type NotRegularError struct {
	Path string
	Mode os.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s): not a transcript, skipped", e.Path, safefile.Kind(e.Mode))
}
