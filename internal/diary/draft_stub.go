package diary

import (
	"strings"

	"github.com/memdir/memdir/internal/transcript"
)

// TEMPORARY (issue 15, branch i15-plumb): a stand-in for the real
// DraftFrom being written in draft.go on another branch. The lead deletes
// this file when that lands.

// DraftOptions fill what a transcript does not say.
type DraftOptions struct{ Project, Date string }

// DraftFrom drafts an entry from a finished session: the task is its first
// user message; failed tool results are its errors.
func DraftFrom(s *transcript.Session, opt DraftOptions) Entry {
	e := Entry{Project: opt.Project, Date: opt.Date, Session: s.ID, Status: StatusDraft, Source: SourceTranscript}
	for _, m := range s.Messages {
		if m.Role == "user" && !m.Meta && e.Task == "" && strings.TrimSpace(m.Text) != "" {
			e.Task = strings.Join(strings.Fields(m.Text), " ")
			if len(e.Task) > 200 {
				e.Task = e.Task[:200]
			}
		}
		for _, t := range m.Tools {
			if t.IsError && strings.TrimSpace(t.Summary) != "" {
				e.Add(Errors, strings.Join(strings.Fields(t.Summary), " "))
			}
		}
	}
	return e
}
