// Package lockfile is memdir's cross-process lock on a folder: one flock on
// a dot file in it, taken with a timeout, whose holder (PID, host, time,
// command) is written into the file so a waiting process can say who holds
// it.
package lockfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"github.com/memdir/memdir/internal/hint"
)

// Name is the lock file's name in a locked folder. It is a dot file so
// neither memdir nor Claude Code takes it for a memory.
const Name = ".memdir.lock"

// LockedError is returned when the folder's lock could not be taken before
// the timeout. Holder fields come from the lock file and may be empty.
type LockedError struct {
	Dir   string
	PID   int
	Host  string
	Since time.Time
	Cmd   string
}

func (e *LockedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "memory folder %s is locked", e.Dir)
	if e.PID > 0 {
		fmt.Fprintf(&b, " by PID %d", e.PID)
	}
	if e.Host != "" {
		fmt.Fprintf(&b, " on %s", e.Host)
	}
	if !e.Since.IsZero() {
		fmt.Fprintf(&b, " since %s", e.Since.Local().Format("2006-01-02 15:04:05"))
	}
	if e.Cmd != "" {
		fmt.Fprintf(&b, " (%s)", e.Cmd)
	}
	return b.String()
}

// IsLocked reports whether err says a folder was locked by another process.
func IsLocked(err error) bool {
	var le *LockedError
	return errors.As(err, &le)
}

// Options say how long to wait and who is asking.
type Options struct {
	Timeout time.Duration    // default 10s
	Holder  string           // the command, recorded for waiters
	Now     func() time.Time // default time.Now
}

// Lock takes dir's lock, waiting up to opt.Timeout, and records who holds
// it. The returned func releases it; calling it again does nothing.
//
// Callers in one process (the requests of one MCP server) queue on an
// in-process turn first, in order, and only the one whose turn it is waits
// on the file. The queue's wait times out only when it stops moving: when
// one holder has kept its turn for opt.Timeout. So a burst of short writes
// in one process all get through, while a stuck holder, here or in another
// process, still ends the wait with a LockedError naming it.
func Lock(ctx context.Context, dir string, opt Options) (unlock func(), err error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, Name)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	release, err := queue(ctx, path, opt.Timeout)
	if errors.Is(err, errStuck) {
		return nil, readHolder(dir, path)
	}
	if err != nil {
		return nil, err
	}
	unlockFile, err := lockFile(ctx, dir, path, opt)
	if err != nil {
		release()
		return nil, err
	}
	// Idempotent, as flock's unlock is: a second call must not take
	// another caller's turn.
	var once sync.Once
	return func() { once.Do(func() { unlockFile(); release() }) }, nil
}

// turn is one lock's in-process queue: the slot, and when its holder took
// it.
type turn struct {
	slot  chan struct{}
	since atomic.Int64 // UnixNano
}

// turns holds a turn per lock file path.
var turns sync.Map

// errStuck says a lock's in-process queue did not move for the timeout.
var errStuck = errors.New("lock queue stuck")

// queue waits for this caller's turn at the lock of path. It gives up with
// errStuck once the queue has not moved for timeout, and with ctx's error
// when ctx ends first.
func queue(ctx context.Context, path string, timeout time.Duration) (release func(), err error) {
	v, _ := turns.LoadOrStore(path, &turn{slot: make(chan struct{}, 1)})
	tn := v.(*turn)
	start := time.Now()
	tick := time.NewTicker(min(max(timeout/10, time.Millisecond), 100*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case tn.slot <- struct{}{}:
			tn.since.Store(time.Now().UnixNano())
			return func() { <-tn.slot }, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case now := <-tick.C:
			moved := time.Unix(0, max(start.UnixNano(), tn.since.Load()))
			if now.Sub(moved) >= timeout {
				return nil, errStuck
			}
		}
	}
}

// lockFile takes the flock on path, waiting up to opt.Timeout.
func lockFile(ctx context.Context, dir, path string, opt Options) (unlock func(), err error) {
	// A link or a FIFO in the lock's place would be written through
	// (another file overwritten) or block the open forever (a hook hung).
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, hint.With(fmt.Errorf("the lock file %s is not a regular file (%s)", path, fi.Mode().Type()),
			"remove it (rm %q); memdir makes a new one", path)
	}
	fl := flock.New(path, flock.SetPermissions(0o600))
	ok, err := fl.TryLock()
	if err != nil {
		fl.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		switch err := wait(ctx, fl, path, opt.Timeout); {
		case errors.Is(err, context.DeadlineExceeded):
			return nil, readHolder(dir, path)
		case errors.Is(err, context.Canceled):
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
	}
	// The holder line is written through a second handle on the same inode:
	// replacing the file by rename would give later lockers a new inode and
	// so a second, unrelated lock. Only the holder writes it.
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		host, _ := os.Hostname()
		fmt.Fprintf(f, "pid=%d host=%s since=%s cmd=%s\n", os.Getpid(), host,
			opt.Now().UTC().Format(time.RFC3339), opt.Holder)
		f.Close()
	}
	return func() { fl.Unlock() }, nil
}

func readHolder(dir, path string) error {
	e := &LockedError{Dir: dir}
	b, err := os.ReadFile(path)
	if err != nil {
		return e
	}
	line, _, _ := strings.Cut(string(b), "\n")
	rest := line
	for rest != "" {
		var field string
		field, rest, _ = strings.Cut(rest, " ")
		k, v, _ := strings.Cut(field, "=")
		switch k {
		case "pid":
			e.PID, _ = strconv.Atoi(v)
		case "host":
			e.Host = v
		case "since":
			e.Since, _ = time.Parse(time.RFC3339, v)
		case "cmd":
			e.Cmd = strings.TrimSpace(v + " " + rest)
			rest = ""
		}
	}
	return e
}

// wait blocks in flock until the lock is free, so the kernel wakes the
// waiter as the holder lets go. Retrying a non-blocking flock every few
// milliseconds instead lost, again and again, to a holder that took the
// lock back at once: a loop of saves starved the others past their
// timeout. Past the timeout (or ctx's end) the waiting goroutine is left
// behind; should it get the lock later, it lets go at once. Each blocked
// waiter holds an OS thread, so past maxBlocked of them on one lock (a
// long-running server facing a stuck holder) a waiter polls instead.
func wait(ctx context.Context, fl *flock.Flock, path string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	n, _ := blocked.LoadOrStore(path, new(atomic.Int32))
	count := n.(*atomic.Int32)
	if count.Add(1) > maxBlocked {
		count.Add(-1)
		ok, err := fl.TryLockContext(ctx, 10*time.Millisecond)
		if !ok {
			fl.Close()
			if err == nil {
				err = context.DeadlineExceeded
			}
		}
		return err
	}
	got := make(chan error, 1)
	go func() {
		err := fl.Lock()
		count.Add(-1)
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			fl.Close()
		}
		return err
	case <-ctx.Done():
	}
	go func() {
		<-got
		fl.Close() // unlocks if the lock came after all
	}()
	return ctx.Err()
}

// maxBlocked bounds the waiters of one lock blocked in flock per process.
const maxBlocked = 4

// blocked counts them, by lock file path.
var blocked sync.Map

// Stale says why the holder a LockedError names looks stale, or "" when
// it looks like a live run within bound (0: no bound). With flock, the
// kernel lets go of a dead process's lock, so a lock that is busy is
// always held by a live process; what can be stale is only the holder
// line: a PID on this host that is not running means the line is older
// than the lock's current holder (which has not written its own yet, or
// runs in another PID namespace). The case that matters is a holder that
// is alive but has held the lock past the bound its run promised to keep:
// it is hung, and waiting for it is waiting forever.
func (e *LockedError) Stale(bound time.Duration, now time.Time) string {
	host, _ := os.Hostname()
	if e.PID > 0 && e.Host == host && !alive(e.PID) {
		return fmt.Sprintf("its holder line names PID %d, which is not running on %s: the line is stale (flock is released when a process dies, so another process holds the lock now)", e.PID, host)
	}
	if bound > 0 && !e.Since.IsZero() && now.Sub(e.Since) > bound {
		return fmt.Sprintf("its holder has held it for %s, past the %s bound of a run: it is hung", now.Sub(e.Since).Round(time.Second), bound)
	}
	return ""
}
