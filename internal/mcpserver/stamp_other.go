//go:build !unix

package mcpserver

import "os"

// statStamp is a file's size and change stamp as the snapshot records
// them: its modification time.
func statStamp(path string) (size, stamp int64, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), fi.ModTime().UnixNano(), nil
}
