package memdir_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// ccLayout is a memory as Claude Code writes it: its type under metadata:,
// with fields memdir does not know.
const ccLayout = "---\nname: user-prefers-pnpm\ndescription: The user uses pnpm, never npm\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 0b5c3f7e-1111\n---\nUse pnpm.\n"

// openAt opens (and so recovers) the memory folder dir with a fixed clock.
func openAt(tb testing.TB, dir string, now time.Time) *memdir.Store {
	tb.Helper()
	st, err := memdir.Open(dir, memdir.Options{Create: true, Now: func() time.Time { return now }, LockTimeout: 5 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// seedFolder fills dir with n memories saved by the store, one Claude Code
// layout memory (cc.md) and its index line, and returns the store.
func seedFolder(tb testing.TB, dir string, n int) *memdir.Store {
	tb.Helper()
	ctx := context.Background()
	st := openAt(tb, dir, t0)
	for i := range n {
		m := memdir.Memory{File: fmt.Sprintf("m%02d.md", i), Name: fmt.Sprintf("Memory %02d", i), Description: fmt.Sprintf("fact number %d", i), Type: memdir.TypeProject, Body: fmt.Sprintf("Fact %d.\n", i)}
		if _, err := st.Save(ctx, m, memdir.SaveOptions{}); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.WriteFile(st.Path("cc.md"), []byte(ccLayout), 0o600); err != nil {
		tb.Fatal(err)
	}
	idx, err := os.ReadFile(st.Path(memdir.IndexFile))
	if err != nil {
		tb.Fatal(err)
	}
	idx = append(idx, "- [user-prefers-pnpm](cc.md) — pnpm\n"...)
	if err := os.WriteFile(st.Path(memdir.IndexFile), idx, 0o600); err != nil {
		tb.Fatal(err)
	}
	return st
}

// folderFiles maps every file of a memory folder to its content, but the
// store's own bookkeeping: the cache, the journals and the lock files.
func folderFiles(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == memdir.CacheDir || rel == memdir.BatchDir:
			return filepath.SkipDir
		case d.IsDir() || rel == memdir.LockFile || rel == memdir.ConsolidateLock:
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// diffFolders describes how two folder contents differ, "" when they do not.
func diffFolders(got, want map[string]string) string {
	var d []string
	for f, w := range want {
		if g, ok := got[f]; !ok {
			d = append(d, "missing "+f)
		} else if g != w {
			d = append(d, "changed "+f)
		}
	}
	for f := range got {
		if _, ok := want[f]; !ok {
			d = append(d, "extra "+f)
		}
	}
	return strings.Join(d, ", ")
}

// testBatch edits m00, m01 and cc.md, adds new.md and retires m02, m03.
func testBatch() memdir.Batch {
	return memdir.Batch{
		Label: "dream",
		Save: []memdir.Memory{
			{File: "m00.md", Body: "Fact 0, merged with fact 9.\n"},
			{File: "m01.md", Description: "fact one, dated 2026-03-06"},
			{File: "cc.md", Body: "Use pnpm, never npm.\n"},
			{Name: "New fact", Description: "a memory the batch creates", Type: memdir.TypeProject, Body: "New.\n"},
		},
		Retire: []string{"m02.md", "m03.md"},
	}
}

func TestApply_ThenUndoGivesTheFolderBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 6)
	before := folderFiles(t, st.Dir())
	res, err := st.Apply(ctx, testBatch())
	if err != nil {
		t.Fatal(err)
	}
	after := folderFiles(t, st.Dir())
	if res.ID == "" || len(res.Written) != 4 || len(res.Retired) != 2 || len(res.KeptIn) != 2 || !res.Index {
		t.Fatalf("Apply() = %+v", res)
	}
	for _, f := range []string{"m02.md", "m03.md"} {
		if _, ok := after[f]; ok {
			t.Errorf("%s was retired, but is still in the folder", f)
		}
		if strings.Contains(after[memdir.IndexFile], "("+f+")") {
			t.Errorf("MEMORY.md still links the retired %s:\n%s", f, after[memdir.IndexFile])
		}
		vs, err := st.Versions(f)
		if err != nil || vs[0].Size != int64(len(before[f])) {
			t.Errorf("Versions(%s) = %v, %v: want the retired file's version", f, vs, err)
		}
	}
	for _, f := range []string{"m04.md", "m05.md"} {
		if after[f] != before[f] {
			t.Errorf("%s is not in the batch, but changed", f)
		}
	}
	if cc := after["cc.md"]; !strings.Contains(cc, "metadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 0b5c3f7e-1111\n") || !strings.HasSuffix(cc, "Use pnpm, never npm.\n") || strings.Contains(cc, "\ntype:") {
		t.Errorf("cc.md lost Claude Code's layout:\n%s", cc)
	}
	if !strings.Contains(after[memdir.IndexFile], "(new-fact.md)") || !strings.Contains(after[memdir.IndexFile], "dated 2026-03-06") {
		t.Errorf("MEMORY.md has no line for new-fact.md or m01's new description:\n%s", after[memdir.IndexFile])
	}
	filepath.WalkDir(st.Path(memdir.BatchDir), func(p string, d fs.DirEntry, err error) error {
		if strings.HasSuffix(p, ".md") {
			t.Errorf("%s ends in .md: Claude Code would read it as a memory", p)
		}
		return nil
	})

	info, err := st.Undo(ctx, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffFolders(folderFiles(t, st.Dir()), before); d != "" || info.ID != res.ID || !info.Undone {
		t.Fatalf("Undo() = %+v, folder differs from before the batch: %s", info, d)
	}
	if _, err := st.Undo(ctx, res.ID, false); !errors.Is(err, memdir.ErrInvalid) || !strings.Contains(err.Error(), "undone already") || hint.Of(err) == "" {
		t.Errorf("second Undo(%s) = %v, want an 'undone already' error with a hint", res.ID, err)
	}
	if _, err := st.Undo(ctx, "", false); !errors.Is(err, memdir.ErrNotFound) {
		t.Errorf("Undo(\"\") with every batch undone = %v, want ErrNotFound", err)
	}
	bs, err := st.Batches()
	if err != nil || len(bs) != 1 || !bs[0].Undone || bs[0].Label != "dream" || len(bs[0].Files) != 9 {
		t.Errorf("Batches() = %+v, %v; want the one batch, undone, with its 9 files", bs, err)
	}
}

func TestApply_IfMatchConflictWritesNothing(t *testing.T) {
	t.Parallel()
	st := seedFolder(t, t.TempDir(), 4)
	before := folderFiles(t, st.Dir())
	b := testBatch()
	b.IfMatch = map[string][]byte{"m00.md": []byte(before["m00.md"]), "m03.md": []byte("what the plan read\n")}
	_, err := st.Apply(context.Background(), b)
	if !errors.Is(err, memdir.ErrConflict) || !strings.Contains(err.Error(), "m03.md") || !strings.Contains(hint.Of(err), "memdir dream") {
		t.Fatalf("Apply() = %v, want ErrConflict on m03.md with a hint", err)
	}
	if d := diffFolders(folderFiles(t, st.Dir()), before); d != "" {
		t.Errorf("a conflicting batch changed the folder: %s", d)
	}
	if bs, _ := st.Batches(); len(bs) != 0 {
		t.Errorf("Batches() = %+v after a batch that failed, want none", bs)
	}
}

func TestApply_RefusesRetiringAMissingFile(t *testing.T) {
	t.Parallel()
	st := seedFolder(t, t.TempDir(), 4)
	before := folderFiles(t, st.Dir())
	b := testBatch()
	b.Retire = append(b.Retire, "gone.md")
	if _, err := st.Apply(context.Background(), b); !errors.Is(err, memdir.ErrNotFound) {
		t.Fatalf("Apply() = %v, want ErrNotFound", err)
	}
	if d := diffFolders(folderFiles(t, st.Dir()), before); d != "" {
		t.Errorf("a failed batch changed the folder: %s", d)
	}
}

func TestUndo_ConflictAfterALaterEdit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 4)
	before := folderFiles(t, st.Dir())
	if _, err := st.Apply(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "m00.md", Body: "Edited after the batch.\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	edited := folderFiles(t, st.Dir())
	_, err := st.Undo(ctx, "", false)
	if !errors.Is(err, memdir.ErrConflict) || !strings.Contains(err.Error(), "m00.md") || !strings.Contains(hint.Of(err), "--force") {
		t.Fatalf("Undo() after a later edit = %v, want ErrConflict naming m00.md", err)
	}
	if d := diffFolders(folderFiles(t, st.Dir()), edited); d != "" {
		t.Errorf("a refused undo changed the folder: %s", d)
	}
	info, err := st.Undo(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	// The later edit is not lost: kept as a version, and only that is new.
	after := folderFiles(t, st.Dir())
	if len(info.Kept) != 1 || !strings.HasPrefix(info.Kept[0], memdir.ForgottenDir+"/m00.md.") || !strings.Contains(after[info.Kept[0]], "Edited after the batch.") {
		t.Fatalf("Kept = %v, want the edit of m00.md kept as a version", info.Kept)
	}
	delete(after, info.Kept[0])
	if d := diffFolders(after, before); d != "" {
		t.Errorf("a forced undo left the folder unlike before the batch: %s", d)
	}
	if vs, err := st.Versions("m00"); err != nil || len(vs) == 0 {
		t.Errorf("memdir restore does not see the kept version: %v %v", vs, err)
	}
}

// TestApply_CrashRecovery stops Apply where a kill could and checks what
// the next Open makes of it. Not parallel: the crash hook is global.
func TestApply_CrashRecovery(t *testing.T) {
	ref := seedFolder(t, t.TempDir(), 5)
	if _, err := ref.Apply(context.Background(), testBatch()); err != nil {
		t.Fatal(err)
	}
	want := folderFiles(t, ref.Dir())
	for _, tc := range []struct {
		stage   string
		forward bool
	}{{"journaled", false}, {"committed", true}, {"applied", true}} {
		t.Run(tc.stage, func(t *testing.T) {
			st := seedFolder(t, t.TempDir(), 5)
			before := folderFiles(t, st.Dir())
			memdir.BatchCrashForTest(t, tc.stage)
			if _, err := st.Apply(context.Background(), testBatch()); err == nil {
				t.Fatal("the crash hook did not stop Apply")
			}
			if _, err := os.Lstat(st.Path(memdir.BatchDir + "/pending")); err != nil {
				t.Fatalf("no pending journal after a crash at %s: %v", tc.stage, err)
			}
			st = openAt(t, st.Dir(), t0)
			got := folderFiles(t, st.Dir())
			bs, err := st.Batches()
			if err != nil {
				t.Fatal(err)
			}
			if !tc.forward {
				if d := diffFolders(got, before); d != "" || len(bs) != 0 {
					t.Errorf("an uncommitted batch was not dropped: %s; Batches() = %+v", d, bs)
				}
				if ids, _ := os.ReadDir(st.Path(memdir.BatchDir)); len(ids) != 0 {
					t.Errorf("the uncommitted journal is still there: %v", ids)
				}
				return
			}
			if d := diffFolders(got, want); d != "" || len(bs) != 1 {
				t.Errorf("a committed batch was not rolled forward: %s; Batches() = %+v", d, bs)
			}
			if _, err := st.Undo(context.Background(), "", false); err != nil {
				t.Fatal(err)
			}
			if d := diffFolders(folderFiles(t, st.Dir()), before); d != "" {
				t.Errorf("undo of a recovered batch: %s", d)
			}
		})
	}
}

func TestRecover_RefusesAJournalNamingFilesOutside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "memory")
	st := seedFolder(t, dir, 2)
	id := "20261122T150000.000Z-abcdef"
	jd := st.Path(memdir.BatchDir + "/" + id)
	if err := os.MkdirAll(jd, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(jd, "data"), []byte("pwned"), 0o600)
	sum := sha256.Sum256([]byte("pwned"))
	man := `{"version":1,"id":"` + id + `","files":[{"path":"../outside","before":null,"after":{"off":0,"len":5,"sha256":"` + hex.EncodeToString(sum[:]) + `"}}]}`
	os.WriteFile(filepath.Join(jd, "manifest.json"), []byte(man), 0o600)
	os.WriteFile(st.Path(memdir.BatchDir+"/pending"), []byte(id+"\n"), 0o600)
	st = openAt(t, dir, t0)
	if _, err := os.Stat(filepath.Join(root, "outside")); err == nil {
		t.Fatal("a journal wrote outside the memory folder")
	}
	_, err := st.Save(context.Background(), memdir.Memory{Name: "x", Body: "x\n"}, memdir.SaveOptions{})
	if err == nil || !strings.Contains(err.Error(), `names "../outside"`) || !strings.Contains(hint.Of(err), "memdir doctor") {
		t.Errorf("Save() with a damaged pending journal = %v, want the damage reported with a hint", err)
	}
}

func TestBatches_KeepsTheNewest20(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	seedFolder(t, dir, 1)
	now := t0
	st, err := memdir.Open(dir, memdir.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := range 23 {
		res, err := st.Apply(ctx, memdir.Batch{Label: fmt.Sprint(i), Save: []memdir.Memory{{File: "m00.md", Body: fmt.Sprintf("Version %d.\n", i)}}})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = res.ID
		}
	}
	bs, err := st.Batches()
	if err != nil || len(bs) != 20 || bs[0].Label != "22" || bs[19].Label != "3" {
		t.Fatalf("Batches() = %d journals (%v), want the newest 20, newest first", len(bs), err)
	}
	if _, err := st.Undo(ctx, first, false); !errors.Is(err, memdir.ErrNotFound) {
		t.Errorf("Undo(pruned batch) = %v, want ErrNotFound", err)
	}
	now = now.Add(91 * 24 * time.Hour)
	if _, err := st.Apply(ctx, memdir.Batch{Save: []memdir.Memory{{File: "m00.md", Body: "Later.\n"}}}); err != nil {
		t.Fatal(err)
	}
	if bs, _ := st.Batches(); len(bs) != 1 {
		t.Errorf("after 91 days Batches() = %d journals, want only the new one", len(bs))
	}
}

// BenchmarkOpen is what every prompt's hook pays to open a store: with no
// batch pending, one Lstat more than before batches.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	seedFolder(b, dir, 3)
	for b.Loop() {
		if _, err := memdir.Open(dir, memdir.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestUndo_ForceKeepsIndexLinesWrittenSince: a forced undo takes the
// batch's lines out of MEMORY.md and puts back the ones it removed, and
// keeps what was written there since: a memory saved later, a line by
// hand.
func TestUndo_ForceKeepsIndexLinesWrittenSince(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 4)
	before := folderFiles(t, st.Dir())
	if _, err := st.Apply(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "later.md", Name: "Saved later", Description: "saved after the batch", Type: "project", Body: "Later.\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	idx := st.Path(memdir.IndexFile)
	f, err := os.OpenFile(idx, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	const hand = "## My notes (hand-written)\n"
	if _, err := f.WriteString(hand); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = st.Undo(ctx, "", false)
	if !errors.Is(err, memdir.ErrConflict) || strings.Contains(hint.Of(err), "later batches") || !strings.Contains(hint.Of(err), "--force") {
		t.Fatalf("Undo() = %v (hint %q), want ErrConflict whose hint names --force and no later batch (there is none)", err, hint.Of(err))
	}
	info, err := st.Undo(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	after := folderFiles(t, st.Dir())
	index := after[memdir.IndexFile]
	for _, want := range []string{hand, "(later.md)"} {
		if !strings.Contains(index, want) {
			t.Errorf("MEMORY.md after a forced undo lost %q:\n%s", want, index)
		}
	}
	if info.IndexKept != 2 {
		t.Errorf("IndexKept = %d, want 2 (the later memory's line, the hand-written one)", info.IndexKept)
	}
	// Every line MEMORY.md held before the batch is back, and nothing of
	// the batch's own is left.
	for l := range strings.Lines(before[memdir.IndexFile]) {
		if !strings.Contains(index, l) {
			t.Errorf("the line %q of before the batch is not back", l)
		}
	}
	want := strings.TrimSuffix(before[memdir.IndexFile], "\n")
	got := index
	for _, drop := range []string{hand} {
		got = strings.Replace(got, drop, "", 1)
	}
	var rest []string
	for l := range strings.Lines(got) {
		if !strings.Contains(l, "(later.md)") {
			rest = append(rest, l)
		}
	}
	if g := strings.TrimSuffix(strings.Join(rest, ""), "\n"); g != want {
		t.Errorf("MEMORY.md less the two later lines =\n%s\nwant as before the batch:\n%s", g, want)
	}
	delete(after, memdir.IndexFile)
	delete(after, "later.md")
	delete(before, memdir.IndexFile)
	if d := diffFolders(after, before); d != "" {
		t.Errorf("a forced undo left the folder unlike before the batch (MEMORY.md aside): %s", d)
	}
	if len(info.Kept) != 0 {
		t.Errorf("Kept = %v, want none: no memory changed since the batch, and MEMORY.md's version is dropped once its lines are back", info.Kept)
	}
}

// TestUndo_ForceCutShortKeepsIndexLines: a forced undo killed after it
// began is finished by the next Open with MEMORY.md as the undo leaves it
// (the lines written since the batch kept), not with its bytes of before
// the batch. Not parallel: the crash hook is global.
func TestUndo_ForceCutShortKeepsIndexLines(t *testing.T) {
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 4)
	if _, err := st.Apply(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	idx := st.Path(memdir.IndexFile)
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	const hand = "## My notes (hand-written)\n"
	if err := os.WriteFile(idx, append(b, hand...), 0o600); err != nil {
		t.Fatal(err)
	}
	memdir.BatchCrashForTest(t, "undoing")
	if _, err := st.Undo(ctx, "", true); err == nil {
		t.Fatal("the crash hook did not stop Undo")
	}
	st = openAt(t, st.Dir(), t0) // finishes the undo
	bs, err := st.Batches()
	if err != nil || len(bs) == 0 || !bs[0].Undone {
		t.Fatalf("the undo was not finished: %+v %v", bs, err)
	}
	if got, _ := os.ReadFile(idx); !strings.Contains(string(got), hand) {
		t.Errorf("the undo finished after a crash lost the hand-written line:\n%s", got)
	}
}
