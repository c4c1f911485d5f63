package workspace_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// forgetAsBo forgets file from the team folder as Bo on 2026-11-25; back
// puts the file back as a stale branch's merge would.
func (h *home) forgetAsBo(file string, back bool) {
	h.t.Helper()
	dir := filepath.Join(h.proj, ".memdir", "team")
	b, _ := os.ReadFile(filepath.Join(dir, file))
	bo, err := memdir.Open(dir, memdir.Options{Team: true, Author: "Bo", Now: func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }})
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := bo.Forget(h.t.Context(), file, true); err != nil {
		h.t.Fatal(err)
	}
	if back {
		if err := os.WriteFile(filepath.Join(dir, file), b, 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

// Extraction never brings back a memory forgotten from the team folder:
// a new memory of its file name, an update or a supersede of one a stale
// branch brought back, are refused and reported (who forgot it, when, how
// a person brings it back), saved nowhere (not privately either), and the
// run goes on with the other memories.
func TestExtractTeam_ForgottenRefused(t *testing.T) {
	h := newHome(t)
	tw := h.team()
	for _, n := range []string{"Release train", "Deploy owner"} {
		if _, err := tw.Save(t.Context(), workspace.SaveRequest{Type: "project", Name: n, Description: n + " of the team", Body: n + "."}); err != nil {
			t.Fatal(err)
		}
	}
	h.forgetAsBo("release-train.md", false)
	h.forgetAsBo("deploy-owner.md", true)
	ws, err := workspace.Open(h.env(), true)
	if err != nil {
		t.Fatal(err)
	}
	const why = "forgotten from the team folder by Bo on 2026-11-25; a person can bring it back with 'memdir team resolve team/"
	for _, a := range []extract.Action{
		{Op: extract.Create, Memory: extract.Candidate{Type: "project", Name: "Release train", Description: "Releases leave on Tuesdays", Body: "Tuesdays.", Scope: extract.ScopeTeam, Trust: "agent"}},
		{Op: extract.Update, Target: "team/deploy-owner.md", Memory: extract.Candidate{Type: "project", Name: "Deploy owner", Description: "Bo owns deploys", Body: "Bo.", Trust: "agent"}},
		{Op: extract.Supersede, Target: "team/deploy-owner.md", Memory: extract.Candidate{Type: "project", Name: "Deploy lead", Description: "Bo leads deploys", Body: "Bo.", Trust: "agent"}},
	} {
		var rep workspace.ExtractReport
		if err := workspace.ApplyForTest(t.Context(), ws, a, &rep); err != nil {
			t.Fatalf("%s: %v", a.Op, err)
		}
		if len(rep.Refused) != 1 || !strings.Contains(rep.Refused[0].Why, why) || rep.Wrote() {
			t.Fatalf("%s: report %+v", a.Op, rep)
		}
	}
	if files := h.teamFiles(); !slices.Equal(files, []string{"deploy-owner.md"}) {
		t.Errorf("team folder: %v", files)
	}
	if files, _ := h.memories(); len(files) != 0 {
		t.Errorf("saved privately instead: %v", files)
	}
	if m, _ := tw.Store.Read("deploy-owner.md"); m.Description != "Deploy owner of the team" {
		t.Errorf("updated: %+v", m)
	}
	if _, err := os.Stat(filepath.Join(h.proj, ".memdir", "team", memdir.TombstoneFile("release-train.md"))); err != nil {
		t.Errorf("tombstone gone: %v", err)
	}

	// A whole run: the forgotten memory refused, the other saved.
	fake := &llmtest.Client{}
	fake.CompleteFunc = llmtest.Replies(`{"operations":[` +
		`{"op":"create","type":"project","name":"Release train","description":"Releases leave on Tuesdays","body":"Tuesdays."},` +
		`{"op":"create","type":"project","name":"Staging checklist","description":"Staging is checked before each deploy","body":"Check staging."}]}`)
	h.transcript("f1", "Releases leave on Tuesdays. Staging is checked before each deploy.")
	r := ran(t, h.extract(h.model(fake)))
	if len(r.Refused) != 1 || r.Refused[0].Name != "Release train" || !strings.Contains(r.Refused[0].Why, why+"release-train.md --keep'") ||
		!slices.Equal(r.Saved, []string{"team/staging-checklist.md"}) {
		t.Fatalf("run: %+v", r)
	}
	if strings.Contains(fake.Requests()[0].Messages[0].Content, "deploy-owner") {
		t.Errorf("the model was shown the forgotten memory")
	}
}
