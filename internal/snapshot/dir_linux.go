package snapshot

import (
	"bytes"
	"encoding/binary"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// listDir lists the memory files of dir (the names Store.Files lists,
// unsorted) with their inodes, in one pass of getdents64 and no stat: the
// inode is what tells a name replaced by a rename (every memdir write, and
// most editors' saves) from one left alone, without a stat per file.
// Entries whose type the file system does not give are stat'ed.
func listDir(dir string) ([]dirEntry, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	fd := int(d.Fd())
	// All the records in one buffer, which the names then point into: no
	// allocation per name (the buffer is never written again).
	buf := make([]byte, 0, 256<<10)
	for {
		if cap(buf)-len(buf) < 32<<10 {
			buf = append(buf, make([]byte, cap(buf))...)[:len(buf)]
		}
		n, err := unix.Getdents(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "getdents", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	out := make([]dirEntry, 0, len(buf)/40)
	{
		// linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
		for b := buf; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:]))
			if reclen < 19 || reclen > len(b) {
				return nil, &os.PathError{Op: "getdents", Path: dir, Err: unix.EIO}
			}
			rec := b[:reclen]
			b = b[reclen:]
			name := rec[19:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			typ := rec[18]
			if !memoryName(name) {
				continue
			}
			switch typ {
			case unix.DT_DIR:
				continue
			case unix.DT_UNKNOWN:
				var st unix.Stat_t
				if unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
					continue
				}
			}
			out = append(out, dirEntry{name: unsafe.String(&name[0], len(name)), ino: binary.NativeEndian.Uint64(rec)})
		}
	}
	return out, nil
}
