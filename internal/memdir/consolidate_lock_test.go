package memdir_test

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

func TestConsolidationLock_SecondAcquireFails(t *testing.T) {
	t.Parallel()
	st := openAt(t, t.TempDir(), t0)
	if last, err := st.LastConsolidated(); err != nil || !last.IsZero() {
		t.Fatalf("LastConsolidated() of a new folder = %v, %v; want zero", last, err)
	}
	release, err := st.AcquireConsolidation(t0)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(st.Path(memdir.ConsolidateLock)); string(b) != strconv.Itoa(os.Getpid()) {
		t.Errorf("the lock holds %q, want this PID", b)
	}
	if _, err := st.AcquireConsolidation(t0.Add(time.Minute)); !errors.Is(err, memdir.ErrConsolidating) {
		t.Fatalf("second AcquireConsolidation() = %v, want ErrConsolidating", err)
	}
	if err := release(true); err != nil {
		t.Fatal(err)
	}
	if last, err := st.LastConsolidated(); err != nil || !last.Equal(t0) {
		t.Errorf("LastConsolidated() after release(true) = %v, %v; want the acquisition time %v", last, err, t0)
	}
	later := t0.Add(25 * time.Hour)
	release, err = st.AcquireConsolidation(later)
	if err != nil {
		t.Fatalf("AcquireConsolidation() after a release = %v", err)
	}
	if err := release(false); err != nil {
		t.Fatal(err)
	}
	if last, _ := st.LastConsolidated(); !last.Equal(t0) {
		t.Errorf("release(false) left mtime %v, want the previous %v", last, t0)
	}
}

func TestConsolidationLock_ReleaseFalseRemovesANewLock(t *testing.T) {
	t.Parallel()
	st := openAt(t, t.TempDir(), t0)
	release, err := st.AcquireConsolidation(t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := release(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(st.Path(memdir.ConsolidateLock)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("release(false) of a lock that did not exist left it: %v", err)
	}
}

// writeLock writes a consolidation lock held by pid, its mtime at.
func writeLock(t *testing.T, st *memdir.Store, pid int, at time.Time) {
	t.Helper()
	p := st.Path(memdir.ConsolidateLock)
	if err := os.WriteFile(p, []byte(strconv.Itoa(pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

func TestConsolidationLock_LiveHolderAndStaleLocks(t *testing.T) {
	t.Parallel()
	now := time.Now().Truncate(time.Second)
	st := openAt(t, t.TempDir(), now)
	live := os.Getppid() // the go command, running
	writeLock(t, st, live, now.Add(-10*time.Minute))
	if _, err := st.AcquireConsolidation(now); !errors.Is(err, memdir.ErrConsolidating) {
		t.Fatalf("AcquireConsolidation() over a live holder = %v, want ErrConsolidating", err)
	}

	// Over an hour old: stale, whoever holds it.
	old := now.Add(-2 * time.Hour)
	writeLock(t, st, live, old)
	release, err := st.AcquireConsolidation(now)
	if err != nil {
		t.Fatalf("AcquireConsolidation() over a lock 2 h old = %v", err)
	}
	if err := release(false); err != nil {
		t.Fatal(err)
	}
	if last, _ := st.LastConsolidated(); !last.Equal(old) {
		t.Errorf("release(false) left mtime %v, want the previous %v", last, old)
	}

	if runtime.GOOS == "windows" {
		return // no liveness check there: a fresh lock holds for its hour
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	writeLock(t, st, cmd.Process.Pid, now.Add(-time.Minute))
	release, err = st.AcquireConsolidation(now)
	if err != nil {
		t.Fatalf("AcquireConsolidation() over a dead holder = %v", err)
	}
	if err := release(true); err != nil {
		t.Fatal(err)
	}
	if last, _ := st.LastConsolidated(); !last.Equal(now) {
		t.Errorf("LastConsolidated() = %v, want %v", last, now)
	}
}
