package sessions

import (
	"time"

	"github.com/memdir/memdir/internal/transcript"
)

// StateFile is the processing state's file name in the synthesis folder.
const StateFile = "transcripts-state.json"

// StateVersion is the format version State is written with.
const StateVersion = 1

// State records, per transcript, how far memdir has processed it. It is
// read and written whole by the caller; the functions here only change it
// in memory.
type State struct {
	Version int `json:"version"`
	// Zone is the time zone days were computed in. Cached summaries from
	// another zone are recomputed.
	Zone        string            `json:"zone"`
	Transcripts map[string]*Entry `json:"transcripts"` // by absolute path
	// Extracted lists the days extract showed since they were last marked
	// done, sorted. Done marks nothing of such a day in a transcript
	// without an Entry.Extracted offset for it: extract never showed that
	// transcript's content. (A state written before this field read it
	// from the entries' offsets.)
	Extracted []string `json:"extracted_days,omitempty"`
	// DaysZone is the time zone of the days that Extracted and the
	// entries' Done and Extracted are keyed by: the same date in another
	// zone holds other messages. Empty in a state written before it.
	DaysZone string `json:"days_zone,omitempty"`
}

// NewState returns an empty state for days in zone.
func NewState(zone string) *State {
	return &State{Version: StateVersion, Zone: zone, Transcripts: map[string]*Entry{}}
}

// DayMarks reports whether st holds records keyed by day: days marked
// done past a cursor, or extracted.
func (st *State) DayMarks() bool {
	if len(st.Extracted) > 0 {
		return true
	}
	for _, e := range st.Transcripts {
		if len(e.Done) > 0 || len(e.Extracted) > 0 {
			return true
		}
	}
	return false
}

// Recount makes st count days in zone. Records keyed by days of another
// zone are dropped: content marked done by day past a cursor is pending
// again (shown twice rather than never), and no day counts as extracted.
// Cursors stay.
func (st *State) Recount(zone string) {
	if st.DaysZone == zone {
		return
	}
	for _, e := range st.Transcripts {
		e.Done, e.Extracted = nil, nil
	}
	st.Extracted = nil
	st.DaysZone = zone
}

// Mark is a position in a transcript together with what it takes to tell,
// later, that the bytes before it are still the same: a transcript that
// shrank or was replaced is read again from its start.
type Mark struct {
	Offset   int64  `json:"offset"`              // bytes processed: always just past a newline
	Line     int    `json:"line"`                // lines processed
	Head     string `json:"head,omitempty"`      // hash of the first ≤4 KiB
	Tail     string `json:"tail,omitempty"`      // hash of the ≤4 KiB before Offset
	LastUUID string `json:"last_uuid,omitempty"` // uuid of the record that ends at Offset
}

// Entry is the state of one transcript.
type Entry struct {
	Dialect   transcript.Dialect `json:"dialect"`
	SessionID string             `json:"session_id,omitempty"`
	Agent     string             `json:"agent,omitempty"`
	CWD       string             `json:"cwd,omitempty"`
	Branch    string             `json:"git_branch,omitempty"`
	// Cursor: everything before it is processed.
	Cursor Mark `json:"cursor"`
	// Done holds days marked done whose content lies after the cursor: a
	// message of that day whose last line starts before the offset is
	// processed. (A transcript
	// spanning two days keeps the later day pending while the earlier one
	// is done, and the other way round.)
	Done map[string]int64 `json:"done,omitempty"`
	// Extracted holds, per day, the offset up to which that day's content
	// was last extracted: done marks no more than was shown.
	Extracted map[string]int64 `json:"extracted,omitempty"`
	// Reset says why the cursor was last dropped (the file shrank or was
	// replaced), for 'memdir doctor'.
	Reset string `json:"reset,omitempty"`
	// Summary caches what the whole transcript holds, for the projects
	// index.
	Summary *Summary `json:"summary,omitempty"`
}

// Summary is what a whole transcript holds, kept up to date incrementally.
type Summary struct {
	Scanned   Mark      `json:"scanned"`
	SessionID string    `json:"session_id,omitempty"`
	CWD       string    `json:"cwd,omitempty"`
	Branch    string    `json:"git_branch,omitempty"`
	Start     time.Time `json:"start,omitzero"`
	End       time.Time `json:"end,omitzero"`
	Days      []string  `json:"days,omitempty"` // local dates with conversation, sorted
	Messages  int       `json:"messages"`
}

// entry returns the state of path, creating it.
func (st *State) entry(f File) *Entry {
	if st.Transcripts == nil {
		st.Transcripts = map[string]*Entry{}
	}
	e := st.Transcripts[f.Path]
	if e == nil {
		e = &Entry{Dialect: f.Dialect, SessionID: f.SessionID, Agent: f.Agent}
		st.Transcripts[f.Path] = e
	}
	return e
}

// learn fills the entry's session facts from a parse, keeping what it knew.
func (e *Entry) learn(s *transcript.Session) {
	if s == nil {
		return
	}
	if e.SessionID == "" {
		e.SessionID = s.ID
	}
	if e.CWD == "" {
		e.CWD = s.CWD
	}
	if e.Branch == "" {
		e.Branch = s.GitBranch
	}
}

// DateOf returns the local date of t, as YYYY-MM-DD.
func DateOf(t time.Time, loc *time.Location) string {
	return t.In(loc).Format(time.DateOnly)
}
