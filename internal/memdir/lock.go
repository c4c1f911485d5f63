package memdir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// LockFile is the name of the lock file in a memory folder. It is a dot file
// so neither memdir nor Claude Code takes it for a memory.
const LockFile = ".memdir.lock"

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

// IsLocked reports whether err says a memory folder was locked by another
// process.
func IsLocked(err error) bool {
	var le *LockedError
	return errors.As(err, &le)
}

// Lock takes the folder's cross-process lock, waiting up to the store's lock
// timeout, and records who holds it. The returned func releases it. The
// store's own writes take it themselves: a caller holding it must not call
// them, since a second Lock waits even within one process. Readers never lock.
func (s *Store) Lock(ctx context.Context) (unlock func(), err error) {
	path := filepath.Join(s.dir, LockFile)
	fl := flock.New(path, flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(ctx, s.opt.LockTimeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 10*time.Millisecond)
	if !ok {
		fl.Close() // release the file handle of the failed attempt
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			if errors.Is(err, context.Canceled) {
				return nil, err
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return nil, readHolder(s.dir, path)
	}
	// The holder line is written through a second handle on the same inode:
	// replacing the file by rename would give later lockers a new inode and
	// so a second, unrelated lock. Only the holder writes it.
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
		host, _ := os.Hostname()
		fmt.Fprintf(f, "pid=%d host=%s since=%s cmd=%s\n", os.Getpid(), host,
			s.opt.Now().UTC().Format(time.RFC3339), s.opt.Holder)
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
