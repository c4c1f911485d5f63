package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hooks"
)

// goNilMap is a Claude Code session that failed a test, fixed it and saw
// it pass (internal/diary's fixture), and its session id.
const (
	goNilMap        = "go-nil-map.jsonl"
	goNilMapSession = "0b7e2c1a-5d4f-4e8a-9c31-7f2a6b8d9e01"
	readOnly        = "read-only.jsonl"
	readOnlySession = "3f4e5d6c-7b8a-4d9e-a0b1-c2d3e4f5a614"
)

// transcriptFixture copies internal/diary's fixture name into a temp
// folder and returns its path.
func transcriptFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "diary", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// autoDraft writes diary.autoDraft into the synthesis folder's
// settings.json.
func (h *home) autoDraft(t *testing.T, on string) {
	t.Helper()
	dir := filepath.Join(h.agent, "memory")
	os.MkdirAll(dir, 0o700)
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"diary": {"autoDraft": `+on+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
}

// diaries reads the diaries the hook wrote, by file name.
func (h *home) diaries(t *testing.T) map[string]diary.Entry {
	t.Helper()
	dir := filepath.Join(h.agent, "memory", "diaries")
	entries, _ := os.ReadDir(dir)
	out := map[string]diary.Entry{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		d, err := diary.Parse(e.Name(), b)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = d
	}
	return out
}

// TestRunner_SessionEndDraftsADiary: with diary.autoDraft on, a SessionEnd
// drafts a diary from the session's transcript, once a session; off (the
// default), or for a session with no tool work to learn from, nothing.
func TestRunner_SessionEndDraftsADiary(t *testing.T) {
	end := func(t *testing.T, h *home, session, transcript string) {
		t.Helper()
		if out := h.event(t, hooks.SessionEnd, map[string]string{"session_id": session, "transcript_path": transcript}); out != "" {
			t.Errorf("stdout: %q", out)
		}
	}
	t.Run("on", func(t *testing.T) {
		h := newHome(t)
		h.env[hooks.ExtractSwitch] = "off"
		h.autoDraft(t, "true")
		p := transcriptFixture(t, goNilMap)
		end(t, h, goNilMapSession, p)
		got := h.diaries(t)
		if len(got) != 1 {
			t.Fatalf("diaries: %v", got)
		}
		for name, e := range got {
			if !strings.HasPrefix(name, "2026-11-24-add-a-count-method") || !e.Draft() || e.Source != diary.SourceTranscript ||
				e.Session != goNilMapSession || len(e.Items(diary.Errors)) == 0 || len(e.Items(diary.Worked)) == 0 {
				t.Errorf("%s: %+v", name, e)
			}
		}
		h.noFailures(t)
		// The session's end again (a resumed session ending): no second draft.
		end(t, h, goNilMapSession, p)
		if got := h.diaries(t); len(got) != 1 {
			t.Errorf("a second draft of one session: %v", got)
		}
		h.noFailures(t)
	})
	for _, on := range []string{"", "false"} {
		t.Run("off "+on, func(t *testing.T) {
			h := newHome(t)
			h.env[hooks.ExtractSwitch] = "off"
			if on != "" {
				h.autoDraft(t, on)
			}
			end(t, h, goNilMapSession, transcriptFixture(t, goNilMap))
			if got := h.diaries(t); len(got) != 0 {
				t.Errorf("drafted while off: %v", got)
			}
			h.noFailures(t)
		})
	}
	t.Run("no tool work to learn from", func(t *testing.T) {
		h := newHome(t)
		h.env[hooks.ExtractSwitch] = "off"
		h.autoDraft(t, "true")
		end(t, h, readOnlySession, transcriptFixture(t, readOnly))
		if got := h.diaries(t); len(got) != 0 {
			t.Errorf("drafted a read-only session: %v", got)
		}
		h.noFailures(t)
	})
}

// TestRunner_SessionEndDraftFailsOpen: a transcript that is not JSON, one
// that is a folder, one too long to draft, and a settings.json that does
// not parse leave stdout empty and no diary; what went wrong is a line in
// hooks.log, and the session is still queued.
func TestRunner_SessionEndDraftFailsOpen(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings string
		make     func(t *testing.T) string
		wantLog  string // "" for no line
	}{
		{name: "not JSON", make: func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			os.WriteFile(p, []byte("\x00\xff garbage {{{\nnot json either\n"), 0o600)
			return p
		}},
		{name: "a folder", make: func(t *testing.T) string { return t.TempDir() }, wantLog: "diary draft: "},
		{name: "too long", make: func(t *testing.T) string {
			p := transcriptFixture(t, goNilMap)
			if err := os.Truncate(p, hooks.MaxDraftTranscript+1); err != nil {
				t.Fatal(err)
			}
			return p
		}, wantLog: "over the 8 MB a session's end drafts from: run 'memdir diary draft --transcript "},
		{name: "settings not JSON", settings: "{", make: func(t *testing.T) string { return transcriptFixture(t, goNilMap) }, wantLog: "diary draft: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			h.env[hooks.ExtractSwitch] = "off"
			if tc.settings != "" {
				os.MkdirAll(filepath.Join(h.agent, "memory"), 0o700)
				os.WriteFile(filepath.Join(h.agent, "memory", "settings.json"), []byte(tc.settings), 0o600)
			} else {
				h.autoDraft(t, "true")
			}
			p := tc.make(t)
			if out := h.event(t, hooks.SessionEnd, map[string]string{"session_id": "s1", "transcript_path": p}); out != "" {
				t.Errorf("stdout: %q", out)
			}
			if got := h.diaries(t); len(got) != 0 {
				t.Errorf("diaries: %v", got)
			}
			if q := h.file(t, hooks.ExtractQueue); !strings.Contains(q, `"session_id":"s1"`) {
				t.Errorf("the session was not queued: %q", q)
			}
			log := h.file(t, hooks.LogFile)
			switch {
			case tc.wantLog == "" && log != "":
				t.Errorf("hooks.log: %q", log)
			case tc.wantLog != "" && (strings.Count(log, "\n") != 1 || !strings.Contains(log, `SessionEnd session="s1" `) || !strings.Contains(log, tc.wantLog)):
				t.Errorf("hooks.log:\n got %q\nwant one line with %q", log, tc.wantLog)
			}
		})
	}
}
