package memdir

import (
	"context"
	"sync"

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
	// The folder's time before and after the hold, logged with the files
	// the hold wrote (see WrittenSince): a reader whose copy of the folder
	// was taken at the first time can bring it to the second by reading
	// those files alone, without listing the folder.
	before, err := s.dirMtime()
	if err != nil {
		return unlock, nil
	}
	release, noted, lost := unlock, s.noted.Load(), s.lost.Load()
	var once sync.Once // a second call must log nothing: the lock is gone
	return func() {
		once.Do(func() {
			// A hold that moved nothing and wrote nothing needs no link.
			after, err := s.dirMtime()
			if err != nil || after != before || s.noted.Load() != noted {
				s.noteLink(before, after, err != nil || s.lost.Load() != lost)
			}
			release()
		})
	}, nil
}
