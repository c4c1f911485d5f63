package memdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
)

// ConsolidateLock is Claude Code's consolidation lock in a memory folder,
// shared with it: the file holds the PID of the process consolidating, and
// its mtime is when the folder was last consolidated. It counts as held
// while its mtime is under ConsolidateLockTTL old and that PID is alive.
const ConsolidateLock = ".consolidate-lock"

// ConsolidateLockTTL is how long a consolidation lock holds at most.
const ConsolidateLockTTL = time.Hour

// ErrConsolidating is returned when another live process holds the
// consolidation lock.
var ErrConsolidating = errors.New("a consolidation of this memory folder is running")

// heldHere names the consolidation locks this process holds, by path: its
// own PID in a lock file means held only while it is listed here.
var heldHere sync.Map

// LastConsolidated returns when the folder was last consolidated, the
// consolidation lock's mtime; zero when it never was.
func (s *Store) LastConsolidated() (time.Time, error) {
	fi, err := os.Lstat(s.Path(ConsolidateLock))
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// AcquireConsolidation takes the consolidation lock at now, as Claude Code
// takes it: it writes this process's PID, reads it back and checks it. It
// fails with ErrConsolidating while a live process holds the lock (its
// mtime under ConsolidateLockTTL old); a stale lock is taken over. The
// returned release(true) keeps the file, its mtime now — the folder's
// lastConsolidatedAt; release(false) puts the previous mtime back, or
// removes the file when there was none, so a failed run is tried again.
func (s *Store) AcquireConsolidation(now time.Time) (release func(ok bool) error, err error) {
	p := s.Path(ConsolidateLock)
	// The folder's lock orders memdir's own processes; Claude Code's
	// write-then-read-back is the guard against it.
	unlock, err := s.Lock(context.Background())
	if err != nil {
		return nil, err
	}
	defer unlock()
	fi, err := os.Lstat(p)
	existed := err == nil
	var prev time.Time
	switch {
	case existed && !fi.Mode().IsRegular():
		return nil, hint.With(fmt.Errorf("the consolidation lock %s is not a regular file", p), "remove it (rm %q)", p)
	case existed:
		prev = fi.ModTime()
		pid, _ := readLockPID(p)
		if now.Sub(prev) < ConsolidateLockTTL && s.consolidationHolder(pid) {
			return nil, hint.With(fmt.Errorf("%w: PID %d holds %s since %s", ErrConsolidating, pid, ConsolidateLock, prev.Local().Format("15:04:05")),
				"wait for it to finish, or remove %s if PID %d is no consolidation", p, pid)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	me := os.Getpid()
	if err := atomicfile.WriteFile(p, []byte(strconv.Itoa(me)), FilePerm); err != nil {
		return nil, err
	}
	if err := os.Chtimes(p, now, now); err != nil {
		return nil, err
	}
	if pid, err := readLockPID(p); err != nil || pid != me {
		return nil, fmt.Errorf("%w: %s was taken by PID %d meanwhile", ErrConsolidating, ConsolidateLock, pid)
	}
	heldHere.Store(p, true)
	var once sync.Once
	release = func(ok bool) error {
		err := errors.New("consolidation lock released twice")
		once.Do(func() {
			heldHere.Delete(p)
			if pid, rerr := readLockPID(p); rerr != nil || pid != me {
				err = nil // taken over since: not ours to touch
				return
			}
			switch {
			case ok:
				err = os.Chtimes(p, now, now)
			case existed:
				err = os.Chtimes(p, prev, prev)
			default:
				err = os.Remove(p)
			}
		})
		return err
	}
	return release, nil
}

// consolidationHolder reports whether pid, read from a fresh lock, holds
// it: this process only while it has not released it; another while it
// runs.
func (s *Store) consolidationHolder(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		_, held := heldHere.Load(s.Path(ConsolidateLock))
		return held
	}
	return processAlive(pid)
}

// readLockPID reads the PID a consolidation lock holds.
func readLockPID(p string) (int, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	if len(b) > 64 {
		return 0, fmt.Errorf("%s holds no PID", p)
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}
