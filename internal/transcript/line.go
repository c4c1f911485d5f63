package transcript

import (
	"encoding/json"
	"time"
)

// LineMessage decodes one line of a transcript on its own, for search: it
// returns the conversation message the line carries, or ok=false for a line
// that carries none (bookkeeping, a tool call without text, harness-injected
// text, malformed JSON). Text is the line's own text only: an assistant
// response split over several lines is not joined here.
func LineMessage(d Dialect, line []byte) (m Message, ok bool) {
	switch d {
	case Codex:
		var l cxLine
		if json.Unmarshal(line, &l) != nil || l.Type != "response_item" || len(l.Payload) == 0 || l.Payload[0] != '{' {
			return m, false
		}
		var p cxPayload
		if json.Unmarshal(l.Payload, &p) != nil || p.Type != "message" {
			return m, false
		}
		var s Session
		ts, _ := time.Parse(time.RFC3339Nano, l.Timestamp)
		s.codexItem(p, ts, 0, 0)
		if len(s.Messages) != 1 || s.Messages[0].Meta {
			return m, false
		}
		return s.Messages[0], true
	default:
		if t, ok := sniffType(line); ok && t != "user" && t != "assistant" {
			return m, false
		}
		var rec ccRecord
		if decodeRecord(line, &rec) != nil || rec.Message == nil || (rec.Type != "user" && rec.Type != "assistant") {
			return m, false
		}
		ts, _ := time.Parse(time.RFC3339Nano, rec.Timestamp)
		m = Message{Role: rec.Type, Timestamp: ts, UUID: rec.UUID, Sidechain: rec.IsSidechain, CWD: rec.CWD}
		m.Text, _ = claudeContent(rec.Message.Content, false)
		if m.Text == "" || rec.harness() || (m.Role == "user" && isSynthetic(m.Text)) {
			return m, false
		}
		return m, true
	}
}
