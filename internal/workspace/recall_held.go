package workspace

import (
	"context"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// RecallFrom is Recall on a snapshot the caller holds and keeps fresh on
// its own schedule (the MCP server, which watches the folder): the same
// engines, selection and rendering, without checking every file first.
// The memories it renders are read from disk as Recall reads them.
func (w *Workspace) RecallFrom(ctx context.Context, snap *recall.Snapshot, q Query) (Recalled, error) {
	if err := CheckEngine(q.Engine); err != nil {
		return Recalled{}, err
	}
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	out := Recalled{Terms: recall.Default.Terms(q.Text, nil)}
	var rec snapshot.Recalled
	var problems []error
	if q.KeptOnly && (q.Engine == "" || q.Engine == EngineLexical) {
		rec, problems = snapshot.From(w.Store, snap, w.Layout.ProjectRoot, q.Text, q.Policy, now)
	} else {
		ranked, warn := w.rank(ctx, snap, q)
		if warn != "" {
			out.Warnings = append(out.Warnings, warn)
		}
		rec, problems = snapshot.Ranked(w.Store, snap, w.Layout.ProjectRoot, ranked, q.Policy, now)
	}
	for _, p := range problems {
		out.Warnings = append(out.Warnings, p.Error())
	}
	out.Candidates, out.Text, out.Index = rec.Candidates, rec.Text, rec.Index
	if !q.NoLearnings {
		// What synthesis wrote, ranked on its own and appended in its own
		// short section, within what the memories left of the budget.
		out.addLearnings(RecallLearnings(w.Env, w.Layout, q.Text, q.Policy, out.Text, now))
	}
	return out, nil
}
