package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/corpus"
	"github.com/memdir/memdir/internal/sessions"
)

// memdirCmd runs the memdir binary (this test binary, as testscript.Main
// installs it on PATH) on home, in UTC.
func memdirCmd(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := exec.LookPath("memdir")
	if err != nil {
		t.Fatalf("memdir is not on PATH: %v", err)
	}
	cmd := exec.Command(bin, append([]string{"--home", home}, args...)...)
	cmd.Env = append(os.Environ(), "TZ=UTC", "CODEX_HOME="+filepath.Join(home, "no-codex"), "MEMDIR_LOCK_TIMEOUT=20s", "GORACE=atexit_sleep_ms=0")
	cmd.Dir = home
	return cmd
}

func memdirOut(t *testing.T, home string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := memdirCmd(t, home, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("memdir %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// checkState fails unless the state file is absent or whole, valid JSON.
func checkState(t *testing.T, home string) *sessions.State {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "memory", sessions.StateFile))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var st sessions.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("the state file is torn after a kill: %v\n%.200s", err, b)
	}
	return &st
}

// TestTranscripts_KillNine kills extract and done at random points with
// SIGKILL. After every kill the state file is absent or whole; extract's
// output file is absent or complete; a state that records an extract only
// exists once an output was out; and when the commands finally run to the
// end, the outcome is the same as in a home that was never interrupted.
func TestTranscripts_KillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes for a few seconds")
	}
	ref, home := t.TempDir(), t.TempDir()
	for _, h := range []string{ref, home} {
		if _, err := corpus.Generate(h, corpus.Options{Seed: 11, Bytes: 12e6, Projects: 3}); err != nil {
			t.Fatal(err)
		}
	}
	want := memdirOut(t, ref, "transcripts", "extract")
	days := strings.Count(want, "\nDAY: ") + 1
	if days < 3 {
		t.Fatalf("the corpus spans %d days; the test needs several", days)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	out := filepath.Join(home, "out.txt")
	kills, finished := 0, 0
	for range 25 {
		os.Remove(out)
		cmd := memdirCmd(t, home, "transcripts", "extract", "--output", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+rng.IntN(250)) * time.Millisecond)
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		cmd.Wait()
		st := checkState(t, home)
		got, err := os.ReadFile(out)
		switch {
		case err == nil && string(got) != want:
			t.Fatalf("a killed extract left a partial output file (%d of %d bytes)", len(got), len(want))
		case err != nil && !os.IsNotExist(err):
			t.Fatal(err)
		case err == nil:
			finished++
		}
		if st != nil && finished == 0 {
			// No extract has got its output out yet: none may be recorded.
			for _, e := range st.Transcripts {
				if len(e.Extracted) > 0 {
					t.Fatal("the state records an extract whose output was never written")
				}
			}
		}
	}
	if got := memdirOut(t, home, "transcripts", "extract"); got != want {
		t.Fatal("after the kills, extract prints other content than in an untouched home")
	}

	// Now mark every day done, killing done at random points; re-running
	// it is harmless, and in the end nothing is pending in either home.
	for _, line := range strings.Split(want, "\n") {
		date, ok := strings.CutPrefix(line, "DAY: ")
		if !ok {
			continue
		}
		date, _, _ = strings.Cut(date, " ")
		memdirOut(t, ref, "transcripts", "done", date)
		cmd := memdirCmd(t, home, "transcripts", "done", date)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		if cmd.Process.Signal(syscall.SIGKILL) == nil {
			kills++
		}
		cmd.Wait()
		checkState(t, home)
		memdirOut(t, home, "transcripts", "done", date)
	}
	for _, h := range []string{ref, home} {
		if got := memdirOut(t, h, "transcripts", "list-pending"); got != "No pending transcripts.\n" {
			t.Fatalf("after every day is done: %q", got)
		}
	}
	t.Logf("%d SIGKILLs sent; %d of 25 extracts had written their output by then", kills, finished)
}
