package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/sessions"
)

// DraftSource says which finished session to draft a diary entry from: a
// session id (looked up among the agents' transcripts) or a transcript
// file (relative to Env.Cwd).
type DraftSource struct {
	Session    string
	Transcript string
	DryRun     bool // draft, write nothing
	Force      bool // draft even when a diary of the session exists
}

// ErrSessionHasDiary is what Draft returns, wrapped with the session and
// its diary, for a session that already has a diary (unless Force): the
// session-end hook's "nothing to do".
var ErrSessionHasDiary = errors.New("already has a diary")

// Draft drafts a diary entry from a finished session's transcript
// (diary.DraftFrom) and writes it as a draft, for a person or the agent to
// accept. An entry with nothing in it is not written: DiaryWritten.Nothing
// says so. A session that already has a diary is refused unless Force:
// errors.Is(err, ErrSessionHasDiary).
func (d *Diaries) Draft(ctx context.Context, src DraftSource, now time.Time) (DiaryWritten, diary.Entry, error) {
	path, err := d.transcriptPath(src)
	if err != nil {
		return DiaryWritten{}, diary.Entry{}, err
	}
	sess, _, _, err := sessions.ReadFrom(sessions.File{Path: path}, sessions.Mark{})
	if err != nil {
		return DiaryWritten{}, diary.Entry{}, hint.With(err, "give the path of a readable transcript (.jsonl)")
	}
	if len(sess.Messages) == 0 {
		return DiaryWritten{Nothing: "nothing to draft: the transcript holds no conversation"}, diary.Entry{}, nil
	}
	date := now
	if !sess.End.IsZero() {
		date = sess.End
	}
	e := diary.DraftFrom(sess, diary.DraftOptions{Project: d.projectOf(sess.CWD), Date: date.In(time.Local).Format(time.DateOnly)})
	e.Status = diary.StatusDraft
	if e.Session == "" {
		e.Session = sess.ID
	}
	if !hasLines(e) {
		return DiaryWritten{Nothing: "nothing to draft: the session shows no failure, retry or fix to learn from"}, e, nil
	}
	if !src.Force && e.Session != "" {
		if stem, err := d.sessionDiary(e.Session); err != nil || stem != "" {
			if err != nil {
				return DiaryWritten{}, e, err
			}
			return DiaryWritten{}, e, hint.With(fmt.Errorf("session %s %w: %s", e.Session, ErrSessionHasDiary, stem),
				"see it with 'memdir diary show %s'; add --force to draft another", stem)
		}
	}
	if src.DryRun {
		e, found, err := d.prepare(e, "", now)
		if err != nil {
			return DiaryWritten{}, e, err
		}
		stem := d.freeStem(diary.Stem(e))
		p, _ := d.Folder.DiaryPath(stem)
		w := d.written(stem, p, found, e)
		w.DryRun, w.FromTranscript = true, true
		return w, e, nil
	}
	w, err := d.Write(ctx, e, "", now)
	w.FromTranscript = err == nil
	return w, e, err
}

func hasLines(e diary.Entry) bool {
	for _, s := range e.Sections {
		if len(s.Items) > 0 {
			return true
		}
	}
	return false
}

// projectOf names the project a session ran in: its root's folder name,
// or the current project's when the session does not say.
func (d *Diaries) projectOf(cwd string) string {
	if cwd == "" {
		return d.Project()
	}
	env := d.Env
	env.ProjectFlag = cwd
	if l, err := env.Layout(); err == nil {
		return diaryProject(l.ProjectRoot)
	}
	return diaryProject(cwd)
}

// sessionDiary returns the stem of a diary of session, or "".
func (d *Diaries) sessionDiary(session string) (string, error) {
	files, err := d.Folder.Diaries()
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if f.Err != nil || !bytes.Contains(f.Data, []byte(session)) {
			continue
		}
		if e, err := diary.Parse(f.Stem, f.Data); err == nil && e.Session == session {
			return f.Stem, nil
		}
	}
	return "", nil
}

// transcriptPath finds the transcript src names.
func (d *Diaries) transcriptPath(src DraftSource) (string, error) {
	switch {
	case src.Session != "" && src.Transcript != "":
		return "", hint.With(errors.New("--session and --transcript go separately"), "give one of them")
	case src.Transcript != "":
		file := src.Transcript
		if !filepath.IsAbs(file) {
			file = filepath.Join(d.Env.Cwd, file)
		}
		fi, err := os.Stat(file)
		if err == nil && !fi.Mode().IsRegular() {
			err = &sessions.NotRegularError{Path: file, Mode: fi.Mode()}
		}
		if err != nil {
			return "", hint.With(err, "give the path of a transcript (.jsonl); Claude Code keeps them in ~/.claude/projects/<project>/")
		}
		return file, nil
	case src.Session == "":
		return "", hint.With(errors.New("no session given"), "give --session ID or --transcript FILE")
	}
	t, err := d.Env.TranscriptsAt(d.Layout)
	if err != nil {
		return "", err
	}
	files, _ := sessions.Discover(t.Roots)
	var found string
	for _, f := range files {
		if f.Agent != "" {
			continue // a subagent's transcript: the session's own is the task
		}
		if f.SessionID == src.Session || strings.TrimSuffix(filepath.Base(f.Path), ".jsonl") == src.Session {
			return f.Path, nil
		}
		if found == "" && strings.Contains(filepath.Base(f.Path), src.Session) {
			found = f.Path
		}
	}
	if found == "" {
		return "", hint.With(fmt.Errorf("no transcript of session %s", src.Session),
			"a session id is a transcript's file name without .jsonl (~/.claude/projects/<project>/); 'memdir search --transcripts' shows them, or give --transcript FILE")
	}
	return found, nil
}
