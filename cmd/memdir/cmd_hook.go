package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/synthesis"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// Files of the synthesis folder the hooks write.
const (
	hooksLog     = "logs/hooks.log"      // one line per hook failure
	recallLog    = "logs/recall.jsonl"   // one line per prompt: what was injected
	extractQueue = "extract-queue.jsonl" // transcripts to extract from
	sessionsDir  = "sessions"            // what each session was given
)

// maxPromptForRecall bounds the prompt text ranked: a pasted megabyte is
// ranked on its start.
const maxPromptForRecall = 32 << 10

func (a *app) hookCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Run as a Claude Code hook (reads the event JSON on stdin)",
		Long: `Hook is what 'memdir install claude' registers with Claude Code. It reads the
event's JSON on stdin and answers on stdout:

  SessionStart      a one-line primer; when Claude Code's own auto memory is
                    off, the project's MEMORY.md as Claude Code would load it
  UserPromptSubmit  the memories recall picks for the prompt (see 'memdir
                    recall'), never one already given in this session, within
                    a per-session budget of 20,000 tokens and Claude Code's
                    10,000-character cap; nothing when none is relevant
  Stop, SubagentStop, PreCompact, SessionEnd
                    queue the transcript for extraction and return at once

A hook never blocks or breaks the agent: on any error it prints nothing,
exits 0, and writes one line to <home>/memory/logs/hooks.log. Every prompt
adds a line to <home>/memory/logs/recall.jsonl (session, prompt, files
injected, tokens). MEMDIR_DISABLE=1 turns every hook into a no-op.`,
		Example: `  echo '{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"deploy on friday?","cwd":"'$PWD'"}' | memdir hook UserPromptSubmit`,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			a.runHook(args)
			return nil // fail open: a hook always exits 0
		},
	}
}

// runHook runs one hook event; every failure is logged, never returned.
func (a *app) runHook(args []string) {
	start := time.Now()
	event := strings.Join(args, " ")
	var in hooks.Input
	defer func() {
		if r := recover(); r != nil {
			a.hookLog(event, in, fmt.Errorf("panic: %v\n%s", r, debug.Stack()))
		}
	}()
	if paths.Truthy(a.getenv("MEMDIR_DISABLE")) { // read as 'memdir where' reads it
		return
	}
	if len(args) != 1 {
		a.hookLog(event, in, errors.New("memdir hook takes one EVENT"))
		return
	}
	raw, err := io.ReadAll(io.LimitReader(a.stdin, hooks.MaxInput+1))
	if err == nil && len(raw) > hooks.MaxInput {
		err = fmt.Errorf("hook input over %d bytes", hooks.MaxInput)
	}
	if err == nil {
		in, err = hooks.ParseInput(raw, event)
	}
	if err == nil && filepath.IsAbs(in.CWD) {
		a.cwd = in.CWD
	}
	if err == nil {
		err = a.handleHook(in, start)
	}
	if err != nil {
		a.hookLog(event, in, err)
	}
}

func (a *app) handleHook(in hooks.Input, start time.Time) error {
	switch {
	case in.Event == hooks.SessionStart:
		return a.hookSessionStart(in)
	case in.Event == hooks.UserPromptSubmit:
		return a.hookPrompt(in, start)
	case hooks.Queues(in.Event):
		return a.hookQueue(in)
	}
	return fmt.Errorf("memdir does not handle the %s event", in.Event)
}

func (a *app) hookSessionStart(in hooks.Input) error {
	l, err := a.layout()
	if err != nil {
		return err
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if errors.Is(err, memdir.ErrNotFound) {
		return nil // no memories yet: nothing to say
	}
	if err != nil {
		return err
	}
	var text string
	if l.Disabled {
		// Claude Code's own auto memory is off, so it will not load
		// MEMORY.md: give it as Claude Code would.
		b, err := st.ReadIndex()
		if err != nil || b == nil {
			return err
		}
		ld := memdir.Load(string(b))
		text = "Contents of " + st.Path(memdir.IndexFile) + " (the user's memory index, kept by memdir):\n\n" + ld.Text
		if ld.Warning != "" {
			// First: the answer is cut to Claude Code's context limit
			// from the end, and the warning must survive it.
			text = ld.Warning + "\n\n" + text
		}
	} else {
		files, err := st.Files()
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return nil
		}
		text = hooks.Primer(len(files))
	}
	_, err = a.stdout.Write(hooks.Answer(hooks.SessionStart, text))
	return err
}

type recallLogLine struct {
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	PromptID  string    `json:"prompt_id,omitempty"`
	Project   string    `json:"project"`
	Files     []string  `json:"files"`
	Tokens    int       `json:"tokens"`
	Abstained bool      `json:"abstained,omitempty"`
	Budget    int       `json:"session_budget_left"`
	MS        float64   `json:"ms"`
}

func (a *app) hookPrompt(in hooks.Input, start time.Time) error {
	env, err := a.transcriptsEnv()
	if err != nil {
		return err
	}
	if env.Layout.Disabled && strings.HasPrefix(env.Layout.DisabledWhy, "MEMDIR_DISABLE") {
		return nil
	}
	rel := filepath.Join(sessionsDir, sessionFile(in.SessionID))
	// Sessions' bookkeeping is read, used and written under one lock, so
	// two hooks on one prompt (the plugin and an install both wired)
	// never give the same memory twice. Past the wait, go on without it.
	if p, err := env.Folder.Path(sessionsDir); err == nil && os.MkdirAll(p, 0o700) == nil {
		if unlock, err := lockfile.Lock(a.ctx, p, lockfile.Options{Timeout: 2 * time.Second, Holder: "memdir hook UserPromptSubmit"}); err == nil {
			defer unlock()
		}
	}
	var sess hooks.Session
	if _, err := env.Folder.ReadJSON(rel, &sess); err != nil {
		sess = hooks.Session{} // a corrupt state only loses dedupe: go on
	}
	prompt := in.Prompt
	if len(prompt) > maxPromptForRecall {
		prompt = prompt[:maxPromptForRecall]
	}
	p := recall.DefaultPolicy
	p.Exclude = sess.Injected
	p.Budget = min(p.Budget, sess.Remaining())
	line := recallLogLine{Time: time.Now().UTC(), SessionID: in.SessionID, PromptID: in.PromptID, Project: env.Layout.ProjectRoot, Files: []string{}}
	var text string
	if p.Budget >= recall.MinBudget() && strings.TrimSpace(prompt) != "" {
		_, cands, err := a.recall(workspace.Query{Text: prompt, Policy: p}, false)
		if err != nil {
			return err
		}
		text = recall.Render(cands)
		for _, c := range cands {
			if c.Kept {
				line.Files = append(line.Files, c.File)
			}
		}
	}
	line.Tokens = recall.Tokens(text)
	line.Abstained = text == ""
	sess.Injected = append(sess.Injected, line.Files...)
	sess.Tokens += line.Tokens
	sess.Turns++
	line.Budget = sess.Remaining()
	// The session's bookkeeping first: if it cannot be saved, the answer
	// is still right, but it is logged (the next turn may repeat it).
	stateErr := env.Folder.WriteStateJSON(rel, sess)
	if out := hooks.Answer(hooks.UserPromptSubmit, text); out != nil {
		if _, err := a.stdout.Write(out); err != nil {
			return err
		}
	}
	line.MS = float64(time.Since(start).Microseconds()) / 1000
	b, _ := json.Marshal(line)
	return errors.Join(stateErr, env.Folder.AppendLine(recallLog, b))
}

type queueLine struct {
	Time           time.Time `json:"time"`
	Event          string    `json:"event"`
	SessionID      string    `json:"session_id"`
	TranscriptPath string    `json:"transcript_path,omitempty"`
	AgentPath      string    `json:"agent_transcript_path,omitempty"`
	CWD            string    `json:"cwd,omitempty"`
}

// hookQueue records the transcript as pending for extraction and starts
// the extractor on it. The queue is a record of what the hooks named (for
// people and other tools); memdir's own runs find pending work from the
// transcripts on disk and their state, which stay the source of truth.
func (a *app) hookQueue(in hooks.Input) error {
	env, err := a.transcriptsEnv()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(queueLine{Time: time.Now().UTC(), Event: in.Event, SessionID: in.SessionID,
		TranscriptPath: in.TranscriptPath, AgentPath: in.AgentTranscriptPath, CWD: in.CWD})
	// The queue is a hint (the transcripts are the source of truth): keep
	// it bounded by rotating it past 1 MB.
	if p, err := env.Folder.Path(extractQueue); err == nil {
		if fi, err := os.Stat(p); err == nil && fi.Size() > 1<<20 {
			os.Rename(p, p+".1")
		}
	}
	if err := env.Folder.AppendLine(extractQueue, b); err != nil {
		return err
	}
	if strings.EqualFold(a.getenv(extractSwitch), "off") || in.TranscriptPath == "" || !filepath.IsAbs(in.TranscriptPath) {
		return nil
	}
	// At SessionEnd no more turns will come: what the throttle held back
	// is extracted now, or never.
	return a.startExtraction(env, in.TranscriptPath, in.Event == hooks.SessionEnd)
}

// startExtraction runs 'memdir extract --transcript path' detached: the
// hook returns at once and the agent never waits for it.
func (a *app) startExtraction(env transcriptsEnv, path string, final bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"--home", env.Layout.Home, "extract", "--transcript", path}
	if final {
		args = append(args, "--trailing")
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = a.cwd
	cmd.Env = os.Environ()
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// hookLog writes one line about a failed hook; if even that fails, the
// hook stays silent.
func (a *app) hookLog(event string, in hooks.Input, err error) {
	var folder *synthesis.Folder
	if env, lerr := a.transcriptsEnv(); lerr == nil {
		folder = env.Folder
	} else if l, _ := a.resolveLayout(); l.SynthesisDir != "" {
		// A layout that failed (a malformed settings.json) still knows
		// its home: the failure is logged there, not lost.
		folder = synthesis.Open(l.SynthesisDir, lockfile.Options{Timeout: workspace.DefaultLockTimeout, Holder: a.cmdName})
	} else {
		return
	}
	msg := strings.ReplaceAll(err.Error(), "\n", " | ")
	line := fmt.Sprintf("%s %s session=%s %s", time.Now().UTC().Format(time.RFC3339), event, in.SessionID, msg)
	_ = folder.AppendLine(hooksLog, []byte(line))
}

var safeSession = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// sessionFile names a session's state file: its id when that is a plain
// name, else a hash of it.
func sessionFile(id string) string {
	if safeSession.MatchString(id) {
		return id + ".json"
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:12]) + ".json"
}
