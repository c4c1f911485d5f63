package workspace

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

func TestSplitConflict(t *testing.T) {
	in := "---\nname: X\n<<<<<<< HEAD\ndescription: ours\n||||||| base\ndescription: base\n=======\ndescription: theirs\n>>>>>>> feature\n---\ncommon\n<<<<<<< HEAD\n=======\nadded\n>>>>>>> feature\n"
	ours, theirs, ol, tl := splitConflict([]byte(in))
	if want := "---\nname: X\ndescription: ours\n---\ncommon\n"; string(ours) != want {
		t.Errorf("ours=%q, want %q", ours, want)
	}
	if want := "---\nname: X\ndescription: theirs\n---\ncommon\nadded\n"; string(theirs) != want {
		t.Errorf("theirs=%q, want %q", theirs, want)
	}
	if ol != "HEAD" || tl != "feature" {
		t.Errorf("labels=%q,%q, want HEAD,feature", ol, tl)
	}
}

func TestUnionLines(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"a\nb\nc\n", "a\nb\nc\n", "a\nb\nc\n"},
		{"a\nc\n", "a\nb\nc\n", "a\nb\nc\n"},
		{"a\nb\nc\nd\n", "a\nx\nc\n", "a\nx\nb\nc\nd\n"},
		{"one\n\ntwo\n", "one\n\ntwo\nthree\n", "one\n\ntwo\nthree\n"},
		{"", "b\n", "b\n"},
		{"first\n", "zero\nfirst\n", "zero\nfirst\n"},
	} {
		if got := unionLines(c.a, c.b); got != c.want {
			t.Errorf("unionLines(%q, %q)=%q, want %q", c.a, c.b, got, c.want)
		}
	}
}

const conflicted = `---
name: Deploy flow
<<<<<<< HEAD
description: How we deploy (main)
updated: 2026-11-20T10:00:00Z
author: Alice
=======
description: How we deploy (feature)
updated: 2026-11-21T10:00:00Z
author: Bob
>>>>>>> feature
type: project
---
Run make deploy.
<<<<<<< HEAD
Tag the release.
=======
Ping #ops first.
>>>>>>> feature
`

func TestTeamResolve_Conflict(t *testing.T) {
	for _, c := range []struct {
		choice, desc string
		body         []string
	}{
		{ResolveOurs, "How we deploy (main)", []string{"Tag the release."}},
		{ResolveTheirs, "How we deploy (feature)", []string{"Ping #ops first."}},
		{ResolveBoth, "How we deploy (feature)", []string{"Tag the release.", "Ping #ops first."}},
	} {
		t.Run(c.choice, func(t *testing.T) {
			_, l, ws := teamEnv(t, true)
			writeTeam(t, l, "deploy-flow.md", conflicted)
			if _, err := ws.Store.Get("deploy-flow"); !errors.Is(err, memdir.ErrConflictMarkers) {
				t.Fatalf("Get(conflicted)=%v, want ErrConflictMarkers", err)
			}
			show, err := ws.TeamResolve(t.Context(), "team/deploy-flow.md", "")
			if err != nil {
				t.Fatal(err)
			}
			if show.Ours == nil || show.Ours.Author != "Alice" || show.Theirs.Description != "How we deploy (feature)" {
				t.Fatalf("TeamResolve(show)=%+v", show)
			}
			res, err := ws.TeamResolve(t.Context(), "deploy-flow", c.choice)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Staged {
				t.Error("the resolution was not staged")
			}
			m, err := ws.Store.Read("deploy-flow.md")
			if err != nil {
				t.Fatal(err)
			}
			if m.Description != c.desc {
				t.Errorf("description=%q, want %q", m.Description, c.desc)
			}
			for _, line := range c.body {
				if !strings.Contains(m.Body, line) {
					t.Errorf("body %q lacks %q", m.Body, line)
				}
			}
			if strings.Count(m.Body, "Run make deploy.") != 1 {
				t.Errorf("body %q repeats a line", m.Body)
			}
			if status := teamGit(t, l.WorkTree, "status", "--porcelain", "--", ".memdir/team/deploy-flow.md"); !strings.HasPrefix(status, "A ") {
				t.Errorf("git status=%q, want staged", status)
			}
		})
	}
}

func TestTeamResolve_SecretRefused(t *testing.T) {
	_, l, ws := teamEnv(t, false)
	in := strings.Replace(conflicted, "Ping #ops first.", "Token "+ghToken+".", 1)
	writeTeam(t, l, "deploy-flow.md", in)
	_, err := ws.TeamResolve(t.Context(), "deploy-flow", ResolveTheirs)
	if !errors.Is(err, memdir.ErrSecret) {
		t.Fatalf("TeamResolve(--theirs with a secret)=%v, want ErrSecret", err)
	}
	if b, _ := os.ReadFile(filepath.Join(l.TeamDir, "deploy-flow.md")); string(b) != in {
		t.Fatal("a refused resolution changed the file")
	}
	if _, err := ws.TeamResolve(t.Context(), "deploy-flow", ResolveOurs); err != nil {
		t.Fatalf("TeamResolve(--ours, clean)=%v", err)
	}
}

func TestTeamResolve_Tombstone(t *testing.T) {
	ctx := t.Context()
	for _, choice := range []string{ResolveKeep, ResolveDrop} {
		t.Run(choice, func(t *testing.T) {
			_, l, ws := teamEnv(t, false)
			if _, err := ws.Save(ctx, SaveRequest{Name: "Old runbook", Description: "the old way", Type: "project", Body: "Do X."}); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(l.TeamDir, "old-runbook.md"))
			if _, err := ws.Store.Forget(ctx, "old-runbook", false); err != nil {
				t.Fatal(err)
			}
			writeTeam(t, l, "old-runbook.md", string(b)) // a stale branch brings it back
			if _, err := ws.TeamResolve(ctx, "old-runbook", ResolveBoth); err == nil {
				t.Fatal("TeamResolve(--both) of a memory with no conflict succeeded")
			}
			if _, err := ws.TeamResolve(ctx, "old-runbook", choice); err != nil {
				t.Fatal(err)
			}
			fs, err := ws.TeamCheck()
			if err != nil || len(fs) != 0 {
				t.Fatalf("TeamCheck() after --%s = %v, %v", choice, kinds(fs), err)
			}
			_, err = os.Stat(filepath.Join(l.TeamDir, "old-runbook.md"))
			if kept := err == nil; kept != (choice == ResolveKeep) {
				t.Fatalf("after --%s the memory is there: %v", choice, kept)
			}
			tombs, _, _ := ws.Store.Tombstones()
			if (len(tombs) == 1) != (choice == ResolveDrop) {
				t.Fatalf("after --%s tombstones=%v", choice, tombs)
			}
		})
	}
}

func TestShareUnshare(t *testing.T) {
	ctx := t.Context()
	env, l := testEnv(t)
	vars := map[string]string{"MEMDIR_AUTHOR": "Carol"}
	env.Getenv = func(k string) string { return vars[k] }
	priv, err := OpenLayout(env, l, true)
	if err != nil {
		t.Fatal(err)
	}
	save := func(name, typ, body string) {
		t.Helper()
		if _, err := priv.Save(ctx, SaveRequest{Name: name, Description: name + " description", Type: typ, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	save("Deploy flow", "project", "Run make deploy.")
	save("My role", "user", "I am the DBA.")

	if _, err := priv.PlanShare("my-role"); err == nil || !strings.Contains(err.Error(), "always stays private") {
		t.Fatalf("PlanShare(user memory)=%v, want a refusal", err)
	}
	// The private store redacts a secret; a field it does not scan first
	// would be caught by the plan: write the file as Claude Code would.
	if err := os.WriteFile(filepath.Join(l.MemoryDir, "leak.md"), []byte("---\nname: Leak\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := priv.PlanShare("leak"); !errors.Is(err, memdir.ErrSecret) || !strings.Contains(err.Error(), "github-token") {
		t.Fatalf("PlanShare(secret)=%v, want ErrSecret listing github-token", err)
	}

	p, err := priv.PlanShare("deploy-flow")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Preview, "scope: team\n") || !strings.Contains(p.Preview, "author: Carol\n") {
		t.Fatalf("preview %q lacks scope team or the author", p.Preview)
	}
	res, err := priv.Share(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(l.TeamDir, "deploy-flow.md"))
	if err != nil || string(got) != p.Preview {
		t.Fatalf("team file=%q (%v), want the preview %q", got, err, p.Preview)
	}
	if _, err := os.Stat(filepath.Join(l.MemoryDir, "deploy-flow.md")); !os.IsNotExist(err) || res.MovedTo == "" {
		t.Fatalf("the private copy is still there (%v) or was not kept (%q)", err, res.MovedTo)
	}
	if s := TeamLink(l); s.State != "ok" {
		t.Errorf("link=%+v, want ok", s)
	}

	// A second memory of the same name is refused, not overwritten.
	save("Deploy flow", "project", "Another version.")
	if _, err := priv.PlanShare("deploy-flow"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("PlanShare(name taken)=%v, want a refusal", err)
	}
	if _, err := priv.Store.Forget(ctx, "deploy-flow", true); err != nil {
		t.Fatal(err)
	}

	up, err := priv.PlanUnshare("team/deploy-flow.md")
	if err != nil {
		t.Fatal(err)
	}
	ures, err := priv.Unshare(ctx, up)
	if err != nil {
		t.Fatal(err)
	}
	m, err := priv.Store.Read("deploy-flow.md")
	if err != nil || m.Scope != memdir.ScopePrivate || m.Body != "Run make deploy." && m.Body != "Run make deploy.\n" {
		t.Fatalf("private copy=%+v, %v", m, err)
	}
	if ures.Tombstone == "" {
		t.Fatal("unshare left no tombstone")
	}
	if _, err := os.Stat(filepath.Join(l.TeamDir, "deploy-flow.md")); !os.IsNotExist(err) {
		t.Fatalf("the team copy is still there: %v", err)
	}
}

// gitAs runs git in dir as name.
func gitAs(t *testing.T, name, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=" + name, "-c", "user.email=x@example.com", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil && args[0] != "merge" {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

const resolveBase = "---\nname: Deploy flow\ndescription: base\ntype: project\nauthor: Carol\n---\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\n"

// mergeConflict commits base on main, ours on main (by Alice) and theirs
// on a branch feature (by Bob), and merges feature into main: a conflict.
// An empty ours or theirs deletes the file on that side.
func mergeConflict(t *testing.T, l paths.Layout, ours, theirs string) {
	t.Helper()
	dir := l.WorkTree
	writeTeam(t, l, "deploy-flow.md", resolveBase)
	gitAs(t, "Carol", dir, "add", "-A")
	gitAs(t, "Carol", dir, "commit", "-q", "-m", "base")
	gitAs(t, "Carol", dir, "branch", "feature")
	set := func(who, text string) {
		if text == "" {
			gitAs(t, who, dir, "rm", "-q", ".memdir/team/deploy-flow.md")
		} else {
			writeTeam(t, l, "deploy-flow.md", text)
			gitAs(t, who, dir, "add", "-A")
		}
		gitAs(t, who, dir, "commit", "-q", "-m", who)
	}
	set("Alice", ours)
	gitAs(t, "Bob", dir, "checkout", "-q", "feature")
	set("Bob", theirs)
	gitAs(t, "Alice", dir, "checkout", "-q", "main")
	gitAs(t, "Alice", dir, "merge", "-q", "feature")
}

// --ours and --theirs give the whole file as that side had it (git's
// stages 2 and 3), not the markers' split, which holds the other side's
// changes that merged cleanly.
func TestTeamResolve_GitStages(t *testing.T) {
	ours := strings.Replace(strings.Replace(resolveBase, "description: base", "description: main", 1), "line 9", "line 9 (main)", 1)
	theirs := strings.Replace(strings.Replace(resolveBase, "description: base", "description: feature", 1), "line 1\n", "line 1 (feature)\n", 1)
	for _, c := range []struct{ choice, want string }{{ResolveOurs, ours}, {ResolveTheirs, theirs}} {
		t.Run(c.choice, func(t *testing.T) {
			_, l, ws := teamEnv(t, true)
			mergeConflict(t, l, ours, theirs)
			show, err := ws.TeamResolve(t.Context(), "deploy-flow", "")
			if err != nil {
				t.Fatal(err)
			}
			if show.Ours.Label != "HEAD" || show.Theirs.Label != "feature" || show.Ours.ChangedBy != "Alice" || show.Theirs.ChangedBy != "Bob" || show.Ours.Author != "Carol" {
				t.Fatalf("sides: ours %q changed by %q, theirs %q changed by %q, author %q; want HEAD/Alice, feature/Bob, Carol",
					show.Ours.Label, show.Ours.ChangedBy, show.Theirs.Label, show.Theirs.ChangedBy, show.Ours.Author)
			}
			if _, err := ws.TeamResolve(t.Context(), "deploy-flow", c.choice); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(l.TeamDir, "deploy-flow.md"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := memdir.Parse("deploy-flow.md", got)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := memdir.Parse("deploy-flow.md", []byte(c.want))
			if m.Description != w.Description || m.Body != w.Body {
				t.Fatalf("--%s gave %q / %q, want %q / %q", c.choice, m.Description, m.Body, w.Description, w.Body)
			}
		})
	}
}

// A file git left as modify/delete: one side has no version. Choosing it
// deletes the memory; choosing the other keeps that version.
func TestTeamResolve_ModifyDelete(t *testing.T) {
	theirs := strings.Replace(resolveBase, "line 5", "line 5 (feature)", 1)
	for _, c := range []string{ResolveOurs, ResolveTheirs} {
		t.Run(c, func(t *testing.T) {
			_, l, ws := teamEnv(t, true)
			mergeConflict(t, l, "", theirs)
			show, err := ws.TeamResolve(t.Context(), "deploy-flow", "")
			if err != nil {
				t.Fatal(err)
			}
			if !show.Ours.Deleted || show.Theirs.Deleted || !strings.Contains(show.Theirs.Body, "line 5 (feature)") {
				t.Fatalf("sides=%+v / %+v, want ours deleted", show.Ours, show.Theirs)
			}
			if _, err := ws.TeamResolve(t.Context(), "deploy-flow", ResolveBoth); err == nil {
				t.Fatal("--both with a deleted side: no error")
			}
			res, err := ws.TeamResolve(t.Context(), "deploy-flow", c)
			if err != nil || !res.Staged {
				t.Fatalf("resolve --%s=%+v, %v", c, res, err)
			}
			_, err = os.Stat(filepath.Join(l.TeamDir, "deploy-flow.md"))
			if gone := os.IsNotExist(err); gone != (c == ResolveOurs) {
				t.Fatalf("--%s: file gone=%v", c, gone)
			}
			if u := teamGit(t, l.WorkTree, "ls-files", "-u"); u != "" {
				t.Fatalf("still unmerged: %s", u)
			}
			if staged := teamGit(t, l.WorkTree, "diff", "--cached", "--name-only"); c == ResolveOurs && !strings.Contains(staged, ".memdir/team/.tombstones/deploy-flow.jsonl") {
				t.Fatalf("--ours: the tombstone is not staged: %q", staged)
			}
		})
	}
}
