//go:build unix

package lockfile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
)

// TestLock_RefusesALinkOrAFIFO: a symlink in the lock file's place is not
// written through (the file it points at stays as it was), and a FIFO
// there does not block: both are refused at once.
func TestLock_RefusesALinkOrAFIFO(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.txt")
	os.WriteFile(victim, []byte("precious\n"), 0o600)
	os.Symlink(victim, filepath.Join(dir, lockfile.Name))
	if _, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: time.Second}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a linked lock file: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	fifoDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifoDir, lockfile.Name), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := lockfile.Lock(context.Background(), fifoDir, lockfile.Options{Timeout: time.Second})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("a FIFO lock file: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Lock blocked on a FIFO")
	}
}
