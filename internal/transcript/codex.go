package transcript

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/redact"
)

// codexTypes are Codex CLI's rollout line types (RolloutItem).
var codexTypes = map[string]bool{
	"session_meta": true, "turn_context": true, "response_item": true, "event_msg": true,
	"compacted": true, "world_state": true,
}

type cxLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type cxPayload struct {
	// session_meta, turn_context
	ID         string `json:"id"`
	CWD        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Git        *struct {
		Branch string `json:"branch"`
	} `json:"git"`
	// response_item
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	CallID    string          `json:"call_id"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
}

// ParseCodex reads a Codex CLI rollout file (~/.codex/sessions/YYYY/MM/DD/
// rollout-*.jsonl). Messages come from response_item lines; event_msg lines
// repeat them for the UI and are counted, not read.
func ParseCodex(r io.Reader, opt Options) (*Session, error) {
	s := &Session{Dialect: Codex, Types: map[string]int{}}
	err := scan(r, opt, s, func(line []byte, no int, off int64) string {
		var l cxLine
		if err := json.Unmarshal(line, &l); err != nil {
			return "malformed JSON: " + shortErr(err)
		}
		if l.Type == "" {
			return "not a rollout line (no type)"
		}
		if !s.count(l.Type, codexTypes) {
			return ""
		}
		var p cxPayload
		if len(l.Payload) > 0 && l.Payload[0] == '{' {
			if err := json.Unmarshal(l.Payload, &p); err != nil {
				return "malformed payload: " + shortErr(err)
			}
		}
		ts, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
		switch l.Type {
		case "session_meta":
			branch := ""
			if p.Git != nil {
				branch = p.Git.Branch
			}
			s.note(p.ID, p.CWD, branch, p.CLIVersion, ts)
		case "turn_context":
			s.note("", p.CWD, "", "", ts)
		case "response_item":
			s.note("", "", "", "", ts)
			s.codexItem(p, ts, no, off)
		default:
			s.note("", "", "", "", ts)
		}
		return ""
	})
	return s, err
}

func (s *Session) codexItem(p cxPayload, ts time.Time, no int, off int64) {
	switch p.Type {
	case "message":
		var text string
		for _, c := range p.Content {
			if c.Type == "input_text" || c.Type == "output_text" || c.Type == "text" {
				text = joinText(text, c.Text)
			}
		}
		role := p.Role
		meta := false
		if role == "developer" || role == "system" {
			role, meta = "user", true
		}
		t := strings.TrimSpace(text)
		if strings.HasPrefix(t, "<environment_context>") || strings.HasPrefix(t, "<user_instructions>") || strings.HasPrefix(t, "# AGENTS.md") {
			meta = true
		}
		text, _ = redact.Private(text) // as claudeContent does
		if text != "" {
			s.Messages = append(s.Messages, Message{Role: role, Text: text, Timestamp: ts, Line: no, Offset: off, LastOffset: off, Meta: meta, CWD: s.CWD})
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		args := p.Arguments
		if args == "" {
			args = p.Input
		}
		s.addTool(ToolCall{Name: p.Name, ID: p.CallID, Summary: summarizeInput(json.RawMessage(args))}, ts, no, off)
	case "function_call_output", "custom_tool_call_output":
		// The output is a string, an object {output, metadata}, or a
		// string holding such an object.
		var out string
		var obj struct {
			Output   string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal(p.Output, &out) == nil {
			if strings.HasPrefix(out, "{") && json.Unmarshal([]byte(out), &obj) == nil && obj.Output != "" {
				out = obj.Output
			}
		} else if json.Unmarshal(p.Output, &obj) == nil {
			out = obj.Output
		}
		tc := ToolCall{Name: "result", ID: p.CallID, Summary: summarizeOutput(out)}
		tc.IsError = obj.Metadata.ExitCode != nil && *obj.Metadata.ExitCode != 0
		if tc.IsError || showsFailure(out, tc.Summary) {
			tc.Detail = errorDetail(out)
		}
		s.addTool(tc, ts, no, off)
	}
}

// addTool attaches a tool call to the assistant message it belongs to,
// starting one when the last message is not the assistant's.
func (s *Session) addTool(tc ToolCall, ts time.Time, no int, off int64) {
	if n := len(s.Messages); n > 0 && s.Messages[n-1].Role == "assistant" {
		s.Messages[n-1].Tools = append(s.Messages[n-1].Tools, tc)
		s.Messages[n-1].LastOffset = off
		return
	}
	s.Messages = append(s.Messages, Message{Role: "assistant", Timestamp: ts, Line: no, Offset: off, LastOffset: off, Tools: []ToolCall{tc}, CWD: s.CWD})
}
