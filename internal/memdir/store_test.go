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
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/testenv"
)

// MustOpen opens a store on a new temporary folder with a fixed clock.
func MustOpen(tb testing.TB, now time.Time) *memdir.Store { return testenv.Store(tb, now) }

var t0 = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

func readIndex(tb testing.TB, st *memdir.Store) string {
	tb.Helper()
	b, err := os.ReadFile(st.Path(memdir.IndexFile))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func TestStore_Save(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	res, err := st.Save(ctx, memdir.Memory{Name: "Prefer tabs", Description: "Tabs, not spaces", Type: memdir.TypeFeedback, Body: "Use tabs.\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.File != "prefer-tabs.md" {
		t.Fatalf("Save()=%+v, want a new prefer-tabs.md", res)
	}
	if got, want := readIndex(t, st), "- [Prefer tabs](prefer-tabs.md) — Tabs, not spaces\n"; got != want {
		t.Errorf("MEMORY.md=%q, want %q", got, want)
	}
	if runtime.GOOS != "windows" {
		info, _ := os.Stat(res.Path)
		dinfo, _ := os.Stat(st.Dir())
		if info.Mode().Perm() != memdir.FilePerm || dinfo.Mode().Perm() != memdir.DirPerm {
			t.Errorf("modes file=%o dir=%o, want 600 and 700", info.Mode().Perm(), dinfo.Mode().Perm())
		}
	}

	t.Run("UpdateKeepsCreatedAndUnknownFields", func(t *testing.T) {
		raw, _ := os.ReadFile(res.Path)
		withUnknown := strings.Replace(string(raw), "type: feedback\n", "type: feedback\nowner: me # mine\n", 1)
		if err := os.WriteFile(res.Path, []byte(withUnknown), 0o600); err != nil {
			t.Fatal(err)
		}
		later := memdir.Options{Now: func() time.Time { return t0.Add(48 * time.Hour) }}
		st2, err := memdir.Open(st.Dir(), later)
		if err != nil {
			t.Fatal(err)
		}
		res2, err := st2.Save(ctx, memdir.Memory{Name: "Prefer tabs", Description: "Tabs everywhere"}, memdir.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := st2.Get("prefer-tabs")
		if err != nil {
			t.Fatal(err)
		}
		if res2.Created || !m.Created.Equal(t0) || !m.Updated.Equal(t0.Add(48*time.Hour)) {
			t.Errorf("created=%v updated=%v (new=%v), want created kept and updated moved", m.Created, m.Updated, res2.Created)
		}
		if m.Type != memdir.TypeFeedback || m.Body != "Use tabs.\n" || m.Description != "Tabs everywhere" {
			t.Errorf("update lost fields: type=%q body=%q description=%q", m.Type, m.Body, m.Description)
		}
		raw, _ = os.ReadFile(res.Path)
		if !strings.Contains(string(raw), "owner: me # mine") {
			t.Errorf("unknown field lost on update:\n%s", raw)
		}
		if got, want := readIndex(t, st), "- [Prefer tabs](prefer-tabs.md) — Tabs everywhere\n"; got != want {
			t.Errorf("MEMORY.md=%q, want %q", got, want)
		}
	})
}

func TestStore_SaveRedacts(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	token := "ghp_" + strings.Repeat("a1B2", 9)
	res, err := st.Save(context.Background(), memdir.Memory{
		Name: "CI token", Description: "where the CI token lives", Type: memdir.TypeReference,
		Body: "The token is " + token + " in the vault.\n",
	}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(res.Path)
	if strings.Contains(string(raw), token) || !strings.Contains(string(raw), "[REDACTED:github-token]") {
		t.Errorf("secret reached disk:\n%s", raw)
	}
	if len(res.Redactions) != 1 || res.Redactions[0].Kind != "github-token" {
		t.Errorf("Redactions=%v, want one github-token", res.Redactions)
	}
}

func TestStore_HostileNames(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	ctx := context.Background()
	// A decoy beside the memory folder, where "../x" would lead.
	if err := os.WriteFile(filepath.Join(filepath.Dir(st.Dir()), "x.md"), []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "a/b", "a\x00b", `a\b`, ".hidden", "..", "x/../../y.md"} {
		if _, err := st.Save(ctx, memdir.Memory{File: name, Name: "n", Type: memdir.TypeUser}, memdir.SaveOptions{}); !errors.Is(err, paths.ErrInvalidName) {
			t.Errorf("Save(File=%q)=%v, want ErrInvalidName", name, err)
		}
		// As names they are titles, looked up among the memories and
		// never as paths: not found (or refused), whatever lies outside.
		notFound := func(err error) bool {
			return errors.Is(err, memdir.ErrNotFound) || errors.Is(err, paths.ErrInvalidName)
		}
		if _, err := st.Get(name); !notFound(err) {
			t.Errorf("Get(%q)=%v, want ErrNotFound or ErrInvalidName", name, err)
		}
		if _, err := st.Forget(ctx, name, true); !notFound(err) {
			t.Errorf("Forget(%q)=%v, want ErrNotFound or ErrInvalidName", name, err)
		}
	}
	if _, err := st.Get("a\x00b"); !errors.Is(err, paths.ErrInvalidName) {
		t.Errorf("Get(NUL)=%v, want ErrInvalidName", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(st.Dir()))
	if len(entries) != 2 { // the memory folder and the decoy
		t.Errorf("something was written or removed next to the memory folder: %v", entries)
	}
	// A title that reads like a path is a title: saved under its slug
	// inside the folder and found by that title.
	res, err := st.Save(ctx, memdir.Memory{Name: "../x", Type: memdir.TypeUser, Description: "d"}, memdir.SaveOptions{})
	if err != nil || res.File != "x.md" {
		t.Fatalf("Save(Name=../x) = %+v, %v", res, err)
	}
	if m, err := st.Get("../x"); err != nil || m.File != "x.md" {
		t.Errorf("Get(../x) = %v, %v", m.File, err)
	}
	if b, _ := os.ReadFile(filepath.Join(filepath.Dir(st.Dir()), "x.md")); string(b) != "outside" {
		t.Errorf("the file outside the folder changed: %q", b)
	}
}

func TestStore_SymlinkEscape(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	st := MustOpen(t, t0)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("---\nname: s\ntype: user\n---\nkeep me\n"), 0o600)
	if err := os.Symlink(outside, st.Path("evil.md")); err != nil {
		t.Fatal(err)
	}
	inside := st.Path("real.md")
	os.WriteFile(inside, []byte("---\nname: r\ntype: user\n---\n"), 0o600)
	if err := os.Symlink(inside, st.Path("alias.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get("evil"); !errors.Is(err, memdir.ErrSymlinkEscape) {
		t.Errorf("Get(evil)=%v, want ErrSymlinkEscape", err)
	}
	_, err := st.Save(context.Background(), memdir.Memory{File: "evil.md", Name: "s", Type: memdir.TypeUser, Body: "overwritten\n"}, memdir.SaveOptions{})
	if !errors.Is(err, memdir.ErrSymlinkEscape) {
		t.Errorf("Save(evil)=%v, want ErrSymlinkEscape", err)
	}
	if b, _ := os.ReadFile(outside); !strings.Contains(string(b), "keep me") {
		t.Errorf("file outside the folder was changed: %q", b)
	}
	if _, err := st.Get("alias"); err != nil {
		t.Errorf("Get(alias) of a link inside the folder: %v", err)
	}
	_, problems, _ := st.List()
	if len(problems) != 1 || !errors.Is(problems[0], memdir.ErrSymlinkEscape) {
		t.Errorf("List() problems=%v, want the escaping link only", problems)
	}
}

func TestStore_Forget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	for _, n := range []string{"Alpha", "Beta"} {
		if _, err := st.Save(ctx, memdir.Memory{Name: n, Description: n, Type: memdir.TypeUser}, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := st.Forget(ctx, "Alpha", false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IndexRemoved || !strings.HasPrefix(filepath.Base(res.MovedTo), "alpha.md.") {
		t.Errorf("Forget()=%+v", res)
	}
	if _, err := os.Stat(res.MovedTo); err != nil {
		t.Errorf("forgotten file not kept: %v", err)
	}
	if got, want := readIndex(t, st), "- [Beta](beta.md) — Beta\n"; got != want {
		t.Errorf("MEMORY.md=%q, want %q", got, want)
	}
	files, _ := st.Files()
	if len(files) != 1 {
		t.Errorf("Files()=%v: a forgotten memory is still listed", files)
	}
	if _, err := st.Forget(ctx, "Alpha", false); !errors.Is(err, memdir.ErrNotFound) {
		t.Errorf("second Forget=%v, want ErrNotFound", err)
	}
	if _, err := st.Forget(ctx, "beta", true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.Path("beta.md")); !os.IsNotExist(err) {
		t.Errorf("purged file still there: %v", err)
	}
	// A dangling line left by hand is removed by forget too.
	os.WriteFile(st.Path(memdir.IndexFile), []byte("- [Gone](gone.md) — x\n"), 0o600)
	if res, err := st.Forget(ctx, "gone", false); err != nil || !res.IndexRemoved || res.Removed {
		t.Errorf("Forget(dangling)=%+v, %v", res, err)
	}
}

func TestStore_RebuildIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	for _, n := range []string{"One", "Two", "Three"} {
		if _, err := st.Save(ctx, memdir.Memory{Name: n, Description: "d " + n, Type: memdir.TypeProject}, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(st.Path(memdir.IndexFile), []byte("# My notes\n- [Two](two.md) — stale hook\n- [Gone](gone.md) — x\n- [Two](two.md) — twice\n"), 0o600)
	os.WriteFile(st.Path("broken.md"), []byte("---\ntype: nope\n---\n"), 0o600)
	res, err := st.RebuildIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "# My notes\n- [Two](two.md) — d Two\n- [One](one.md) — d One\n- [Three](three.md) — d Three\n"
	if got := readIndex(t, st); got != want {
		t.Errorf("rebuilt MEMORY.md:\n%q\nwant\n%q", got, want)
	}
	if len(res.Skipped) != 1 || res.Skipped[0] != "broken.md" || len(res.Removed) != 2 || len(res.Added) != 2 {
		t.Errorf("RebuildIndex()=%+v", res)
	}
	res, err = st.RebuildIndex(ctx)
	if err != nil || res.Changed {
		t.Errorf("second RebuildIndex changed something: %+v, %v", res, err)
	}
	rep, err := st.CheckIndex()
	if err != nil {
		t.Fatal(err)
	}
	// broken.md does not parse: no rebuild can list it, so it is no
	// orphan (doctor's files check reports it).
	if len(rep.Dangling)+len(rep.Duplicates)+len(rep.Orphans) != 0 {
		t.Errorf("CheckIndex()=%+v, want a clean index", rep)
	}
}

func TestStore_LoadIndexRebuildsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	if _, err := st.Save(ctx, memdir.Memory{Name: "A", Description: "a", Type: memdir.TypeUser}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	os.Remove(st.Path(memdir.IndexFile))
	l, err := st.LoadIndex(ctx)
	if err != nil || l.Text != "- [A](a.md) — a" {
		t.Errorf("LoadIndex()=%q, %v", l.Text, err)
	}
	if _, err := os.Stat(st.Path(memdir.IndexFile)); err != nil {
		t.Errorf("MEMORY.md not rebuilt on disk: %v", err)
	}
}

func TestStore_Locked(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	release := memdir.HoldLockForTest(t, st)
	other, err := memdir.Open(st.Dir(), memdir.Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.Save(context.Background(), memdir.Memory{Name: "x", Type: memdir.TypeUser}, memdir.SaveOptions{})
	var le *memdir.LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() || !strings.Contains(err.Error(), "locked by PID") {
		t.Fatalf("Save under a held lock=%v, want a LockedError naming this PID", err)
	}
	if _, err := os.Stat(other.Path("x.md")); !os.IsNotExist(err) {
		t.Errorf("a memory was written while the folder was locked")
	}
	release()
	if _, err := other.Save(context.Background(), memdir.Memory{Name: "x", Type: memdir.TypeUser}, memdir.SaveOptions{}); err != nil {
		t.Errorf("Save after release: %v", err)
	}
}

func TestStore_IfMatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	res, _ := st.Save(ctx, memdir.Memory{Name: "A", Type: memdir.TypeUser, Body: "one\n"}, memdir.SaveOptions{})
	stale := []byte("something else")
	_, err := st.Save(ctx, memdir.Memory{File: res.File, Name: "A", Body: "two\n"}, memdir.SaveOptions{IfMatch: stale})
	if !errors.Is(err, memdir.ErrConflict) {
		t.Errorf("Save(IfMatch stale)=%v, want ErrConflict", err)
	}
	if m, _ := st.Get("A"); m.Body != "one\n" {
		t.Errorf("body=%q after a refused save", m.Body)
	}
}

// Claude Code writes MEMORY.md without our lock. When it does so between our
// read and our write, the store must re-apply its upsert on top of that
// version rather than overwrite it.
func TestStore_ConcurrentForeignWrite(t *testing.T) {
	ctx := context.Background()
	st := MustOpen(t, t0)
	fired := false
	memdir.BeforeReplaceForTest(t, func(file string) {
		if file == memdir.IndexFile && !fired {
			fired = true
			os.WriteFile(st.Path(memdir.IndexFile), []byte("- [Foreign](foreign.md) — written by Claude Code\n"), 0o600)
		}
	})
	if _, err := st.Save(ctx, memdir.Memory{Name: "Mine", Description: "m", Type: memdir.TypeUser}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "- [Foreign](foreign.md) — written by Claude Code\n- [Mine](mine.md) — m\n"
	if got := readIndex(t, st); !fired || got != want {
		t.Errorf("MEMORY.md=%q, want %q (hook fired: %v)", got, want, fired)
	}
}

// TestStore_RebuildSweepsTemps: a rebuild is the repair after a crash, so it
// removes a dead writer's temporary file even when the index it finds needs
// no change (the sweep otherwise waits for a write).
func TestStore_RebuildSweepsTemps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	if _, err := st.Save(ctx, memdir.Memory{Name: "One", Description: "d", Type: memdir.TypeProject}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	dead, fresh := st.Path(".one.md.tmp-123"), st.Path(".two.md.tmp-456")
	for _, p := range []string{dead, fresh} {
		if err := os.WriteFile(p, []byte("half a memo"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(dead, t0.Add(-time.Hour), t0.Add(-time.Hour))
	os.Chtimes(fresh, t0, t0)
	again, err := memdir.Open(st.Dir(), memdir.Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := again.RebuildIndex(ctx)
	if err != nil || res.Changed {
		t.Fatalf("RebuildIndex()=%+v, %v; want no change", res, err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("an hour-old temp file survived the rebuild: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a live writer's temp file was removed: %v", err)
	}
}

func save(t *testing.T, st *memdir.Store, name, desc, body string) string {
	t.Helper()
	return testenv.Save(t, st, name, desc, body)
}
