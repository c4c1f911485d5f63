//go:build unix

package memdir

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists (signal 0 checks without
// signalling; EPERM: it exists, owned by another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
