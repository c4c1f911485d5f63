package workspace

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// ExtractRequest says which pending content Extract shows, and how.
type ExtractRequest struct {
	Days []string // the wanted days; none: every pending day
	Raw  bool     // keep secrets as written (by default they are redacted)
	JSON bool     // render as JSON (ExtractJSON) instead of text
}

// ExtractDays renders the pending content of the wanted days and hands it to
// out, then records in the state what it showed, so that a later MarkDone
// marks no more than that. It changes no cursor. With no pending content
// it calls nothing and returns false.
func (t Transcripts) ExtractDays(ctx context.Context, req ExtractRequest, r Report, out func(rendered []byte) error) (found bool, err error) {
	if err := t.NeedHome(r); err != nil {
		return false, err
	}
	st, unlock, err := t.LockState(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	if t.ZoneConflict(st) != nil {
		r.warnf("the days were counted in the time zone %s, and are now counted in %s: days marked done past a cursor are pending again", st.DaysZone, t.Zone)
		st.Recount(t.Zone)
	}
	scans := t.ReadPending(ctx, st, r)
	days := sessions.Pending(scans, t.Loc, req.Days...)
	if len(days) == 0 {
		return false, nil
	}
	if !req.Raw {
		// The text goes to a model next: secrets stay out of it, as they
		// stay out of memories.
		if n := redactDays(days); n > 0 {
			r.warnf("redacted %s in the output (--raw keeps them)", sessions.Plural(n, "secret"))
		}
	}
	var buf bytes.Buffer
	if req.JSON {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		err = enc.Encode(ExtractJSON(days))
	} else {
		err = sessions.WriteText(&buf, days, t.Loc)
	}
	if err != nil {
		return true, err
	}
	if err := out(buf.Bytes()); err != nil {
		return true, err
	}
	// The output is out: only now record what it showed.
	sessions.MarkExtracted(st, scans, days)
	return true, t.Folder.WriteJSON(sessions.StateFile, st)
}

// ExtractedMessage is a message as extract's JSON gives it.
type ExtractedMessage struct {
	Role      string                `json:"role"`
	Content   string                `json:"content"`
	Timestamp time.Time             `json:"timestamp,omitzero"`
	Line      int                   `json:"line"`
	UUID      string                `json:"uuid,omitempty"`
	Sidechain bool                  `json:"sidechain,omitempty"`
	Tools     []transcript.ToolCall `json:"tools,omitempty"`
}

// ExtractedSession is a session's pending part as extract's JSON gives it.
type ExtractedSession struct {
	SessionID    string             `json:"session_id"`
	Agent        string             `json:"agent,omitempty"`
	Filepath     string             `json:"filepath"`
	Dialect      string             `json:"dialect"`
	Project      string             `json:"project,omitempty"`
	GitBranch    string             `json:"git_branch,omitempty"`
	MessageCount int                `json:"message_count"`
	Messages     []ExtractedMessage `json:"messages"`
}

// ExtractJSON is days as extract's JSON gives them: sessions by date.
func ExtractJSON(days []sessions.Day) map[string][]ExtractedSession {
	out := map[string][]ExtractedSession{}
	for _, d := range days {
		for _, s := range d.Sessions {
			js := ExtractedSession{SessionID: cmp.Or(s.SessionID, filepath.Base(s.Path)), Agent: s.Agent, Filepath: s.Path,
				Dialect: string(s.Dialect), Project: s.CWD, GitBranch: s.Branch, MessageCount: len(s.Messages)}
			for _, m := range s.Messages {
				js.Messages = append(js.Messages, ExtractedMessage{Role: m.Role, Content: m.Text, Timestamp: m.Timestamp,
					Line: m.Line, UUID: m.UUID, Sidechain: m.Sidechain, Tools: m.Tools})
			}
			out[d.Date] = append(out[d.Date], js)
		}
	}
	return out
}

// redactDays redacts secrets in the messages and tool lines of days, in
// place, and returns how many it found.
func redactDays(days []sessions.Day) int {
	n := 0
	red := func(s *string) {
		out, found := redact.String(*s)
		for _, f := range found {
			n += f.Count
		}
		*s = out
	}
	for i := range days {
		for j := range days[i].Sessions {
			msgs := days[i].Sessions[j].Messages
			for k := range msgs {
				red(&msgs[k].Text)
				for t := range msgs[k].Tools {
					red(&msgs[k].Tools[t].Summary)
				}
			}
		}
	}
	return n
}
