package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// What a session starts with from synthesis: whether synthesis is due,
// and the always-loaded part of global long-term memory. Both run in the
// SessionStart hook, once a session, so both are cheap: no transcript is
// read, only listed, and a missing file costs one failed open.

// SynthesisDue returns the line a session starts with when synthesis is
// due, or "": due when synthesis.LastSynthesis is missing (or unreadable as a
// time), or its local date is before today's, or it is older than the
// settings' IntervalHours, and some transcript holds content the
// processing state has not seen (a transcript it does not know, or one
// grown past its cursor). The pending check lists the transcripts and
// reads the state; it reads no transcript, so it can over-count a
// transcript that only grew by harness records (synthesis then finds
// nothing to do, and writes the time). An error (a corrupt state, a bad
// settings.json) comes with no line.
func SynthesisDue(t Transcripts, now time.Time) (line string, err error) {
	s, err := t.Folder.Settings()
	if err != nil {
		return "", err
	}
	last, ok := t.Folder.LastSynthesized()
	if ok && !synthesisStale(last, now, t.Loc, s) {
		return "", nil
	}
	n, err := t.unsummarised()
	if err != nil || n == 0 {
		return "", err
	}
	what := fmt.Sprintf("%d transcripts hold conversation", n)
	if n == 1 {
		what = "1 transcript holds conversation"
	}
	since := "no synthesis has run yet"
	if ok {
		since = "last synthesis " + last.In(t.Loc).Format(time.DateOnly)
	}
	return fmt.Sprintf("memdir: synthesis is due (%s not yet summarised; %s): run `memdir synthesize`, or ask for the synthesize skill.", what, since), nil
}

// synthesisStale reports whether a synthesis at last is too old at now:
// from an earlier local day, or more than the interval ago.
func synthesisStale(last, now time.Time, loc *time.Location, s learning.Settings) bool {
	if sessions.DateOf(last, loc) < sessions.DateOf(now, loc) {
		return true
	}
	return now.Sub(last) > time.Duration(s.Synthesis.IntervalHours)*time.Hour
}

// cursorState is the part of the processing state the pending check
// reads.
type cursorState struct {
	Transcripts map[string]struct {
		Cursor struct {
			Offset int64 `json:"offset"`
		} `json:"cursor"`
	} `json:"transcripts"`
}

// unsummarised counts the transcripts with content past their cursor, or
// unknown to the processing state. Transcripts that cannot be listed are
// skipped (they are no reason to prompt).
func (t Transcripts) unsummarised() (int, error) {
	files, _ := sessions.Discover(t.Roots)
	if len(files) == 0 {
		return 0, nil
	}
	var st cursorState
	if _, err := t.Folder.ReadJSON(sessions.StateFile, &st); err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		e, known := st.Transcripts[f.Path]
		if f.Size > 0 && (!known || f.Size > e.Cursor.Offset) {
			n++
		}
	}
	return n, nil
}

// StartContext is what synthesis adds to a session's start.
type StartContext struct {
	// Due is SynthesisDue's line, "" when synthesis is not due.
	Due string
	// GlobalPath is the global long-term memory file; Global its
	// always-loaded part (learning.AlwaysLoaded), "" when the file is
	// missing, malformed or has nothing to load.
	GlobalPath, Global string
	// Problems are what could not be read (a malformed global file, a
	// corrupt state): the hook logs each and goes on without it.
	Problems []error
}

// StartContext reads what a session starts with from synthesis at now.
// room bounds the always-loaded part in tokens (bytes/4), below the
// settings' AlwaysLoadedTokens; 0 is no bound but the setting's. It never
// fails: what it cannot read is left out and named in Problems.
func (t Transcripts) StartContext(now time.Time, room int) StartContext {
	var c StartContext
	due, err := SynthesisDue(t, now)
	if err != nil {
		c.Problems = append(c.Problems, fmt.Errorf("synthesis due check: %w", err))
	}
	c.Due = due
	c.GlobalPath, _ = t.Folder.Path(learning.GlobalFileName)
	b, err := t.Folder.ReadFileMax(learning.GlobalFileName, synthesis.MaxHookRead)
	if errors.Is(err, fs.ErrNotExist) {
		return c
	}
	if err != nil {
		c.Problems = append(c.Problems, err)
		return c
	}
	s, err := t.Folder.Settings()
	if err != nil {
		c.Problems = append(c.Problems, err) // the defaults stand in
	}
	tokens := s.Synthesis.AlwaysLoadedTokens
	if room > 0 {
		tokens = min(tokens, room)
	}
	err = failOpen(func() error {
		g, err := learning.ParseFile(learning.GlobalFile, learning.GlobalFileName, "", string(b))
		if err == nil {
			c.Global = strings.TrimSpace(learning.AlwaysLoaded(g, tokens))
		}
		return err
	})
	if err != nil {
		c.Problems = append(c.Problems, fmt.Errorf("%s left out of the session's start: %w", filepath.Base(c.GlobalPath), err))
	}
	return c
}

// failOpen runs f, turning a panic into its error: a hand-edited file
// that trips the parser must cost the hook that part of its answer, not
// the answer (the primer, the memories). The error names the panic, and
// the caller logs it.
func failOpen(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}
