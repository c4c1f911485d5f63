package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/workspace"
)

// MaxDraftTranscript bounds the transcript a SessionEnd drafts a diary
// from: drafting reads it whole (≈50 ms a MB measured), and the plugin
// gives SessionEnd 2 s. A longer session is drafted by hand with
// 'memdir diary draft --session ID'.
const MaxDraftTranscript = 8 << 20

// draftLockWait bounds the wait for the synthesis folder's lock of the
// draft's write: a busy folder leaves the session undrafted.
const draftLockWait = time.Second

// draftDiary is the session-end diary draft, when diary.autoDraft is set
// in settings.json: workspace.Diaries.Draft on the session's transcript,
// written as a draft unless the session already has a diary, and nothing
// when the session shows no tool work to learn from (no failure, retry or
// fix). It runs after the rest of SessionEnd and fails open: a problem is
// a line in LogFile, never the hook's failure.
func (h *hook) draftDiary() {
	t, err := h.transcripts()
	if err != nil {
		return // the queue logged it
	}
	if t.Layout.Disabled && strings.HasPrefix(t.Layout.DisabledWhy, "MEMDIR_DISABLE") {
		return
	}
	s, err := t.Folder.Settings()
	if err != nil {
		h.logProblem(fmt.Errorf("diary draft: %w", err))
		return
	}
	path := h.in.TranscriptPath
	if !s.Diary.AutoDraft || path == "" || !filepath.IsAbs(path) {
		return
	}
	if err := h.draft(path); err != nil {
		h.logProblem(fmt.Errorf("diary draft: %w", err))
	}
}

// draft drafts the diary of the transcript at path, unless it is too long
// or the session has a diary.
func (h *hook) draft(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Size() > MaxDraftTranscript {
		return fmt.Errorf("%s is %d MB, over the %d MB a session's end drafts from: run 'memdir diary draft --transcript %s'",
			path, fi.Size()>>20, MaxDraftTranscript>>20, path)
	}
	d, err := workspace.OpenDiaries(h.Env)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(h.ctx, draftLockWait)
	defer cancel()
	_, _, err = d.Draft(ctx, workspace.DraftSource{Transcript: path}, h.Now())
	if errors.Is(err, workspace.ErrSessionHasDiary) {
		return nil // drafted at an earlier end of the session, or written by the agent
	}
	return err
}
