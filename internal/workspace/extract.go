package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// Extraction engines.
const (
	ExtractHeuristic = "heuristic" // offline, deterministic (the default)
	ExtractAnthropic = "anthropic" // the Messages API
	ExtractOpenAI    = "openai"    // any OpenAI-compatible endpoint
	ExtractClaude    = "claude"    // the claude CLI in print mode
)

// ExtractEvery names the throttle: extraction runs every N user turns.
const ExtractEvery = "MEMDIR_EXTRACT_EVERY"

// CheckExtractEngine refuses an engine Extract does not know.
func CheckExtractEngine(engine string) error {
	switch engine {
	case "", ExtractHeuristic, ExtractAnthropic, ExtractOpenAI, ExtractClaude:
		return nil
	}
	return hint.With(fmt.Errorf("unknown engine %q", engine), "use --engine heuristic, anthropic, openai or claude")
}

// ExtractOptions says what to extract from, and how.
type ExtractOptions struct {
	// Transcripts are transcript files (relative to Env.Cwd); Session
	// names a session id instead; neither: every transcript with new
	// turns.
	Transcripts []string
	Session     string
	Engine      string // "" is heuristic
	DryRun      bool   // plan only: write nothing, move no cursor
	Trailing    bool   // bypass the throttle (staged work)
	// Models makes the model engines' clients; the zero value reads the
	// environment (tests put fakes here).
	Models Models
	// Warn receives what went wrong without stopping the run (a
	// transcript that failed, a memory skipped); nil drops them.
	Warn func(error)
}

// ExtractReport is what one run did with one transcript.
type ExtractReport struct {
	Transcript string              `json:"transcript"`
	Ran        bool                `json:"ran"`
	Why        string              `json:"why,omitempty"`
	Saved      []string            `json:"saved"`
	Updated    []string            `json:"updated"`
	Superseded []string            `json:"superseded"`
	Candidates []extract.Candidate `json:"candidates,omitempty"`
	Secrets    int                 `json:"secrets_skipped,omitempty"`
	// SecretKinds are the kinds of potential secret in the sentences left
	// out (Secrets counts them): never saved, not even redacted.
	SecretKinds []string `json:"secret_kinds,omitempty"`
	// Plan is every action decided, with its reason (in a dry run, what
	// would be written).
	Plan []extract.Action `json:"plan,omitempty"`
	// Refused are the memories the team folder would not take (a
	// potential secret, a user memory), none of them saved anywhere.
	Refused []RefusedMemory `json:"refused,omitempty"`
	Error   string          `json:"error,omitempty"` // the run failed; its turns are tried again next time
}

// RefusedMemory is a memory an extraction proposed for the team folder
// and did not save: why, and the kinds of potential secret it held.
type RefusedMemory struct {
	Name   string   `json:"name"`
	Scope  string   `json:"scope"`
	Labels []string `json:"labels,omitempty"`
	Why    string   `json:"why"`
}

// Wrote reports whether the run wrote a memory.
func (r ExtractReport) Wrote() bool { return len(r.Saved)+len(r.Updated)+len(r.Superseded) > 0 }

// ExtractResult is what ExtractMemories did.
type ExtractResult struct {
	Targets []string        // the transcripts it was asked to extract from
	Reports []ExtractReport // one per transcript extracted from (staged work included)
	// Staged: another extraction held the lock, and Targets were left to
	// it.
	Staged bool
}

// Failed reports whether a transcript's extraction failed.
func (r ExtractResult) Failed() bool {
	for _, rep := range r.Reports {
		if rep.Error != "" {
			return true
		}
	}
	return false
}

// extractor is one Extract call.
type extractor struct {
	ctx   context.Context
	t     Transcripts
	env   Env
	o     ExtractOptions
	bound time.Duration // the run's time bound (ExtractTimeout)
}

func (x *extractor) warn(err error) {
	if x.o.Warn != nil {
		x.o.Warn(err)
	}
}

// ExtractMemories turns the new turns of transcripts into memories: each
// transcript is read from its cursor, the pipeline's gates decide
// (extract.Decide), the engine proposes, extract.Reconcile plans each
// proposal against the memories recall finds closest, and one apply step
// writes the plan through each project's store. Runs take the extraction
// lock; a run that finds it busy stages its work for the holder.
func (t Transcripts) ExtractMemories(ctx context.Context, env Env, o ExtractOptions) (ExtractResult, error) {
	if err := CheckExtractEngine(o.Engine); err != nil {
		return ExtractResult{}, err
	}
	o.Engine = cmp.Or(o.Engine, ExtractHeuristic)
	if o.Engine != ExtractHeuristic && o.Models.Chat == nil {
		if _, err := llm.FromEnv(o.Engine, env.getenv); err != nil {
			return ExtractResult{}, hint.With(err, "see 'memdir extract --help' (LLM ENGINES)")
		}
	}
	bound, err := ExtractBound(env)
	if err != nil {
		return ExtractResult{}, err
	}
	// A run is bounded in time: the detached run a hook starts must end by
	// itself, and a run that holds the lock past its bound is hung (see
	// busy).
	ctx, cancel := context.WithTimeoutCause(ctx, bound, &timeoutError{bound})
	defer cancel()
	x := &extractor{ctx: ctx, t: t, env: env, o: o, bound: bound}
	targets, err := x.targets()
	if err != nil {
		return ExtractResult{}, err
	}
	res := ExtractResult{Targets: targets}
	if o.DryRun {
		st := x.loadState()
		for _, p := range targets {
			if err := x.stopped(); err != nil {
				return res, err
			}
			r, err := x.one(st, p, o.Trailing)
			if err != nil {
				return res, err
			}
			res.Reports = append(res.Reports, r)
		}
		return res, nil
	}
	res.Reports, res.Staged, err = x.locked(targets)
	return res, err
}

// targets lists the transcripts to extract from.
func (x *extractor) targets() ([]string, error) {
	if len(x.o.Transcripts) > 0 {
		if x.o.Session != "" {
			return nil, hint.With(errors.New("--transcript and --session go separately"), "see 'memdir extract --help'")
		}
		var out []string
		for _, file := range x.o.Transcripts {
			if !filepath.IsAbs(file) {
				file = filepath.Join(x.env.Cwd, file)
			}
			fi, err := os.Stat(file)
			if err == nil && !fi.Mode().IsRegular() {
				err = &sessions.NotRegularError{Path: file, Mode: fi.Mode()}
			}
			if err != nil {
				return nil, hint.With(err, "give the path of a transcript (.jsonl); Claude Code keeps them in ~/.claude/projects/<project>/")
			}
			out = append(out, file)
		}
		return out, nil
	}
	files, errs := sessions.Discover(x.t.Roots)
	for _, err := range errs {
		x.warn(err)
	}
	var out []string
	for _, f := range files {
		if s := x.o.Session; s == "" || f.SessionID == s || strings.Contains(filepath.Base(f.Path), s) {
			out = append(out, f.Path)
		}
	}
	if x.o.Session != "" && len(out) == 0 {
		return nil, hint.With(fmt.Errorf("no transcript of session %s", x.o.Session), "a session id is a transcript's file name without .jsonl (~/.claude/projects/<project>/); 'memdir search --transcripts' shows them")
	}
	return out, nil
}

// locked runs under the extraction lock, then processes what was staged
// meanwhile — also after releasing the lock, so work staged at the last
// moment is never left behind. When the lock is busy, targets are staged
// instead and staged reports true.
func (x *extractor) locked(targets []string) (reports []ExtractReport, staged bool, err error) {
	trailing := x.o.Trailing
	if err := x.stopped(); err != nil {
		return nil, false, err
	}
	unlock, err := x.lock()
	if lockfile.IsLocked(err) {
		if err := x.stage(targets); err != nil {
			return nil, false, err
		}
		// The holder may have looked for staged work just before we wrote
		// it: if the lock is free now, take the work ourselves.
		if unlock, err = x.lock(); err != nil {
			return nil, true, x.busy(err)
		}
		targets, trailing = nil, true
	} else if err != nil {
		return nil, false, cmpErr(x.stopped(), err)
	}
	for {
		st := x.loadState()
		for _, p := range targets {
			if err := x.stopped(); err != nil {
				// Interrupted or past the bound: what is not done stays
				// staged for the next run.
				rest := *x
				rest.ctx = context.WithoutCancel(x.ctx)
				_ = rest.stage(targets[slices.Index(targets, p):])
				unlock()
				return reports, false, err
			}
			r, err := x.one(st, p, trailing)
			if err != nil {
				// One transcript's failure neither stops the others nor
				// moves its cursor: its turns are tried again next time.
				x.warn(fmt.Errorf("%s: %w", p, err))
				r.Why, r.Error = err.Error(), err.Error()
			}
			reports = append(reports, r)
			if err := x.t.Folder.WriteJSON(ExtractStateFile, st); err != nil {
				unlock()
				return reports, false, err
			}
		}
		// Trailing run: what was staged while we held the lock.
		targets, trailing = x.takeStaged(), true
		if len(targets) > 0 {
			continue
		}
		unlock()
		if x.stagedWaiting() {
			if unlock, err = x.lock(); err == nil {
				targets = x.takeStaged()
				continue
			}
		}
		return reports, false, nil
	}
}

// one extracts from one transcript's new records and moves its cursor (in
// st; the caller writes st after the memories are saved).
func (x *extractor) one(st *ExtractState, path string, trailing bool) (ExtractReport, error) {
	rep := ExtractReport{Transcript: path, Saved: []string{}, Updated: []string{}, Superseded: []string{}}
	e := st.Transcripts[path]
	if e == nil {
		e = &ExtractEntry{}
	}
	sess, next, _, err := sessions.ReadFrom(sessions.File{Path: path}, e.Cursor)
	if err != nil {
		return rep, err
	}
	if sess.CWD == "" {
		rep.Why = "no conversation in it yet"
		if e.Cursor.Offset > 0 {
			rep.Why = "nothing new since the last extraction"
		}
		return rep, nil
	}
	// The memories go to the project the session ran in.
	penv := x.env
	// Never the global folder (--global): user memories reach it by
	// globalTarget, the project's memories stay in the project.
	penv.ProjectFlag, penv.Holder, penv.Global = sess.CWD, "memdir extract", false
	l, err := penv.Layout()
	if err != nil {
		return rep, err
	}
	// A project the settings exclude is never extracted: its turns are
	// passed over (the cursor moves), not kept for later.
	s, err := x.t.Folder.Settings()
	if err != nil {
		return rep, err // no extraction while the exclude list cannot be read
	}
	if p := excluded(s.Exclude, x.env.getenv("HOME"), l.ProjectRoot, sess.CWD); p != "" {
		rep.Why = fmt.Sprintf("the project is excluded by %q in %s", p, "settings.json")
		if !x.o.DryRun {
			e.Cursor, e.SessionID = next, cmp.Or(e.SessionID, sess.ID)
			st.Transcripts[path] = e
		}
		return rep, nil
	}
	ws, err := OpenLayout(penv, l, !x.o.DryRun)
	if err != nil && !errors.Is(err, memdir.ErrNotFound) {
		return rep, err
	}
	if ws != nil {
		ws.Models, ws.usersGlobal = x.o.Models, s.GlobalUserMemories()
	}
	msgs := messages(sess)
	every := 1
	if v := x.env.getenv(ExtractEvery); v != "" {
		fmt.Sscan(v, &every)
	}
	session := cmp.Or(sess.ID, e.SessionID)
	d := extract.Decide(msgs, l.MemoryDir, 0, every, trailing)
	rep.Ran, rep.Why = d.Run, d.Why
	if d.Run {
		if err := x.run(ws, l, msgs, session, &rep); err != nil {
			return rep, err
		}
	}
	if x.o.DryRun {
		return rep, nil
	}
	if d.Advance {
		e.Cursor = next
	} // throttled: the cursor stays, and these turns count again next time
	e.SessionID = cmp.Or(e.SessionID, sess.ID)
	st.Transcripts[path] = e
	if rep.Ran && rep.Wrote() {
		x.logRun(map[string]any{"transcript": path, "saved": rep.Saved, "updated": rep.Updated, "superseded": rep.Superseded})
		// The session is told at its next prompt (the hooks give it).
		x.notice(session, rep)
	}
	return rep, nil
}

// messages keeps what the engines read: user and assistant turns, harness
// text marked, and the files each turn's tool calls wrote.
func messages(s *transcript.Session) []extract.Message {
	var out []extract.Message
	for _, m := range s.Messages {
		em := extract.Message{Role: m.Role, Text: m.Text, Time: m.Timestamp, ID: m.UUID, Meta: m.Meta || m.Sidechain}
		for _, t := range m.Tools {
			// memdir's own MCP tools write the memory folder too: the agent
			// keeping its memory itself, whichever way. (Another memory
			// server's tools are not memdir's: its saves do not land in
			// this folder.)
			if strings.HasPrefix(t.Name, "mcp__") && strings.Contains(t.Name, "memdir") {
				for _, w := range []string{"__memory_save", "__memory_update", "__memory_forget"} {
					if strings.HasSuffix(t.Name, w) {
						em.SavedMemory = true
					}
				}
			}
			switch t.Name {
			case "Write", "Edit", "MultiEdit", "NotebookEdit":
				if p, ok := strings.CutPrefix(t.Summary, "file_path: "); ok {
					em.Wrote = append(em.Wrote, strings.TrimSuffix(p, "…"))
				}
			}
		}
		out = append(out, em)
	}
	return out
}

// cmpErr is a, or b when a is nil.
func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
