package sessions

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/transcript"
)

// Day is the pending content of one local date.
type Day struct {
	Date     string       `json:"date"`
	Sessions []DaySession `json:"sessions"`
	Messages int          `json:"messages"`
}

// DaySession is one transcript's pending messages of one day.
type DaySession struct {
	Path      string               `json:"filepath"`
	Dialect   transcript.Dialect   `json:"dialect"`
	SessionID string               `json:"session_id"`
	Agent     string               `json:"agent,omitempty"`
	CWD       string               `json:"cwd,omitempty"`
	Branch    string               `json:"git_branch,omitempty"`
	Messages  []transcript.Message `json:"messages"`
	// End is the offset the read stopped at: the day's content up to here
	// is what was shown.
	End int64 `json:"-"`
}

// messageDay is the local date a message belongs to: its own time, else
// the session's start, else the file's modification time.
func messageDay(m transcript.Message, sc Scan, loc *time.Location) string {
	switch {
	case !m.Timestamp.IsZero():
		return DateOf(m.Timestamp, loc)
	case sc.Session != nil && !sc.Session.Start.IsZero():
		return DateOf(sc.Session.Start, loc)
	}
	return DateOf(sc.File.ModTime, loc)
}

// isPending reports whether message m of a scan is still to be processed:
// it is conversation (not harness text) and its day is not done up to its
// last line (a response that grew after its day was marked is pending).
func isPending(m transcript.Message, day string, e *Entry) bool {
	if !isContent(m) || m.Offset < e.Cursor.Offset {
		return false
	}
	return m.LastOffset >= e.Done[day]
}

// isContent reports whether m is conversation worth reading: not harness
// text, and not a user turn that only carries tool results back.
func isContent(m transcript.Message) bool {
	if m.Meta {
		return false
	}
	if m.Text != "" {
		return true
	}
	for _, t := range m.Tools {
		if t.Name != "result" {
			return true
		}
	}
	return false
}

// Pending groups the pending messages of scans by local day, oldest day
// first; within a day sessions are in order of their first message. Only
// days in want are kept when want is not empty.
func Pending(scans []Scan, loc *time.Location, want ...string) []Day {
	byDay := map[string]*Day{}
	for _, sc := range scans {
		if sc.Session == nil {
			continue
		}
		var cur map[string]int // day → index of this scan's session in that day
		for _, m := range sc.Session.Messages {
			day := messageDay(m, sc, loc)
			if !isPending(m, day, sc.Entry) || (len(want) > 0 && !slices.Contains(want, day)) {
				continue
			}
			d := byDay[day]
			if d == nil {
				d = &Day{Date: day}
				byDay[day] = d
			}
			if cur == nil {
				cur = map[string]int{}
			}
			i, ok := cur[day]
			if !ok {
				e := sc.Entry
				i = len(d.Sessions)
				cur[day] = i
				d.Sessions = append(d.Sessions, DaySession{Path: sc.File.Path, Dialect: sc.File.Dialect,
					SessionID: e.SessionID, Agent: e.Agent, CWD: e.CWD, Branch: e.Branch, End: sc.Session.NextOffset})
			}
			d.Sessions[i].Messages = append(d.Sessions[i].Messages, m)
			d.Messages++
		}
	}
	days := make([]Day, 0, len(byDay))
	for _, d := range byDay {
		slices.SortStableFunc(d.Sessions, func(a, b DaySession) int {
			if c := a.Messages[0].Timestamp.Compare(b.Messages[0].Timestamp); c != 0 {
				return c
			}
			return cmp.Compare(a.Path, b.Path)
		})
		days = append(days, *d)
	}
	slices.SortFunc(days, func(a, b Day) int { return cmp.Compare(a.Date, b.Date) })
	return days
}

// MarkExtracted records in st that days were shown, up to where each read
// stopped, so that MarkDone later marks no more than that.
func MarkExtracted(st *State, scans []Scan, days []Day) {
	byPath := map[string]Scan{}
	for _, sc := range scans {
		byPath[sc.File.Path] = sc
	}
	for _, d := range days {
		for _, ds := range d.Sessions {
			sc, ok := byPath[ds.Path]
			if !ok {
				continue
			}
			e := adopt(st, sc)
			if e.Extracted == nil {
				e.Extracted = map[string]int64{}
			}
			e.Extracted[d.Date] = ds.End
		}
		if i, found := slices.BinarySearch(st.Extracted, d.Date); !found {
			st.Extracted = slices.Insert(st.Extracted, i, d.Date)
		}
	}
}

// wasExtracted reports whether extract showed date since it was last
// marked done.
func (st *State) wasExtracted(date string) bool {
	if slices.Contains(st.Extracted, date) {
		return true
	}
	for _, e := range st.Transcripts { // a state from before State.Extracted
		if _, ok := e.Extracted[date]; ok {
			return true
		}
	}
	return false
}

// Advance is a cursor MarkDone moved: the caller takes a Mark there (see
// MarkAt) and stores it in the entry.
type Advance struct {
	Path   string
	Offset int64
	Line   int
}

// MarkDone marks date processed in st: every pending message of that day
// up to where it was last extracted. A transcript extract did not show
// (it appeared, or got that day's content, after the extract) keeps its
// content pending; when the day was never extracted, everything up to
// where this read stopped is marked. Cursors then move past every
// processed message at their front. It reports how many messages it
// marked, and the cursors it moved.
func MarkDone(st *State, scans []Scan, date string, loc *time.Location) (marked int, moved []Advance) {
	shown := st.wasExtracted(date)
	for _, sc := range scans {
		if sc.Session == nil {
			continue
		}
		upto := int64(-1)
		for _, m := range sc.Session.Messages {
			if day := messageDay(m, sc, loc); day == date && isPending(m, day, sc.Entry) {
				if upto < 0 {
					upto = sc.Session.NextOffset
					if x, ok := sc.Entry.Extracted[date]; ok || shown {
						upto = max(x, sc.Entry.Cursor.Offset)
					}
				}
				if m.LastOffset < upto {
					marked++ // shown whole: a part that arrived later keeps it pending
				}
			}
		}
		e := adopt(st, sc)
		if upto > e.Cursor.Offset {
			if e.Done == nil {
				e.Done = map[string]int64{}
			}
			e.Done[date] = max(e.Done[date], upto)
		}
		// Move the cursor to the first message still pending, or past
		// everything read when none is.
		off, line := sc.Session.NextOffset, sc.Session.NextLine
		for _, m := range sc.Session.Messages {
			if isPending(m, messageDay(m, sc, loc), e) {
				off, line = m.Offset, m.Line-1
				break
			}
		}
		if off > e.Cursor.Offset {
			e.Cursor = Mark{Offset: off, Line: line}
			moved = append(moved, Advance{Path: sc.File.Path, Offset: off, Line: line})
			for d, o := range e.Done {
				if o <= off {
					delete(e.Done, d)
				}
			}
			for d, o := range e.Extracted {
				if o <= off {
					delete(e.Extracted, d)
				}
			}
		}
		if len(e.Done) == 0 {
			e.Done = nil
		}
		if len(e.Extracted) == 0 {
			e.Extracted = nil
		}
	}
	// The day's extract is used up: a later done marks what is there then.
	for _, e := range st.Transcripts {
		delete(e.Extracted, date)
		if len(e.Extracted) == 0 {
			e.Extracted = nil
		}
	}
	if i, found := slices.BinarySearch(st.Extracted, date); found {
		st.Extracted = slices.Delete(st.Extracted, i, i+1)
	}
	if len(st.Extracted) == 0 {
		st.Extracted = nil
	}
	return marked, moved
}

// adopt makes the scan's view of its entry (a copy, or a fresh one after a
// reset) the stored one and returns it; later calls on the same scans
// share it.
func adopt(st *State, sc Scan) *Entry {
	if st.Transcripts == nil {
		st.Transcripts = map[string]*Entry{}
	}
	st.Transcripts[sc.File.Path] = sc.Entry
	return sc.Entry
}

// ParseDay reads a day as people write it — YYYY-MM-DD, today or
// yesterday — in loc, and returns it as YYYY-MM-DD.
func ParseDay(s string, loc *time.Location, now time.Time) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "today":
		return now.In(loc).Format(time.DateOnly), nil
	case "yesterday":
		return now.In(loc).AddDate(0, 0, -1).Format(time.DateOnly), nil
	}
	if _, err := time.ParseInLocation(time.DateOnly, s, loc); err != nil {
		return "", fmt.Errorf("%q is not a date (YYYY-MM-DD, today or yesterday)", s)
	}
	return s, nil
}
