//go:build unix

package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/workspace"
)

// within runs fn, failing the test if it has not returned after d.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %s", d)
	}
}

// A transcript path naming a FIFO (or a device) is refused at once: its
// open blocked forever, holding the extraction lock, so every later run
// only staged its work.
func TestExtract_FIFORefusedWithoutBlocking(t *testing.T) {
	h := newHome(t)
	fifo := filepath.Join(h.tdir, "f.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	tr, err := h.env().Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	within(t, 5*time.Second, func() {
		_, err = tr.ExtractMemories(t.Context(), h.env(), workspace.ExtractOptions{Transcripts: []string{fifo}})
	})
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
		t.Fatalf("extract from a FIFO: %v", err)
	}
	real := h.transcript("s1", "We always use gizmo7 for the widget pipeline in this repo.")
	var res workspace.ExtractResult
	within(t, 10*time.Second, func() { res = h.extract(workspace.ExtractOptions{Transcripts: []string{real}}) })
	if res.Staged || len(res.Reports) != 1 || len(res.Reports[0].Saved) != 1 {
		t.Fatalf("the next run: %+v", res)
	}
	// Discovery skips the FIFO too.
	within(t, 10*time.Second, func() { res = h.extract(workspace.ExtractOptions{}) })
	if res.Staged || res.Failed() {
		t.Fatalf("a pending run: %+v", res)
	}
}

// A run ends at MEMDIR_EXTRACT_TIMEOUT, saying so.
func TestExtract_BoundedInTime(t *testing.T) {
	h := newHome(t)
	p := h.transcript("s1", "We always use gizmo7 for the widget pipeline in this repo.")
	h.vars[workspace.ExtractTimeout] = "1ns"
	tr, err := h.env().Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.ExtractMemories(t.Context(), h.env(), workspace.ExtractOptions{Transcripts: []string{p}})
	if err == nil || !strings.Contains(err.Error(), "ran past its 1ns bound") {
		t.Fatalf("past the bound: %v", err)
	}
	h.vars[workspace.ExtractTimeout] = "soon"
	if _, err = tr.ExtractMemories(t.Context(), h.env(), workspace.ExtractOptions{Transcripts: []string{p}}); err == nil {
		t.Fatal("a bad MEMDIR_EXTRACT_TIMEOUT was accepted")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	delete(h.vars, workspace.ExtractTimeout)
	if _, err = tr.ExtractMemories(ctx, h.env(), workspace.ExtractOptions{Transcripts: []string{p}}); err == nil {
		t.Fatal("an interrupted run went on")
	}
}

// A holder that has held the extraction lock past a run's bound is hung:
// the run stages its work and fails naming it, instead of reporting that
// the work waits for a run that will never take it.
func TestExtract_HungHolderIsNamed(t *testing.T) {
	h := newHome(t)
	p := h.transcript("s1", "We always use gizmo7 for the widget pipeline in this repo.")
	h.vars[workspace.ExtractTimeout] = "1m"
	lockDir := filepath.Join(h.home, "memory", "extract")
	if err := os.MkdirAll(lockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{Holder: "memdir extract",
		Now: func() time.Time { return time.Now().Add(-time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	tr, err := h.env().Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	res, err := tr.ExtractMemories(t.Context(), h.env(), workspace.ExtractOptions{Transcripts: []string{p}})
	if err == nil || !strings.Contains(err.Error(), "it is hung") || !strings.Contains(err.Error(), "PID "+strconv.Itoa(os.Getpid())) || !res.Staged {
		t.Fatalf("with a hung holder: %+v, %v", res, err)
	}
	unlock()
	res = h.extract(workspace.ExtractOptions{Transcripts: []string{}})
	if files, _ := h.memories(); len(files) != 1 {
		t.Fatalf("the staged work after the holder went: %v, %+v", files, res)
	}
}
