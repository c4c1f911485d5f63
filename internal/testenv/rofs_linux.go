package testenv

import (
	"syscall"
	"testing"
)

// ReadOnlyMount mounts a fresh tmpfs, lets fill write what the test needs
// into it, and remounts it read-only; it returns the mount's path. It needs
// root to mount, and skips the test without.
func ReadOnlyMount(t *testing.T, fill func(dir string)) string {
	t.Helper()
	mnt := t.TempDir()
	if err := syscall.Mount("none", mnt, "tmpfs", 0, ""); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	fill(mnt)
	if err := syscall.Mount("none", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only: %v", err)
	}
	return mnt
}
