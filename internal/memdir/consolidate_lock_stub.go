package memdir

import (
	"errors"
	"time"
)

// TEMPORARY stub; helper batch writes consolidate_lock.go.

var ErrConsolidating = errors.New("another consolidation is running")

func (s *Store) LastConsolidated() (time.Time, error) { return time.Time{}, nil }

func (s *Store) AcquireConsolidation(now time.Time) (func(ok bool) error, error) {
	return func(bool) error { return nil }, nil
}
