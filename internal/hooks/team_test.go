package hooks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// saveTeam saves a memory in the project's team folder, by Ana.
func (h *home) saveTeam(t *testing.T, name, description, body string) {
	t.Helper()
	h.env["MEMDIR_AUTHOR"] = "Ana"
	ws, err := workspace.Open(h.wsEnv(), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Save(context.Background(), workspace.SaveRequest{Type: "project", Name: name, Description: description, Body: body, Scope: memdir.ScopeTeam}); err != nil {
		t.Fatal(err)
	}
}

// TestRunner_Team: SessionStart lists the team memories from the files
// (not the team folder's MEMORY.md), and a prompt gets the team memory
// named team/<file>, once a session.
func TestRunner_Team(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	h.saveTeam(t, "Deploy checklist", "Every deploy goes through the staging checklist", "Run make deploy-check on staging.")
	os.Remove(filepath.Join(h.project, ".memdir", "team", memdir.IndexFile))
	got := h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"})
	for _, want := range []string{"memdir: 2 memories for this project", "memdir: 1 team memory for this project, shared with the team through git in .memdir/team",
		"- Deploy checklist (team/deploy-checklist.md) — Every deploy goes through the staging checklist; by Ana"} {
		if !strings.Contains(got, want) {
			t.Fatalf("SessionStart lacks %q:\n%s", want, got)
		}
	}
	prompt := map[string]string{"session_id": "s1", "prompt": "what is the staging deploy checklist?"}
	if got = h.event(t, hooks.UserPromptSubmit, prompt); !strings.Contains(got, "team · team/deploy-checklist.md · by Ana") {
		t.Fatalf("prompt:\n%s", got)
	}
	if !strings.Contains(h.file(t, hooks.RecallLog), `"files":["team/deploy-checklist.md"]`) {
		t.Fatalf("recall log:\n%s", h.file(t, hooks.RecallLog))
	}
	if got = h.event(t, hooks.UserPromptSubmit, prompt); strings.Contains(got, "deploy-checklist") {
		t.Fatalf("given twice:\n%s", got)
	}
	h.noFailures(t)
}

// TestTeamSection: at most TeamLines lines and TeamBytes bytes, then how
// many more; nothing without team memories.
func TestTeamSection(t *testing.T) {
	if got := hooks.TeamSection(nil, 0); got != "" {
		t.Fatalf("none: %q", got)
	}
	var list []workspace.TeamMemory
	for i := range 60 {
		list = append(list, workspace.TeamMemory{File: fmt.Sprintf("team/m%02d.md", i), Name: fmt.Sprintf("Memory %d", i), Description: "what it is for", Author: "Ana"})
	}
	got := hooks.TeamSection(list, 75)
	if n := strings.Count(got, "\n- "); n != hooks.TeamLines {
		t.Fatalf("%d lines listed, want %d:\n%s", n, hooks.TeamLines, got)
	}
	if !strings.HasSuffix(got, "… and 35 more: `memdir list --scope team` lists them all.") {
		t.Fatalf("end:\n%s", got)
	}
	long := strings.Repeat("word ", 30)
	for i := range list {
		list[i].Description = long
	}
	got = hooks.TeamSection(list[:40], 40)
	if len(got) > hooks.TeamBytes+200 || !strings.Contains(got, "more: `memdir list --scope team`") {
		t.Fatalf("%d bytes:\n%s", len(got), got)
	}
}
