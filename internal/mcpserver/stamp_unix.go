//go:build unix

package mcpserver

import (
	"golang.org/x/sys/unix"
)

// statStamp is a file's size and change stamp as the snapshot records
// them: the later of its modification and change times.
func statStamp(path string) (size, stamp int64, err error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, 0, err
	}
	return st.Size, max(st.Mtim.Nano(), st.Ctim.Nano()), nil
}
