package workspace

import (
	"context"
	"strings"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
)

// dreamUsage is the folder's evidence of use as the planner reads it, by
// memory file, and the evidence a memory without a record has (none since
// the folder's evidence began). Evidence that cannot be read is none:
// the plan then prunes nothing for want of use, and says why in warn.
func (w *Workspace) dreamUsage(ctx context.Context, warn func(string)) (map[string]consolidate.Usage, consolidate.Usage) {
	f, err := w.Usage(ctx)
	if err != nil {
		warn("usage evidence left out: " + err.Error())
		return nil, consolidate.Usage{}
	}
	out := map[string]consolidate.Usage{}
	for file, r := range f.Memories {
		out[file] = consolidate.Usage{Injected: r.Injected, LastInjected: r.LastInjected, Helpful: r.Helpful, Wrong: r.Wrong, Since: f.Since}
	}
	return out, consolidate.Usage{Since: f.Since}
}

// dreamMoveUsage moves the evidence of the memories a merge retired to
// the memory it kept, so what was used stays counted. Evidence is kept
// beside the folder, not in the batch: an undo leaves it with the kept
// memory.
func (w *Workspace) dreamMoveUsage(ctx context.Context, ops []consolidate.Op) error {
	var moves [][2]string
	for _, op := range ops {
		if op.Kind == consolidate.Merge && !strings.HasPrefix(op.Keep, GlobalPrefix) { // another folder's evidence is its own
			for _, f := range op.Retire {
				moves = append(moves, [2]string{f, op.Keep})
			}
		}
	}
	if len(moves) == 0 {
		return nil
	}
	_, err := w.Store.UpdateSide(ctx, memdir.UsageFile, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		f, err := usage.Parse(old)
		if err != nil {
			return nil, err // kept as it is: the next fold or mark deals with it
		}
		for _, m := range moves {
			f = usage.Rename(f, m[0], m[1])
		}
		return usage.Format(f)
	})
	return err
}
