package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecall_NothingOnATerminal: a recall that finds nothing says so on a
// terminal (on stderr, so stdout stays empty), and says nothing when piped.
func TestRecall_NothingOnATerminal(t *testing.T) {
	root := t.TempDir()
	mem := filepath.Join(root, "mem")
	env := map[string]string{"HOME": root, "MEMDIR_MEMORY_DIR": mem}
	s := sys{stdin: strings.NewReader(""), getenv: func(k string) string { return env[k] }, cwd: root}
	var errb bytes.Buffer
	s.stdout, s.stderr = &bytes.Buffer{}, &errb
	if err := run(context.Background(), []string{"save", "--type", "user", "--name", "Go", "--description", "Ten years of Go", "--body", "Go."}, s); err != nil {
		t.Fatal(err, errb.String())
	}
	var piped bytes.Buffer
	errb.Reset()
	s.stdout = &piped
	if err := run(context.Background(), []string{"recall", "a", "good", "name", "for", "a", "cat"}, s); err != nil {
		t.Fatal(err)
	}
	if piped.Len() != 0 || errb.Len() != 0 {
		t.Fatalf("piped: stdout %q, stderr %q; want nothing", piped.String(), errb.String())
	}
	// A pseudo-terminal's master end is a terminal as isTerminal sees it.
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	defer tty.Close()
	if !isTerminal(tty) {
		t.Skip("/dev/ptmx is not a character device here")
	}
	s.stdout = tty
	if err := run(context.Background(), []string{"recall", "a good name for a cat"}, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errb.String(), "no memory is relevant") {
		t.Errorf("stderr %q: want 'no memory is relevant'", errb.String())
	}
}
