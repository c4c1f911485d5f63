package hooks

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/workspace"
)

// Files of the synthesis folder the hooks write.
const (
	LogFile      = "logs/hooks.log"      // one line per hook failure
	RecallLog    = workspace.RecallLog   // one line per prompt: what was injected
	ExtractQueue = "extract-queue.jsonl" // transcripts to extract from
	SessionsDir  = workspace.SessionsDir // what each session was given, and its notices
)

// Deadline is how long a hook process may run before it leaves, exiting 0
// with nothing said: under the 10 s Claude Code gives memdir's hooks.
const Deadline = 8 * time.Second

// RecallLogLimit is the size past which RecallLog is rotated (one older
// file is kept), at a SessionEnd.
const RecallLogLimit = 4 << 20

// SessionKeep is how long a session's bookkeeping in SessionsDir is kept
// after its last prompt: a session resumed later than that may be given a
// memory again. Older files are removed at a SessionEnd.
const SessionKeep = 30 * 24 * time.Hour

// QueueLimit is the size past which the extraction queue is rotated: the
// queue is a hint (the transcripts are the source of truth), kept bounded.
const QueueLimit = 1 << 20

// ExtractSwitch is the variable that, set to "off", makes the queue events
// record the transcript but start no extraction.
const ExtractSwitch = "MEMDIR_EXTRACT"

// MaxPrompt bounds the prompt text ranked: a pasted megabyte is ranked on
// its start.
const MaxPrompt = 32 << 10

// SessionBudget is the tokens of memories one session may be given in all
// (about Claude Code's own 60 KB recall budget, at 3 bytes a token).
const SessionBudget = 20000

// Session is what a session has been given so far.
type Session struct {
	Injected []string `json:"injected"` // memory files, in order
	Tokens   int      `json:"tokens"`
	Turns    int      `json:"turns"`
}

// Remaining is the session's budget left.
func (s Session) Remaining() int { return max(0, SessionBudget-s.Tokens) }

// Policy is recall's policy for the session's next prompt: the default,
// never a memory the session was given, within what its budget has left.
func (s Session) Policy() recall.Policy {
	p := recall.DefaultPolicy
	p.Exclude = s.Injected
	p.Budget = min(p.Budget, s.Remaining())
	return p
}

// Given records one turn that injected files in tokens.
func (s *Session) Given(files []string, tokens int) {
	s.Injected = append(s.Injected, files...)
	s.Tokens += tokens
	s.Turns++
}

// RecallQuery is the text a prompt is ranked on, and whether recall runs
// at all under p: not for a blank prompt, nor when the budget left cannot
// hold one memory.
func RecallQuery(prompt string, p recall.Policy) (text string, ok bool) {
	if len(prompt) > MaxPrompt {
		prompt = prompt[:MaxPrompt]
	}
	// What the person marked private is not searched for, nor sent to a
	// model by an LLM recall engine.
	prompt, _ = redact.Private(prompt)
	return prompt, p.Budget >= recall.MinBudget() && strings.TrimSpace(prompt) != ""
}

// SessionFile names a session's state file in SessionsDir: its id when
// that is a plain name, else a hash of it (workspace.SessionName, which
// names the session's notices file too).
func SessionFile(id string) string { return workspace.SessionName(id) + ".json" }

// RecallLine is the line RecallLog gets for each prompt.
type RecallLine struct {
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	PromptID  string    `json:"prompt_id,omitempty"`
	Project   string    `json:"project"`
	Files     []string  `json:"files"`
	Tokens    int       `json:"tokens"`
	Abstained bool      `json:"abstained,omitempty"`
	Budget    int       `json:"session_budget_left"`
	Notice    bool      `json:"notice,omitempty"` // the answer told what extraction saved
	MS        float64   `json:"ms"`
}

// QueueLine is the line ExtractQueue gets for each queue event.
type QueueLine struct {
	Time           time.Time `json:"time"`
	Event          string    `json:"event"`
	SessionID      string    `json:"session_id"`
	TranscriptPath string    `json:"transcript_path,omitempty"`
	AgentPath      string    `json:"agent_transcript_path,omitempty"`
	CWD            string    `json:"cwd,omitempty"`
}

// Queued is in's line for the extraction queue, at now.
func Queued(in Input, now time.Time) QueueLine {
	return QueueLine{Time: now.UTC(), Event: in.Event, SessionID: in.SessionID,
		TranscriptPath: in.TranscriptPath, AgentPath: in.AgentTranscriptPath, CWD: in.CWD}
}

// Extracts reports whether a queue event starts the extractor, given the
// value of ExtractSwitch: only on an absolute transcript path, and not
// when extraction is off.
func Extracts(in Input, extractSwitch string) bool {
	return !strings.EqualFold(extractSwitch, "off") && in.TranscriptPath != "" && filepath.IsAbs(in.TranscriptPath)
}

// ExtractArgs are the arguments of the detached 'memdir extract' run on a
// transcript. At SessionEnd no more turns will come: what the throttle held
// back is extracted now (--trailing), or never; and then the project's
// memories are consolidated when that is due (--then-dream: the gates are
// checked there, off the hook's path, after the session's memories are
// saved).
func ExtractArgs(home string, in Input) []string {
	args := []string{"--home", home, "extract", "--transcript", in.TranscriptPath}
	if in.Event == SessionEnd {
		args = append(args, "--trailing", "--then-dream", cmp.Or(in.SessionID, "-"))
	}
	return args
}

// LogLine is the hooks.log line of a failed hook: the time, the event, the
// session and the error on one line. The session id comes from the
// caller's JSON, so it is quoted (Go syntax); the event (the command's
// arguments), when it holds a quote or a control character, is too; and the error's other control characters (which can
// carry the caller's text too) are escaped: no field can forge a line.
func LogLine(now time.Time, event, session string, err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " | ")
	var b strings.Builder
	for _, r := range msg {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	if q := strconv.Quote(event); q[1:len(q)-1] != event {
		event = q
	}
	return fmt.Sprintf("%s %s session=%q %s", now.UTC().Format(time.RFC3339), event, session, b.String())
}
