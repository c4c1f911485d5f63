package transcript

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/redact"
)

// claudeTypes are the record types Claude Code 2.1 writes. Only user and
// assistant carry conversation; attachment carries hook context and loaded
// memory; the rest is bookkeeping, recognised and counted.
var claudeTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "attachment": true, "summary": true,
	"custom-title": true, "ai-title": true, "last-prompt": true, "task-summary": true, "tag": true,
	"agent-name": true, "agent-color": true, "agent-setting": true, "pr-link": true,
	"file-history-snapshot": true, "file-history-delta": true, "attribution-snapshot": true,
	"queue-operation": true, "speculation-accept": true, "mode": true, "permission-mode": true,
	"worktree-state": true, "content-replacement": true, "marble-origami-commit": true,
	"marble-origami-snapshot": true, "progress": true, "atis-latch": true, "cost-state": true,
	"api-request-shape": true, "api-request-blob": true, "api-request": true, "ended-by-model": true,
	"relocated": true, "history-suppression": true, "isolation-latch": true, "session-owner": true,
	"dev-mods": true, "tools-used": true, "observer-ref": true, "derived-from": true,
	"artifact-autoreact-ledger": true, "data-flow-records": true, "data-flow-incomplete": true,
	"fork-context-ref": true, "frame-link": true, "artifact-comment-monitor": true, "memory-mode": true,
	"continued-in": true, "resume-head-vouch": true, "bridge-session": true,
}

// conversational are the record types decoded in full: they carry the
// conversation, hook context, session facts or uuids. Every other known
// type is only counted.
var conversational = map[string]bool{"user": true, "assistant": true, "attachment": true, "system": true}

type ccRecord struct {
	Type        string        `json:"type"`
	UUID        string        `json:"uuid"`
	SessionID   string        `json:"sessionId"`
	Timestamp   string        `json:"timestamp"`
	CWD         string        `json:"cwd"`
	GitBranch   string        `json:"gitBranch"`
	Version     string        `json:"version"`
	IsSidechain bool          `json:"isSidechain"`
	IsMeta      bool          `json:"isMeta"`
	Message     *ccMessage    `json:"message"`
	Attachment  *ccAttachment `json:"attachment"`
	// IsCompactSummary marks the user record that carries a compaction's
	// summary, IsAPIError the assistant record Claude Code writes for a
	// failed API call: both are the harness's text.
	IsCompactSummary bool `json:"isCompactSummary"`
	IsAPIError       bool `json:"isApiErrorMessage"`
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type ccAttachment struct {
	Type      string          `json:"type"`
	HookEvent string          `json:"hookEvent"`
	Content   json.RawMessage `json:"content"`
	Files     []struct {
		Path string `json:"path"`
		Type string `json:"type"`
	} `json:"files"`
	Memories []struct {
		Path string `json:"path"`
	} `json:"memories"`
}

type ccBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	ToolUseID string          `json:"tool_use_id"`
}

// ParseClaude reads a Claude Code JSONL transcript (2.1.x) from r.
// Assistant responses split over several lines sharing message.id are
// joined into one Message. It returns an error only when r fails.
func ParseClaude(r io.Reader, opt Options) (*Session, error) {
	s := &Session{Dialect: ClaudeCode, Types: map[string]int{}}
	byID := map[string]int{} // assistant message.id → index in s.Messages
	err := scan(r, opt, s, func(line []byte, no int, off int64) string {
		if t, ok := sniffType(line); ok && claudeTypes[t] && !conversational[t] {
			s.count(t, claudeTypes)
			return ""
		}
		var rec ccRecord
		if err := decodeRecord(line, &rec); err != nil {
			return "malformed JSON: " + shortErr(err)
		}
		if rec.Type == "" {
			return "not a transcript record (no type)"
		}
		if !s.count(rec.Type, claudeTypes) {
			return ""
		}
		ts, _ := time.Parse(time.RFC3339Nano, rec.Timestamp)
		s.note(rec.SessionID, rec.CWD, rec.GitBranch, rec.Version, ts)
		if rec.UUID != "" {
			s.LastUUID = rec.UUID
		}
		switch rec.Type {
		case "user", "assistant":
			if rec.Message == nil {
				return ""
			}
			m := Message{Role: rec.Type, Timestamp: ts, UUID: rec.UUID, Line: no, Offset: off, LastOffset: off,
				Sidechain: rec.IsSidechain, Meta: rec.harness(), CWD: rec.CWD}
			m.Text, m.Tools = claudeContent(rec.Message.Content, true)
			if m.Role == "user" && isSynthetic(m.Text) {
				m.Meta = true
			}
			if id := rec.Message.ID; m.Role == "assistant" && id != "" {
				if i, ok := byID[id]; ok {
					prev := &s.Messages[i]
					prev.Text = joinText(prev.Text, m.Text)
					prev.Tools = append(prev.Tools, m.Tools...)
					prev.LastOffset = off
					return ""
				}
				byID[id] = len(s.Messages)
			}
			s.Messages = append(s.Messages, m) // empty ones are dropped at the end

		case "attachment":
			s.attachment(rec.Attachment, ts, no)
		}
		return ""
	})
	s.dropEmpty()
	return s, err
}

// harness reports whether the record's message is text Claude Code wrote
// rather than the user or the model: injected text, a compaction summary,
// an API error notice.
func (rec *ccRecord) harness() bool {
	return rec.IsMeta || rec.IsCompactSummary || rec.IsAPIError
}

// dropEmpty removes messages with neither text nor tool calls (a thinking-
// only response, an empty prompt).
func (s *Session) dropEmpty() {
	out := s.Messages[:0]
	for _, m := range s.Messages {
		if m.Text != "" || len(m.Tools) > 0 {
			out = append(out, m)
		}
	}
	s.Messages = out
}

// count records one record of type t and reports whether the parser knows
// the type; unknown ones are counted apart and otherwise skipped.
func (s *Session) count(t string, known map[string]bool) bool {
	s.Records++
	s.Types[t]++
	if !known[t] {
		s.Unknown++
		return false
	}
	return true
}

// note records session-level facts from a record: the first id, cwd,
// branch and version seen, and the time span.
func (s *Session) note(id, cwd, branch, version string, ts time.Time) {
	if s.ID == "" {
		s.ID = id
	}
	if s.CWD == "" {
		s.CWD = cwd
	}
	if s.GitBranch == "" {
		s.GitBranch = branch
	}
	if s.Version == "" {
		s.Version = version
	}
	if ts.IsZero() {
		return
	}
	if s.Start.IsZero() || ts.Before(s.Start) {
		s.Start = ts
	}
	if ts.After(s.End) {
		s.End = ts
	}
}

func (s *Session) attachment(a *ccAttachment, ts time.Time, no int) {
	if a == nil {
		return
	}
	switch a.Type {
	case "hook_additional_context":
		var parts []string
		if json.Unmarshal(a.Content, &parts) != nil {
			var one string
			if json.Unmarshal(a.Content, &one) == nil {
				parts = []string{one}
			}
		}
		s.Injections = append(s.Injections, Injection{Event: a.HookEvent, Text: strings.Join(parts, "\n"), Timestamp: ts, Line: no})
	case "instructions":
		for _, f := range a.Files {
			if f.Type == "AutoMem" {
				s.MemoryFiles = append(s.MemoryFiles, f.Path)
			}
		}
	case "relevant_memories":
		var paths []string
		for _, m := range a.Memories {
			paths = append(paths, m.Path)
		}
		s.Injections = append(s.Injections, Injection{Event: "relevant_memories", Text: strings.Join(paths, "\n"), Timestamp: ts, Line: no})
	}
}

// claudeContent turns message content (a string or a list of blocks) into
// text and one-line tool calls. Thinking is left out. What a person
// marked <private>…</private> is gone from it (see
// redact.Private): no pipeline downstream — extraction, summaries,
// search, a model — ever sees it. detail says to fill the Detail of failed
// results (a caller that drops the tool calls passes false).
func claudeContent(raw json.RawMessage, detail bool) (string, []ToolCall) {
	text, tools := blocksContent(raw, false, detail)
	text, _ = redact.Private(text)
	return text, tools
}

// blocksContent is claudeContent; inResult says raw is a tool result's
// content, whose summary comes from its text and images only. A tool
// result nested in one is not walked: it adds nothing to that summary, and
// walking each level again would take time quadratic in the nesting.
func blocksContent(raw json.RawMessage, inResult, detail bool) (string, []ToolCall) {
	if len(raw) == 0 {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s, nil
	}
	blocks, ok := lazyBlocks(raw)
	if lazyOff || !ok {
		blocks = nil
		if json.Unmarshal(raw, &blocks) != nil {
			return "", nil
		}
	}
	var text string
	var tools []ToolCall
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if isIDEContext(b.Text) {
				continue
			}
			text = joinText(text, b.Text)
		case "tool_use":
			tools = append(tools, ToolCall{Name: b.Name, ID: b.ID, Summary: summarizeInput(b.Input)})
		case "tool_result":
			if inResult {
				break
			}
			tools = append(tools, resultCall(b, detail))
		case "image":
			text = joinText(text, "[image]")
		}
	}
	return text, tools
}

// resultCall summarises a tool_result block and, when detail is set and
// the result failed or reads like a failure, gives its error lines.
func resultCall(b ccBlock, detail bool) ToolCall {
	tc := ToolCall{Name: "result", ID: b.ToolUseID, IsError: b.IsError}
	var text string
	decoded, ok := false, false
	if !lazyOff {
		tc.Summary, ok = summarizeRawString(b.Content)
	}
	if !ok {
		text, _ = blocksContent(b.Content, true, false)
		decoded = true
		tc.Summary = summarizeOutput(text)
	}
	if !detail {
		return tc
	}
	if !decoded && !b.IsError && !hasFailMarker(tc.Summary) && !rawMayShowFailure(b.Content[1:len(b.Content)-1]) {
		return tc // the common case: a result that worked, never decoded
	}
	if !decoded {
		text, _ = blocksContent(b.Content, true, false)
	}
	if b.IsError || showsFailure(text, tc.Summary) {
		tc.Detail = errorDetail(text)
	}
	return tc
}

func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

// syntheticPrefixes start user texts that Claude Code writes itself.
var syntheticPrefixes = []string{
	"<command-name>", "<command-message>", "<local-command-stdout>", "<local-command-stderr>",
	"<system-reminder>", "[Request interrupted by user", "Caveat: The messages below",
	"Base directory for this skill:", "<bash-input>", "<bash-stdout>", "<bash-stderr>",
}

// isIDEContext reports a text block Claude Code's IDE integration adds to
// a user message (the open file, the selected lines, diagnostics): context
// beside the user's words, not words of theirs, and a selection can hold
// anything the file holds.
func isIDEContext(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<ide_opened_file>", "<ide_selection>", "<ide_diagnostics>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func isSynthetic(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range syntheticPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// inputKeys are the tool input fields that say what a call did, best first.
var inputKeys = []string{"command", "cmd", "file_path", "notebook_path", "path", "pattern", "url", "query", "description", "prompt"}

// summarizeInput renders a tool input as one short line, preferring the
// field that says what the call did.
func summarizeInput(raw json.RawMessage) string {
	if !lazyOff {
		if s, ok := lazySummarizeInput(raw); ok {
			return s
		}
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range inputKeys {
			switch v := m[k].(type) {
			case string:
				if v != "" {
					return clip(k+": "+v, 160)
				}
			case nil:
			default:
				b, _ := json.Marshal(v)
				return clip(k+": "+string(b), 160)
			}
		}
	}
	return clip(string(raw), 160)
}

// lazySummarizeInput does what summarizeInput does without decoding the
// whole input (a Write call's input holds a whole file). It takes the
// values of the wanted keys only, and gives up on anything unusual.
func lazySummarizeInput(raw []byte) (string, bool) {
	vals := map[string][]byte{}
	ok := true
	end := eachMember(raw, 0, func(k, v []byte) bool {
		for _, want := range inputKeys {
			if string(k) == want {
				vals[want] = v
				return true
			}
		}
		ok = !foldsTo(k, inputKeys)
		return ok
	})
	if !ok || end != len(raw) {
		return "", false
	}
	for _, k := range inputKeys {
		v, found := vals[k]
		if !found || string(v) == "null" {
			continue
		}
		if v[0] != '"' {
			return "", false // a number, list or object: let encoding/json render it
		}
		s, ok := lazyString(v)
		if !ok {
			return "", false
		}
		if s != "" {
			return clip(k+": "+s, 160), true
		}
	}
	return clip(string(raw), 160), true
}

// summarizeOutput renders tool output as its first line and its size.
func summarizeOutput(text string) string {
	lines := strings.Count(text, "\n") + 1
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if lines > 1 {
		return fmt.Sprintf("%s (%d lines)", clip(first, 120), lines)
	}
	return clip(first, 160)
}

// clip cuts s to n bytes on a rune boundary, on one line, ending in "…".
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

func shortErr(err error) string {
	return clip(err.Error(), 100)
}
