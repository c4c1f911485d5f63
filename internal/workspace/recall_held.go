package workspace

import (
	"context"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// RecallFrom is Recall on a snapshot of w's folder the caller holds and
// keeps fresh on its own schedule: the same engines, selection and
// rendering, without checking every file of w's folder first. The team
// folder, when the project has one, is checked now (a caller that holds
// its snapshot too calls RecallParts). The memories it renders are read
// from disk as Recall reads them.
func (w *Workspace) RecallFrom(ctx context.Context, snap *recall.Snapshot, q Query) (Recalled, error) {
	if err := CheckEngine(q.Engine); err != nil {
		return Recalled{}, err
	}
	parts, problems, err := w.recallParts(ctx, snap, q)
	if err != nil {
		return Recalled{}, err
	}
	out, err := w.RecallParts(ctx, parts, q)
	var warnings []string
	for _, p := range problems {
		warnings = append(warnings, p.Error())
	}
	out.Warnings = append(warnings, out.Warnings...)
	return out, err
}

// RecallParts is Recall on folders whose snapshots the caller holds (the
// MCP server, which watches the private and the team folder), in order:
// w's own first (w.Part), then the team folder's (its TeamReader's Part).
// They are ranked as one and selected under one policy.
func (w *Workspace) RecallParts(ctx context.Context, parts []snapshot.Part, q Query) (Recalled, error) {
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
		rec, problems = snapshot.FromParts(parts, w.Layout.ProjectRoot, q.Text, q.Policy, now)
	} else {
		ranked, warn := w.rank(ctx, parts, snapshot.Merge(parts), q)
		if warn != "" {
			out.Warnings = append(out.Warnings, warn)
		}
		rec, problems = snapshot.RankedParts(parts, w.Layout.ProjectRoot, ranked, q.Policy, now)
	}
	for _, p := range problems {
		out.Warnings = append(out.Warnings, p.Error())
	}
	out.Candidates, out.Text, out.Index = rec.Candidates, rec.Text, rec.Index
	out.Parts, out.Merged = rec.Parts, rec.Merged
	if !q.NoLearnings {
		// What synthesis wrote, ranked on its own and appended in its own
		// short section, within what the memories left of the budget.
		out.addLearnings(RecallLearnings(w.Env, w.Layout, q.Text, q.Policy, out.Text, now))
	}
	if out.Text != "" {
		// memdir redacts what it writes, but not every file is its own: a
		// hand edit, Claude Code's own memory, a teammate's commit. What
		// goes to the agent (and its model provider) is redacted here.
		out.Text = redacted(out.Text)
	}
	return out, nil
}
