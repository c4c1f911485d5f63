package workspace

import (
	"context"
	"errors"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/snapshot"
)

// SweepIfDue makes the recall snapshot's full check of the memory folder
// dir — every file stat'ed, so edits in place by other programs are seen —
// when the last one is older than snapshot.SweepEvery; otherwise it only
// reads the snapshot's header. It is linear in the folder (≈25 ms at
// 10,000 memories), so the hooks run it in the detached extraction when
// they start one. A folder that does not exist yet is no error.
func SweepIfDue(ctx context.Context, dir string) error {
	st, err := memdir.Open(dir, memdir.Options{})
	if errors.Is(err, memdir.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = snapshot.SweepIfDue(ctx, st, snapshot.SweepEvery)
	return err
}
