package memdir

import (
	"context"

	"github.com/memdir/memdir/internal/lockfile"
)

// LockFile is the name of the lock file in a memory folder.
const LockFile = lockfile.Name

// LockedError is returned when the folder's lock could not be taken before
// the timeout; it names the holder.
type LockedError = lockfile.LockedError

// IsLocked reports whether err says a memory folder was locked by another
// process.
func IsLocked(err error) bool { return lockfile.IsLocked(err) }

// Lock takes the folder's cross-process lock, waiting up to the store's lock
// timeout, and records who holds it. The returned func releases it. The
// store's own writes take it themselves: a caller holding it must not call
// them, since a second Lock waits even within one process. Readers never lock.
// A batch (Apply, Undo) a crash cut short is finished first.
func (s *Store) Lock(ctx context.Context) (unlock func(), err error) {
	unlock, err = lockfile.Lock(ctx, s.dir, lockfile.Options{Timeout: s.opt.LockTimeout, Holder: s.opt.Holder, Now: s.opt.Now})
	if err != nil {
		return nil, err
	}
	if err := s.recoverLocked(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}
