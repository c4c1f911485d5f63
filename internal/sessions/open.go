package sessions

import (
	"fmt"
	"os"
)

// OpenRegular opens a transcript for reading, refusing anything but a
// regular file without blocking on it: the file is opened non-blocking
// (a FIFO without a writer, or a device, would otherwise block the open
// itself, beyond any context's reach), then checked with fstat on the
// handle, so a file swapped between a check and the open is caught too.
func OpenRegular(path string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
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

// NotRegularError says a transcript path names no regular file.
type NotRegularError struct {
	Path string
	Mode os.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s): not a transcript, skipped", e.Path, kind(e.Mode))
}

func kind(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "mode " + m.String()
}
