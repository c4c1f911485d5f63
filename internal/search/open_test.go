//go:build unix

package search_test

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

// Searching a transcript that turned into a FIFO fails at once instead of
// blocking in its open.
func TestSearchRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := search.Run(t.Context(), []sessions.File{{Path: fifo}}, search.Options{Pattern: "x"}, func(search.Result) error { return nil })
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was searched")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("search blocked on a FIFO")
	}
}
