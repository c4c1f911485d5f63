package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
	"github.com/memdir/memdir/internal/workspace"
)

// at runs hooks at clock plus d.
func at(d time.Duration) hooks.Runner {
	return hooks.Runner{Now: func() time.Time { return clock.Add(d) }}
}

// usageOf reads the project's usage file.
func (h *home) usageOf(t *testing.T) usage.File {
	t.Helper()
	ws, err := workspace.Open(h.wsEnv(), false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ws.Store.ReadSide(memdir.UsageFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := usage.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRunner_SessionEndFoldsUsage: the recall lines of the project's
// prompts are counted in the memory folder's usage file at a SessionEnd,
// before the recall log is rotated, once.
func TestRunner_SessionEndFoldsUsage(t *testing.T) {
	h := newHome(t)
	h.env[hooks.ExtractSwitch] = "off"
	h.saveTwo(t)
	const db = "integration-tests-hit-a-real-database.md"
	for _, s := range []string{"s1", "s2"} {
		if out := h.eventWith(t, at(0), hooks.UserPromptSubmit, map[string]string{"session_id": s, "prompt": "should the integration tests mock PostgreSQL?"}); !strings.Contains(out, db) {
			t.Fatalf("the prompt did not recall %s:\n%s", db, out)
		}
	}
	h.eventWith(t, at(0), hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "write a haiku about autumn leaves"})
	// The log is past its limit: this SessionEnd rotates it, after the fold.
	log := filepath.Join(h.agent, "memory", hooks.RecallLog)
	f, _ := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(strings.Repeat(`{"time":"2026-11-25T13:00:00Z","project":"/elsewhere","files":["x.md"]}`+"\n", hooks.RecallLogLimit/70))
	f.Close()

	h.eventWith(t, at(time.Minute), hooks.SessionEnd, map[string]string{"session_id": "s1"})
	if _, err := os.Stat(log + ".1"); err != nil {
		t.Fatalf("the recall log was not rotated: %v", err)
	}
	u := h.usageOf(t)
	if r := u.Memories[db]; r.Injected != 2 || !r.LastInjected.Equal(clock) {
		t.Errorf("%s: %+v, want 2 injections at %v", db, r, clock)
	}
	if len(u.Memories) != 1 || !u.FoldedUntil.Equal(clock.Add(time.Minute-workspace.UsageSettle)) {
		t.Errorf("usage file: %+v", u)
	}
	// Another SessionEnd reads the rotated log again: nothing is counted twice.
	h.eventWith(t, at(2*time.Minute), hooks.SessionEnd, map[string]string{"session_id": "s2"})
	if r := h.usageOf(t).Memories[db]; r.Injected != 2 {
		t.Errorf("after a second SessionEnd: %+v", r)
	}
	h.noFailures(t)
}

// TestRunner_SessionEndUsageFailsOpen: a corrupt usage file is kept aside
// and said in the hooks log; a locked memory folder leaves the fold to a
// later session, and the log is still rotated.
func TestRunner_SessionEndUsageFailsOpen(t *testing.T) {
	h := newHome(t)
	h.env[hooks.ExtractSwitch] = "off"
	h.env["MEMDIR_LOCK_TIMEOUT"] = "100ms"
	h.saveTwo(t)
	ws, err := workspace.Open(h.wsEnv(), false)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ws.Store.Path(memdir.UsageFile), []byte("not json"), 0o600)
	h.eventWith(t, at(0), hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "can we deploy on friday?"})
	h.eventWith(t, at(time.Minute), hooks.SessionEnd, map[string]string{"session_id": "s1"})
	if log := h.file(t, hooks.LogFile); !strings.Contains(log, "usage: the usage file could not be read; kept as") {
		t.Errorf("hooks.log:\n%s", log)
	}
	if r := h.usageOf(t).Memories["deploy-freeze.md"]; r.Injected != 1 {
		t.Errorf("the fresh usage file: %+v", r)
	}

	os.Remove(filepath.Join(h.agent, "memory", hooks.LogFile))
	h.eventWith(t, at(2*time.Minute), hooks.UserPromptSubmit, map[string]string{"session_id": "s2", "prompt": "can we deploy on friday?"})
	big := filepath.Join(h.agent, "memory", hooks.RecallLog)
	f, _ := os.OpenFile(big, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(strings.Repeat("z", hooks.RecallLogLimit) + "\n")
	f.Close()
	release, err := ws.Store.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	h.eventWith(t, at(3*time.Minute), hooks.SessionEnd, map[string]string{"session_id": "s2"})
	release()
	if log := h.file(t, hooks.LogFile); !strings.Contains(log, "SessionEnd") || !strings.Contains(log, "usage: ") {
		t.Errorf("a locked folder's fold was not logged:\n%s", log)
	}
	if _, err := os.Stat(big + ".1"); err != nil {
		t.Errorf("the recall log was not rotated after a failed fold: %v", err)
	}
}
