package workspace

import (
	"context"

	"github.com/memdir/memdir/internal/extract"
)

// ApplyForTest is the extraction's apply step, for the external tests.
func ApplyForTest(ctx context.Context, w *Workspace, a extract.Action, rep *ExtractReport) error {
	return w.applyScoped(ctx, a, rep, func(error) {})
}
