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
)

// TestRunner_TeamForgotten: a team memory back despite its tombstone (a
// stale branch merged) is neither listed at SessionStart nor given on a
// prompt; SessionStart rebuilds the team folder's MEMORY.md a pull left
// behind, after its answer.
func TestRunner_TeamForgotten(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	h.saveTeam(t, "Deploy checklist", "Every deploy goes through the staging checklist", "Run make deploy-check on staging.")
	h.saveTeam(t, "Deploy owner", "Ana owns the deploy pipeline", "Ask Ana.")
	team := filepath.Join(h.project, ".memdir", "team")
	p := filepath.Join(team, "deploy-checklist.md")
	b, _ := os.ReadFile(p)
	bo, err := memdir.Open(team, memdir.Options{Team: true, Author: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bo.Forget(t.Context(), "deploy-checklist.md", true); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, b, 0o644) // the merge of a branch that still had it
	ix := filepath.Join(team, memdir.IndexFile)
	os.Remove(ix) // derived, never committed: a fresh clone has none
	got := h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"})
	if !strings.Contains(got, "1 team memory") || !strings.Contains(got, "team/deploy-owner.md") || strings.Contains(got, "deploy-checklist") {
		t.Fatalf("SessionStart:\n%s", got)
	}
	if b, err := os.ReadFile(ix); err != nil || !strings.Contains(string(b), "deploy-owner.md") {
		t.Fatalf("team MEMORY.md not rebuilt (%v):\n%s", err, b)
	}
	got = h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "what is the staging deploy checklist?"})
	if strings.Contains(got, "deploy-checklist") {
		t.Fatalf("prompt gave the forgotten memory:\n%s", got)
	}
	h.noFailures(t)
}

// TestRunner_PromptTeamOutOfProject: a project with no private folder
// whose team folder cannot be used (it leads out of the project) still
// gets what synthesis learned; the team folder's problem is a line in the
// log.
func TestRunner_PromptTeamOutOfProject(t *testing.T) {
	h := newHome(t)
	h.writeSynth(t, "project-memory/proj-long-term-memory.md", "# proj\n\n## Pinned\n\n## Error Patterns to Avoid\n"+
		"- **Migrations lock the orders table** [proj/error] (2026-11-18): Running the schema migration at noon locked the orders table\n"+
		"  - Lesson: Run orders migrations with lock_timeout set, outside business hours\n\n---\n*Last updated: 2026-11-20*\n")
	elsewhere := filepath.Join(h.root, "elsewhere")
	os.MkdirAll(elsewhere, 0o700)
	os.MkdirAll(filepath.Join(h.project, ".memdir"), 0o700)
	if err := os.Symlink(elsewhere, filepath.Join(h.project, ".memdir", "team")); err != nil {
		t.Fatal(err)
	}
	got := answerText(t, h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "the orders migration locked the table again; how should we run it?"}))
	if !strings.Contains(got, "Migrations lock the orders table") {
		t.Fatalf("synthesis recall lost:\n%s", got)
	}
	if log := h.file(t, hooks.LogFile); !strings.Contains(log, "team memories: ") || !strings.Contains(log, "leads out of the project") {
		t.Fatalf("hooks.log:\n%s", log)
	}
}

// TestRunner_SessionEndFoldsTeamUsage: the recall lines naming team
// memories team/<file> are counted in the team folder's own usage file
// (local, git-ignored), not in the private one.
func TestRunner_SessionEndFoldsTeamUsage(t *testing.T) {
	h := newHome(t)
	h.env[hooks.ExtractSwitch] = "off"
	h.saveTwo(t)
	h.saveTeam(t, "Deploy checklist", "Every deploy goes through the staging checklist", "Run make deploy-check on staging.")
	if out := h.eventWith(t, at(0), hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "what is the staging deploy checklist?"}); !strings.Contains(out, "team/deploy-checklist.md") {
		t.Fatalf("prompt:\n%s", out)
	}
	h.eventWith(t, at(time.Minute), hooks.SessionEnd, map[string]string{"session_id": "s1"})
	b, err := os.ReadFile(filepath.Join(h.project, ".memdir", "team", memdir.UsageFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := usage.Parse(b)
	if err != nil || f.Memories["deploy-checklist.md"].Injected != 1 {
		t.Fatalf("team usage %+v (%v)", f.Memories, err)
	}
	if _, ok := h.usageOf(t).Memories["team/deploy-checklist.md"]; ok {
		t.Fatal("the private usage file counts a team memory")
	}
	h.noFailures(t)
}
