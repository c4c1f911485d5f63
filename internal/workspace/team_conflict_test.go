package workspace

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
)

// offered is the resolve choices a fix or hint names (--ours, --keep, …).
func offered(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`--(ours|theirs|both|keep|drop)\b`).FindAllStringSubmatch(s, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// forgetMerge commits a team memory, forgets it on main (a tombstone)
// while a stale branch feature edits it, and merges feature into main:
// git's modify/delete with the file deleted on our side (DU).
func forgetMerge(t *testing.T, l paths.Layout, ws *Workspace) {
	t.Helper()
	dir := l.WorkTree
	writeTeam(t, l, "deploy-flow.md", resolveBase)
	gitAs(t, "Carol", dir, "add", "-A")
	gitAs(t, "Carol", dir, "commit", "-q", "-m", "base")
	gitAs(t, "Carol", dir, "branch", "feature")
	if _, err := ws.Store.Forget(t.Context(), "deploy-flow", false); err != nil {
		t.Fatal(err)
	}
	gitAs(t, "Alice", dir, "add", "-A")
	gitAs(t, "Alice", dir, "commit", "-q", "-m", "forget")
	gitAs(t, "Bob", dir, "checkout", "-q", "feature")
	writeTeam(t, l, "deploy-flow.md", strings.Replace(resolveBase, "line 5", "line 5 (feature)", 1))
	gitAs(t, "Bob", dir, "commit", "-q", "-am", "edit")
	gitAs(t, "Alice", dir, "checkout", "-q", "main")
	gitAs(t, "Alice", dir, "merge", "-q", "feature")
}

// A modify/delete conflict leaves no conflict lines in the file: check
// and doctor still report it, as a conflict (not a tombstoned memory),
// and every choice their fix and resolve's hints offer is one resolve
// accepts.
func TestTeamCheck_ModifyDelete(t *testing.T) {
	edited := strings.Replace(resolveBase, "line 5", "line 5 (edited)", 1)
	for _, c := range []struct {
		name      string
		setup     func(t *testing.T, l paths.Layout, ws *Workspace)
		tombstone bool
	}{
		{"deleted-by-us", func(t *testing.T, l paths.Layout, _ *Workspace) { mergeConflict(t, l, "", edited) }, false},
		{"deleted-by-them", func(t *testing.T, l paths.Layout, _ *Workspace) { mergeConflict(t, l, edited, "") }, false},
		{"forgotten", forgetMerge, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, l, ws := teamEnv(t, true)
			c.setup(t, l, ws)
			if u := teamGit(t, l.WorkTree, "ls-files", "-u"); u == "" {
				t.Fatal("the merge left nothing unmerged")
			}
			if tombs, _, _ := ws.Store.Tombstones(); (len(tombs) == 1) != c.tombstone {
				t.Fatalf("tombstones=%v, want one: %v", tombs, c.tombstone)
			}
			fs, err := ws.TeamCheck()
			if err != nil {
				t.Fatal(err)
			}
			if got := kinds(fs); !slices.Equal(got, []string{"deploy-flow.md:conflict"}) {
				t.Fatalf("TeamCheck()=%v (%v), want one conflict", got, fs)
			}
			fix := fs[0].Fix
			if got := offered(fix); !slices.Equal(got, []string{ResolveOurs, ResolveTheirs}) {
				t.Fatalf("fix %q offers %v, want ours and theirs only", fix, got)
			}
			checks := find(Doctor(env, DoctorOptions{}), "team")
			var failed bool
			for _, ch := range checks {
				failed = failed || ch.Status == CheckFail && strings.Contains(ch.Line(), "deploy-flow.md: unresolved git merge conflict") && strings.Contains(ch.Hint, "--theirs")
			}
			if !failed {
				t.Fatalf("Doctor()=%v, want the conflict failed", checks)
			}
			show, err := ws.TeamResolve(t.Context(), "deploy-flow", "")
			if err != nil || !slices.Equal(show.Choices, []string{ResolveOurs, ResolveTheirs}) {
				t.Fatalf("TeamResolve(show)=%v, %v; want ours and theirs", show.Choices, err)
			}
			for _, refused := range []string{ResolveBoth, ResolveKeep, ResolveDrop} {
				_, err := ws.TeamResolve(t.Context(), "deploy-flow", refused)
				if err == nil {
					t.Fatalf("--%s settled a modify/delete conflict", refused)
				}
				if h := hint.Of(err); len(offered(h)) == 0 || slices.Contains(offered(h), ResolveBoth) || slices.Contains(offered(h), refused) {
					t.Fatalf("--%s refused with the hint %q: it offers %v", refused, h, offered(h))
				}
			}
		})
	}
	// Each choice offered settles it, and the folder checks clean after.
	for _, choice := range []string{ResolveOurs, ResolveTheirs} {
		t.Run("forgotten-"+choice, func(t *testing.T) {
			_, l, ws := teamEnv(t, true)
			forgetMerge(t, l, ws)
			if _, err := ws.TeamResolve(t.Context(), "deploy-flow", choice); err != nil {
				t.Fatal(err)
			}
			if u := teamGit(t, l.WorkTree, "ls-files", "-u"); u != "" {
				t.Fatalf("still unmerged: %s", u)
			}
			fs, err := ws.TeamCheck()
			if err != nil || len(fs) != 0 {
				t.Fatalf("TeamCheck() after --%s = %v, %v", choice, kinds(fs), err)
			}
			_, err = os.Stat(filepath.Join(l.TeamDir, "deploy-flow.md"))
			if kept := err == nil; kept != (choice == ResolveTheirs) {
				t.Fatalf("after --%s the memory is there: %v", choice, kept)
			}
		})
	}
}

// A conflict git holds for a memory whose file is gone from the working
// tree: resolve cannot read it, so the fix is git's own.
func TestTeamCheck_UnmergedGone(t *testing.T) {
	_, l, ws := teamEnv(t, true)
	mergeConflict(t, l, "", strings.Replace(resolveBase, "line 5", "line 5 (edited)", 1))
	if err := os.Remove(filepath.Join(l.TeamDir, "deploy-flow.md")); err != nil {
		t.Fatal(err)
	}
	fs, err := TeamCheckAt(context.Background(), ws.Env, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(fs); !slices.Equal(got, []string{"deploy-flow.md:conflict"}) || !strings.HasPrefix(fs[0].Fix, "git rm --cached .memdir/team/deploy-flow.md") {
		t.Fatalf("TeamCheckAt()=%v, want one conflict fixed with git rm", fs)
	}
}
