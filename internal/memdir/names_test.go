package memdir_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// TestSave_SlugCollision: two memories whose names share a slug are two
// files; neither overwrites the other, and each is found by its name.
func TestSave_SlugCollision(t *testing.T) {
	st := MustOpen(t, t0)
	ctx := context.Background()
	for _, pair := range [][2]string{{"API ключи", "API токены"}, {"C++ style", "C# style"}} {
		a, err := st.Save(ctx, memdir.Memory{Name: pair[0], Type: memdir.TypeProject, Description: "first", Body: "first body\n"}, memdir.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := st.Save(ctx, memdir.Memory{Name: pair[1], Type: memdir.TypeProject, Description: "second", Body: "second body\n"}, memdir.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.File == b.File || !b.Created {
			t.Fatalf("%q and %q: files %s and %s, second created=%v", pair[0], pair[1], a.File, b.File, b.Created)
		}
		for i, name := range pair {
			m, err := st.Get(name)
			if err != nil {
				t.Fatalf("Get(%q): %v", name, err)
			}
			if want := []string{"first body\n", "second body\n"}[i]; m.Body != want {
				t.Errorf("Get(%q).Body = %q, want %q", name, m.Body, want)
			}
		}
		// Saving by the first name again updates the first, not a third.
		again, err := st.Save(ctx, memdir.Memory{Name: strings.ToUpper(pair[0]), Body: "first, again\n"}, memdir.SaveOptions{})
		if err != nil || again.File != a.File || again.Created {
			t.Errorf("re-save of %q: %+v %v", pair[0], again, err)
		}
	}
}

// TestSave_ClaudeCodeFileByName: a memory Claude Code wrote under a file
// name of its own is found, and updated, by the name memdir list shows.
func TestSave_ClaudeCodeFileByName(t *testing.T) {
	st := MustOpen(t, t0)
	ctx := context.Background()
	raw := "---\nname: Testing approach\ndescription: integration tests hit a real database\nmetadata:\n  type: feedback\n  modified: 2026-01-02\n---\nNo mocks for the database.\n"
	if err := os.WriteFile(st.Path("feedback_testing.md"), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := st.Get("testing  APPROACH")
	if err != nil || m.File != "feedback_testing.md" {
		t.Fatalf("Get by name = %q, %v", m.File, err)
	}
	res, err := st.Save(ctx, memdir.Memory{Name: "Testing approach", Body: "No mocks, ever.\n"}, memdir.SaveOptions{})
	if err != nil || res.File != "feedback_testing.md" || res.Created {
		t.Fatalf("Save by name = %+v, %v", res, err)
	}
	if _, err := os.Stat(st.Path("testing-approach.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a duplicate testing-approach.md was created")
	}
	// Claude Code dates a memory by metadata.modified: it moves with the update.
	b, _ := os.ReadFile(st.Path("feedback_testing.md"))
	if !strings.Contains(string(b), "modified: 2026-11-22\n") || !strings.Contains(string(b), "  type: feedback\n") {
		t.Errorf("metadata block after the update:\n%s", b)
	}
	// A name that looks like a file name is still a name.
	if _, err := st.Save(ctx, memdir.Memory{Name: "notes.md", Type: memdir.TypeUser, Description: "d"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if m, err := st.Get("notes.md"); err != nil || m.Title() != "notes.md" {
		t.Errorf("Get(notes.md) = %q, %v", m.File, err)
	}
}

// TestResolve_Ambiguous: a name two memories share is refused, not
// guessed, so forget never removes the wrong one.
func TestResolve_Ambiguous(t *testing.T) {
	st := MustOpen(t, t0)
	for _, f := range []string{"one.md", "two.md"} {
		if err := os.WriteFile(st.Path(f), []byte("---\nname: Same name\ndescription: d\ntype: user\n---\nbody\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Forget(context.Background(), "Same name", true); !errors.Is(err, memdir.ErrAmbiguous) {
		t.Errorf("Forget of a shared name: %v, want ErrAmbiguous", err)
	}
	for _, f := range []string{"one.md", "two.md"} {
		if _, err := os.Stat(st.Path(f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestSave_MustExist: an update of a memory that was forgotten meanwhile
// fails instead of bringing back a memory without a name or type.
func TestSave_MustExist(t *testing.T) {
	st := MustOpen(t, t0)
	_, err := st.Save(context.Background(), memdir.Memory{File: "gone.md", Description: "new"}, memdir.SaveOptions{MustExist: true})
	if !errors.Is(err, memdir.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	if _, err := os.Stat(st.Path("gone.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("gone.md was created")
	}
}

// TestSave_TooBig: a memory over the file size limit is refused, since
// it could not be read back.
func TestSave_TooBig(t *testing.T) {
	st := MustOpen(t, t0)
	_, err := st.Save(context.Background(), memdir.Memory{Name: "big", Type: memdir.TypeProject, Body: strings.Repeat("x", memdir.MaxFileSize)}, memdir.SaveOptions{})
	if !errors.Is(err, memdir.ErrInvalid) || !strings.Contains(err.Error(), "limit") {
		t.Errorf("err = %v, want ErrInvalid naming the limit", err)
	}
	if _, err := os.Stat(st.Path("big.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("big.md was written")
	}
	if ix, _ := os.ReadFile(st.Path(memdir.IndexFile)); strings.Contains(string(ix), "big.md") {
		t.Error("MEMORY.md lists big.md")
	}
}

// TestSave_ByNameInALargeFolder: past a thousand memories a save looks its
// name up through MEMORY.md's titles, and still finds Claude Code's file.
func TestSave_ByNameInALargeFolder(t *testing.T) {
	st := MustOpen(t, t0)
	ix := largeFolder(st)
	os.WriteFile(st.Path("feedback_testing.md"), []byte("---\nname: Testing approach\ndescription: real database\nmetadata:\n  type: feedback\n---\nNo mocks.\n"), 0o600)
	ix.WriteString("- [Testing approach](feedback_testing.md) — real database\n")
	os.WriteFile(st.Path(memdir.IndexFile), []byte(ix.String()), 0o600)
	res, err := st.Save(context.Background(), memdir.Memory{Name: "testing approach", Body: "No mocks, ever.\n"}, memdir.SaveOptions{})
	if err != nil || res.File != "feedback_testing.md" || res.Created {
		t.Fatalf("Save by name = %s created=%v, %v", res.File, res.Created, err)
	}
}

// TestNames_NeverTheIndex: on macOS and Windows "memory.md" is MEMORY.md,
// so no memory is ever given that file, and no name resolves to it.
func TestNames_NeverTheIndex(t *testing.T) {
	st := MustOpen(t, t0)
	ctx := context.Background()
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask.")
	res, err := st.Save(ctx, memdir.Memory{Name: "Memory", Type: memdir.TypeProject, Description: "RAM budget is 2GB"}, memdir.SaveOptions{})
	if err != nil || res.File != "memory-2.md" {
		t.Fatalf("a memory named Memory went to %q (%v)", res.File, err)
	}
	for _, f := range []string{"memory.md", "Memory.md", "MEMORY.MD"} {
		if _, err := st.Save(ctx, memdir.Memory{File: f, Name: "x", Type: memdir.TypeUser}, memdir.SaveOptions{}); !errors.Is(err, memdir.ErrInvalid) {
			t.Errorf("Save(File=%s) = %v, want ErrInvalid", f, err)
		}
		if _, err := st.Forget(ctx, f, true); err == nil {
			t.Errorf("Forget(%s) succeeded", f)
		}
	}
	if m, err := st.Get("memory"); err != nil || m.File != "memory-2.md" {
		t.Errorf("Get(memory) = %q, %v", m.File, err)
	}
	if ix, _ := os.ReadFile(st.Path(memdir.IndexFile)); !strings.Contains(string(ix), "(deploy-freeze.md)") {
		t.Errorf("MEMORY.md lost its lines:\n%s", ix)
	}
}

// TestNames_OneLookupOrder: show, edit and forget act on the memory a save
// by the same name updates — names first, then file names — and forgetting
// an unknown name never takes another memory's index line.
func TestNames_OneLookupOrder(t *testing.T) {
	st := MustOpen(t, t0)
	ctx := context.Background()
	// Claude Code wrote notes.md for "Deploy notes"; memdir then saves "notes".
	os.WriteFile(st.Path("notes.md"), []byte("---\nname: Deploy notes\ndescription: how deploys go\ntype: project\n---\nbody\n"), 0o600)
	res, err := st.Save(ctx, memdir.Memory{Name: "notes", Type: memdir.TypeUser, Description: "my notes"}, memdir.SaveOptions{})
	if err != nil || res.File != "notes-2.md" {
		t.Fatalf("save notes = %q, %v", res.File, err)
	}
	fr, err := st.Forget(ctx, "notes", true)
	if err != nil || fr.File != "notes-2.md" {
		t.Fatalf("forget notes removed %q (%v), want notes-2.md", fr.File, err)
	}
	if _, err := os.Stat(st.Path("notes.md")); err != nil {
		t.Errorf("Claude Code's notes.md is gone: %v", err)
	}
	// A mistyped name removes nothing, not even an index line.
	save(t, st, "Foo Bar", "d", "b")
	for _, typo := range []string{"Foo: Bar", "FOO-BAR"} {
		if _, err := st.Forget(ctx, typo, true); !errors.Is(err, memdir.ErrNotFound) {
			t.Errorf("forget %q = %v, want ErrNotFound", typo, err)
		}
	}
	if ix, _ := os.ReadFile(st.Path(memdir.IndexFile)); !strings.Contains(string(ix), "(foo-bar.md)") {
		t.Errorf("foo-bar.md's index line was removed:\n%s", ix)
	}
	// Claude Code writes names as slugs: "prefer-tabs" is "Prefer tabs".
	os.WriteFile(st.Path("prefer-tabs.md"), []byte("---\nname: prefer-tabs\ndescription: tabs\nmetadata:\n  type: feedback\n---\nTabs.\n"), 0o600)
	if res, err := st.Save(ctx, memdir.Memory{Name: "Prefer tabs", Body: "Tabs, always.\n"}, memdir.SaveOptions{}); err != nil || res.File != "prefer-tabs.md" {
		t.Errorf("save Prefer tabs = %q, %v", res.File, err)
	}
}

// TestSave_FileWithSpaces: a memory file with spaces in its name keeps one
// index line however often it is saved.
func TestSave_FileWithSpaces(t *testing.T) {
	st := MustOpen(t, t0)
	for range 3 {
		if _, err := st.Save(context.Background(), memdir.Memory{File: "team contacts.md", Name: "Team contacts", Type: memdir.TypeReference, Description: "who to ask"}, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ix, _ := os.ReadFile(st.Path(memdir.IndexFile))
	if n := strings.Count(string(ix), "team contacts.md"); n != 1 {
		t.Errorf("%d index lines for the file:\n%s", n, ix)
	}
	if rep, err := st.CheckIndex(); err != nil || len(rep.Orphans) > 0 {
		t.Errorf("check: %+v %v", rep, err)
	}
}

// TestRebuild_KeepsSubfolderLines: index --rebuild keeps the line of a
// memory in a subfolder (Claude Code's team/…), which it does not manage.
func TestRebuild_KeepsSubfolderLines(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask.")
	os.MkdirAll(st.Path("team/acme"), 0o700)
	os.WriteFile(st.Path("team/acme/deploy.md"), []byte("---\nname: Acme deploys\ndescription: d\ntype: project\n---\nb\n"), 0o600)
	ix, _ := os.ReadFile(st.Path(memdir.IndexFile))
	os.WriteFile(st.Path(memdir.IndexFile), append(ix, "- [Acme deploys](team/acme/deploy.md) — how Acme deploys\n- [Gone](team/gone.md) — x\n"...), 0o600)
	res, err := st.RebuildIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(st.Path(memdir.IndexFile))
	if !strings.Contains(string(after), "(team/acme/deploy.md)") || strings.Contains(string(after), "(team/gone.md)") {
		t.Errorf("rebuild %+v:\n%s", res, after)
	}
}

// TestSave_RedactsEveryField: an edited file's fields memdir does not know,
// and its comments, are redacted too.
func TestSave_RedactsEveryField(t *testing.T) {
	st := MustOpen(t, t0)
	token, aws := "ghp_"+strings.Repeat("a1B2", 9), "AKIA"+strings.Repeat("Q", 16)
	raw := "---\nname: CI\ndescription: where CI lives\ntype: reference\ngithub_token: " + token + " # key: " + aws + "\n---\nbody\n"
	m, err := memdir.Parse("ci.md", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.Save(context.Background(), m, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(st.Path("ci.md"))
	if strings.Contains(string(b), token) || strings.Contains(string(b), aws) || len(res.Redactions) != 2 {
		t.Errorf("redactions %v, file:\n%s", res.Redactions, b)
	}
	if back, err := memdir.Parse("ci.md", b); err != nil || back.Description != "where CI lives" {
		t.Errorf("the file does not read back: %v", err)
	}
}

// TestSave_LongSlugFormNamesDiffer: two long names that share their first
// 80 slug characters (the file name's cut) are different names, even when
// one is in Claude Code's slug form: a save by the second never overwrites
// the first memory.
func TestSave_LongSlugFormNamesDiffer(t *testing.T) {
	ctx := context.Background()
	st := MustOpen(t, t0)
	// Claude Code writes names in slug form.
	a := "always-run-the-full-integration-test-suite-against-a-real-postgres-database-before-merging-backend-changes"
	if _, err := st.Save(ctx, memdir.Memory{Name: a, Description: "backend rule", Type: memdir.TypeFeedback, Body: "BACKEND BODY\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	b := "Always run the full integration test suite against a real Postgres database before merging frontend changes"
	res, err := st.Save(ctx, memdir.Memory{Name: b, Description: "frontend rule", Type: memdir.TypeFeedback, Body: "FRONTEND BODY\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mems, _, _ := st.List()
	var names []string
	for _, m := range mems {
		names = append(names, m.File+"="+m.Name)
	}
	if !res.Created || len(mems) != 2 {
		t.Fatalf("a save of a different name updated %s (created=%v); memories now: %v", res.File, res.Created, names)
	}
}

// TestGet_LongSlugFormNames: two long slug-form names sharing an 80-char
// prefix are each found by their name.
func TestGet_LongSlugFormNames(t *testing.T) {
	st := MustOpen(t, t0)
	p := strings.Repeat("abcdefghij-", 8) // 88 chars
	os.WriteFile(st.Path("feedback_one.md"), []byte("---\nname: "+p+"one\ndescription: d1\ntype: feedback\n---\nb1\n"), 0o600)
	os.WriteFile(st.Path("feedback_two.md"), []byte("---\nname: "+p+"two\ndescription: d2\ntype: feedback\n---\nb2\n"), 0o600)
	for _, n := range []string{p + "one", p + "two"} {
		if _, err := st.Get(n); err != nil {
			t.Errorf("Get(%q): %v", n, err)
		}
	}
}

// TestSave_ByNameNeverFollowsIndexOut: past 1000 memories a save by name
// looks through MEMORY.md's links, but never follows one ("../x.md") out
// of the memory folder.
func TestSave_ByNameNeverFollowsIndexOut(t *testing.T) {
	st := MustOpen(t, t0)
	ix := largeFolder(st)
	outside := filepath.Join(filepath.Dir(st.Dir()), "outside.md")
	os.WriteFile(outside, []byte("---\nname: Prefer tabs\ndescription: x\ntype: user\n---\nnot a memory\n"), 0o600)
	ix.WriteString("- [Prefer tabs](../outside.md) — x\n")
	os.WriteFile(st.Path(memdir.IndexFile), []byte(ix.String()), 0o600)
	res, err := st.Save(context.Background(), memdir.Memory{Name: "Prefer tabs", Body: "Use tabs.\n"}, memdir.SaveOptions{})
	if err != nil && !errors.Is(err, memdir.ErrNotFound) {
		t.Logf("save: %v", err)
	}
	b, _ := os.ReadFile(outside)
	if strings.Contains(string(b), "Use tabs") || strings.Contains(res.File, "..") {
		t.Fatalf("save by name wrote outside the memory folder: file=%q path=%q", res.File, res.Path)
	}
}

// TestGet_LongNameFromAnotherTool: memdir gives names of at most 200 bytes,
// but a memory another tool named at length is still found by that name.
func TestGet_LongNameFromAnotherTool(t *testing.T) {
	st := MustOpen(t, t0)
	long := strings.Repeat("Run the integration suite against a real database ", 6)
	long = strings.TrimSpace(long)
	os.WriteFile(st.Path("feedback_db.md"), []byte("---\nname: "+long+"\ndescription: d\ntype: feedback\n---\nb\n"), 0o600)
	m, err := st.Get(long)
	if err != nil || m.File != "feedback_db.md" {
		t.Fatalf("Get(%d-byte name) = %q, %v", len(long), m.File, err)
	}
	if _, err := st.Get(strings.Repeat("x", 5000)); !errors.Is(err, paths.ErrInvalidName) {
		t.Errorf("a 5,000-byte lookup: %v, want ErrInvalidName", err)
	}
}

// largeFolder writes 1,001 memories, past the count where a save by name
// looks through MEMORY.md, and returns their index lines.
func largeFolder(st *memdir.Store) *strings.Builder {
	var ix strings.Builder
	for i := range 1001 {
		f := fmt.Sprintf("m%04d.md", i)
		os.WriteFile(st.Path(f), []byte(fmt.Sprintf("---\nname: Note %d\ndescription: d\ntype: user\n---\nb\n", i)), 0o600)
		fmt.Fprintf(&ix, "- [Note %d](%s) — d\n", i, f)
	}
	return &ix
}

// TestSave_RenameOntoBrokenFileName: a file that does not parse still holds
// its name: renaming another memory onto it is refused (the name would
// lead to the broken file, not to the renamed memory).
func TestSave_RenameOntoBrokenFileName(t *testing.T) {
	st := MustOpen(t, t0)
	ctx := context.Background()
	os.WriteFile(st.Path("deploy.md"), []byte("---\nname: [unclosed\n---\nx\n"), 0o600)
	if _, err := st.Save(ctx, memdir.Memory{Name: "Other", Description: "d", Type: memdir.TypeUser, Body: "b\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "other.md", Name: "deploy"}, memdir.SaveOptions{MustExist: true}); !errors.Is(err, memdir.ErrNameTaken) {
		t.Errorf("rename onto a broken file's name: %v, want ErrNameTaken", err)
	}
}

// TestRebuild_KeepsLinesOfUnreadableFiles: a memory file the rebuild cannot
// read (over the size cap; unreadable to this user) keeps its index line
// and is reported as skipped, where the rebuild dropped the line before.
func TestRebuild_KeepsLinesOfUnreadableFiles(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask.")
	big := save(t, st, "Big notes", "A memory grown past the cap", "x")
	locked := save(t, st, "Locked notes", "A memory this user cannot read", "y")
	f, err := os.OpenFile(st.Path(big), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Repeat([]byte("padding line\n"), memdir.MaxFileSize/13+10))
	f.Close()
	os.Chmod(st.Path(locked), 0)
	wantSkipped := []string{big}
	if os.Geteuid() != 0 { // root reads a 0000 file
		wantSkipped = append(wantSkipped, locked)
	}
	res, err := st.RebuildIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(st.Path(memdir.IndexFile))
	for _, f := range []string{big, locked, "deploy-freeze.md"} {
		if !strings.Contains(string(after), "("+f+")") {
			t.Errorf("the line of %s was dropped:\n%s", f, after)
		}
	}
	if !slices.Equal(res.Skipped, wantSkipped) || len(res.Removed) != 0 {
		t.Errorf("rebuild: skipped %v (want %v), removed %v", res.Skipped, wantSkipped, res.Removed)
	}
}
