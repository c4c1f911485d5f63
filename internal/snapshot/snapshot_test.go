package snapshot_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/testenv"
)

var t0 = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// MustOpen opens a store on a new temporary folder with a fixed clock.
func MustOpen(tb testing.TB, now time.Time) *memdir.Store { return testenv.Store(tb, now) }

// MustOpenIn opens (and makes) a store in dir.
func MustOpenIn(tb testing.TB, dir string) *memdir.Store {
	tb.Helper()
	st, err := memdir.Open(dir, memdir.Options{Create: true})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func save(t *testing.T, st *memdir.Store, name, desc, body string) string {
	t.Helper()
	return testenv.Save(t, st, name, desc, body)
}

func search(t *testing.T, st *memdir.Store, q string) []string {
	t.Helper()
	snap, problems, err := snapshot.Fresh(context.Background(), st)
	if err != nil || len(problems) > 0 {
		t.Fatalf("RecallIndex: %v %v", err, problems)
	}
	var files []string
	for _, s := range snap.Index(recall.DefaultParams).Search(recall.Default.Terms(q, nil)) {
		files = append(files, snap.File(s.Doc))
	}
	return files
}

// TestRecallIndex_FollowsTheFiles: the snapshot follows saves, in-place
// edits by another program (by the next sweep), deletions and a corrupt
// snapshot file.
func TestRecallIndex_FollowsTheFiles(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	b := save(t, st, "Table tests", "Write table-driven tests", "Use t.Run.")
	if got := search(t, st, "deploy friday"); !slices.Equal(got, []string{a}) {
		t.Fatalf("search = %v", got)
	}
	if _, err := os.Stat(st.Path(snapshot.File)); err != nil {
		t.Fatalf("no snapshot written: %v", err)
	}
	// Another program rewrites b in place (no rename, same folder mtime).
	raw, _ := os.ReadFile(st.Path(b))
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(st.Path(b), append(raw, []byte("\nAlso on fridays, deploy nothing.\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Sweep(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	if got := search(t, st, "deploy friday"); !slices.Contains(got, b) || !slices.Contains(got, a) {
		t.Fatalf("after an in-place edit, search = %v", got)
	}
	// Deleted.
	os.Remove(st.Path(a))
	if got := search(t, st, "deploy friday"); slices.Contains(got, a) {
		t.Fatalf("a deleted file is still found: %v", got)
	}
	// A corrupt snapshot is rebuilt.
	os.WriteFile(st.Path(snapshot.File), []byte("garbage"), 0o600)
	if got := search(t, st, "table tests"); !slices.Equal(got, []string{b}) {
		t.Fatalf("after corruption, search = %v", got)
	}
	// A file that does not parse is reported, the rest still found.
	os.WriteFile(st.Path("broken.md"), []byte("---\nname: [unclosed\n---\nbody"), 0o600)
	snap, problems, err := snapshot.Fresh(context.Background(), st)
	if err != nil || len(problems) != 1 || snap.Len() != 1 {
		t.Fatalf("with a broken file: len=%d problems=%v err=%v", snap.Len(), problems, err)
	}
}

// TestRecallIndex_Concurrent: readers rebuilding and reading the snapshot
// while writers save never fail and never see a torn snapshot.
func TestRecallIndex_Concurrent(t *testing.T) {
	st := MustOpen(t, t0)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				if _, err := st.Save(context.Background(), memdir.Memory{Name: fmt.Sprintf("note %d %d", w, i), Description: "deploy notes", Type: memdir.TypeProject, Body: "x"}, memdir.SaveOptions{}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 60 {
				snap, _, err := snapshot.Fresh(context.Background(), st)
				if err != nil {
					errs <- err
					return
				}
				snap.Index(recall.DefaultParams).Search([]string{"deploy"})
				if b, err := os.ReadFile(st.Path(snapshot.File)); err == nil {
					if _, err := recall.Open(b); err != nil {
						errs <- fmt.Errorf("torn snapshot file: %w", err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := search(t, st, "deploy notes"); len(got) != 90 {
		t.Errorf("found %d of 90 notes", len(got))
	}
}

// TestRecallIndex_RacilyClean: an edit in place that keeps a file's size
// and its time (a coarse clock ticking once for the read and the edit) is
// still seen by the next sweep, because a stamp next to its reading is
// recorded as unknown.
func TestRecallIndex_RacilyClean(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	if got := search(t, st, "release manager"); !slices.Equal(got, []string{a}) {
		t.Fatalf("search = %v", got)
	}
	// The snapshot and the file now share one tick of a one-second clock.
	tick := snapshot.BuiltForTest(t, st).Truncate(time.Second)
	snapshot.DateForTest(t, st, tick)
	raw, _ := os.ReadFile(st.Path(a))
	edited := []byte(strings.Replace(string(raw), "release manager", "on-call planner", 1))
	if len(edited) != len(raw) {
		t.Fatal("the edit must keep the size")
	}
	info, _ := os.Stat(st.Path(a))
	if err := os.WriteFile(st.Path(a), edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(st.Path(a), info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Sweep(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	if got := search(t, st, "planner"); !slices.Equal(got, []string{a}) {
		t.Fatalf("a racily clean edit is not seen: search = %v", got)
	}
}

// TestRecallIndex_RacyFolderSettles: a folder whose time was too close to
// the snapshot's to be trusted is listed, and once that time is safely
// past the snapshot is written again, so later calls stop listing it.
func TestRecallIndex_RacyFolderSettles(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	search(t, st, "deploy")
	old := time.Now().Add(-10 * time.Second).Truncate(time.Second)
	if err := os.Chtimes(st.Path("."), old, old); err != nil {
		t.Fatal(err)
	}
	search(t, st, "deploy") // the folder's time moved: listed, written
	snapshot.DateForTest(t, st, old.Add(time.Second))
	search(t, st, "deploy")
	if built := snapshot.BuiltForTest(t, st); !built.After(old.Add(5 * time.Second)) {
		t.Errorf("the snapshot was not written again once the folder's time was past: built %v (folder %v)", built, old)
	}
}

// TestRecallIndex_SlowBuild: a file that arrives in the same clock tick as
// the build's look at the folder is found later, however long the build
// took (the snapshot is dated when it looked, not when it was written).
func TestRecallIndex_SlowBuild(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	var late string
	snapshot.BeforeWriteForTest(t, func(file string) {
		if file != snapshot.File || late != "" {
			return
		}
		// After the listing, in the folder's clock tick (a coarse clock
		// gives the folder the same time), then a build of over 2 s.
		info, _ := os.Stat(st.Path("."))
		tick := info.ModTime()
		late = "kafka-retention.md"
		os.WriteFile(st.Path(late), []byte("---\nname: Kafka retention\ndescription: topics keep 7 days\ntype: project\n---\nbody\n"), 0o600)
		os.Chtimes(st.Path(late), tick, tick)
		os.Chtimes(st.Path("."), tick, tick)
		time.Sleep(2500 * time.Millisecond)
	})
	search(t, st, "deploy")
	if got := search(t, st, "kafka retention"); !slices.Equal(got, []string{late}) {
		t.Fatalf("a file from the build's tick is never found: %v", got)
	}
}

// TestRecallIndex_SweepsDeadSnapshots: temporary snapshots a killed
// writer left in the cache folder are removed by the next write; a young
// one, perhaps still being written, is kept.
func TestRecallIndex_SweepsDeadSnapshots(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	search(t, st, "deploy")
	dead, young := st.Path(memdir.CacheDir+"/.recall.idx.tmp-123"), st.Path(memdir.CacheDir+"/.recall.idx.tmp-456")
	os.WriteFile(dead, make([]byte, 1<<20), 0o600)
	os.WriteFile(young, nil, 0o600)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(dead, old, old)
	save(t, st, "Table tests", "Write table-driven tests", "Use t.Run.")
	search(t, st, "table tests")
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("a dead temporary snapshot is still there: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a young temporary snapshot was removed: %v", err)
	}
}

// TestRecall_StaleRefs: only file references are checked against the
// project, positions aside; symbols never count as missing files.
func TestRecall_StaleRefs(t *testing.T) {
	st := MustOpen(t, t0)
	root := t.TempDir()
	os.MkdirAll(root+"/internal/recall", 0o700)
	os.WriteFile(root+"/internal/recall/select.go", nil, 0o600)
	refs := []string{"recall.Select", "internal/recall/select.go", "internal/recall/select.go:75", "internal/recall/select.go:75:3",
		"internal/recall/select.go#L10-L20", "os.Getenv", "internal/recall.Select", "internal/recall", "gone/file.go", "docs/guide.md#L10", "scripts/deploy",
		"--dry-run", "make test", "ParseConfig()", "github.com/gone/module", "https://example.com/gone/page",
		"../gone-outside.go", "internal/../../gone-outside.md"} // issue 18: refs hold every kind of claim; one outside the project is none of its files
	_, err := st.Save(t.Context(), memdir.Memory{Name: "Selection rules", Description: "how recall selects memories", Type: memdir.TypeProject, Body: "See the code.", Refs: refs}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec, _, err := snapshot.Recall(t.Context(), st, root, "how does recall select memories", recall.DefaultPolicy, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if want := "possibly stale: gone/file.go, docs/guide.md#L10, scripts/deploy no longer exist"; !strings.Contains(rec.Text, want) {
		t.Errorf("want %q in:\n%s", want, rec.Text)
	}
}

// TestRecall_BrokenFileFixedInPlace: a memory file that did not parse when
// the snapshot was built is left out of its file list; fixed in place later
// (no rename, so the folder's mtime does not move), it is still found by
// recall, by name and by a save of that name.
func TestRecall_BrokenFileFixedInPlace(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	f := st.Path("feedback_db.md")
	// A half-written memory (bad YAML) as an editor or the agent leaves it.
	os.WriteFile(f, []byte("---\nname: Testing approach\ndescription: [unclosed\ntype: feedback\n---\nNo mocks.\n"), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old) // the folder's last change is not racy
	if _, problems, err := snapshot.Fresh(context.Background(), st); err != nil || len(problems) != 1 {
		t.Fatalf("first build: %v %v", err, problems)
	}
	time.Sleep(2100 * time.Millisecond) // out of the racy window of the build
	// Fixed in place: open with O_TRUNC, as most editors and fs.writeFile do.
	if err := os.WriteFile(f, []byte("---\nname: Testing approach\ndescription: integration tests hit a real database\ntype: feedback\n---\nNo mocks.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mems, _, _ := st.List()
	if len(mems) != 2 {
		t.Fatalf("list: %d memories", len(mems))
	}
	for try := 0; try < 3; try++ {
		if got := search(t, st, "integration database mocks"); len(got) == 0 {
			t.Errorf("try %d: recall misses the fixed memory", try)
		}
	}
	if _, err := st.Get("Testing approach"); err != nil {
		t.Errorf("Get by the name list shows: %v", err)
	}
	res, err := st.Save(context.Background(), memdir.Memory{Name: "Testing approach", Body: "No mocks, ever.\n"}, memdir.SaveOptions{})
	if err != nil || res.File != "feedback_db.md" {
		t.Errorf("save by name went to %s (created=%v), %v", res.File, res.Created, err)
	}
}

// TestRecall_BrokenFileNoRewrite: while a file does not parse, each call
// lists the folder and tries it again, but a snapshot that is otherwise
// right is not written again on every prompt.
func TestRecall_BrokenFileNoRewrite(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	os.WriteFile(st.Path("broken.md"), []byte("---\nname: x\ndescription: [unclosed\n---\n"), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Path("broken.md"), old, old)
	os.Chtimes(st.Path("deploy-freeze.md"), old, old)
	os.Chtimes(st.Dir(), old, old)
	if _, problems, err := snapshot.Fresh(context.Background(), st); err != nil || len(problems) != 1 {
		t.Fatalf("first build: %v %v", err, problems)
	}
	// The change times just set are racy for that build: the next call
	// past the window reads the files again and settles the snapshot.
	time.Sleep(2100 * time.Millisecond)
	if _, problems, err := snapshot.Fresh(context.Background(), st); err != nil || len(problems) != 1 {
		t.Fatalf("settling build: %v %v", err, problems)
	}
	before, err := os.Stat(st.Path(snapshot.File))
	if err != nil {
		t.Fatal(err)
	}
	deltaBefore, err := os.Stat(st.Path(snapshot.DeltaFile))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	snap, problems, err := snapshot.Fresh(context.Background(), st)
	if err != nil || len(problems) != 1 || snap.Len() != 1 {
		t.Fatalf("second call: %v %v", err, problems)
	}
	after, _ := os.Stat(st.Path(snapshot.File))
	if !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the snapshot was written again (%v → %v) though nothing changed", before.ModTime(), after.ModTime())
	}
	if after, err := os.Stat(st.Path(snapshot.DeltaFile)); err != nil || !after.ModTime().Equal(deltaBefore.ModTime()) {
		t.Errorf("the snapshot's delta was written again (%v → %v, %v) though nothing changed", deltaBefore.ModTime(), after.ModTime(), err)
	}
}
