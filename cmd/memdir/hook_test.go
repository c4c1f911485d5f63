package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/lockfile"
)

// TestHook_SessionStartOverCap: with Claude Code's auto memory off, an
// index over Claude Code's caps is given with its warning kept, within the
// hook's context limit.
func TestHook_SessionStartOverCap(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	mem := filepath.Join(root, "mem")
	os.MkdirAll(project, 0o700)
	os.MkdirAll(mem, 0o700)
	var ix strings.Builder
	for i := range 301 {
		fmt.Fprintf(&ix, "- [Note %03d](note-%03d.md) — %s\n", i, i, strings.Repeat("a fact worth keeping ", 4))
	}
	os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(ix.String()), 0o600)
	env := map[string]string{"HOME": root, "MEMDIR_MEMORY_DIR": mem, "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}
	var out, errb bytes.Buffer
	in := `{"session_id":"s1","hook_event_name":"SessionStart","source":"startup","cwd":"` + project + `"}`
	err := run(context.Background(), []string{"--home", filepath.Join(root, ".claude"), "hook", "SessionStart"},
		sys{stdin: strings.NewReader(in), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }, cwd: project})
	if err != nil {
		t.Fatal(err, errb.String())
	}
	var ans struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	text := ans.HookSpecificOutput.AdditionalContext
	if n := len(utf16.Encode([]rune(text))); n > hooks.ContextCap {
		t.Errorf("%d UTF-16 units, over the %d cap", n, hooks.ContextCap)
	}
	if !strings.Contains(text, "WARNING") || !strings.Contains(text, "Note 000") {
		t.Errorf("the warning or the index is missing:\n%s", text)
	}
}

// hookPrompt runs the UserPromptSubmit hook in-process and returns what it
// injected.
func hookPrompt(t *testing.T, root, project, session, prompt string) string {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": prompt, "cwd": project})
	out, errs, err := runIn(root, project, nil, string(in), "hook", "UserPromptSubmit")
	if err != nil {
		t.Errorf("hook: %v %s", err, errs)
	}
	return out
}

func saveForHook(t *testing.T, root, project string) {
	t.Helper()
	_, errs, err := runIn(root, project, nil, "", "save", "--project", project,
		"--name", "Deploy day", "--description", "we deploy on fridays", "--type", "project", "--body", "Deploys happen on Friday afternoons.")
	if err != nil {
		t.Fatal(err, errs)
	}
}

// TestHook_HeldSessionsLockFailsOpen: a sessions lock held by a stuck
// process delays the hook by the lock's wait, then the hook answers anyway.
func TestHook_HeldSessionsLockFailsOpen(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	saveForHook(t, root, project)
	sessions := filepath.Join(root, ".claude", "memory", "sessions")
	os.MkdirAll(sessions, 0o700)
	unlock, err := lockfile.Lock(context.Background(), sessions, lockfile.Options{Timeout: time.Second, Holder: "a stuck test"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if out := hookPrompt(t, root, project, "s1", "when do we deploy?"); !strings.Contains(out, "deploy-day.md") {
		t.Errorf("with the sessions lock held the hook gave nothing: %q", out)
	}
}
