package workspace

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/sessions"
)

// Report is how a use case tells its front end what happens while it
// runs. A nil field does nothing.
type Report struct {
	// Warn gets each warning, one line without a prefix.
	Warn func(msg string)
	// Progress starts counting a long read of files; it returns the
	// function that counts each file done and the one that ends the count.
	Progress func(what string, files []sessions.File) (add func(size int64), stop func())
}

func (r Report) warnf(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(fmt.Sprintf(format, args...))
	}
}

func (r Report) progress(what string, files []sessions.File) (add func(int64), stop func()) {
	if r.Progress == nil {
		return nil, func() {}
	}
	return r.Progress(what, files)
}

// Day reads a day as the transcript commands take it: YYYY-MM-DD, today
// or yesterday, in t's zone.
func (t Transcripts) Day(s string) (string, error) {
	d, err := sessions.ParseDay(s, t.Loc, time.Now())
	if err != nil {
		return "", hint.With(err, "write dates as YYYY-MM-DD (or today, yesterday)")
	}
	return d, nil
}

// WarnHome warns about what HomeGap finds, for the use cases that only read.
func (t Transcripts) WarnHome(r Report) {
	if msg, _ := t.HomeGap(); msg != "" {
		r.warnf("%s", msg)
	}
}

// NeedHome is WarnHome for the use cases that write the state there: when
// the home does not exist and no transcript was found elsewhere (Codex's),
// it returns an error rather than create the home.
func (t Transcripts) NeedHome(r Report) error {
	msg, noHome := t.HomeGap()
	if msg == "" {
		return nil
	}
	if noHome {
		if files, _ := sessions.Discover(t.Roots); len(files) == 0 {
			return hint.With(errors.New(msg), "check --home (or MEMDIR_HOME); 'memdir where' shows the agent home in use")
		}
	}
	r.warnf("%s", msg)
	return nil
}

// ReadPending discovers the transcripts and reads each from its cursor in
// st, warning about unreadable files, resets and skipped lines.
func (t Transcripts) ReadPending(ctx context.Context, st *sessions.State, r Report) []sessions.Scan {
	return t.readPendingOf(ctx, st, nil, r)
}

// readPendingOf is ReadPending of the transcripts at paths only (nil: all).
func (t Transcripts) readPendingOf(ctx context.Context, st *sessions.State, paths []string, r Report) []sessions.Scan {
	files, errs := sessions.Discover(t.Roots)
	for _, err := range errs {
		r.warnf("%v", err)
	}
	if paths != nil {
		files = slices.DeleteFunc(files, func(f sessions.File) bool { return !slices.Contains(paths, f.Path) })
	}
	add, stop := r.progress("reading transcripts", files)
	scans := sessions.ReadPending(ctx, files, st, sessions.ReadOptions{Progress: add})
	stop()
	for _, sc := range scans {
		if sc.Err != nil {
			r.warnf("%v", sc.Err)
		}
		if sc.Reset != "" {
			r.warnf("%s %s", sc.File.Path, sc.Reset)
		}
		if sc.Session != nil && len(sc.Session.Skipped) > 0 {
			s := sc.Session.Skipped[0]
			r.warnf("%s: skipped %d unusable line(s), the first at line %d (byte %d): %s",
				sc.File.Path, len(sc.Session.Skipped), s.Line, s.Offset, s.Reason)
		}
	}
	return scans
}

// PendingDay is a day with conversation not yet marked done.
type PendingDay struct {
	Date     string   `json:"date"`
	Sessions int      `json:"sessions"`
	Messages int      `json:"messages"`
	Projects []string `json:"projects"` // the projects' folder names
}

// PendingDays summarises the days with pending content. It writes
// nothing; a state counted in another zone is a warning.
func (t Transcripts) PendingDays(ctx context.Context, r Report) ([]PendingDay, error) {
	st, err := t.LoadState()
	if err != nil {
		return nil, err
	}
	if err := t.ZoneConflict(st); err != nil {
		r.warnf("%v; the pending days may be off: %s", err, hint.Of(err))
	}
	days := sessions.Pending(t.ReadPending(ctx, st, r), t.Loc)
	out := make([]PendingDay, 0, len(days))
	for _, d := range days {
		p := PendingDay{Date: d.Date, Sessions: len(d.Sessions), Messages: d.Messages, Projects: []string{}}
		for _, s := range d.Sessions {
			if name := filepath.Base(s.CWD); s.CWD != "" && !slices.Contains(p.Projects, name) {
				p.Projects = append(p.Projects, name)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// WritePending writes days as 'memdir transcripts list-pending' prints
// them, each line after indent.
func WritePending(w io.Writer, days []PendingDay, indent string) error {
	if len(days) == 0 {
		_, err := fmt.Fprintf(w, "%sNo pending transcripts.\n", indent)
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%sPending transcript days:\n", indent)
	for _, d := range days {
		fmt.Fprintf(bw, "%s  %s  %s, %s", indent, d.Date, sessions.Plural(d.Sessions, "session"), sessions.Plural(d.Messages, "message"))
		if len(d.Projects) > 0 {
			fmt.Fprintf(bw, "  (%s)", strings.Join(d.Projects, ", "))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// ProjectsIndex brings the summaries in st up to date and builds the
// projects index from them; it also returns how many transcripts name no
// working directory.
func (t Transcripts) ProjectsIndex(ctx context.Context, st *sessions.State, r Report) (sessions.ProjectsIndex, int) {
	files, errs := sessions.Discover(t.Roots)
	for _, err := range errs {
		r.warnf("%v", err)
	}
	add, stop := r.progress("indexing transcripts", files)
	errs = sessions.UpdateSummaries(ctx, files, st, t.Loc, sessions.ReadOptions{Progress: add})
	stop()
	for _, err := range errs {
		r.warnf("%v", err)
	}
	return sessions.BuildIndex(st, time.Now())
}

// LoadProjectsIndex computes the projects index from the transcripts, up
// to date, without writing anything: the cached summaries in the state
// make this read only what is new since BuildIndex ran.
func (t Transcripts) LoadProjectsIndex(ctx context.Context, r Report) (sessions.ProjectsIndex, error) {
	st, err := t.LoadState()
	if err != nil {
		return sessions.ProjectsIndex{}, err
	}
	ix, _ := t.ProjectsIndex(ctx, st, r)
	return ix, nil
}

// BuildIndex brings the cached summaries up to date and writes them and
// the projects index (sessions.IndexFile) into the synthesis folder.
func (t Transcripts) BuildIndex(ctx context.Context, r Report) (sessions.ProjectsIndex, error) {
	if err := t.NeedHome(r); err != nil {
		return sessions.ProjectsIndex{}, err
	}
	st, unlock, err := t.LockState(ctx)
	if err != nil {
		return sessions.ProjectsIndex{}, err
	}
	defer unlock()
	ix, unplaced := t.ProjectsIndex(ctx, st, r)
	if err := t.Folder.WriteJSON(sessions.StateFile, st); err != nil {
		return ix, err
	}
	if err := t.Folder.WriteJSON(sessions.IndexFile, ix); err != nil {
		return ix, err
	}
	if unplaced > 0 {
		r.warnf("%s name no working directory and are left out", sessions.Plural(unplaced, "transcript"))
	}
	return ix, nil
}
