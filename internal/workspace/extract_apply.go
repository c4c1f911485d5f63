package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
)

// extractTimeout bounds a model engine's call when Models.Chat makes the
// client (from the environment, MEMDIR_LLM_TIMEOUT says).
const extractTimeout = 60 * time.Second

// run has the engine propose, plans each proposal against the folder, and
// applies the plan (unless it is a dry run). ws is nil in a dry run of a
// project without memories yet.
func (x *extractor) run(ws *Workspace, l paths.Layout, msgs []extract.Message, session string, rep *ExtractReport) error {
	var proposed []extract.Action
	if x.o.Engine == ExtractHeuristic {
		cands, sk := extract.Heuristic(msgs, session)
		rep.Candidates, rep.Secrets, rep.SecretKinds = cands, sk.Secrets, sk.SecretKinds
		proposed = extract.FromCandidates(cands)
	} else {
		ops, refused, err := x.ask(ws, l, msgs)
		if err != nil {
			return err
		}
		if refused != nil {
			rep.Why = "the engine's answer was refused twice: " + refused.Error()
			return nil
		}
		proposed = extract.FromOps(ops, session, x.o.Engine)
		for _, a := range proposed {
			rep.Candidates = append(rep.Candidates, a.Memory)
		}
	}
	for _, a := range proposed {
		// Planned one at a time, after the previous action is written:
		// a fact stated twice in one stretch updates the memory saved a
		// moment ago instead of saving it twice. The team folder's
		// memories are compared too: a fact the team already keeps is
		// not added again privately.
		if ws != nil {
			a = extract.Reconcile(a, ws.similarAll(x.ctx, a.Memory))
		} else {
			a = extract.Reconcile(a, nil)
		}
		rep.Plan = append(rep.Plan, a)
		if x.o.DryRun || ws == nil {
			continue
		}
		if err := ws.applyScoped(x.ctx, a, rep, x.warn); err != nil {
			if !errors.Is(err, paths.ErrInvalidName) && !errors.Is(err, memdir.ErrInvalid) {
				return err // the folder is busy or failing: retry these turns next time
			}
			x.warn(fmt.Errorf("%s: skipped a memory: %w", rep.Transcript, err))
		}
	}
	return nil
}

// ask shows the model the manifest of existing memories and the new turns,
// and reads its answer strictly (extract.ParseOps). An answer that is
// refused is asked again once, with the reason; refused is the reason of
// the second refusal. err is the engine failing (a bad key, an endpoint
// down): the turns are tried again next time.
func (x *extractor) ask(ws *Workspace, l paths.Layout, msgs []extract.Message) (ops []extract.Op, refused, err error) {
	logf := func(format string, args ...any) {
		x.logRun(map[string]any{"engine": x.o.Engine, "message": fmt.Sprintf(format, args...)})
	}
	client, err := x.client(l, logf)
	if err != nil {
		return nil, nil, err
	}
	var manifest []extract.ManifestEntry
	var existing []string
	if ws != nil {
		for _, w := range ws.extractFolders() {
			mems, _, err := w.Store.List()
			if err != nil {
				return nil, nil, err
			}
			forgotten := w.ForgottenFiles()
			for _, m := range mems {
				if forgotten[m.File] {
					continue // never to be updated: see applyScoped
				}
				// A team memory is shown, and targeted, as team/<file>.
				manifest = append(manifest, extract.ManifestEntry{File: w.ShownName(m.File), Type: string(m.Type), Description: m.Summary()})
				existing = append(existing, w.ShownName(m.File))
			}
		}
	}
	req := llm.Request{System: extract.SystemPrompt, JSON: true, MaxTokens: 2048,
		Messages: []llm.Message{{Role: "user", Content: extract.UserPrompt(manifest, msgs)}}}
	for attempt := 1; ; attempt++ {
		resp, err := client.Complete(x.ctx, req)
		if err != nil {
			return nil, nil, hint.With(fmt.Errorf("extraction engine: %w", err),
				"check the engine's key and endpoint (see 'memdir extract --help'), or use --engine heuristic, which needs no model")
		}
		if ops, err = extract.ParseOps(resp.Text, existing); err == nil {
			return ops, nil, nil
		}
		logf("answer refused (attempt %d): %v", attempt, err)
		if attempt == 2 {
			return nil, err, nil
		}
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: resp.Text},
			llm.Message{Role: "user", Content: "That answer was refused: " + err.Error() + ". Answer again with the JSON object only."})
	}
}

// client makes the engine's client: Models.Chat when set, else from the
// environment, with the claude CLI's one tool (Read) confined to the
// memory folder and the provider's log going to the extraction log.
func (x *extractor) client(l paths.Layout, logf func(string, ...any)) (llm.Client, error) {
	if x.o.Models.Chat != nil {
		return x.o.Models.Chat(x.o.Engine, extractTimeout)
	}
	cfg, err := llm.FromEnv(x.o.Engine, x.env.getenv)
	if err != nil {
		return nil, hint.With(err, "see 'memdir extract --help' (LLM ENGINES)")
	}
	cfg.WriteDir = l.MemoryDir
	cfg.Log = logf
	return llm.New(cfg)
}

// similar lists the live memories recall finds closest to m: the
// candidates extract.Reconcile compares it with. A recall that fails
// finds none (the memory is then created).
func (w *Workspace) similar(ctx context.Context, m extract.Candidate) []extract.Existing {
	rec, err := w.Recall(ctx, Query{Text: m.Description, Policy: recall.Policy{K: 3, Budget: 100000, Threshold: 0.3}, NoLearnings: true, NoTeam: true, NoGlobal: true})
	if err != nil {
		return nil
	}
	var out []extract.Existing
	for _, k := range rec.Candidates {
		if k.Kept && k.SupersededBy == "" {
			out = append(out, extract.Existing{File: k.File, Type: k.Type, Description: k.Description})
		}
	}
	return out
}

// extractFolders are the folders an extraction compares with: w's, the
// user's global folder when there is one, and the project's team folder
// when it has one.
func (w *Workspace) extractFolders() []*Workspace {
	out := []*Workspace{w}
	if g, err := w.Global(false); err == nil && g != nil && g != w {
		out = append(out, g)
	}
	if !w.isTeam && w.HasTeam() {
		if t, err := w.Team(false); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// similarAll is similar over the extraction's folders: a team memory is
// named team/<file>, so an update or supersede of it is applied there.
func (w *Workspace) similarAll(ctx context.Context, m extract.Candidate) []extract.Existing {
	var out []extract.Existing
	for _, f := range w.extractFolders() {
		// Recall names a team folder's memories team/<file> already.
		out = append(out, f.similar(ctx, m)...)
	}
	return out
}

// applyScoped applies a to the folder it belongs in, and records a
// memory the team folder refuses in rep instead of failing the run. A
// new user memory goes to the user's global folder (globalTarget); when
// that folder cannot be used it stays in the project, with a warning.
//
// When the project has a team folder, a new memory of scope team goes
// there, and an update or supersede of a team memory (target
// team/<file>) is applied there. A memory the team folder refuses — one
// that holds a potential secret (memdir.SecretError), or a user memory —
// is reported in rep.Refused with the kinds found, and is NOT saved
// privately instead: a private copy of a "team" fact would be shared by
// the next 'memdir share' or copied by hand, secret and all, and the
// person should see the refusal rather than find it filed elsewhere.
// Without a team folder every memory stays private, its scope field as
// the extraction assigned it.
func (w *Workspace) applyScoped(ctx context.Context, a extract.Action, rep *ExtractReport, warn func(error)) error {
	if g, ga, ok, err := w.globalTarget(a); ok {
		switch {
		case err == nil:
			return applyPrefixed(ctx, g, ga, rep, GlobalPrefix)
		case a.Op != extract.Create:
			return err
		}
		// The global folder cannot be used (a link out of the home
		// folders, a file in its place): the user memory is kept in the
		// project, never lost, and the rest of the run goes on.
		warn(fmt.Errorf("global memories: %w; %q saved in the project's folder", err, a.Memory.Name))
		w.usersGlobal = false
	}
	target := w
	if rest, ok := strings.CutPrefix(a.Target, TeamPrefix); ok && a.Op != extract.Create {
		t, err := w.Team(false)
		if err != nil {
			return err
		}
		target, a.Target = t, rest
	} else if a.Op == extract.Create && a.Memory.Scope == memdir.ScopeTeam && w.HasTeam() {
		t, err := w.Team(false)
		if err != nil {
			return err
		}
		target = t
	}
	if !target.isTeam {
		return w.apply(ctx, a, rep)
	}
	// Nothing automatic brings back a memory a person forgot from the
	// team folder: not a new memory of its file name, not an update or a
	// supersede of one a stale branch brought back.
	file := a.Target
	if a.Op == extract.Create {
		file = target.freeFile(a.Memory.Name)
	}
	if why, ok := target.forgottenWhy(file); ok {
		rep.Refused = append(rep.Refused, RefusedMemory{Name: a.Memory.Name, Scope: memdir.ScopeTeam, Why: why})
		return nil
	}
	var tr ExtractReport
	err := target.apply(ctx, a, &tr)
	var se *memdir.SecretError
	switch {
	case errors.Is(err, memdir.ErrTombstoned):
		// Forgotten meanwhile (a pull between the check and the save).
		why, _ := target.forgottenWhy(file)
		rep.Refused = append(rep.Refused, RefusedMemory{Name: a.Memory.Name, Scope: memdir.ScopeTeam, Why: cmp.Or(why, "forgotten from the team folder")})
		return nil
	case errors.As(err, &se):
		rep.Refused = append(rep.Refused, RefusedMemory{Name: a.Memory.Name, Scope: memdir.ScopeTeam, Labels: se.Labels,
			Why: "it holds a potential secret (" + strings.Join(se.Labels, ", ") + "); a team memory is shared through git, so it is refused, not saved"})
		return nil
	case errors.Is(err, memdir.ErrConflictMarkers):
		// Half of a merge is rewritten by no one but a person.
		rep.Refused = append(rep.Refused, RefusedMemory{Name: a.Memory.Name, Scope: memdir.ScopeTeam, Why: "its team memory holds an unresolved git merge conflict"})
		return nil
	case errors.Is(err, errTeamUser):
		rep.Refused = append(rep.Refused, RefusedMemory{Name: a.Memory.Name, Scope: memdir.ScopeTeam, Why: "a user memory is never a team memory"})
		return nil
	case err != nil:
		return err
	}
	tr.addTo(rep, TeamPrefix)
	return nil
}

// globalTarget is where a goes when it belongs in the user's global
// folder: an update or supersede of a global memory (target
// global/<file>), or a new user memory when w's extraction sends those
// there (usersGlobal). ok is false for every other action.
func (w *Workspace) globalTarget(a extract.Action) (*Workspace, extract.Action, bool, error) {
	if w.isGlobal || w.isTeam {
		return nil, a, false, nil
	}
	if rest, ok := strings.CutPrefix(a.Target, GlobalPrefix); ok && a.Op != extract.Create {
		g, err := w.Global(false)
		if err == nil && g == nil {
			err = fmt.Errorf("%s: the global memory folder is gone", a.Target)
		}
		a.Target = rest
		return g, a, true, err
	}
	if a.Op == extract.Create && w.usersGlobal && a.Memory.Type == string(memdir.TypeUser) {
		g, err := w.Global(true)
		return g, a, true, err
	}
	return nil, a, false, nil
}

// applyPrefixed applies a in the folder target and reports what it wrote
// in rep with prefix ("global/"), as recall names that folder's memories.
func applyPrefixed(ctx context.Context, target *Workspace, a extract.Action, rep *ExtractReport, prefix string) error {
	var tr ExtractReport
	if err := target.apply(ctx, a, &tr); err != nil {
		return err
	}
	tr.addTo(rep, prefix)
	return nil
}

// addTo adds what tr saved, updated and superseded to rep, each file
// named with prefix ("a.md → b.md" on both sides).
func (tr ExtractReport) addTo(rep *ExtractReport, prefix string) {
	name := func(files []string) []string {
		for i, f := range files {
			files[i] = prefix + strings.ReplaceAll(f, " → ", " → "+prefix)
		}
		return files
	}
	rep.Saved = append(rep.Saved, name(tr.Saved)...)
	rep.Updated = append(rep.Updated, name(tr.Updated)...)
	rep.Superseded = append(rep.Superseded, name(tr.Superseded)...)
}

// forgottenWhy says why file of the team folder w is not written by an
// extraction: it has a tombstone ("forgotten from the team folder by X on
// D; a person can bring it back with 'memdir team resolve team/<file>
// --keep'"). ok is false when it has none.
func (w *Workspace) forgottenWhy(file string) (why string, ok bool) {
	if !w.ForgottenFiles()[file] {
		return "", false
	}
	why = "forgotten from the team folder"
	if tombs, _, err := w.Store.Tombstones(); err == nil {
		for _, t := range tombs {
			if t.File == file {
				why += t.Who()
			}
		}
	}
	return why + "; a person can bring it back with 'memdir team resolve " + TeamPrefix + file + " --keep'", true
}

// errTeamUser is a user memory proposed for the team folder.
var errTeamUser = errors.New("a user memory is never a team memory")

// apply writes one planned action through the store and records it in
// rep: the one apply step of every engine. A memory it changes keeps its
// previous version, so 'memdir restore NAME' undoes the change (the
// session's notice says so).
func (w *Workspace) apply(ctx context.Context, a extract.Action, rep *ExtractReport) error {
	typ, err := memdir.ParseType(a.Memory.Type)
	if err != nil {
		return err
	}
	if w.isTeam && typ == memdir.TypeUser {
		return errTeamUser
	}
	c := a.Memory
	m := memdir.Memory{Name: c.Name, Description: c.Description, Type: typ, Body: c.Body, Source: c.Source, Trust: c.Trust, Scope: c.Scope}
	switch a.Op {
	case extract.Update:
		m.File, m.Name, m.Scope = a.Target, "", "" // the memory keeps its name and scope
		// Refs: what it names, for 'memdir verify' and recall's stale marks.
		res, err := w.Store.Save(ctx, m, memdir.SaveOptions{KeepPrevious: true, Refs: refsRule(nil)})
		if err != nil {
			return err
		}
		rep.Updated = append(rep.Updated, res.File)
	case extract.Supersede:
		m.File = w.freeFile(c.Name) // never the target itself
		res, err := w.Store.Save(ctx, m, memdir.SaveOptions{KeepPrevious: true, Refs: refsRule(nil)})
		if err != nil {
			return err
		}
		if res.File == a.Target {
			rep.Updated = append(rep.Updated, res.File)
			return nil
		}
		if _, err := w.Store.Save(ctx, memdir.Memory{File: a.Target, SupersededBy: res.File}, memdir.SaveOptions{KeepPrevious: true}); err != nil {
			return err
		}
		rep.Superseded = append(rep.Superseded, a.Target+" → "+res.File)
	case extract.Create:
		m.File = w.freeFile(c.Name)
		res, err := w.Store.Save(ctx, m, memdir.SaveOptions{KeepPrevious: true, Refs: refsRule(nil)})
		if err != nil {
			return err
		}
		if res.Created {
			rep.Saved = append(rep.Saved, res.File)
		} else {
			rep.Updated = append(rep.Updated, res.File)
		}
	default:
		return fmt.Errorf("unknown operation %q", a.Op)
	}
	return nil
}

// freeFile is a file name for a new memory called name that no existing
// memory has: a new memory never overwrites another that merely shares its
// slug (the other was not found to be about the same thing).
func (w *Workspace) freeFile(name string) string {
	base := memdir.Slug(name)
	file := base + ".md"
	for i := 2; ; i++ {
		if _, err := os.Lstat(w.Store.Path(file)); errors.Is(err, os.ErrNotExist) {
			return file
		}
		file = fmt.Sprintf("%s-%d.md", base, i)
	}
}
