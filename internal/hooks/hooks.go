// Package hooks is memdir's Claude Code hook adapter. Its pure part
// (hooks.go, session.go) holds the decisions: how an event's JSON reads,
// what a prompt may still inject given what the session already got, the
// JSON to answer with and the lines the hooks log. Its I/O part (run.go) is
// Runner: it reads the event on stdin, answers SessionStart and
// UserPromptSubmit through the workspace layer, queues transcripts for
// extraction, and fails open: any error is one line in
// <home>/memory/logs/hooks.log, nothing on stdout, and exit status 0.
// cmd/memdir only wires the process to a Runner.
package hooks

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
)

// Events memdir handles.
const (
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	Stop             = "Stop"
	SubagentStop     = "SubagentStop"
	PreCompact       = "PreCompact"
	SessionEnd       = "SessionEnd"
	StopFailure      = "StopFailure"
)

// Handled lists the events 'memdir install claude' registers, in order.
var Handled = []string{SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionEnd}

// Queues reports whether event records the session's transcript as
// pending for extraction.
func Queues(event string) bool {
	return slices.Contains([]string{Stop, SubagentStop, PreCompact, SessionEnd, StopFailure}, event)
}

// Input is the JSON Claude Code sends a hook on stdin (the fields memdir
// reads).
type Input struct {
	SessionID           string `json:"session_id"`
	TranscriptPath      string `json:"transcript_path"`
	CWD                 string `json:"cwd"`
	Event               string `json:"hook_event_name"`
	PromptID            string `json:"prompt_id"`
	Prompt              string `json:"prompt"`
	Source              string `json:"source"`
	Reason              string `json:"reason"`
	Trigger             string `json:"trigger"`
	AgentID             string `json:"agent_id"`
	AgentTranscriptPath string `json:"agent_transcript_path"`
}

// MaxInput bounds what a hook reads from stdin.
const MaxInput = 8 << 20

// ParseInput decodes a hook's stdin for event (the command-line event wins
// over a missing hook_event_name).
func ParseInput(b []byte, event string) (Input, error) {
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("hook input is not JSON: %w", err)
	}
	if in.Event == "" {
		in.Event = event
	}
	if in.Event != event {
		return in, fmt.Errorf("hook input is for %s, not %s", in.Event, event)
	}
	if in.SessionID == "" {
		return in, fmt.Errorf("hook input has no session_id")
	}
	return in, nil
}

// ContextCap is Claude Code's cap on additionalContext, in characters
// (UTF-16 code units, as JavaScript counts them).
const ContextCap = 10000

// Output is a hook's answer on stdout.
type Output struct {
	HookSpecificOutput *Specific `json:"hookSpecificOutput,omitempty"`
}

// Specific carries the injected context.
type Specific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// Answer returns the JSON that injects text for event, cut to Claude
// Code's cap, or nil when there is nothing to inject.
func Answer(event, text string) []byte {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the context is read by a model, and by people in logs
	enc.Encode(Output{&Specific{HookEventName: event, AdditionalContext: Cap(text, ContextCap)}})
	return b.Bytes()
}

// Cap cuts s to at most n UTF-16 code units, at a line end when it can,
// marking the cut.
func Cap(s string, n int) string {
	if utf16Len(s) <= n {
		return s
	}
	const mark = "\n[… cut by memdir to Claude Code's context limit]"
	limit := n - len(mark)
	units, cut := 0, 0
	for i, r := range s {
		u := 1
		if r >= 0x10000 {
			u = 2
		}
		if units+u > limit {
			break
		}
		units += u
		cut = i + utf8.RuneLen(r)
	}
	if nl := strings.LastIndexByte(s[:cut], '\n'); nl > cut/2 {
		cut = nl
	}
	return s[:cut] + mark
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.AppendRune(nil, r))
	}
	return n
}

// Primer is SessionStart's short note when Claude Code already loads
// MEMORY.md itself.
func Primer(memories int) string {
	what := fmt.Sprintf("%d memories", memories)
	if memories == 1 {
		what = "1 memory"
	}
	return fmt.Sprintf("memdir: %s for this project; the ones relevant to each prompt arrive with it. `memdir recall \"<topic>\"` searches them.", what)
}

// Start is what SessionStart answers with, in parts.
type Start struct {
	Primer  string // Primer's note, when Claude Code loads MEMORY.md itself
	Warning string // MEMORY.md's cut warning, when Index is given
	Index   string // MEMORY.md as Claude Code would load it (auto memory off)
	Due     string // the line saying synthesis is due
	Dream   string // the line saying an automatic consolidation left operations for a person
	Team    string // TeamSection: the project's team memories, listed
	User    string // UserSection: the user's global memories' index
	// GlobalPath is the global long-term memory file; Global is its
	// always-loaded part.
	GlobalPath, Global string
}

// minGlobalRoom is the least room, in tokens, the always-loaded part of
// global long-term memory gets: past it, MEMORY.md's end is cut instead.
const minGlobalRoom = 250

// startReserve is what GlobalRoom keeps for the due line and the global
// part's introduction, in characters.
const startReserve = 600

// GlobalRoom is how many tokens (bytes/4, as learning.AlwaysLoaded counts
// them) the always-loaded part of global long-term memory may take so that
// the whole answer fits ContextCap: what the other parts leave, but never
// less than minGlobalRoom (MEMORY.md, last, is then cut by Answer).
func (s Start) GlobalRoom() int {
	used := utf16Len(s.Primer) + utf16Len(s.Warning) + utf16Len(s.Index) + utf16Len(s.Team) + utf16Len(s.User) + utf16Len(s.Dream) + startReserve
	return max(minGlobalRoom, (ContextCap-used)/4)
}

// Text joins the parts: MEMORY.md's warning first (Answer cuts from the
// end, and the warning must survive), the primer, the due line, the team
// memories, the global part with a line naming its file, and MEMORY.md
// last.
func (s Start) Text() string {
	var parts []string
	for _, p := range []string{s.Warning, s.Primer, s.Due, s.Dream, s.User, s.Team} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if s.Global != "" {
		parts = append(parts, "From "+s.GlobalPath+" (the user's global long-term memory, kept by memdir synthesis; always loaded):\n\n"+s.Global)
	}
	if s.Index != "" {
		parts = append(parts, s.Index)
	}
	return strings.Join(parts, "\n\n")
}

// Caps of TeamSection: the team memories a session starts with are listed
// one a line, at most TeamLines of them and TeamBytes in all (about 2,000
// tokens), then a line saying how many more there are.
const (
	TeamLines = 40
	TeamBytes = 6000
)

// TeamSection lists a project's team memories for a session's start
// (newest first, as workspace.TeamMemories gives them; total counts them
// all), within TeamLines and TeamBytes, or "" when there are none.
func TeamSection(list []workspace.TeamMemory, total int) string {
	if total == 0 {
		return ""
	}
	var b strings.Builder
	what := fmt.Sprintf("%d team memories", total)
	if total == 1 {
		what = "1 team memory"
	}
	fmt.Fprintf(&b, "memdir: %s for this project, shared with the team through git in %s; the ones relevant to each prompt arrive with it:\n", what, paths.TeamFolder)
	shown := 0
	for _, m := range list {
		line := "- " + oneLine(cmp.Or(m.Name, m.File)) + " (" + m.File + ")"
		if d := oneLine(m.Description); d != "" {
			line += " — " + d
		}
		if a := oneLine(m.Author); a != "" {
			line += "; by " + a
		}
		if shown >= TeamLines || b.Len()+len(line) > TeamBytes {
			break
		}
		b.WriteString(line + "\n")
		shown++
	}
	if more := total - shown; more > 0 {
		fmt.Fprintf(&b, "… and %d more: `memdir list --scope team` lists them all.\n", more)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Caps of UserSection: the lines of the global folder's MEMORY.md a
// session starts with (about 1,000 tokens).
const (
	UserLines = 30
	UserBytes = 4000
)

// UserSection is the index of the user's global memories (the global
// folder's MEMORY.md, at path) for a session's start: who the person is
// and how they work bears on every prompt, so its lines come in full
// within UserLines and UserBytes, then a line saying how many more there
// are; "" when it lists none.
func UserSection(path, index string) string {
	var lines []string
	for l := range strings.SplitSeq(index, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "- ") {
			lines = append(lines, strings.TrimRight(l, " \t\r"))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "memdir: your global memories, about you, recalled in every project (%s; each file is global/<file>, read one with `memdir show global/<file>`):\n", path)
	shown := 0
	for _, l := range lines {
		if shown >= UserLines || b.Len()+len(l) > UserBytes {
			break
		}
		b.WriteString(l + "\n")
		shown++
	}
	if more := len(lines) - shown; more > 0 {
		fmt.Fprintf(&b, "… and %d more: `memdir --global list` lists them all.\n", more)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// oneLine is s on one line, cut to 200 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
