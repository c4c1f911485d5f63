package workspace_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/testenv"
	"github.com/memdir/memdir/internal/workspace"
)

// reviewProject is a git project holding src/app.go (ParseConfig), with
// the memories given saved in it.
func reviewProject(t *testing.T, files map[string]string, mems ...workspace.SaveRequest) (*workspace.Workspace, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "app.go"), appGo)
	for name, text := range files {
		writeFile(t, filepath.Join(proj, filepath.FromSlash(name)), text)
	}
	runGit(t, proj, "init", "-q")
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "first")
	ws := verifyWorkspace(t, proj)
	for _, r := range mems {
		if r.Type == "" {
			r.Type = "feedback"
		}
		if _, err := ws.Save(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	return ws, proj
}

func verified(t *testing.T, ws *workspace.Workspace, opt workspace.VerifyOptions) map[string]workspace.VerifiedMemory {
	t.Helper()
	opt.Now = verifyDay
	rep, err := ws.Verify(t.Context(), opt)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]workspace.VerifiedMemory{}
	for _, m := range rep.Memories {
		out[m.File] = m
	}
	return out
}

// TestVerify_Forbidden: a memory that forbids something is not stale
// because the thing is absent.
func TestVerify_Forbidden(t *testing.T) {
	ws, _ := reviewProject(t, nil,
		workspace.SaveRequest{Name: "No sleeps", Description: "tests never sleep", Body: "Never use `time.Sleep` in tests; call `ParseConfig()` first.\n"},
		workspace.SaveRequest{Name: "Old client", Description: "the old client", Body: "`OldClient` is gone, and the build no longer uses scripts/gen.sh.\n"},
	)
	got := verified(t, ws, workspace.VerifyOptions{DryRun: true})
	if m := got["no-sleeps.md"]; m.Status != workspace.VerifyFresh {
		t.Errorf("no-sleeps.md: %s %+v, want fresh", m.Status, m.Claims)
	}
	if m := got["old-client.md"]; m.Status != workspace.VerifyUnchecked {
		t.Errorf("old-client.md: %s %+v, want unchecked", m.Status, m.Claims)
	}
	for _, cl := range got["no-sleeps.md"].Claims {
		if cl.Text == "time.Sleep" && (cl.Status != workspace.ClaimUnchecked || cl.Reason != "named as something not to use") {
			t.Errorf("time.Sleep: %+v, want unchecked, named as something not to use", cl)
		}
	}
}

// TestVerify_MakeIncludes: a target defined in an included file (a glob,
// an optional include, an include of an include) is found.
func TestVerify_MakeIncludes(t *testing.T) {
	ws, _ := reviewProject(t, map[string]string{
		"Makefile":       "include mk/*.mk\n-include local.mk\n\nbuild:\n\tgo build ./...\n",
		"mk/lint.mk":     "lint:\n\tgo vet ./...\ninclude mk/deep/gen.mk\n",
		"mk/deep/gen.mk": "gen: tools\n\tgo generate ./...\n",
	},
		workspace.SaveRequest{Name: "Lint", Description: "lint", Body: "Run `make lint` before pushing.\n"},
		workspace.SaveRequest{Name: "Gen", Description: "gen", Body: "Run `make gen` after editing the schema.\n"},
		workspace.SaveRequest{Name: "Gone", Description: "gone", Body: "Run `make release` to ship.\n"},
	)
	got := verified(t, ws, workspace.VerifyOptions{DryRun: true})
	for file, want := range map[string]string{"lint.md": workspace.VerifyFresh, "gen.md": workspace.VerifyFresh, "gone.md": workspace.VerifyStale} {
		if m := got[file]; m.Status != want {
			t.Errorf("%s: %s %+v, want %s", file, m.Status, m.Claims, want)
		}
	}
}

// TestVerify_FolderSplit: a folder whose files went to two folders is
// stale with both names, every run, and --fix leaves it.
func TestVerify_FolderSplit(t *testing.T) {
	ws, proj := reviewProject(t, map[string]string{
		"internal/lib/a.go": "package lib\n\n// A is one half.\nfunc A() int { return 1 }\n",
		"internal/lib/b.go": "package lib\n\n// B is the other half, and a different file.\nfunc B() string { return \"b\" }\n",
	}, workspace.SaveRequest{Name: "Helpers", Description: "where helpers live", Body: "Helpers live in internal/lib and nowhere else.\n"})
	for _, d := range []string{"one", "two"} {
		if err := os.MkdirAll(filepath.Join(proj, "internal", d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, proj, "mv", "internal/lib/a.go", "internal/one/a.go")
	runGit(t, proj, "mv", "internal/lib/b.go", "internal/two/b.go")
	runGit(t, proj, "commit", "-q", "-m", "split")
	if err := os.Remove(filepath.Join(proj, "internal", "lib")); err != nil { // git mv leaves it empty
		t.Fatal(err)
	}
	want := "internal/lib was split into internal/one, internal/two"
	for range 5 {
		m := verified(t, ws, workspace.VerifyOptions{DryRun: true})["helpers.md"]
		if m.Status != workspace.VerifyStale || !strings.Contains(m.Stale, want) || len(m.Edits) > 0 {
			t.Fatalf("helpers.md: %s %q edits %v, want stale %q and no edit", m.Status, m.Stale, m.Edits, want)
		}
	}
	verified(t, ws, workspace.VerifyOptions{Fix: true})
	if raw := readMemory(t, ws, "helpers.md"); !strings.Contains(raw, "live in internal/lib and") || !strings.Contains(raw, want) {
		t.Errorf("--fix changed the split path or did not mark it:\n%s", raw)
	}
}

// TestVerify_RefsOutsideProject: a ref leading out of the project is not
// one of its files: never missing, nor warned about when saved.
func TestVerify_RefsOutsideProject(t *testing.T) {
	ws, _ := reviewProject(t, nil)
	res, err := ws.Save(t.Context(), workspace.SaveRequest{Type: "project", Name: "Outside", Description: "notes on config",
		Body: "The config lives in ../nothere.txt next to the project.\n", Refs: []string{"../nothere.txt", "src/../../gone.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if slicesContain(res.Warnings, "nothere") || slicesContain(res.Warnings, "gone.go") {
		t.Errorf("Warnings=%q, want none for paths outside the project", res.Warnings)
	}
	m := verified(t, ws, workspace.VerifyOptions{DryRun: true})["outside.md"]
	if m.Status != workspace.VerifyUnchecked {
		t.Errorf("outside.md: %s %+v, want unchecked", m.Status, m.Claims)
	}
}

// TestSave_RefsFollowTheText: refs filled in from a memory's text go when
// the text no longer names them; refs given by hand outlive a re-save.
func TestSave_RefsFollowTheText(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "app.go"), appGo)
	ws := verifyWorkspace(t, proj)
	ctx := t.Context()
	refs := func(want ...string) {
		t.Helper()
		m, err := ws.Store.Get("clients.md")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(m.Refs, "|") != strings.Join(want, "|") {
			t.Errorf("Refs=%q, want %q", m.Refs, want)
		}
	}
	save := func(body string, given ...string) {
		t.Helper()
		if _, err := ws.Save(ctx, workspace.SaveRequest{Type: "project", Name: "Clients", Description: "the clients", Body: body, Refs: given}); err != nil {
			t.Fatal(err)
		}
	}
	save("Clients are built in src/app.go by `ParseConfig()`.\n", "docs/design.md")
	refs("docs/design.md", "src/app.go", "ParseConfig")
	save("Clients are built in src/server.go now.\n") // no refs given: the hand one stays
	refs("docs/design.md", "src/server.go")
	if _, err := ws.Update(ctx, workspace.UpdateRequest{Name: "Clients", Body: "Clients are built on demand.\n"}); err != nil {
		t.Fatal(err)
	}
	refs("docs/design.md")
	save("Clients use `NewClient()`.\n", "docs/clients.md")
	refs("docs/design.md", "docs/clients.md", "NewClient")
}

// TestVerify_LegacyRefs: a ref an older memdir filled in from the text
// ("web/mobile"), which the text names as no claim, is not checked; a ref
// the text does not hold is.
func TestVerify_LegacyRefs(t *testing.T) {
	ws, _ := reviewProject(t, nil, workspace.SaveRequest{Type: "project", Name: "Clients", Description: "the clients",
		Body: "The web/mobile clients share one API.\n", Refs: []string{"web/mobile", "src/gone.go"}})
	m := verified(t, ws, workspace.VerifyOptions{DryRun: true})["clients.md"]
	if m.Status != workspace.VerifyStale || len(m.Claims) != 1 || m.Claims[0].Text != "src/gone.go" {
		t.Errorf("clients.md: %s %+v, want stale for src/gone.go alone", m.Status, m.Claims)
	}
}
