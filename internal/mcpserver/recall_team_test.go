package mcpserver

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// TestRecall_Team: memory_recall gives private and team memories, each
// with its scope (team ones named team/<file>, with their author), from
// held snapshots of both folders; a team memory edited in place after
// the team snapshot was held is given as it is now.
func TestRecall_Team(t *testing.T) {
	env := testEnv(t)
	ws, err := workspace.Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws.Store, "Deploy freeze", "No deploys on Fridays")
	team, err := ws.Team(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := team.Store.Save(t.Context(), memdir.Memory{Name: "Deploy checklist", Description: "Every deploy goes through the staging checklist", Type: memdir.TypeProject, Body: "Run the check.", Author: "Ana"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	srv := newTest(t, env)
	f := liveFixture{cs: connect(t, srv.Server), st: ws.Store, srv: srv}
	recallOut := func(query string) RecallOut { return recallJSON(t, f, query) }
	out := recallOut("deploy friday checklist")
	want := []RecalledMemory{{File: "team/deploy-checklist.md", Scope: "team", Author: "Ana"}, {File: "deploy-freeze.md", Scope: "private"}}
	if !slices.Equal(out.Memories, want) || !slices.Equal(out.Files, []string{"team/deploy-checklist.md", "deploy-freeze.md"}) ||
		!strings.Contains(out.Text, "team · team/deploy-checklist.md · by Ana") {
		t.Fatalf("recall: %+v", out)
	}
	// The team folder is held and watched like the private one.
	srv.lives.mu.Lock()
	_, held := srv.lives.byDir[team.Store.Dir()]
	srv.lives.mu.Unlock()
	if !held {
		t.Fatal("the team folder's snapshot is not held")
	}
	p := team.Store.Path("deploy-checklist.md")
	raw, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(raw), "Run the check.", "Run make deploy-check first.", 1)), 0o600)
	if out = recallOut("deploy friday checklist"); !strings.Contains(out.Text, "Run make deploy-check first.") {
		t.Fatalf("after an edit in place: %s", out.Text)
	}
}
