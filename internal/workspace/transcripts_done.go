package workspace

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// DoneResult is what MarkDone did for one day.
type DoneResult struct {
	Date   string `json:"date"`
	Marked int    `json:"marked"` // messages marked processed
	// Transcripts counts the transcripts that held the day's content.
	Transcripts int      `json:"transcripts"`
	Left        int      `json:"still_pending"` // messages that arrived after the last extract
	Archived    []string `json:"archived,omitempty"`
}

// MarkDone marks the pending content of each date processed: what Extract
// showed of it, or everything there is when it was never extracted. With
// archive set (an absolute folder), the transcripts holding content of a
// date are first copied into archive/DATE/. It refuses a state whose days
// were counted in another time zone.
func (t Transcripts) MarkDone(ctx context.Context, dates []string, archive string, r Report) ([]DoneResult, error) {
	if err := t.NeedHome(r); err != nil {
		return nil, err
	}
	st, unlock, err := t.LockState(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return t.markDoneLocked(ctx, st, dates, archive, nil, r)
}

// markDoneLocked is MarkDone for a caller that holds the lock and loaded
// st, reading only the transcripts at paths (nil: all of them).
func (t Transcripts) markDoneLocked(ctx context.Context, st *sessions.State, dates []string, archive string, paths []string, r Report) ([]DoneResult, error) {
	if err := t.ZoneConflict(st); err != nil {
		return nil, err
	}
	scans := t.readPendingOf(ctx, st, paths, r)
	var (
		results []DoneResult
		moved   []sessions.Advance
		err     error
	)
	for _, date := range dates {
		res := DoneResult{Date: date}
		if archive != "" {
			if res.Archived, err = archiveDay(archive, date, t.Roots, sessions.Pending(scans, t.Loc, date)); err != nil {
				return nil, err
			}
		}
		for _, d := range sessions.Pending(scans, t.Loc, date) {
			res.Transcripts += transcriptsOf(d)
		}
		n, mv := sessions.MarkDone(st, scans, date, t.Loc)
		res.Marked, moved = n, append(moved, mv...)
		for _, d := range sessions.Pending(scans, t.Loc, date) {
			res.Left += d.Messages
		}
		results = append(results, res)
	}
	for _, mv := range moved {
		m, err := sessions.MarkAt(mv.Path, mv.Offset, mv.Line)
		if err != nil {
			return nil, err
		}
		st.Transcripts[mv.Path].Cursor = m
		st.Transcripts[mv.Path].Reset = ""
	}
	if err := t.Folder.WriteJSON(sessions.StateFile, st); err != nil {
		return nil, err
	}
	return results, nil
}

// archiveDay copies the transcripts holding content of date into
// dir/date/, atomically each, at their path under <home>/projects (Codex
// rollouts under codex/, at theirs under <CODEX_HOME>/sessions).
func archiveDay(dir, date string, roots sessions.Roots, days []sessions.Day) ([]string, error) {
	var done []string
	for _, d := range days {
		for _, s := range d.Sessions {
			if slices.Contains(done, s.Path) {
				continue
			}
			data, err := readTranscript(s.Path)
			if err != nil {
				return done, err
			}
			to := filepath.Join(dir, date, archivePath(roots, s))
			if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
				return done, err
			}
			if err := atomicfile.WriteFile(to, data, 0o600); err != nil {
				return done, err
			}
			done = append(done, s.Path)
		}
	}
	return done, nil
}

// archivePath is where a transcript goes in a day's archive folder: its
// path under the folder it was found in.
func archivePath(roots sessions.Roots, s sessions.DaySession) string {
	base, prefix := filepath.Join(roots.Claude, "projects"), ""
	if s.Dialect == transcript.Codex {
		base, prefix = filepath.Join(roots.Codex, "sessions"), "codex"
	}
	rel, err := filepath.Rel(base, s.Path)
	if err != nil || !filepath.IsLocal(rel) {
		rel = filepath.Base(s.Path)
	}
	return filepath.Join(prefix, rel)
}

// readTranscript reads a whole transcript for the archive, refusing
// anything but a regular file without blocking on it.
func readTranscript(path string) ([]byte, error) {
	fh, err := sessions.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return io.ReadAll(fh)
}
