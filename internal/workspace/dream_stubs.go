package workspace

import (
	"context"
	"errors"

	"github.com/memdir/memdir/internal/consolidate"
)

// TEMPORARY: replaced when helpers' branches merge.

func (w *Workspace) modelPlan(ctx context.Context, engine string, in consolidate.Input, h consolidate.Plan) (consolidate.Plan, []string, error) {
	return h, nil, errors.New("model engines for dream are not built yet")
}

func (w *Workspace) dreamUsage(ctx context.Context) map[string]consolidate.Usage { return nil }

func (w *Workspace) dreamMoveUsage(ctx context.Context, ops []consolidate.Op) {}
