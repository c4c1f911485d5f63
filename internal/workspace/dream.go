package workspace

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// DreamOptions configure one consolidation.
type DreamOptions struct {
	// Engine plans: heuristic (the default), anthropic, openai or claude.
	Engine string
	// Apply writes the plan (all of it, or the ops in Only) as one batch.
	Apply bool
	// Only limits Apply to these operation ids.
	Only []string
	// Lossless limits Apply to the operations that lose no fact: what an
	// automatic run may do. Prune always waits for a person.
	Lossless bool
	// Plan is a plan written by an agent (the plugin's skill): it is
	// validated like any engine's and used instead of one.
	Plan []byte
	// Now is the clock; zero is time.Now.
	Now time.Time
	// locked: the caller holds the consolidation lock (DreamAuto).
	locked bool
}

// DreamReport is what Dream planned and did.
type DreamReport struct {
	Folder string `json:"folder"`
	// Command is how to run dream on this folder again: "memdir dream",
	// or "memdir --global dream" for the user's global folder.
	Command  string              `json:"command"`
	PlanFile string              `json:"plan_file"` // where an agent writes its plan (the dream skill)
	Engine   string              `json:"engine"`
	Memories int                 `json:"memories"`
	Global   int                 `json:"global_read,omitempty"` // the user's global memories read beside the project's, read only
	Plan     consolidate.Plan    `json:"plan"`
	Applied  []string            `json:"applied,omitempty"` // operation ids written
	Held     []HeldOp            `json:"held,omitempty"`    // operations Apply left out, and why
	Batch    *memdir.BatchResult `json:"batch,omitempty"`
	Warnings []string            `json:"warnings,omitempty"`
	Problems []string            `json:"problems,omitempty"` // memory files that could not be read: left out of the plan
}

// HeldOp is a planned operation that was not applied.
type HeldOp struct {
	ID  string `json:"id"`
	Why string `json:"why"`
}

// dreamState is a folder as a plan was made from it.
type dreamState struct {
	in   consolidate.Input
	mems map[string]memdir.Memory
	raw  map[string][]byte
}

// Dream plans the consolidation of the project's memories and, with
// Apply, writes it as one batch that 'memdir dream --undo' takes back.
func (w *Workspace) Dream(ctx context.Context, opt DreamOptions) (DreamReport, error) {
	now := cmp.Or(opt.Now, time.Now())
	engine := cmp.Or(opt.Engine, "heuristic")
	key, command := w.Layout.ProjectKey, "memdir dream"
	if w.isGlobal {
		// One global folder, whatever the project.
		key, command = paths.SourceGlobal, "memdir --global dream"
	}
	rep := DreamReport{Folder: w.Store.Dir(), Engine: engine, Command: command,
		PlanFile: filepath.Join(w.Layout.SynthesisDir, "drafts", "dream-"+key+".json")}
	// The folder the plan file goes in is there for the agent's Write
	// (the synthesis folder's, never the memory folder).
	_ = os.MkdirAll(filepath.Dir(rep.PlanFile), 0o700)
	st, problems, err := w.dreamState(ctx, now, func(s string) { rep.Warnings = append(rep.Warnings, s) })
	if err != nil {
		return rep, err
	}
	rep.Problems = problems
	for _, it := range st.in.Items {
		if it.ReadOnly {
			rep.Global++
		} else {
			rep.Memories++
		}
	}
	plan := consolidate.Heuristic(st.in)
	switch {
	case opt.Plan != nil:
		rep.Engine = "agent"
		if plan, err = consolidate.ParsePlan(string(opt.Plan)); err != nil {
			return rep, hint.With(err, "write the plan as 'memdir dream --dry-run --json' prints one (its \"plan\" object)")
		}
	case engine != "heuristic":
		var warns []string
		plan, warns, err = w.modelPlan(ctx, engine, st.in, plan)
		rep.Warnings = append(rep.Warnings, warns...)
		if err != nil {
			return rep, err
		}
	}
	if err := consolidate.Validate(st.in, plan); err != nil {
		return rep, hint.With(err, "nothing was written; fix the plan, or run 'memdir dream --dry-run' for the heuristic one")
	}
	if plan.Ops == nil {
		plan.Ops = []consolidate.Op{} // [] in JSON, not null
	}
	for i := range plan.Ops {
		plan.Ops[i].Lossless = plan.Ops[i].Lossless && losslessKind(plan.Ops[i])
	}
	rep.Plan = plan
	if !opt.Apply {
		return rep, nil
	}
	chosen, held, err := chooseOps(plan, opt.Only, opt.Lossless)
	if err != nil {
		return rep, err
	}
	rep.Held = held
	if len(chosen) == 0 {
		return rep, nil
	}
	if !opt.locked {
		// Never while another consolidation (memdir's own automatic run,
		// or Claude Code's) holds the folder; and a dream applied by hand
		// counts as the folder's last consolidation.
		release, err := w.Store.AcquireConsolidation(now)
		if err != nil {
			return rep, hint.With(err, "wait for it to end (its lock, %s, is released within the hour), then run it again", memdir.ConsolidateLock)
		}
		defer func() { _ = release(rep.Batch != nil) }()
	}
	b := dreamBatch(st, chosen, now)
	res, err := w.Store.Apply(ctx, b)
	if err != nil {
		return rep, err
	}
	if res.ID == "" {
		rep.Warnings = append(rep.Warnings, "the chosen operations change no file: nothing was written")
		return rep, nil
	}
	rep.Batch = &res
	for _, op := range chosen {
		rep.Applied = append(rep.Applied, op.ID)
	}
	if err := w.dreamMoveUsage(ctx, chosen); err != nil {
		rep.Warnings = append(rep.Warnings, "the merged memories' usage evidence was not moved: "+err.Error())
	}
	if b.RebuildIndex && !res.Index && st.in.Index.Lines > memdir.MaxIndexLines {
		rep.Warnings = append(rep.Warnings, "MEMORY.md is too large to rebuild inside the batch; run 'memdir index --rebuild'")
	}
	return rep, nil
}

// DreamUndo takes back the batch id ("" for the last one a dream wrote).
func (w *Workspace) DreamUndo(ctx context.Context, id string, force bool) (memdir.BatchInfo, error) {
	release, err := w.Store.AcquireConsolidation(time.Now())
	if err != nil {
		return memdir.BatchInfo{}, hint.With(err, "wait for it to end (its lock, %s, is released within the hour), then run it again", memdir.ConsolidateLock)
	}
	defer func() { _ = release(false) }() // an undo is no consolidation: the folder's last one stays when it was
	return w.Store.Undo(ctx, id, force)
}

// dreamState reads every memory of the folder into the planner's input,
// and the user's global memories beside a project's, read only.
func (w *Workspace) dreamState(ctx context.Context, now time.Time, warn func(string)) (dreamState, []string, error) {
	mems, problems, err := w.Store.List()
	if err != nil {
		return dreamState{}, nil, err
	}
	st := dreamState{in: consolidate.Input{Now: now}, mems: map[string]memdir.Memory{}, raw: map[string][]byte{}}
	var probs []string
	for _, p := range problems {
		probs = append(probs, p.Error())
	}
	use, none := w.dreamUsage(ctx, warn)
	for _, m := range mems {
		raw, _, err := w.Store.Raw(m.File)
		if err != nil {
			probs = append(probs, err.Error())
			continue
		}
		st.mems[m.File], st.raw[m.File] = m, raw
		st.in.Items = append(st.in.Items, consolidate.Item{
			File: m.File, Name: m.Title(), Description: m.Description, Type: string(m.Type), Scope: m.Scope,
			// A memory with neither date has no anchor for its relative dates
			// (a file's mtime moves with every edit): the planner leaves them.
			Body: m.Body, Created: cmp.Or(m.Created, m.Updated), Updated: m.Updated,
			Pinned: m.Pinned, SupersededBy: m.SupersededBy, Stale: m.Stale, Usage: cmp.Or(use[m.File], none),
		})
	}
	st.in.Items = append(st.in.Items, w.dreamGlobal(warn)...)
	if ix, err := w.Store.ReadIndex(); err == nil && ix != nil {
		u := memdir.IndexUsage(string(ix))
		st.in.Index = consolidate.Index{Lines: u.Lines, Chars: u.Chars}
		for _, l := range memdir.ParseIndex(ix).Lines {
			if l.File != "" && utf8.RuneCountInString(l.Text) > memdir.MaxEntryChars {
				st.in.Index.LongLines = append(st.in.Index.LongLines, l.File)
			}
		}
	}
	return st, probs, ctx.Err()
}

// chooseOps picks the operations Apply writes: those in only (each must
// be in the plan), and with lossless only those that lose nothing.
func chooseOps(p consolidate.Plan, only []string, lossless bool) (chosen []consolidate.Op, held []HeldOp, err error) {
	for _, id := range only {
		if !slices.ContainsFunc(p.Ops, func(op consolidate.Op) bool { return op.ID == id }) {
			return nil, nil, hint.With(fmt.Errorf("the plan has no operation %q", id), "see the ids with 'memdir dream --dry-run'")
		}
	}
	for _, op := range p.Ops {
		switch {
		case len(only) > 0 && !slices.Contains(only, op.ID):
			held = append(held, HeldOp{op.ID, "not chosen"})
		case lossless && !(op.Lossless && losslessKind(op)):
			held = append(held, HeldOp{op.ID, "it may lose a fact, or the engine is not sure of it: it waits for a person ('memdir dream --apply')"})
		default:
			chosen = append(chosen, op)
		}
	}
	return chosen, held, nil
}

// losslessKind reports whether an operation of op's kind loses no fact
// once Validate passed it, whatever the plan says of itself (a model's or
// an agent's plan is not trusted on that): a merge keeps every fact, a
// date rewrite changes only dates, a supersede keeps the older memory as
// history, an expiry archives, and MEMORY.md's memories stay files. A
// prune and a shortened description may lose something: a person decides.
func losslessKind(op consolidate.Op) bool {
	switch op.Kind {
	case consolidate.Merge, consolidate.Date, consolidate.Supersede, consolidate.Expire:
		return true
	case consolidate.Shorten:
		return op.Keep == consolidate.IndexFile
	}
	return false
}

// dreamBatch turns operations into the store's batch; a shortening of
// MEMORY.md rebuilds it to its budget within the batch.
func dreamBatch(st dreamState, ops []consolidate.Op, now time.Time) memdir.Batch {
	b := memdir.Batch{Label: "dream", IfMatch: map[string][]byte{}}
	saves := map[string]memdir.Memory{}
	var order []string
	save := func(m memdir.Memory) {
		if _, ok := saves[m.File]; !ok {
			order = append(order, m.File)
		}
		saves[m.File] = m
	}
	get := func(f string) memdir.Memory {
		if m, ok := saves[f]; ok {
			return m
		}
		return st.mems[f]
	}
	for _, op := range ops {
		for _, f := range op.Files {
			if raw, ok := st.raw[f]; ok {
				b.IfMatch[f] = raw
			}
		}
		if op.Kind == consolidate.Shorten && op.Keep == consolidate.IndexFile {
			b.RebuildIndex = true
			b.Recent = map[string]time.Time{}
			for _, it := range st.in.Items {
				if !it.Usage.LastInjected.IsZero() {
					b.Recent[it.File] = it.Usage.LastInjected
				}
			}
			continue
		}
		if op.Keep != "" && op.Edit != nil {
			m := get(op.Keep)
			applyEdit(&m, *op.Edit)
			if op.Kind == consolidate.Merge {
				// What each merged memory names stays checkable ('memdir verify').
				for _, f := range op.Retire {
					for _, r := range st.mems[f].Refs {
						if !slices.Contains(m.Refs, r) {
							m.Refs = append(m.Refs, r)
						}
					}
				}
			}
			m.Updated = now
			save(m)
		}
		for _, f := range op.Retire {
			if op.Kind == consolidate.Supersede {
				m := get(f)
				m.SupersededBy = op.Keep
				m.Updated = now
				save(m)
				continue
			}
			b.Retire = append(b.Retire, f)
		}
	}
	// History that pointed at a memory a merge retires points at the one it
	// kept: superseded_by never names a file that is gone.
	moved := map[string]string{}
	for _, op := range ops {
		if op.Kind == consolidate.Merge && !strings.HasPrefix(op.Keep, GlobalPrefix) {
			for _, f := range op.Retire {
				moved[f] = op.Keep
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(st.mems)) {
		m := get(f)
		to, ok := moved[m.SupersededBy]
		if !ok || moved[f] != "" || slices.Contains(b.Retire, f) {
			continue
		}
		b.IfMatch[f] = st.raw[f]
		m.SupersededBy = to
		save(m)
	}
	for _, f := range order {
		b.Save = append(b.Save, saves[f])
	}
	return b
}

// applyEdit sets what an operation's edit changes.
func applyEdit(m *memdir.Memory, e consolidate.Edit) {
	if e.Name != "" {
		m.Name = e.Name
	}
	if e.Description != "" {
		m.Description = e.Description
	}
	if e.Body != "" {
		body := e.Body
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		// A body that opened with a blank line keeps it: only the text changes.
		if strings.HasPrefix(m.Body, "\n") && !strings.HasPrefix(body, "\n") {
			body = "\n" + body
		}
		m.Body = body
	}
	if !e.Created.IsZero() && (m.Created.IsZero() || e.Created.Before(m.Created)) {
		m.Created = e.Created
	}
}

// DreamInput is what a dream of the folder plans from, at now: the
// memories (with their usage evidence) and MEMORY.md's measures.
func (w *Workspace) DreamInput(ctx context.Context, now time.Time) (consolidate.Input, error) {
	st, _, err := w.dreamState(ctx, now, func(string) {})
	return st.in, err
}

// dreamGlobal is the user's global memories as a project's dream reads
// them: named GlobalPrefix+file, read only (a copy here may be merged
// into one of them; they change only in 'memdir --global dream'), and
// never superseded ones. A global folder that cannot be read is left out
// with a warning.
func (w *Workspace) dreamGlobal(warn func(string)) []consolidate.Item {
	g, err := w.Global(false)
	if err != nil {
		warn("the global user memories are left out: " + err.Error())
	}
	if g == nil || g == w {
		return nil
	}
	mems, problems, err := g.Store.List()
	if err != nil {
		warn("the global user memories are left out: " + err.Error())
		return nil
	}
	if len(problems) > 0 {
		warn(fmt.Sprintf("%d global user %s left out, unreadable (see 'memdir --global doctor')", len(problems), map[bool]string{true: "memory", false: "memories"}[len(problems) == 1]))
	}
	var out []consolidate.Item
	for _, m := range mems {
		if m.SupersededBy != "" {
			continue
		}
		out = append(out, consolidate.Item{
			File: GlobalPrefix + m.File, Name: m.Title(), Description: m.Description, Type: string(m.Type), Scope: m.Scope,
			Body: m.Body, Created: cmp.Or(m.Created, m.Updated), Updated: m.Updated, Pinned: m.Pinned, Stale: m.Stale, ReadOnly: true,
		})
	}
	return out
}
