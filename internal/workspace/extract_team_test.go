package workspace_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// team makes the project's team folder, as 'memdir team init' would, and
// returns its workspace.
func (h *home) team() *workspace.Workspace {
	h.t.Helper()
	h.vars["MEMDIR_AUTHOR"] = "Ana"
	l, err := h.env().Layout()
	if err != nil {
		h.t.Fatal(err)
	}
	t, err := workspace.OpenTeam(h.env(), l, true)
	if err != nil {
		h.t.Fatal(err)
	}
	return t
}

// teamFiles lists the memory files of the project's team folder.
func (h *home) teamFiles() []string {
	h.t.Helper()
	mems, _, err := h.team().Store.List()
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, m := range mems {
		out = append(out, m.File)
	}
	return out
}

// ran is the report of the transcript extraction ran on.
func ran(t *testing.T, res workspace.ExtractResult) workspace.ExtractReport {
	t.Helper()
	for _, r := range res.Reports {
		if r.Ran {
			return r
		}
	}
	t.Fatalf("no extraction ran: %+v", res.Reports)
	return workspace.ExtractReport{}
}

// With a team folder, the heuristic engine saves a project-wide
// convention there (by its author, scope team), and a personal
// preference privately; a restatement of the team's memory updates it
// instead of adding a private duplicate.
func TestExtractTeam_HeuristicRoutesByScope(t *testing.T) {
	h := newHome(t)
	h.team()
	h.transcript("t1", "We always run the linters before pushing, they caught a data race last week.", "I prefer pnpm over npm for my own scripts.")
	r := ran(t, h.extract(workspace.ExtractOptions{}))
	var team, private []string
	for _, f := range r.Saved {
		if rest, ok := strings.CutPrefix(f, "team/"); ok {
			team = append(team, rest)
		} else {
			private = append(private, f)
		}
	}
	if len(team) != 1 || len(private) != 1 {
		t.Fatalf("saved %v (plan %+v)", r.Saved, r.Plan)
	}
	if got := h.teamFiles(); !slices.Equal(got, team) {
		t.Errorf("team folder holds %v, want %v", got, team)
	}
	if files, _ := h.memories(); !slices.Equal(files, private) {
		t.Errorf("private folder holds %v, want %v", files, private)
	}
	m, err := h.team().Store.Read(team[0])
	if err != nil || m.Scope != memdir.ScopeTeam || m.Author != "Ana" || m.Type != memdir.TypeFeedback {
		t.Errorf("team memory %+v (%v)", m, err)
	}

	h.transcript("t2", "We always run the linters before pushing, they caught a data race last week.")
	r = ran(t, h.extract(workspace.ExtractOptions{}))
	if len(r.Saved) != 0 || !slices.Equal(r.Updated, []string{"team/" + team[0]}) {
		t.Errorf("a restatement of a team memory: saved %v, updated %v (plan %+v)", r.Saved, r.Updated, r.Plan)
	}
	if files, _ := h.memories(); len(files) != 1 {
		t.Errorf("a private duplicate of the team memory: %v", files)
	}
}

// Without a team folder every memory stays private, scope field as the
// extraction assigned it, and no team folder is made.
func TestExtractTeam_NoTeamFolderStaysPrivate(t *testing.T) {
	h := newHome(t)
	h.transcript("n1", "We always run the linters before pushing, they caught a data race last week.")
	r := ran(t, h.extract(workspace.ExtractOptions{}))
	if len(r.Saved) != 1 || strings.HasPrefix(r.Saved[0], "team/") {
		t.Fatalf("saved %v", r.Saved)
	}
	if !strings.Contains(h.read(r.Saved[0]), "scope: team") {
		t.Errorf("the scope the extraction assigned is lost:\n%s", h.read(r.Saved[0]))
	}
	if _, err := os.Stat(filepath.Join(h.proj, ".memdir")); err == nil {
		t.Error("an extraction made a team folder")
	}
}

// A model engine sees the team's memories as team/<file> and may update
// one; a team memory it proposes with a secret in it is refused — the
// whole answer, which names the kind — and written nowhere, neither in
// the team folder nor privately.
func TestExtractTeam_ModelEngine(t *testing.T) {
	h := newHome(t)
	tw := h.team()
	if _, err := tw.Save(t.Context(), workspace.SaveRequest{Type: "project", Name: "Release train", Description: "Releases leave every other Tuesday", Body: "Every other Tuesday."}); err != nil {
		t.Fatal(err)
	}
	fake := &llmtest.Client{}
	h.transcript("m1", "Releases now leave every Tuesday, not every other Tuesday.")
	fake.CompleteFunc = llmtest.Replies(`{"operations":[{"op":"update","type":"project","name":"Release train","description":"Releases leave every Tuesday","body":"Every Tuesday.","target":"team/release-train.md"}]}`)
	r := ran(t, h.extract(h.model(fake)))
	if !slices.Equal(r.Updated, []string{"team/release-train.md"}) {
		t.Fatalf("update of a team memory: %+v", r)
	}
	if req := fake.Requests()[0]; !strings.Contains(req.Messages[0].Content, "team/release-train.md") {
		t.Errorf("the model was not shown the team memory:\n%s", req.Messages[0].Content)
	}
	if m, _ := tw.Store.Read("release-train.md"); m.Description != "Releases leave every Tuesday" {
		t.Errorf("not updated: %+v", m)
	}

	secret := "ghp_" + strings.Repeat("a1B2", 9)
	answer := `{"operations":[{"op":"create","type":"project","name":"Deploy token","description":"The deploy token for the team","body":"Use ` + secret + ` to deploy."}]}`
	fake.CompleteFunc = llmtest.Replies(answer, answer)
	h.transcript("m2", "Our deploys use the shared token.")
	r = ran(t, h.extract(h.model(fake)))
	if r.Wrote() || !strings.Contains(r.Why, "secret") || !strings.Contains(r.Why, "github-token") {
		t.Fatalf("a team memory with a secret: %+v", r)
	}
	if files := h.teamFiles(); !slices.Equal(files, []string{"release-train.md"}) {
		t.Errorf("team folder: %v", files)
	}
	if files, _ := h.memories(); len(files) != 0 {
		t.Errorf("saved privately instead: %v", files)
	}
}

// A candidate for the team folder that holds a potential secret, should
// one get past the engine's own checks, is refused by the team folder at
// apply: listed in the report with its kinds, and saved nowhere (not
// privately either).
func TestExtractTeam_SecretRefusedAtApply(t *testing.T) {
	h := newHome(t)
	h.team()
	ws, err := workspace.Open(h.env(), true)
	if err != nil {
		t.Fatal(err)
	}
	secret := "ghp_" + strings.Repeat("a1B2", 9)
	var rep workspace.ExtractReport
	a := extract.Action{Op: extract.Create, Reason: "test", Memory: extract.Candidate{Type: "project", Name: "Deploy token",
		Description: "The team's deploy token", Body: "Use " + secret + ".", Scope: extract.ScopeTeam, Trust: "agent"}}
	if err := workspace.ApplyForTest(t.Context(), ws, a, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Refused) != 1 || !slices.Equal(rep.Refused[0].Labels, []string{"github-token"}) || rep.Refused[0].Scope != "team" || rep.Wrote() {
		t.Fatalf("report: %+v", rep)
	}
	if files := h.teamFiles(); len(files) != 0 {
		t.Errorf("team folder: %v", files)
	}
	if files, _ := h.memories(); len(files) != 0 {
		t.Errorf("saved privately instead: %v", files)
	}
	var b strings.Builder
	if err := (workspace.ExtractResult{Reports: []workspace.ExtractReport{rep}}).WriteText(&b, false); err != nil || !strings.Contains(b.String(), `Refused for the team folder (not saved): "Deploy token": it holds a potential secret (github-token)`) {
		t.Errorf("text: %s (%v)", b.String(), err)
	}
}
