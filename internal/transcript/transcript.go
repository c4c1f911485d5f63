// Package transcript reads agent session logs: Claude Code's JSONL
// transcripts and Codex CLI's rollout files. It works on io.Reader and
// knows nothing of memdir's store.
//
// Parsing never fails on bad content. A torn last line (a file still being
// written), a line over the size cap, invalid UTF-8 and malformed JSON are
// each skipped and reported with their line and byte offset; unknown record
// types are counted. Only I/O errors from the reader are returned.
//
// The parser is incremental: Options.Offset starts it at a byte offset a
// previous run reported as Session.End, so only new records are read.
package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// DefaultMaxLine caps one JSONL line. Longer lines are skipped.
const DefaultMaxLine = 16 << 20

// Dialect names a transcript format.
type Dialect string

const (
	ClaudeCode Dialect = "claude-code"
	Codex      Dialect = "codex"
)

// Message is one conversation turn's text, in order of appearance.
type Message struct {
	Role      string    `json:"role"` // "user" or "assistant"
	Text      string    `json:"text"` // text blocks joined; tool calls as one line each
	Timestamp time.Time `json:"timestamp"`
	UUID      string    `json:"uuid,omitempty"`
	Line      int       `json:"line"`   // 1-based line of the (first) record
	Offset    int64     `json:"offset"` // byte offset of that line
	// LastOffset is the byte offset of the message's last line: a response
	// joined from several lines ends after it starts, and a reader that
	// stopped before LastOffset saw only part of it.
	LastOffset int64 `json:"last_offset"`
	Sidechain  bool  `json:"sidechain,omitempty"`
	// Meta marks text the agent's harness wrote (command expansions,
	// interruption notices, system reminders, compaction summaries, API
	// error notices), not typed by the user nor answered by the model.
	Meta  bool       `json:"meta,omitempty"`
	Tools []ToolCall `json:"tools,omitempty"`
	CWD   string     `json:"cwd,omitempty"`
}

// ToolCall is one tool use or its result, summarised.
type ToolCall struct {
	Name string `json:"name"` // tool name; "result" for a result
	// ID pairs a result with its call: Claude Code's tool_use id and
	// tool_result tool_use_id, Codex's call_id. Empty when the log has none.
	ID      string `json:"id,omitempty"`
	Summary string `json:"summary"`            // one line
	IsError bool   `json:"is_error,omitempty"` // a failed result
	// Detail, on a result that failed or whose text reads like a failure
	// (its first line or its end names an error), holds its error-bearing
	// lines (else its last few), each clipped, at most MaxDetail bytes.
	// Empty on every other result and on calls.
	Detail string `json:"detail,omitempty"`
}

// Injection is context a hook added to the conversation. memdir records
// these so it never mines its own injections as new facts.
type Injection struct {
	Event     string    `json:"event"` // SessionStart, UserPromptSubmit, …
	Text      string    `json:"text"`
	Timestamp time.Time `json:"timestamp"`
	Line      int       `json:"line"`
}

// Skip is a line the parser could not use.
type Skip struct {
	Line   int    `json:"line"`
	Offset int64  `json:"offset"`
	Reason string `json:"reason"`
}

// Session is what one parse of one transcript found.
type Session struct {
	Dialect    Dialect     `json:"dialect"`
	ID         string      `json:"session_id"`
	CWD        string      `json:"cwd,omitempty"`
	GitBranch  string      `json:"git_branch,omitempty"`
	Version    string      `json:"version,omitempty"`
	Start      time.Time   `json:"start,omitzero"`
	End        time.Time   `json:"end,omitzero"`
	Messages   []Message   `json:"messages"`
	Injections []Injection `json:"injections,omitempty"`
	// MemoryFiles lists the auto-memory files the agent loaded (Claude
	// Code's AutoMem instructions).
	MemoryFiles []string       `json:"memory_files,omitempty"`
	Records     int            `json:"records"`           // lines parsed as records
	Types       map[string]int `json:"types"`             // records by type
	Unknown     int            `json:"unknown_types"`     // records of types the parser does not know
	Skipped     []Skip         `json:"skipped,omitempty"` // unusable lines
	// NextOffset is the byte offset just past the last complete line: start
	// the next incremental parse there. A torn last line is not consumed.
	NextOffset int64  `json:"next_offset"`
	NextLine   int    `json:"next_line"` // 1-based line number at NextOffset
	LastUUID   string `json:"last_uuid,omitempty"`
}

// Options tune a parse. The zero value reads a whole file.
type Options struct {
	MaxLine int   // default DefaultMaxLine
	Offset  int64 // byte offset the reader starts at (for positions)
	Line    int   // line number already consumed before Offset
}

// lineFunc handles one complete, valid-UTF-8 line. It returns a reason to
// skip the line, or "".
type lineFunc func(line []byte, no int, off int64) (skip string)

// scan splits r into lines, enforcing the size cap and UTF-8, and calls fn
// for each complete line. It returns the offset and line number just past
// the last complete line.
func scan(r io.Reader, opt Options, s *Session, fn lineFunc) error {
	max := opt.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, 256<<10)
	off, no := opt.Offset, opt.Line
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > max {
			// Over the cap: drop it and everything up to the next newline.
			n := int64(len(buf) + len(chunk))
			buf = buf[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				n += int64(len(chunk))
			}
			no++
			if err == nil {
				s.Skipped = append(s.Skipped, Skip{Line: no, Offset: off, Reason: fmt.Sprintf("line over %d bytes", max)})
				off += n
				continue
			}
			chunk = nil // a torn, oversized last line: reported below
			no--
			if !errors.Is(err, io.EOF) {
				return err
			}
			s.Skipped = append(s.Skipped, Skip{Line: no + 1, Offset: off, Reason: "torn last line (still being written?)"})
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			buf = append(buf, chunk...)
			continue
		}
		line := chunk
		if len(buf) > 0 {
			buf = append(buf, chunk...)
			line = buf
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				return err
			}
			if len(line) > 0 {
				s.Skipped = append(s.Skipped, Skip{Line: no + 1, Offset: off, Reason: "torn last line (still being written?)"})
			}
			break
		}
		no++
		n := int64(len(line))
		body := line[:len(line)-1]
		if len(body) > 0 && body[len(body)-1] == '\r' {
			body = body[:len(body)-1]
		}
		switch {
		case len(body) == 0:
		case !utf8.Valid(body):
			s.Skipped = append(s.Skipped, Skip{Line: no, Offset: off, Reason: "invalid UTF-8"})
		default:
			if why := fn(body, no, off); why != "" {
				s.Skipped = append(s.Skipped, Skip{Line: no, Offset: off, Reason: why})
			}
		}
		off += n
		buf = buf[:0]
	}
	s.NextOffset, s.NextLine = off, no
	return nil
}
