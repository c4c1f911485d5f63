//go:build unix

package sessions

import "syscall"

// openNonBlock keeps the open of a FIFO or a device from blocking; on a
// regular file it changes nothing.
const openNonBlock = syscall.O_NONBLOCK
