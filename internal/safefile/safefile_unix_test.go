//go:build unix

package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/safefile"
)

// Every way in refuses a FIFO, a device and a folder at once, without
// blocking; appending never writes through a link; reads are bounded.
func TestSafefile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(victim, link)
	zeroLink := filepath.Join(dir, "settings.json")
	os.Symlink("/dev/zero", zeroLink)

	calls := map[string]func() error{
		"ReadFile fifo":    func() error { _, err := safefile.ReadFile(fifo, 1<<20); return err },
		"ReadFile zero":    func() error { _, err := safefile.ReadFile(zeroLink, 1<<20); return err },
		"ReadFile folder":  func() error { _, err := safefile.ReadFile(dir, 1<<20); return err },
		"OpenAppend fifo":  func() error { f, err := safefile.OpenAppend(fifo, 0o600); closeIf(f); return err },
		"OpenAppend link":  func() error { f, err := safefile.OpenAppend(link, 0o600); closeIf(f); return err },
		"OpenRegular fifo": func() error { f, err := safefile.OpenRegular(fifo); closeIf(f); return err },
	}
	for name, call := range calls {
		done := make(chan error, 1)
		go func() { done <- call() }()
		select {
		case err := <-done:
			var nr *safefile.NotRegularError
			if !errors.As(err, &nr) {
				t.Errorf("%s: %v, want a NotRegularError", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s blocked", name)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("appended through a link: %q", b)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 2048), 0o600)
	if _, err := safefile.ReadFile(big, 1024); err == nil {
		t.Error("a file over the limit was read")
	}
	if b, err := safefile.ReadFile(victim, 1024); err != nil || string(b) != "precious\n" {
		t.Errorf("a regular file: %q %v", b, err)
	}
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}
