package lockfile_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
)

// TestLock_TimeoutNamesTheHolder: past the wait, the error says who holds
// the lock, from the line the holder wrote.
func TestLock_TimeoutNamesTheHolder(t *testing.T) {
	dir := t.TempDir()
	since := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Holder: "memdir save --name x", Now: func() time.Time { return since }})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 50 * time.Millisecond})
	var le *lockfile.LockedError
	if !errors.As(err, &le) || le.PID == 0 || !le.Since.Equal(since) || le.Cmd != "memdir save --name x" {
		t.Fatalf("err = %#v", err)
	}
}

// TestLock_Canceled: a canceled context ends the wait with its error, not
// a LockedError.
func TestLock_Canceled(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := lockfile.Lock(ctx, dir, lockfile.Options{Timeout: time.Minute}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestLock_AbandonedWaiterLetsGo: a waiter that gave up does not keep the
// lock when it frees later: the next Lock after the holder's gets it.
func TestLock_AbandonedWaiterLetsGo(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 10 * time.Millisecond}); !lockfile.IsLocked(err) {
			t.Fatalf("err = %v, want locked", err)
		}
	}
	unlock()
	again, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("after the holder let go: %v", err)
	}
	again()
}

// TestLock_CanceledBefore: a context canceled before the call never takes
// the lock, even a free one.
func TestLock_CanceledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	unlock, err := lockfile.Lock(ctx, t.TempDir(), lockfile.Options{})
	if err == nil {
		unlock()
		t.Fatal("Lock with a canceled context took the lock")
	}
}

// TestLock_BlockedWaitersBounded: waiters that time out while a holder is
// stuck do not each leave a goroutine (and an OS thread) blocked in flock:
// past a few, they poll instead.
func TestLock_BlockedWaitersBounded(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	for range 100 {
		if _, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: time.Millisecond}); !lockfile.IsLocked(err) {
			t.Fatalf("err = %v, want locked", err)
		}
	}
	if n := runtime.NumGoroutine() - before; n > 10 {
		t.Errorf("100 timed-out waiters left %d goroutines behind", n)
	}
	unlock()
	again, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("after the holder let go: %v", err)
	}
	again()
}

// TestLock_InProcessQueue: many callers of one process, each holding the
// lock briefly, all get it although together they hold it far longer than
// the timeout (an MCP server's concurrent saves timed out against their
// own process's lock).
func TestLock_InProcessQueue(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	errs := make(chan error, n)
	for range n {
		go func() {
			unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 100 * time.Millisecond})
			if err == nil {
				time.Sleep(10 * time.Millisecond)
				unlock()
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("a caller of this process was refused: %v", err)
		}
	}
}

// TestLock_InProcessStuckHolder: a holder in this process that keeps the
// lock past the timeout still ends a waiter's wait with a LockedError.
func TestLock_InProcessStuckHolder(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Holder: "stuck"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	_, err = lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 100 * time.Millisecond})
	var le *lockfile.LockedError
	if !errors.As(err, &le) || le.Cmd != "stuck" {
		t.Fatalf("err = %v, want locked by stuck", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the wait took %v", d)
	}
}

// TestLock_UnlockTwice: a second unlock is a no-op, and never gives away
// another caller's turn.
func TestLock_UnlockTwice(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	unlock()
	second, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	unlock() // the first caller's, again: must not free the second's turn
	if _, err := lockfile.Lock(t.Context(), dir, lockfile.Options{Timeout: 100 * time.Millisecond}); !lockfile.IsLocked(err) {
		t.Errorf("a third caller got the lock the second holds: %v", err)
	}
	second()
}

// TestLock_CallerDeadlineIsNotLocked: a caller whose own deadline passes
// while it waits in the in-process queue gets its context's error, not a
// LockedError (whose hint blames another writer).
func TestLock_CallerDeadlineIsNotLocked(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockfile.Lock(t.Context(), dir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = lockfile.Lock(ctx, dir, lockfile.Options{Timeout: time.Minute})
	if !errors.Is(err, context.DeadlineExceeded) || lockfile.IsLocked(err) {
		t.Fatalf("err = %v, want the context's deadline", err)
	}
}
