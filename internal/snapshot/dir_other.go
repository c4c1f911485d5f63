//go:build !linux

package snapshot

import "os"

// listDir lists the memory files of dir. Without getdents64's inodes (the
// inode is 0: unknown), a listing cannot tell a replaced file from one
// left alone, so the caller stats every file listed: linear, as recall
// was everywhere before, but only when the folder's mtime moved.
func listDir(dir string) ([]dirEntry, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []dirEntry
	for _, e := range entries {
		if memoryName([]byte(e.Name())) && !e.IsDir() {
			out = append(out, dirEntry{name: e.Name()})
		}
	}
	return out, nil
}
