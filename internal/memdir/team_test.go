package memdir_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

func openTeam(t *testing.T, now time.Time) *memdir.Store {
	t.Helper()
	st, err := memdir.Open(filepath.Join(t.TempDir(), ".memdir", "team"), memdir.Options{Create: true, Team: true, Author: "Ana Lima", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.WriteTeamIgnore(); err != nil {
		t.Fatal(err)
	}
	return st
}

// A team memory that holds a secret is refused, listing what was found,
// and nothing of it reaches the folder; a private folder redacts instead.
func TestTeam_SecretRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	secret := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	_, err := st.Save(ctx, memdir.Memory{Name: "CI token", Description: "the CI token", Type: memdir.TypeReference, Body: "Use " + secret + " for CI.\n"}, memdir.SaveOptions{})
	var se *memdir.SecretError
	if !errors.As(err, &se) || !errors.Is(err, memdir.ErrSecret) || len(se.Labels) == 0 {
		t.Fatalf("Save of a secret = %v, want a SecretError with labels", err)
	}
	if !strings.Contains(err.Error(), se.Labels[0]) {
		t.Errorf("error %q does not name the label %q", err, se.Labels[0])
	}
	entries, _ := os.ReadDir(st.Dir())
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(st.Dir(), e.Name()))
		if strings.Contains(string(b), secret) {
			t.Fatalf("%s holds the secret", e.Name())
		}
		if strings.HasSuffix(e.Name(), ".md") {
			t.Errorf("a refused save left %s", e.Name())
		}
	}
	// A secret in a field memdir does not own is found too.
	m, err := memdir.Parse("x.md", []byte("---\nname: X\ntype: project\nextra: "+secret+"\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	if labels := memdir.SecretsIn(m); len(labels) == 0 {
		t.Error("SecretsIn missed a secret in an unknown field")
	}
	if _, err := st.Save(ctx, m, memdir.SaveOptions{}); !errors.Is(err, memdir.ErrSecret) {
		t.Errorf("Save of a parsed file with a secret = %v", err)
	}

	priv := MustOpen(t, t0)
	res, err := priv.Save(ctx, memdir.Memory{Name: "CI token", Description: "the CI token", Type: memdir.TypeReference, Body: "Use " + secret + " for CI.\n"}, memdir.SaveOptions{})
	if err != nil || len(res.Redactions) == 0 {
		t.Fatalf("a private save of a secret: %+v %v, want redacted", res, err)
	}
}

// A team memory gets its author and scope; an update keeps the author.
func TestTeam_AuthorAndScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Deploy flow", Description: "how we deploy", Type: memdir.TypeProject, Body: "make deploy\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Memory.Author != "Ana Lima" || res.Memory.Scope != memdir.ScopeTeam {
		t.Fatalf("author %q scope %q", res.Memory.Author, res.Memory.Scope)
	}
	other, err := memdir.Open(st.Dir(), memdir.Options{Team: true, Author: "Bo", Now: func() time.Time { return t0.Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Save(ctx, memdir.Memory{File: res.File, Body: "make deploy ENV=prod\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := other.Get(res.File)
	if err != nil || m.Author != "Ana Lima" {
		t.Fatalf("after Bo's edit: author %q, %v (who added it stays)", m.Author, err)
	}
	raw, _ := os.ReadFile(res.Path)
	if !strings.Contains(string(raw), "author: Ana Lima\n") || !strings.Contains(string(raw), "scope: team\n") {
		t.Errorf("file:\n%s", raw)
	}
}

// Forget in a team folder leaves a tombstone naming what, who and when;
// a save does not undo it unless told to (Revive), which removes it.
func TestTeam_Tombstone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Old flow", Description: "the old deploy", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := st.Forget(ctx, res.File, false)
	if err != nil {
		t.Fatal(err)
	}
	if fr.Tombstone != ".tombstones/old-flow.jsonl" || fr.Tombstone != memdir.TombstoneFile(res.File) {
		t.Fatalf("tombstone %q", fr.Tombstone)
	}
	ts, problems, err := st.Tombstones()
	if err != nil || len(problems) != 0 || len(ts) != 1 {
		t.Fatalf("Tombstones() = %+v %v %v", ts, problems, err)
	}
	if ts[0].File != "old-flow.md" || ts[0].Name != "Old flow" || ts[0].By != "Ana Lima" || !ts[0].At.Equal(t0) {
		t.Errorf("tombstone %+v", ts[0])
	}
	if !memdir.IsTeamFile(fr.Tombstone) || !memdir.IsTeamFile("old-flow.md") || memdir.IsTeamFile("MEMORY.md") || memdir.IsTeamFile(".forgotten/old-flow.md.x") || !memdir.IsTeamFile(".gitattributes") {
		t.Error("IsTeamFile")
	}
	// Nothing automatic brings it back.
	_, err = st.Save(ctx, memdir.Memory{Name: "Old flow", Description: "back", Type: memdir.TypeProject, Body: "y\n"}, memdir.SaveOptions{})
	if !errors.Is(err, memdir.ErrTombstoned) || !strings.Contains(err.Error(), "memdir team resolve old-flow --keep") {
		t.Fatalf("save over a tombstone = %v", err)
	}
	if _, err := os.Stat(res.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused save wrote %s", res.File)
	}
	res2, err := st.Save(ctx, memdir.Memory{Name: "Old flow", Description: "back", Type: memdir.TypeProject, Body: "y\n"}, memdir.SaveOptions{Revive: true})
	if err != nil || !res2.Revived {
		t.Fatalf("save again: %+v %v, want revived", res2, err)
	}
	if ts, _, _ := st.Tombstones(); len(ts) != 0 {
		t.Errorf("tombstone left after a revive: %+v", ts)
	}
	// A corrupt tombstone is still listed, by its file name, and reported.
	if err := os.WriteFile(st.Path(".tombstones/gone.jsonl"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, problems, _ = st.Tombstones()
	if len(ts) != 1 || ts[0].File != "gone.md" || len(problems) != 1 {
		t.Errorf("corrupt tombstone: %+v %v", ts, problems)
	}
}

// Two forgets of one memory, on two branches, are two lines a union merge
// joins: the tombstone reads as the latest.
func TestTeam_TombstoneUnion(t *testing.T) {
	t.Parallel()
	b := []byte(`{"file":"x.md","name":"X","by":"Bo","at":"2026-11-25T12:00:00Z"}
{"file":"x.md","name":"X","by":"Ana","at":"2026-11-25T10:00:00Z"}
`)
	got, err := memdir.ParseTombstone("x.md", b)
	if err != nil || got.By != "Bo" || got.File != "x.md" {
		t.Errorf("ParseTombstone = %+v %v", got, err)
	}
	if _, err := memdir.ParseTombstone("x.md", []byte("\n")); err == nil {
		t.Error("an empty tombstone parsed")
	}
	st := openTeam(t, t0)
	a, err := os.ReadFile(st.Path(memdir.TeamAttributes))
	if err != nil || !strings.Contains(string(a), ".tombstones/*.jsonl merge=union") {
		t.Errorf(".gitattributes: %q %v", a, err)
	}
}

// A forget whose tombstone cannot be written changes nothing.
func TestTeam_ForgetTombstoneFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Keep me", Description: "d", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A folder where the tombstone's file goes: it cannot be written,
	// whoever runs the test.
	if err := os.MkdirAll(st.Path(memdir.TombstoneFile(res.File)), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = st.Forget(ctx, res.File, false)
	if err == nil || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("Forget without a tombstone = %v", err)
	}
	if _, err := os.Stat(res.Path); err != nil {
		t.Errorf("the memory is gone: %v", err)
	}
	if !strings.Contains(readIndex(t, st), res.File) {
		t.Errorf("the index line is gone")
	}
}

// Links a hostile clone commits inside a team folder, where memdir writes
// (its tombstones, its cache), are refused before any write.
func TestTeam_OwnedLinksRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows")
	}
	t.Parallel()
	ctx := context.Background()
	for _, owned := range []string{memdir.TombstoneDir, memdir.CacheDir, memdir.ForgottenDir, memdir.IndexFile} {
		st := openTeam(t, t0)
		res, err := st.Save(ctx, memdir.Memory{Name: "Deploy flow", Description: "d", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		victim := t.TempDir()
		_ = os.RemoveAll(st.Path(owned))
		if err := os.Symlink(victim, st.Path(owned)); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Save(ctx, memdir.Memory{Name: "Other", Description: "d", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{}); !errors.Is(err, memdir.ErrSymlinkEscape) {
			t.Errorf("%s linked: Save = %v", owned, err)
		}
		if _, err := st.Forget(ctx, res.File, false); !errors.Is(err, memdir.ErrSymlinkEscape) {
			t.Errorf("%s linked: Forget = %v", owned, err)
		}
		if entries, _ := os.ReadDir(victim); len(entries) != 0 {
			t.Errorf("%s linked: memdir wrote %v outside the folder", owned, entries)
		}
	}
}

// A team folder never holds a user memory, however it is written.
func TestTeam_UserTypeRefused(t *testing.T) {
	t.Parallel()
	st := openTeam(t, t0)
	m, err := memdir.Parse("me.md", []byte("---\nname: Me\ntype: user\n---\nI like Go.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(context.Background(), m, memdir.SaveOptions{}); !errors.Is(err, memdir.ErrInvalid) {
		t.Errorf("Save(user) = %v", err)
	}
}

// An edit that gives the whole file without who added the memory and when
// keeps both.
func TestTeam_WholeFileEditKeepsAuthor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Deploy flow", Description: "d", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := memdir.Parse(res.File, []byte("---\nname: Deploy flow\ndescription: d2\ntype: project\n---\ny\n"))
	if err != nil {
		t.Fatal(err)
	}
	bo, _ := memdir.Open(st.Dir(), memdir.Options{Team: true, Author: "Bo", Now: func() time.Time { return t0.Add(time.Hour) }})
	if _, err := bo.Save(ctx, whole, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := bo.Get(res.File)
	if err != nil || m.Author != "Ana Lima" || !m.Created.Equal(t0) || m.Description != "d2" {
		t.Errorf("after a whole-file edit: %+v %v", m, err)
	}
}

const conflicted = `---
name: Deploy flow
description: how we deploy
type: project
<<<<<<< HEAD
updated: 2026-11-25T10:00:00Z
=======
updated: 2026-11-25T11:00:00Z
>>>>>>> feature
---
<<<<<<< HEAD
Run make deploy.
=======
Run make ship.
>>>>>>> feature
`

// A file git left with conflict markers is no memory to read or write
// over, until it is settled from a whole file.
func TestTeam_ConflictMarkers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	if !memdir.HasConflictMarkers([]byte(conflicted)) || !memdir.HasConflictMarkers([]byte(strings.ReplaceAll(conflicted, "\n", "\r\n"))) {
		t.Fatal("HasConflictMarkers missed git's markers")
	}
	for _, s := range []string{"a <<<<<<< b\n>>>>>>> c\n", "<<<<<<< only the start\n", ">>>>>>> x\n<<<<<<< y\n",
		"<<<<<<< HEAD\nno middle line\n>>>>>>> x\n",
		"How to settle a go.sum conflict:\n```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n```\n"} {
		if memdir.HasConflictMarkers([]byte(s)) {
			t.Errorf("HasConflictMarkers(%q)", s)
		}
	}
	if err := os.WriteFile(st.Path("deploy-flow.md"), []byte(conflicted), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get("deploy-flow.md"); !errors.Is(err, memdir.ErrConflictMarkers) {
		t.Errorf("Get = %v, want ErrConflictMarkers", err)
	}
	_, err := st.Save(ctx, memdir.Memory{File: "deploy-flow.md", Body: "Run make deploy.\n"}, memdir.SaveOptions{})
	if !errors.Is(err, memdir.ErrConflictMarkers) || !strings.Contains(err.Error(), "memdir team resolve deploy-flow") {
		t.Errorf("Save over a conflict = %v", err)
	}
	whole, err := memdir.Parse("deploy-flow.md", []byte("---\nname: Deploy flow\ndescription: how we deploy\ntype: project\n---\nRun make ship.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, whole, memdir.SaveOptions{IfMatch: []byte(conflicted)}); err != nil {
		t.Fatalf("settling from a whole file: %v", err)
	}
	if m, err := st.Get("deploy-flow.md"); err != nil || !strings.Contains(m.Body, "make ship") {
		t.Errorf("settled: %+v %v", m, err)
	}
	// A private folder is not a team folder: a memory about conflicts is
	// a memory.
	priv := MustOpen(t, t0)
	if err := os.WriteFile(priv.Path("about.md"), []byte("---\nname: About\n---\n"+strings.SplitN(conflicted, "---\n", 3)[2]), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := priv.Get("about.md"); err != nil {
		t.Errorf("private Get: %v", err)
	}
}

// The .gitignore keeps what is derived or local out of git, and is never
// overwritten.
func TestTeam_Ignore(t *testing.T) {
	t.Parallel()
	st := openTeam(t, t0)
	b, err := os.ReadFile(st.Path(memdir.TeamIgnore))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MEMORY.md\n", memdir.CacheDir + "/\n", memdir.ForgottenDir + "/\n", memdir.BatchDir + "/\n", ".memdir.lock\n", memdir.UsageFile + "\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf(".gitignore lacks %q", want)
		}
	}
	if err := os.WriteFile(st.Path(memdir.TeamIgnore), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := st.WriteTeamIgnore(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(st.Path(memdir.TeamIgnore)); string(b) != "mine\n" {
		t.Errorf("WriteTeamIgnore overwrote a .gitignore: %q", b)
	}
}

// LinkTeam puts a link where Claude Code's layout keeps team folders, and
// leaves a real folder there alone.
func TestTeam_Link(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need a privilege on Windows")
	}
	t.Parallel()
	priv := MustOpen(t, t0)
	target := t.TempDir()
	created, err := priv.LinkTeam("repo", target)
	if err != nil || !created {
		t.Fatalf("LinkTeam = %v %v", created, err)
	}
	if p, got := priv.TeamLink("repo"); got != target || p != filepath.Join(priv.Dir(), "team", "repo") {
		t.Errorf("TeamLink = %s → %s", p, got)
	}
	if created, err := priv.LinkTeam("repo", target); err != nil || created {
		t.Errorf("again: %v %v, want a no-op", created, err)
	}
	if err := os.MkdirAll(filepath.Join(priv.Dir(), "team", "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := priv.LinkTeam("real", target); err == nil {
		t.Error("LinkTeam replaced a real folder")
	}
	if _, err := priv.LinkTeam("../x", target); err == nil {
		t.Error("LinkTeam took a mount that leaves team/")
	}
	// The link is no memory of the private folder.
	if files, err := priv.Files(); err != nil || len(files) != 0 {
		t.Errorf("Files() = %v %v", files, err)
	}
}

// A secret in a frontmatter field memdir does not know, given as key and
// value ("db_password: hunter22x"), is found as a pair.
func TestTeam_SecretInUnknownField(t *testing.T) {
	t.Parallel()
	for _, field := range []string{"db_password: hunter22x", "api_token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"} {
		m, err := memdir.Parse("x.md", []byte("---\nname: X\ntype: project\n"+field+"\n---\nbody\n"))
		if err != nil {
			t.Fatal(err)
		}
		if labels := memdir.SecretsIn(m); len(labels) == 0 {
			t.Errorf("SecretsIn missed %q", field)
		}
		if _, err := openTeam(t, t0).Save(context.Background(), m, memdir.SaveOptions{}); !errors.Is(err, memdir.ErrSecret) {
			t.Errorf("team Save of %q = %v", field, err)
		}
		priv := MustOpen(t, t0)
		res, err := priv.Save(context.Background(), m, memdir.SaveOptions{})
		if err != nil || len(res.Redactions) == 0 {
			t.Fatalf("private save: %+v %v", res, err)
		}
		raw, _ := os.ReadFile(res.Path)
		if v := strings.SplitN(field, ": ", 2)[1]; strings.Contains(string(raw), v) {
			t.Errorf("private file keeps %q:\n%s", v, raw)
		}
	}
	// An ordinary field is no secret.
	m, _ := memdir.Parse("x.md", []byte("---\nname: X\ntype: project\nowner: Ana Lima\nticket: PROJ-1234\n---\nbody\n"))
	if labels := memdir.SecretsIn(m); len(labels) != 0 {
		t.Errorf("SecretsIn(ordinary fields) = %v", labels)
	}
}

// Restore in a team folder is a person bringing a memory back: it removes
// the tombstone; a kept version holding a secret is refused, not redacted.
func TestTeam_Restore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Old flow", Description: "the old deploy", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Forget(ctx, res.File, false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Restore(ctx, res.File, ""); err != nil {
		t.Fatal(err)
	}
	if ts, _, _ := st.Tombstones(); len(ts) != 0 {
		t.Errorf("tombstone left after a restore: %+v", ts)
	}
	// A kept version with a secret (written by hand into .forgotten).
	secret := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	if err := os.WriteFile(st.Path(".forgotten/token.md.20261101T000000Z"), []byte("---\nname: Token\ntype: reference\n---\nUse "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Restore(ctx, "token.md", ""); !errors.Is(err, memdir.ErrSecret) {
		t.Errorf("Restore of a secret = %v", err)
	}
	if _, err := os.Stat(st.Path("token.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused restore wrote the memory")
	}
	if _, err := st.Apply(ctx, memdir.Batch{Retire: []string{res.File}}); err == nil {
		t.Error("Apply on a team folder was not refused")
	}
}

// A memory that came without an author (written through the link by
// another tool) gets the author of its first save; the rebuilt index of a
// team folder leaves out a memory its tombstone says was forgotten.
func TestTeam_AuthorStampedAndIndexSkipsTombstoned(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openTeam(t, t0)
	if err := os.WriteFile(st.Path("ci.md"), []byte("---\nname: CI\ndescription: where CI runs\nmetadata:\n  type: reference\n---\nGitHub Actions.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "ci.md", Description: "where CI runs, and how"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if m, err := st.Get("ci.md"); err != nil || m.Author != "Ana Lima" {
		t.Errorf("author after a first save: %q %v", m.Author, err)
	}
	res, err := st.Save(ctx, memdir.Memory{Name: "Old flow", Description: "d", Type: memdir.TypeProject, Body: "x\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(res.Path)
	if _, err := st.Forget(ctx, res.File, false); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(res.Path, raw, 0o600); err != nil { // a stale branch brings it back
		t.Fatal(err)
	}
	if _, err := st.RebuildIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if ix := readIndex(t, st); strings.Contains(ix, res.File) || !strings.Contains(ix, "ci.md") {
		t.Errorf("rebuilt index:\n%s", ix)
	}
}
