package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
)

// TestTeamForgotten: memory_save over a team memory a person forgot is a
// tool error that says so and how a person brings it back (a tool never
// revives it); memory_recall never gives one a stale branch brought back;
// memory_feedback marks a team memory in the team folder.
func TestTeamForgotten(t *testing.T) {
	f := newTeamFixture(t)
	save := map[string]any{"type": "project", "name": "Deploy flow", "description": "Deploys go through make deploy on staging", "body": "Run make deploy.", "scope": "team"}
	f.ok(t, "memory_save", save, nil)
	f.ok(t, "memory_save", map[string]any{"type": "project", "name": "Deploy owner", "description": "Ana owns the deploy pipeline", "body": "Ask Ana.", "scope": "team"}, nil)
	p := filepath.Join(f.l.TeamDir, "deploy-flow.md")
	b, _ := os.ReadFile(p)
	f.ok(t, "memory_forget", map[string]any{"name": "team/deploy-flow.md"}, nil)
	text := f.fails(t, "memory_save", save)
	if !strings.Contains(text, "team/deploy-flow.md was forgotten from the team folder") || !strings.Contains(text, "memdir team resolve team/deploy-flow --keep") || strings.Contains(text, "memdir save") {
		t.Fatalf("save over a tombstone: %s", text)
	}
	if _, err := os.Stat(p); err == nil {
		t.Fatal("revived by a tool")
	}
	os.WriteFile(p, b, 0o644) // a stale branch merged
	if _, text := f.call(t, "memory_recall", map[string]any{"query": "deploy flow staging"}); strings.Contains(text, "deploy-flow") {
		t.Fatalf("recall gave the forgotten memory:\n%s", text)
	}
	f.ok(t, "memory_feedback", map[string]any{"name": "team/deploy-owner.md", "verdict": "helpful"}, nil)
	ub, err := os.ReadFile(filepath.Join(f.l.TeamDir, memdir.UsageFile))
	if err != nil {
		t.Fatal(err)
	}
	if u, err := usage.Parse(ub); err != nil || u.Memories["deploy-owner.md"].Helpful != 1 {
		t.Fatalf("team usage %+v %v", u.Memories, err)
	}
	if text := f.fails(t, "memory_feedback", map[string]any{"name": "Deploy owner", "verdict": "wrong"}); !strings.Contains(text, `"Deploy owner" is a team memory (team/deploy-owner.md)`) || !strings.Contains(text, `call again with name "team/deploy-owner.md"`) {
		t.Fatalf("bare team name: %s", text)
	}
}

// TestTeamForgotten_List: memory_list marks a team memory back despite its
// tombstone; listing all with a team folder that cannot be used lists the
// private memories and names the problem, listing the team alone fails.
func TestTeamForgotten_List(t *testing.T) {
	f := newTeamFixture(t)
	f.ok(t, "memory_save", map[string]any{"type": "project", "name": "Deploy flow", "description": "Deploys go through make deploy", "body": "Run make deploy.", "scope": "team"}, nil)
	f.ok(t, "memory_save", map[string]any{"type": "feedback", "name": "Prefer tabs", "description": "Indent with tabs", "body": "Tabs."}, nil)
	p := filepath.Join(f.l.TeamDir, "deploy-flow.md")
	b, _ := os.ReadFile(p)
	f.ok(t, "memory_forget", map[string]any{"name": "team/deploy-flow.md"}, nil)
	os.WriteFile(p, b, 0o644)
	var out ListOut
	text := f.ok(t, "memory_list", map[string]any{}, &out)
	if len(out.Memories) != 2 || out.Memories[1].Forgotten == nil || out.Memories[1].Forgotten.By != "Ana" ||
		!strings.Contains(text, "[forgotten by Ana on ") || !strings.Contains(text, "memdir team resolve team/deploy-flow.md --keep") {
		t.Fatalf("list %+v:\n%s", out, text)
	}
	os.RemoveAll(f.l.TeamDir)
	os.WriteFile(f.l.TeamDir, []byte("not a folder"), 0o644)
	out = ListOut{}
	text = f.ok(t, "memory_list", map[string]any{}, &out)
	if len(out.Memories) != 1 || out.Memories[0].File != "prefer-tabs.md" || len(out.Problems) != 1 || !strings.Contains(text, "problem: team memories left out: ") {
		t.Fatalf("list with a team folder that is a file %+v:\n%s", out, text)
	}
	f.fails(t, "memory_list", map[string]any{"scope": "team"})
}
