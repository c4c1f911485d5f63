//go:build unix

package sessions_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/sessions"
)

// A FIFO (no writer) or a device named as a transcript is refused at once,
// never opened blocking: that open hung extraction forever.
func TestReadFromRefusesNonRegularFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{fifo, "/dev/zero", t.TempDir()} {
		done := make(chan error, 1)
		go func() {
			_, _, _, err := sessions.ReadFrom(sessions.File{Path: p}, sessions.Mark{})
			done <- err
		}()
		select {
		case err := <-done:
			var nr *sessions.NotRegularError
			if !errors.As(err, &nr) {
				t.Errorf("%s: %v, want a NotRegularError", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFrom blocked", p)
		}
		if _, err := sessions.MarkAt(p, 10, 1); err == nil {
			t.Errorf("%s: MarkAt read it", p)
		}
	}
}
