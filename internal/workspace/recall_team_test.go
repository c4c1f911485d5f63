package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
)

// teamWorkspace is recallWorkspace with team memories saved too (scope
// team, by Ana).
func teamWorkspace(t *testing.T, private, team [][3]string) *workspace.Workspace {
	t.Helper()
	ws := recallWorkspace(t, private...)
	ws.Env.Getenv = func(k string) string {
		if k == "MEMDIR_AUTHOR" {
			return "Ana"
		}
		if k == "HOME" {
			return filepath.Dir(ws.Layout.ProjectRoot)
		}
		return ""
	}
	for _, m := range team {
		if _, err := ws.Save(t.Context(), workspace.SaveRequest{Type: m[0], Name: m[1], Description: m[2], Body: m[2] + ".", Scope: "team"}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func kept(rec workspace.Recalled) []string {
	var out []string
	for _, c := range rec.Candidates {
		if c.Kept {
			out = append(out, c.Scope+":"+c.File+":"+c.Author)
		}
	}
	return out
}

// TestRecall_Team: recall merges the private and the team folder under
// one policy, names team memories team/<file> with scope and author, and
// never gives a team memory already given (the session's list holds
// team/<file>), one deleted since its snapshot, or one with NoTeam.
func TestRecall_Team(t *testing.T) {
	ws := teamWorkspace(t,
		[][3]string{{"project", "Deploy freeze", "No deploys on Fridays"}},
		[][3]string{{"project", "Deploy checklist", "Every deploy goes through the staging checklist"}})
	q := workspace.Query{Text: "deploy friday checklist", Policy: recall.DefaultPolicy}
	rec, err := ws.Recall(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"team:team/deploy-checklist.md:Ana", "private:deploy-freeze.md:"}
	if got := kept(rec); !slices.Equal(got, want) {
		t.Fatalf("kept %v, want %v", got, want)
	}
	if !strings.Contains(rec.Text, "### project · team · team/deploy-checklist.md · by Ana · saved today") ||
		!strings.Contains(rec.Text, "### project · deploy-freeze.md · saved today") {
		t.Fatalf("rendering:\n%s", rec.Text)
	}
	rep := rec.Report(q.Text, true)
	if rep.Candidates[0].Scope != "team" || rep.Candidates[0].Author != "Ana" || rep.Candidates[0].ByField["name"] == 0 ||
		rep.Candidates[1].Scope != "private" || rep.Candidates[1].ByField["name"] == 0 {
		t.Fatalf("report candidates %+v", rep.Candidates)
	}
	// Held: the same through RecallFrom and the KeptOnly path.
	q.KeptOnly = true
	if rec, err = ws.Recall(t.Context(), q); err != nil || !slices.Equal(kept(rec), want) {
		t.Fatalf("KeptOnly: kept %v, %v", kept(rec), err)
	}
	// One policy: k counts both folders.
	q.Policy.K = 1
	if rec, _ = ws.Recall(t.Context(), q); !slices.Equal(kept(rec), want[:1]) {
		t.Fatalf("k=1: kept %v", kept(rec))
	}
	q.Policy.K = 5
	// Given before in the session: not again.
	q.Policy.Exclude = []string{"team/deploy-checklist.md"}
	if rec, _ = ws.Recall(t.Context(), q); !slices.Equal(kept(rec), want[1:]) {
		t.Fatalf("excluded: kept %v", kept(rec))
	}
	q.Policy.Exclude = nil
	// NoTeam: the private folder alone.
	q.NoTeam = true
	if rec, _ = ws.Recall(t.Context(), q); !slices.Equal(kept(rec), want[1:]) {
		t.Fatalf("NoTeam: kept %v", kept(rec))
	}
	q.NoTeam = false
	// Deleted behind the snapshot's back (the folder's time put back, so
	// the snapshot still lists it): not injected.
	team := ws.Layout.TeamDir
	fi, _ := os.Stat(team)
	os.Remove(filepath.Join(team, "deploy-checklist.md"))
	os.Chtimes(team, fi.ModTime(), fi.ModTime())
	if rec, _ = ws.Recall(t.Context(), q); !slices.Equal(kept(rec), want[1:]) {
		t.Fatalf("deleted: kept %v", kept(rec))
	}
}

// TestRecall_TeamEngines: the LLM sees team memories in its manifest by
// their team/ name and can pick them; hybrid ranks both folders.
func TestRecall_TeamEngines(t *testing.T) {
	ws := teamWorkspace(t,
		[][3]string{{"project", "Deploy freeze", "No deploys on Fridays"}},
		[][3]string{{"project", "Deploy checklist", "Every deploy goes through the staging checklist"}})
	model := &llmtest.Client{}
	var manifest string
	model.CompleteFunc = func(_ context.Context, r llm.Request) (llm.Response, error) {
		manifest = r.Messages[0].Content
		return llm.Response{Text: `{"selected_memories": ["team/deploy-checklist.md"]}`}, nil
	}
	ws.Models.Chat = func(string, time.Duration) (llm.Client, error) { return model, nil }
	rec := recalled(t, ws, workspace.EngineLLM, "how do we ship?")
	if got := kept(rec); !slices.Equal(got, []string{"team:team/deploy-checklist.md:Ana"}) || !strings.Contains(manifest, "team/deploy-checklist.md") {
		t.Fatalf("llm: kept %v, warnings %v, manifest %s", got, rec.Warnings, manifest)
	}
	emb := &llmtest.Embedder{EmbedFunc: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, s := range texts {
			out[i] = []float32{1, 0}
			if strings.Contains(strings.ToLower(s), "checklist") || strings.Contains(s, "ship") {
				out[i] = []float32{0, 1}
			}
		}
		return out, nil
	}}
	ws.Models.Embed = func() (llm.Embedder, string) { return emb, "test-embed" }
	rec = recalled(t, ws, workspace.EngineHybrid, "deploy checklist")
	if got := kept(rec); len(got) == 0 || got[0] != "team:team/deploy-checklist.md:Ana" || len(rec.Warnings) > 0 {
		t.Fatalf("hybrid: kept %v, warnings %v", got, rec.Warnings)
	}
}

// TestTeamMemories: the session's list comes from the team folder's
// files, newest first, capped, with the author; none without a team
// folder.
func TestTeamMemories(t *testing.T) {
	ws := recallWorkspace(t, [3]string{"project", "Deploy freeze", "No deploys on Fridays"})
	if list, total, _, err := ws.TeamMemories(t.Context(), 40); err != nil || total != 0 || list != nil {
		t.Fatalf("no team: %v %d %v", list, total, err)
	}
	ws = teamWorkspace(t, nil, [][3]string{{"project", "One", "First team memory"}, {"reference", "Two", "Second team memory"}, {"feedback", "Three", "Third team memory"}})
	os.Remove(filepath.Join(ws.Layout.TeamDir, "MEMORY.md"))
	list, total, problems, err := ws.TeamMemories(t.Context(), 2)
	if err != nil || len(problems) > 0 || total != 3 || len(list) != 2 {
		t.Fatalf("list %+v total %d problems %v err %v", list, total, problems, err)
	}
	for _, m := range list {
		if !strings.HasPrefix(m.File, "team/") || m.Author != "Ana" || m.Description == "" {
			t.Fatalf("entry %+v", m)
		}
	}
}
