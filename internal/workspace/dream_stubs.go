package workspace

import (
	"context"

	"github.com/memdir/memdir/internal/consolidate"
)

// TEMPORARY: replaced when helpers' branches merge.

func (w *Workspace) dreamUsage(ctx context.Context) map[string]consolidate.Usage { return nil }

func (w *Workspace) dreamMoveUsage(ctx context.Context, ops []consolidate.Op) {}
