package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// A linked worktree shares the main checkout's private folder but has a
// team folder of its own: a save there never moves the one link Claude
// Code's layout has away from the main checkout's folder; 'memdir team
// link' (RelinkTeam) does, on purpose.
func TestTeamLink_WorktreeKeepsLink(t *testing.T) {
	env, l := testEnv(t)
	teamGit(t, l.WorkTree, "init", "-q")
	teamGit(t, l.WorkTree, "commit", "-q", "--allow-empty", "-m", "init")
	main, err := Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := main.Save(t.Context(), SaveRequest{Type: "project", Name: "Deploy flow", Description: "d", Body: "x", Scope: memdir.ScopeTeam}); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(filepath.Dir(l.WorkTree), "proj-wt")
	teamGit(t, l.WorkTree, "worktree", "add", "-q", wt, "-b", "wt")
	wenv := env
	wenv.Cwd, wenv.ProjectFlag = wt, ""
	wl, err := wenv.Layout()
	if err != nil {
		t.Fatal(err)
	}
	if wl.MemoryDir != l.MemoryDir || wl.TeamDir != filepath.Join(wt, ".memdir", "team") {
		t.Fatalf("worktree layout: memory %s team %s", wl.MemoryDir, wl.TeamDir)
	}
	ws, err := OpenLayout(wenv, wl, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Save(t.Context(), SaveRequest{Type: "project", Name: "Branch note", Description: "d", Body: "y", Scope: memdir.ScopeTeam}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wt, ".memdir", "team", "branch-note.md")); err != nil {
		t.Errorf("the worktree's memory is not in its own team folder: %v", err)
	}
	link := filepath.Join(l.MemoryDir, "team", l.TeamMount)
	if got, _ := os.Readlink(link); got != l.TeamDir {
		t.Errorf("after a save in the worktree the link leads to %q, want %q", got, l.TeamDir)
	}
	tw, err := ws.Team(false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.RelinkTeam(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.Readlink(link); got != wl.TeamDir {
		t.Errorf("after RelinkTeam the link leads to %q, want %q", got, wl.TeamDir)
	}
}

// The author is one line, whatever git or MEMDIR_AUTHOR say.
func TestTeamAuthor_OneLine(t *testing.T) {
	vars := map[string]string{"MEMDIR_AUTHOR": "Eve\nscope: private\ntype: user"}
	got := TeamAuthor(Env{Getenv: func(k string) string { return vars[k] }}, t.TempDir())
	if got != "Eve scope: private type: user" || strings.Contains(got, "\n") {
		t.Errorf("TeamAuthor = %q", got)
	}
	vars["MEMDIR_AUTHOR"] = strings.Repeat("é", 80)
	if got := TeamAuthor(Env{Getenv: func(k string) string { return vars[k] }}, t.TempDir()); len(got) > 100 || !strings.HasPrefix(got, "é") {
		t.Errorf("long author: %d bytes", len(got))
	}
}
