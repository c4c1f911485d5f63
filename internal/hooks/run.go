package hooks

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/synthesis"
	"github.com/memdir/memdir/internal/workspace"
)

// Runner runs one hook event. The front end fills it from its process;
// tests fill it with a temp home and in-memory streams.
type Runner struct {
	// Env is the invocation (environment, working directory, --home,
	// --project, the lock holder's name). The event's cwd, when it is
	// absolute, replaces Env.Cwd.
	Env workspace.Env
	// Stdin holds the event's JSON (read up to MaxInput).
	Stdin io.Reader
	// Stdout gets the answer's JSON, and nothing else.
	Stdout io.Writer
	// Stderr gets recall's warnings (a memory it could not read); nil
	// discards them.
	Stderr io.Writer
	// Exe is the memdir binary a queue event starts as 'memdir extract';
	// "" is the running executable.
	Exe string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// InputWait bounds the wait for Stdin's end; 0 is InputWait.
	InputWait time.Duration
}

// sessionsLockWait is how long a prompt waits for another hook of its
// session before it goes on without the sessions lock.
const sessionsLockWait = 2 * time.Second

// Run runs the hook for args, which name one event. It fails open: on any
// error, a panic included, it writes nothing on stdout and one line in
// LogFile of the synthesis folder, and returns; the front end exits 0.
// With MEMDIR_DISABLE set it does nothing at all.
func (r Runner) Run(ctx context.Context, args []string) {
	h := &hook{Runner: r, ctx: ctx, event: strings.Join(args, " ")}
	if h.Now == nil {
		h.Now = time.Now
	}
	if h.Stderr == nil {
		h.Stderr = io.Discard
	}
	h.start = h.Now()
	defer func() {
		if p := recover(); p != nil {
			h.fail(fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	if paths.Truthy(h.getenv("MEMDIR_DISABLE")) { // read as 'memdir where' reads it
		return
	}
	if len(args) != 1 {
		h.fail(errors.New("memdir hook takes one EVENT"))
		return
	}
	if err := h.run(); err != nil {
		h.fail(err)
	}
}

// hook is one run of a Runner.
type hook struct {
	Runner
	ctx   context.Context
	event string
	in    Input
	start time.Time

	layoutDone bool
	layoutMemo paths.Layout
}

func (h *hook) getenv(k string) string {
	if h.Env.Getenv == nil {
		return ""
	}
	return h.Env.Getenv(k)
}

func (h *hook) run() error {
	raw, err := readInput(h.ctx, h.Stdin, cmp.Or(h.InputWait, InputWait))
	if err == nil && len(raw) > MaxInput {
		err = fmt.Errorf("hook input over %d bytes", MaxInput)
	}
	if err != nil {
		return err
	}
	// h.in keeps what parsed even on an error: the log names the session.
	if h.in, err = ParseInput(raw, h.event); err != nil {
		return err
	}
	if filepath.IsAbs(h.in.CWD) {
		h.Env.Cwd = h.in.CWD
	}
	switch {
	case h.in.Event == SessionStart:
		return h.sessionStart()
	case h.in.Event == UserPromptSubmit:
		return h.prompt()
	case h.in.Event == SessionEnd:
		err := h.queue()
		h.draftDiary() // last: the extraction has started
		return err
	case Queues(h.in.Event):
		return h.queue()
	}
	return fmt.Errorf("memdir does not handle the %s event", h.in.Event)
}

// layout resolves where things live, once a run (after the event's cwd is
// known).
func (h *hook) layout() (paths.Layout, error) {
	if h.layoutDone {
		return h.layoutMemo, nil
	}
	l, err := h.Env.Layout()
	if err == nil {
		h.layoutMemo, h.layoutDone = l, true
	}
	return l, err
}

func (h *hook) transcripts() (workspace.Transcripts, error) {
	l, err := h.layout()
	if err != nil {
		return workspace.Transcripts{}, err
	}
	return h.Env.TranscriptsAt(l)
}

// sessionStart answers with the primer or, when Claude Code's own auto
// memory is off, with MEMORY.md as Claude Code would load it; with the
// index of the user's global memories (UserSection); and with what
// synthesis adds (see StartText): a line when synthesis is due, and
// the always-loaded part of global long-term memory. It answers even for a
// project without memories when synthesis has something to say. What
// synthesis cannot read is one line each in LogFile, and left out.
func (h *hook) sessionStart() error {
	l, err := h.layout()
	if err != nil {
		return err
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if errors.Is(err, memdir.ErrNotFound) {
		st = nil // no memories yet: synthesis may still have something to say
	} else if err != nil {
		return err
	}
	var s Start
	if st != nil && l.Disabled {
		// Claude Code's own auto memory is off, so it will not load
		// MEMORY.md: give it as Claude Code would.
		b, err := st.ReadIndex()
		if err != nil {
			return err
		}
		if b != nil {
			ld := memdir.Load(string(b))
			s.Index = "Contents of " + st.Path(memdir.IndexFile) + " (the user's memory index, kept by memdir):\n\n" + ld.Text
			s.Warning = ld.Warning
		}
	} else if st != nil {
		files, err := st.Files()
		if err != nil {
			return err
		}
		if len(files) > 0 {
			s.Primer = Primer(len(files))
		}
	}
	if st != nil {
		if last, err := st.LastConsolidated(); err == nil {
			s.Dream = workspace.DreamHeldLine(l, last)
		}
	}
	if g, err := workspace.OpenGlobalReader(h.Env, l); err != nil {
		h.logProblem(fmt.Errorf("global memories: %w", err))
	} else if g != nil {
		if b, err := g.Store.ReadIndex(); err != nil {
			h.logProblem(fmt.Errorf("global memories: %w", err))
		} else {
			s.User = UserSection(g.Store.Path(memdir.IndexFile), string(b))
		}
	}
	team := h.team(l)
	if team != nil {
		list, total, problems, err := team.TeamMemories(h.ctx, TeamLines)
		for _, p := range problems {
			h.logProblem(fmt.Errorf("team memories: %w", p))
		}
		if err != nil {
			h.logProblem(fmt.Errorf("team memories: %w", err))
		}
		s.Team = TeamSection(list, total)
	}
	if t, err := h.transcripts(); err != nil {
		h.logProblem(err)
	} else {
		c := t.StartContext(h.Now(), s.GlobalRoom())
		for _, p := range c.Problems {
			h.logProblem(p)
		}
		s.Due, s.GlobalPath, s.Global = c.Due, c.GlobalPath, c.Global
	}
	// Team memories come from teammates' commits, the global memory from
	// files anyone may edit: what the agent is given holds no credential.
	text, _ := redact.String(s.Text())
	_, err = h.Stdout.Write(Answer(SessionStart, text))
	if team != nil {
		// The team folder's full check too (a pull rewrites its files in
		// place as often as it adds them), then its MEMORY.md, derived and
		// never committed, rebuilt when a pull or a merge left it behind.
		if _, serr := snapshot.SweepIfDue(h.ctx, team.Store, snapshot.SweepEvery); serr != nil {
			h.logProblem(fmt.Errorf("team memories: %w", serr))
		}
		if _, ierr := team.RefreshTeamIndex(h.ctx); ierr != nil {
			h.logProblem(fmt.Errorf("team memories: %w", ierr))
		}
	}
	if st == nil {
		return err
	}
	// After the answer: a session starts with a full check of the recall
	// snapshot unless one ran in the last SweepEvery, so a memory edited in
	// place by another program between sessions ranks by its new text from
	// the first prompt (a check is linear in the folder: ≈25 ms at 10,000
	// memories, not to be paid by every session of a burst).
	_, serr := snapshot.SweepIfDue(h.ctx, st, snapshot.SweepEvery)
	return errors.Join(err, serr)
}

// team opens the project's team folder for reading, or returns nil when
// it keeps none (one stat) or cannot be opened (a line in LogFile: the
// hook goes on without it).
func (h *hook) team(l paths.Layout) *workspace.Workspace {
	t, err := workspace.OpenTeamReader(h.Env, l)
	if err != nil {
		h.logProblem(fmt.Errorf("team memories: %w", err))
	}
	return t
}

// logProblem writes one line about something a hook left out in LogFile,
// and goes on (the hook still answers).
func (h *hook) logProblem(err error) {
	if t, terr := h.transcripts(); terr == nil {
		_ = t.Folder.AppendLine(LogFile, []byte(LogLine(h.Now(), h.event, h.in.SessionID, err)))
	}
}

// prompt answers with what recall picks for the prompt, within the
// session's exclusions and budget, after one line on what extraction saved
// from the session since its last prompt (if it saved anything), and
// records the turn in the session's state and in RecallLog.
func (h *hook) prompt() error {
	t, err := h.transcripts()
	if err != nil {
		return err
	}
	if t.Layout.Disabled && strings.HasPrefix(t.Layout.DisabledWhy, "MEMDIR_DISABLE") {
		return nil
	}
	rel := filepath.Join(SessionsDir, SessionFile(h.in.SessionID))
	// Sessions' bookkeeping is read, used and written under one lock, so
	// two hooks on one prompt (the plugin and an install both wired)
	// never give the same memory twice. Past the wait, go on without it.
	if unlock := h.lockSessions(t.Folder); unlock != nil {
		defer unlock()
	}
	var sess Session
	if _, err := t.Folder.ReadJSON(rel, &sess); err != nil {
		sess = Session{} // a corrupt state only loses dedupe: go on
	}
	p := sess.Policy()
	query, ok := RecallQuery(h.in.Prompt, p)
	line := RecallLine{Time: h.Now().UTC(), SessionID: h.in.SessionID, PromptID: h.in.PromptID, Project: t.Layout.ProjectRoot, Files: []string{}}
	var text string
	if ok {
		rec, err := h.recall(t.Layout, workspace.Query{Text: query, Policy: p, KeptOnly: true, Now: h.Now()})
		if err != nil {
			return err
		}
		text = rec.Text
		line.Files = append(line.Files, rec.Kept()...)
		// Learnings by their IDs (source#title): given once a session too.
		line.Files = append(line.Files, rec.KeptLearnings()...)
	}
	line.Tokens = recall.Tokens(text)
	line.Abstained = text == ""
	sess.Given(line.Files, line.Tokens)
	line.Budget = sess.Remaining()
	// What extraction saved from the session since its last prompt: one
	// line first, given even when recall gives nothing, and given once.
	if n := h.notice(t); n != "" {
		text, line.Notice = strings.TrimSuffix(n+"\n\n"+text, "\n\n"), true
	}
	// The session's bookkeeping first: if it cannot be saved, the answer
	// is still right, but it is logged (the next turn may repeat it).
	stateErr := t.Folder.WriteStateJSON(rel, sess)
	if out := Answer(UserPromptSubmit, text); out != nil {
		if _, err := h.Stdout.Write(out); err != nil {
			return err
		}
	}
	line.MS = float64(h.Now().Sub(h.start).Microseconds()) / 1000
	b, _ := json.Marshal(line)
	return errors.Join(stateErr, t.Folder.AppendLine(RecallLog, b))
}

// notice takes the session's notices (see workspace.TakeNotices) and
// returns their line, or "". It fails open: a notice that cannot be read
// is dropped, never the answer's failure. Without notices it costs one
// failed lstat.
func (h *hook) notice(t workspace.Transcripts) string {
	if h.in.SessionID == "" {
		return ""
	}
	ns, err := t.TakeNotices(h.in.SessionID)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			h.logProblem(err)
		}
		return ""
	}
	return workspace.NoticeLine(ns)
}

// lockSessions takes the sessions folder's lock, or returns nil when it
// cannot within sessionsLockWait.
func (h *hook) lockSessions(f *synthesis.Folder) (unlock func()) {
	p, err := f.Path(SessionsDir)
	if err != nil || os.MkdirAll(p, 0o700) != nil {
		return nil
	}
	unlock, err = lockfile.Lock(h.ctx, p, lockfile.Options{Timeout: sessionsLockWait, Holder: "memdir hook UserPromptSubmit"})
	if err != nil {
		return nil
	}
	return unlock
}

// recall is the workspace's one recall on the project: its private, team
// and the user's global memories (workspace.Recall); a project with none
// of them recalls only what synthesis wrote.
func (h *hook) recall(l paths.Layout, q workspace.Query) (workspace.Recalled, error) {
	rec, left, err := workspace.RecallIn(h.ctx, h.Env, l, q)
	for _, p := range left {
		h.logProblem(p) // a line in LogFile; the rest is still recalled
	}
	for _, w := range rec.Warnings {
		fmt.Fprintf(h.Stderr, "memdir: warning: %s\n", w)
	}
	return rec, err
}

// queue records the transcript as pending for extraction and starts the
// extractor on it. The queue is a record of what the hooks named (for
// people and other tools); memdir's own runs find pending work from the
// transcripts on disk and their state, which stay the source of truth.
func (h *hook) queue() error {
	t, err := h.transcripts()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(Queued(h.in, h.Now()))
	// The queue is a hint: a failed rotation only lets it grow.
	_, _ = t.Folder.Rotate(ExtractQueue, QueueLimit)
	if err := t.Folder.AppendLine(ExtractQueue, b); err != nil {
		return err
	}
	if h.in.Event == SessionEnd {
		// Off the prompt's path, once a session: the logs and the
		// sessions' bookkeeping stay bounded. Failures only let them grow.
		// The project's recall lines are counted as usage evidence first,
		// before a rotation can take them away.
		h.foldUsage(t)
		_, _ = t.Folder.Rotate(RecallLog, RecallLogLimit)
		_, _ = t.Folder.Prune(SessionsDir, ".json", SessionKeep, h.Now())
		_, _ = t.Folder.Prune(SessionsDir, workspace.NoticeExt, SessionKeep, h.Now())
	}
	// The recall snapshot's full check, when due (every file stat'ed, so an
	// in-place edit by another program is ranked by its new text within a
	// minute or so of a session's turns, and a grown delta is merged here
	// rather than on a prompt): in the detached extraction when one starts,
	// so the agent never waits for it; here otherwise.
	sweepDir := ""
	if !t.Layout.Disabled || !strings.HasPrefix(t.Layout.DisabledWhy, "MEMDIR_DISABLE") {
		sweepDir = t.Layout.MemoryDir
	}
	if !Extracts(h.in, h.getenv(ExtractSwitch)) {
		if sweepDir == "" {
			return nil
		}
		return workspace.SweepIfDue(h.ctx, sweepDir)
	}
	return h.startExtraction(t.Layout.Home, sweepDir)
}

// usageLockWait bounds the wait for the memory folder's lock of the fold
// at SessionEnd: a busy folder is folded at a later session's end.
const usageLockWait = 2 * time.Second

// foldUsage counts the project's recall lines in the memory folder's usage
// file (workspace.FoldUsage). It fails open: a failure, or a corrupt usage
// file kept aside, is a line in LogFile, and the hook goes on.
func (h *hook) foldUsage(t workspace.Transcripts) {
	if t.Layout.Disabled && strings.HasPrefix(t.Layout.DisabledWhy, "MEMDIR_DISABLE") {
		return
	}
	// The recall lines name team memories team/<file>: the team folder's
	// own (local, git-ignored) usage file counts them.
	if team, err := workspace.OpenTeamReader(h.Env, t.Layout); err != nil {
		h.logProblem(fmt.Errorf("team usage: %w", err))
	} else if team != nil {
		h.fold(team, "team usage")
	}
	// And global/<file>: the global folder's usage file counts them, from
	// every project's lines.
	if g, err := workspace.OpenGlobalReader(h.Env, t.Layout); err != nil {
		h.logProblem(fmt.Errorf("global usage: %w", err))
	} else if g != nil {
		h.fold(g, "global usage")
	}
	ws, err := workspace.OpenLayout(h.Env, t.Layout, false)
	if errors.Is(err, memdir.ErrNotFound) {
		return // no memories: nothing to count
	}
	if err != nil {
		h.logProblem(fmt.Errorf("usage: %w", err))
		return
	}
	h.fold(ws, "usage")
}

// fold is foldUsage on one folder, its problems logged as what's.
func (h *hook) fold(ws *workspace.Workspace, what string) {
	ctx, cancel := context.WithTimeout(h.ctx, usageLockWait)
	defer cancel()
	res, err := ws.FoldUsage(ctx, h.Now())
	if err != nil {
		h.logProblem(fmt.Errorf("%s: %w", what, err))
	}
	if res.Aside != "" {
		h.logProblem(fmt.Errorf("%s: the usage file could not be read; kept as %s, a fresh one started", what, res.Aside))
	}
}

// startExtraction runs 'memdir extract --transcript path' detached (with
// the snapshot sweep of sweepDir, if any): the hook returns at once and
// the agent never waits for it.
func (h *hook) startExtraction(home, sweepDir string) error {
	exe := h.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	args := ExtractArgs(home, h.in)
	if sweepDir != "" {
		args = append(args, "--sweep", sweepDir)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = h.Env.Cwd
	cmd.Env = os.Environ()
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// fail writes one line about a failed hook in LogFile; if even that fails,
// the hook stays silent.
func (h *hook) fail(err error) {
	var folder *synthesis.Folder
	if t, terr := h.transcripts(); terr == nil {
		folder = t.Folder
	} else if l, _ := h.Env.Layout(); l.SynthesisDir != "" {
		// A layout that failed (a malformed settings.json) still knows
		// its home: the failure is logged there, not lost.
		folder = synthesis.Open(l.SynthesisDir, lockfile.Options{Timeout: workspace.DefaultLockTimeout, Holder: h.Env.Holder})
	} else {
		return
	}
	_ = folder.AppendLine(LogFile, []byte(LogLine(h.Now(), h.event, h.in.SessionID, err)))
}
