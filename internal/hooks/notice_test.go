package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/workspace"
)

// writeNotices puts raw as the session's notices file, as an extraction
// run would have appended it.
func (h *home) writeNotices(t *testing.T, session, raw string) string {
	t.Helper()
	p := filepath.Join(h.agent, "memory", filepath.FromSlash(workspace.NoticeFile(session)))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// contextOf is the additionalContext of a prompt's answer; "" for none.
func contextOf(t *testing.T, answer string) string {
	t.Helper()
	if answer == "" {
		return ""
	}
	var out hooks.Output
	if err := json.Unmarshal([]byte(answer), &out); err != nil || out.HookSpecificOutput == nil {
		t.Fatalf("answer %q: %v", answer, err)
	}
	return out.HookSpecificOutput.AdditionalContext
}

// TestRunner_PromptNotice: what extraction saved from a session is told at
// its next prompt, first and once, with or without memories recalled; a
// notices file that cannot be read is dropped and the answer is given.
func TestRunner_PromptNotice(t *testing.T) {
	const saved = `{"time":"2026-11-25T13:59:00Z","saved":["run-linters.md","use-pnpm.md"],"updated":[],"superseded":[]}` + "\n" +
		`{"time":"2026-11-25T13:59:30Z","saved":[],"updated":["deploy-freeze.md"],"superseded":[]}` + "\n"
	for _, tc := range []struct {
		name     string
		memories bool
		prompt   string
		raw      string
		line     bool // the answer starts with the notice
		recalled bool // and a memory follows
	}{
		{name: "no memories recalled", prompt: "hello there", raw: saved, line: true},
		{name: "before what recall gives", memories: true, prompt: "should the integration tests mock PostgreSQL?", raw: saved, line: true, recalled: true},
		{name: "corrupt", memories: true, prompt: "should the integration tests mock PostgreSQL?", raw: "{\"saved\":[\"x.md\"\x00garbage\n\xff\xfe", recalled: true},
		{name: "over the bound", memories: true, prompt: "should the integration tests mock PostgreSQL?",
			raw: strings.Repeat(`{"saved":["x.md"]}`+"\n", workspace.MaxNoticeRead/10), recalled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			if tc.memories {
				h.saveTwo(t)
			}
			p := h.writeNotices(t, "s1", tc.raw)
			prompt := func(id string) string {
				return contextOf(t, h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt_id": id, "prompt": tc.prompt}))
			}
			first := prompt("p1")
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("the notices file stayed: %v", err)
			}
			const start = "memdir saved memories from this session (new: run-linters.md, use-pnpm.md; updated: deploy-freeze.md); undo with 'memdir forget NAME'"
			if got := strings.HasPrefix(first, start); got != tc.line {
				t.Errorf("notice line given %v, want %v:\n%s", got, tc.line, first)
			}
			if tc.line && strings.Count(strings.SplitN(first, "<memdir-recall>", 2)[0], "\n") > 2 {
				t.Errorf("the notice is more than one line:\n%s", first)
			}
			if got := strings.Contains(first, "<memdir-recall>"); got != tc.recalled {
				t.Errorf("recalled %v, want %v:\n%s", got, tc.recalled, first)
			}
			if again := prompt("p2"); strings.Contains(again, "memdir saved") {
				t.Errorf("the notice was given twice:\n%s", again)
			}
			lines := recallLines(t, h)
			if len(lines) != 2 || lines[0].Notice != tc.line || lines[1].Notice {
				t.Errorf("recall.jsonl: %+v", lines)
			}
			if tc.line && (lines[0].Tokens != 0) != tc.recalled {
				t.Errorf("the notice counts as recalled tokens: %+v", lines[0])
			}
		})
	}
}
