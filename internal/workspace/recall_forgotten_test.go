package workspace_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
)

// resurrect forgets file from ws's team folder (by Bo) and puts the file
// back as a merge of a stale branch would: the memory and its tombstone
// both exist.
func resurrect(t *testing.T, ws *workspace.Workspace, file string) {
	t.Helper()
	team, err := ws.Team(false)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(ws.Layout.TeamDir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	bo, err := memdir.Open(ws.Layout.TeamDir, memdir.Options{Team: true, Author: "Bo", Now: func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bo.Forget(t.Context(), file, true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(team.Store.Path(memdir.TombstoneFile(file))); err != nil {
		t.Fatal(err)
	}
}

// TestRecall_TeamForgotten: a team memory back despite its tombstone is
// never injected (lexical, KeptOnly, LLM: not even in the manifest), the
// session's list leaves it out, and the listing marks it with who forgot
// it and the command that settles it.
func TestRecall_TeamForgotten(t *testing.T) {
	ws := teamWorkspace(t,
		[][3]string{{"project", "Deploy freeze", "No deploys on Fridays"}},
		[][3]string{{"project", "Deploy checklist", "Every deploy goes through the staging checklist"}, {"project", "Deploy owner", "Ana owns the deploy pipeline"}})
	resurrect(t, ws, "deploy-checklist.md")
	q := workspace.Query{Text: "deploy checklist owner", Policy: recall.Policy{K: 5, Budget: 1500, Threshold: 0.3}}
	for _, keptOnly := range []bool{false, true} {
		q.KeptOnly = keptOnly
		rec, err := ws.Recall(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if got := kept(rec); slices.Contains(got, "team:team/deploy-checklist.md:Ana") || !slices.Contains(got, "team:team/deploy-owner.md:Ana") {
			t.Fatalf("KeptOnly %v: kept %v", keptOnly, got)
		}
		if strings.Contains(rec.Text, "deploy-checklist") {
			t.Fatalf("rendered:\n%s", rec.Text)
		}
	}
	// The team folder alone (a project without private memories).
	team, _ := workspace.OpenTeamReader(ws.Env, ws.Layout)
	if rec, err := team.Recall(t.Context(), workspace.Query{Text: "staging checklist", Policy: recall.DefaultPolicy}); err != nil || rec.Text != "" {
		t.Fatalf("team alone: %q %v", rec.Text, err)
	}
	model := &llmtest.Client{}
	var manifest string
	model.CompleteFunc = func(_ context.Context, r llm.Request) (llm.Response, error) {
		manifest = r.Messages[0].Content
		return llm.Response{Text: `{"selected_memories": ["team/deploy-checklist.md"]}`}, nil
	}
	ws.Models.Chat = func(string, time.Duration) (llm.Client, error) { return model, nil }
	if rec := recalled(t, ws, workspace.EngineLLM, "how do we ship?"); len(kept(rec)) != 0 || strings.Contains(manifest, "deploy-checklist") {
		t.Fatalf("llm: kept %v, manifest %s", kept(rec), manifest)
	}
	list, total, _, err := ws.TeamMemories(t.Context(), 40)
	if err != nil || total != 1 || len(list) != 1 || list[0].File != "team/deploy-owner.md" {
		t.Fatalf("session list %+v total %d %v", list, total, err)
	}
	parts, _, err := workspace.ListScoped(t.Context(), ws.Env, ws.Layout, "", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := workspace.WriteListText(&out, "", parts...); err != nil {
		t.Fatal(err)
	}
	want := "[team by Ana] [forgotten by Bo on 2026-11-25: memdir team resolve team/deploy-checklist.md --keep, or --drop] Deploy checklist"
	if !strings.Contains(out.String(), want) || strings.Count(out.String(), "forgotten") != 1 {
		t.Fatalf("list lacks %q:\n%s", want, out.String())
	}
	out.Reset()
	if _, err := workspace.WriteListJSON(&out, "", func(error) {}, parts...); err != nil || !strings.Contains(out.String(), `"by": "Bo"`) {
		t.Fatalf("json %v:\n%s", err, out.String())
	}
}

// TestRefreshTeamIndex: the team folder's MEMORY.md (derived, never
// committed) is rebuilt when it is missing or a memory file is newer (a
// pull), and left alone when current.
func TestRefreshTeamIndex(t *testing.T) {
	ws := teamWorkspace(t, nil, [][3]string{{"project", "Deploy owner", "Ana owns the deploy pipeline"}})
	team, _ := workspace.OpenTeamReader(ws.Env, ws.Layout)
	ix := filepath.Join(ws.Layout.TeamDir, memdir.IndexFile)
	if did, err := team.RefreshTeamIndex(t.Context()); err != nil || did {
		t.Fatalf("current: %v %v", did, err)
	}
	os.Remove(ix)
	if did, err := team.RefreshTeamIndex(t.Context()); err != nil || !did {
		t.Fatalf("missing: %v %v", did, err)
	}
	if b, _ := os.ReadFile(ix); !strings.Contains(string(b), "deploy-owner.md") {
		t.Fatalf("index:\n%s", b)
	}
	// A pull brings a memory (and leaves the index an hour behind).
	old := time.Now().Add(-time.Hour)
	os.WriteFile(filepath.Join(ws.Layout.TeamDir, "pulled.md"), []byte("---\nname: Pulled\ndescription: Came with a pull\ntype: project\nauthor: Bo\n---\nPulled.\n"), 0o644)
	os.Chtimes(ix, old, old)
	if did, err := team.RefreshTeamIndex(t.Context()); err != nil || !did {
		t.Fatalf("pulled: %v %v", did, err)
	}
	if b, _ := os.ReadFile(ix); !strings.Contains(string(b), "pulled.md") {
		t.Fatalf("index:\n%s", b)
	}
	if did, err := team.RefreshTeamIndex(t.Context()); err != nil || did {
		t.Fatalf("again: %v %v", did, err)
	}
	// A pull removes one: the folder's time moves.
	os.Chtimes(ix, old, old)
	os.Remove(filepath.Join(ws.Layout.TeamDir, "pulled.md"))
	if did, err := team.RefreshTeamIndex(t.Context()); err != nil || !did {
		t.Fatalf("removed: %v %v", did, err)
	}
	if b, _ := os.ReadFile(ix); strings.Contains(string(b), "pulled.md") {
		t.Fatalf("index:\n%s", b)
	}
	// A private folder is never touched.
	if did, err := ws.RefreshTeamIndex(t.Context()); err != nil || did {
		t.Fatalf("private: %v %v", did, err)
	}
}
