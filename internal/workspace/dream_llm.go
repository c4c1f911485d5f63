package workspace

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
)

// Bounds of a dream's model engines.
const (
	// dreamTimeout bounds one call (the client retries 429, 5xx and
	// timeouts): a plan with merged texts is a long answer.
	dreamTimeout   = 3 * time.Minute
	dreamMaxTokens = 8192 // about 32 KB of plan; gpt-4o-mini's cap is 16,384
)

// modelPlan has a model engine (anthropic, openai or claude) judge what the
// heuristic plan left for a model and write merged texts. The final plan is
// the heuristic one with the model's operations on files no decided
// operation names, and with a decided merge rewritten when the model merges
// its files into the same memory: a better text, and maybe more memories
// nothing decided names (its reason says so).
// The plan passes consolidate.Validate; a refused answer is sent back once
// with the reason, and when the second answer is refused too its offending
// operations are dropped one by one (a replaced merge text falls back to
// the heuristic's), the rest kept. warnings says what was dropped or
// ignored, and why.
//
// The claude engine runs with no tools and at most 5 turns (the client
// Models.chat makes sets no folder it may read): the model sees the
// request only.
//
// modelPlan fails soft: a model that fails or answers badly twice leaves
// the heuristic plan, with a warning. Its error is a heuristic plan that
// fails Validate itself (wrapping consolidate.ErrInvalid), a client it
// cannot make (the engine's key or endpoint missing) or ctx ending; each
// comes with the heuristic plan as given.
func (w *Workspace) modelPlan(ctx context.Context, engine string, in consolidate.Input, heuristic consolidate.Plan) (consolidate.Plan, []string, error) {
	if err := consolidate.Validate(in, heuristic); err != nil {
		// The base every model operation is checked against is broken: a
		// bug of the heuristic engine, not the model's.
		return heuristic, nil, fmt.Errorf("the heuristic plan: %w", err)
	}
	client, err := w.Models.chat(w.Env, engine, dreamTimeout)
	if err != nil {
		return heuristic, nil, hint.With(fmt.Errorf("dream engine %s: %w", engine, err),
			"set the engine's key or endpoint (ANTHROPIC_API_KEY, OPENAI_API_KEY or MEMDIR_LLM_BASE_URL), or use --engine heuristic, which needs no model")
	}
	req := llm.Request{System: consolidate.DreamPrompt, JSON: true, MaxTokens: dreamMaxTokens,
		Messages: []llm.Message{{Role: "user", Content: consolidate.DreamRequest(in, heuristic)}}}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return heuristic, nil, fmt.Errorf("dream engine %s: %w", engine, context.Cause(ctx))
		}
		resp, err := client.Complete(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return heuristic, nil, fmt.Errorf("dream engine %s: %w", engine, context.Cause(ctx))
			}
			return heuristic, []string{fmt.Sprintf("the %s engine failed, so the plan is the heuristic engine's alone: %v", engine, err)}, nil
		}
		answer, err := consolidate.ParsePlan(resp.Text)
		if err != nil {
			if attempt == 2 {
				return heuristic, []string{fmt.Sprintf("the %s engine's answer was refused twice, so the plan is the heuristic engine's alone: %v", engine, err)}, nil
			}
		} else {
			props, notes := proposals(in, engine, heuristic, answer)
			plan := assemble(heuristic, props)
			if err = consolidate.Validate(in, plan); err == nil {
				return plan, notes, nil
			}
			if attempt == 2 {
				plan, dropped := keepValid(in, engine, heuristic, props)
				return plan, append(notes, dropped...), nil
			}
		}
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: resp.Text},
			llm.Message{Role: "user", Content: "memdir refused that plan: " + err.Error() +
				"\nAnswer again with the whole plan as one JSON object only: fix the operation named, or leave it out. A merge keeps every fact (every sentence) of every memory it reads; no operation retires a pinned memory."})
	}
}

// proposal is one of the model's operations as the final plan takes it:
// added, or in place of a decided merge.
type proposal struct {
	op       consolidate.Op
	replaces int // index in the heuristic plan's Ops; -1: added
}

// proposals sorts the model's answer against the heuristic plan. An
// operation on a file a decided operation names is ignored (noted), except
// a merge into the memory a decided merge keeps, of its files and maybe
// more that nothing decided names: it replaces the decided merge (its text,
// and its files when it adds some), and its reason says so. A file is named
// by one of the model's operations at most. Every merge's created time is
// set to the earliest of its memories'.
func proposals(in consolidate.Input, engine string, heuristic, answer consolidate.Plan) ([]proposal, []string) {
	ro := map[string]bool{} // the user's global memories in a project's dream: kept by any number of ops, never changed
	for _, it := range in.Items {
		if it.ReadOnly {
			ro[it.File] = true
		}
	}
	decided := map[string]string{} // file → ID of the decided operation naming it
	for _, op := range heuristic.Ops {
		for _, f := range opFiles(op) {
			if !ro[f] {
				decided[f] = op.ID
			}
		}
	}
	var props []proposal
	var notes []string
	claimed := map[string]bool{}
	free := func(f string) bool { return decided[f] == "" && !claimed[f] }
	for _, op := range answer.Ops {
		switch {
		case op.Kind == consolidate.Merge && ro[op.Keep]:
			op.Edit = nil // merged into a read-only memory, which stays as it is
		case op.Kind == consolidate.Merge:
			op.Edit = mergeCreated(in, op)
		}
		if i := widerMerge(heuristic, op, free); i >= 0 {
			if slices.ContainsFunc(props, func(p proposal) bool { return p.replaces == i }) {
				notes = append(notes, fmt.Sprintf("ignored the %s engine's %s: it already rewrote %s", engine, op.ID, heuristic.Ops[i].ID))
				continue
			}
			if r, ok := replacement(in, engine, heuristic.Ops[i], op, ro[op.Keep]); ok {
				for _, f := range op.Files {
					claimed[f] = !ro[f]
				}
				props = append(props, proposal{op: r, replaces: i})
			}
			continue
		}
		files := opFiles(op)
		if f := firstOf(files, func(f string) bool { return decided[f] != "" }); f != "" {
			notes = append(notes, fmt.Sprintf("ignored the %s engine's %s: the heuristic engine's %s already names %s", engine, op.ID, decided[f], f))
			continue
		}
		if f := firstOf(files, func(f string) bool { return claimed[f] }); f != "" {
			notes = append(notes, fmt.Sprintf("ignored the %s engine's %s: another of its operations already names %s", engine, op.ID, f))
			continue
		}
		for _, f := range files {
			claimed[f] = !ro[f]
		}
		props = append(props, proposal{op: op, replaces: -1})
	}
	return props, notes
}

// replacement is the decided merge h as the model's merge op rewrites it:
// op's text (h's name and description where op leaves them out) and, when
// op adds memories, op's files. ok is false when op changes nothing. A
// merge into a read-only memory (readOnly) takes no text: only more files.
func replacement(in consolidate.Input, engine string, h, op consolidate.Op, readOnly bool) (consolidate.Op, bool) {
	wider := len(op.Files) > len(h.Files)
	if !wider && (readOnly || op.Edit == nil || strings.TrimSpace(op.Edit.Body) == "") {
		return h, false // agrees with the decided merge
	}
	r := h
	if !readOnly {
		r.Edit = &consolidate.Edit{}
		if op.Edit != nil {
			*r.Edit = *op.Edit
		}
		if e := h.Edit; e != nil {
			r.Edit.Name = cmp.Or(r.Edit.Name, e.Name)
			r.Edit.Description = cmp.Or(r.Edit.Description, e.Description)
			if strings.TrimSpace(r.Edit.Body) == "" {
				r.Edit.Body = e.Body
			}
		}
	}
	if wider {
		added := slices.DeleteFunc(slices.Clone(op.Files), func(f string) bool { return slices.Contains(h.Files, f) })
		r.ID, r.Files, r.Evidence = op.ID, op.Files, append(slices.Clip(h.Evidence), op.Evidence...)
		r.Retire = slices.DeleteFunc(slices.Clone(op.Files), func(f string) bool { return f == h.Keep })
		r.Reason = fmt.Sprintf("%s; the %s engine adds %s: %s", h.Reason, engine, strings.Join(added, ", "), op.Reason)
	} else {
		r.Reason = h.Reason + "; merged text written by the " + engine + " engine"
	}
	if !readOnly {
		r.Edit = mergeCreated(in, r)
	}
	return r, true
}

// mergeCreated is a merge's edit with the earliest created time of its
// memories, or none when the kept memory's own is the earliest.
func mergeCreated(in consolidate.Input, op consolidate.Op) *consolidate.Edit {
	if op.Edit == nil {
		return nil
	}
	e := *op.Edit
	var keep, first time.Time
	for _, it := range in.Items {
		if !slices.Contains(op.Files, it.File) || it.Created.IsZero() {
			continue
		}
		if it.File == op.Keep {
			keep = it.Created
		}
		if first.IsZero() || it.Created.Before(first) {
			first = it.Created
		}
	}
	e.Created = time.Time{}
	if !first.IsZero() && !first.Equal(keep) {
		e.Created = first
	}
	return &e
}

// keepValid is the heuristic plan with those of props that pass
// consolidate.Validate, tried one at a time in order; dropped says which
// were left out, and why.
func keepValid(in consolidate.Input, engine string, heuristic consolidate.Plan, props []proposal) (plan consolidate.Plan, dropped []string) {
	var kept []proposal
	for _, p := range props {
		err := consolidate.Validate(in, assemble(heuristic, append(slices.Clip(kept), p)))
		switch {
		case err == nil:
			kept = append(kept, p)
		case p.replaces >= 0:
			dropped = append(dropped, fmt.Sprintf("kept the heuristic engine's %s as it was: the %s engine's rewrite was refused: %v", heuristic.Ops[p.replaces].ID, engine, err))
		default:
			dropped = append(dropped, fmt.Sprintf("dropped the %s engine's %s: %v", engine, p.op.ID, err))
		}
	}
	return assemble(heuristic, kept), dropped
}

// assemble is the heuristic plan with props applied. The candidates a
// model was asked to judge are no longer left for it; those past
// consolidate.MaxJudged still are.
func assemble(heuristic consolidate.Plan, props []proposal) consolidate.Plan {
	p := consolidate.Plan{Ops: slices.Clone(heuristic.Ops)}
	if len(heuristic.LeftForModel) > consolidate.MaxJudged {
		p.LeftForModel = heuristic.LeftForModel[consolidate.MaxJudged:]
	}
	for _, pr := range props {
		if pr.replaces >= 0 {
			p.Ops[pr.replaces] = pr.op
		} else {
			p.Ops = append(p.Ops, pr.op)
		}
	}
	return p
}

// widerMerge is the index of the decided merge whose memory op merges its
// files into, with maybe more files that free holds for, or -1.
func widerMerge(heuristic consolidate.Plan, op consolidate.Op, free func(string) bool) int {
	if op.Kind != consolidate.Merge {
		return -1
	}
	return slices.IndexFunc(heuristic.Ops, func(h consolidate.Op) bool {
		if h.Kind != consolidate.Merge || h.Keep != op.Keep {
			return false
		}
		for _, f := range h.Files {
			if !slices.Contains(op.Files, f) {
				return false
			}
		}
		for _, f := range op.Files {
			if !slices.Contains(h.Files, f) && !free(f) {
				return false
			}
		}
		return true
	})
}

// opFiles is every file an operation names: its files, keep and retire.
func opFiles(op consolidate.Op) []string {
	fs := append(slices.Clone(op.Files), op.Retire...)
	if op.Keep != "" {
		fs = append(fs, op.Keep)
	}
	return fs
}

// firstOf is the first of files that f holds for, or "".
func firstOf(files []string, f func(string) bool) string {
	if i := slices.IndexFunc(files, f); i >= 0 {
		return files[i]
	}
	return ""
}
