package snapshot_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// scratch is the snapshot built from scratch from the folder's files, as
// a reference.
func scratch(t *testing.T, st *memdir.Store) *recall.Snapshot {
	t.Helper()
	mems, _, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	var entries []recall.Entry
	for _, m := range mems {
		entries = append(entries, recall.NewEntry(snapshot.Memory(m), m.Refs, m.Size, 0))
	}
	snap, err := recall.Open(recall.Encode(entries, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// scores maps each file holding a query term to its score and coverage.
func scores(snap *recall.Snapshot, query string) map[string][2]float64 {
	terms, groups := recall.Default.Prompt(query)
	out := map[string][2]float64{}
	for _, s := range snap.Index(recall.DefaultParams).SearchGroups(terms, groups) {
		out[snap.File(s.Doc)] = [2]float64{s.Score, s.Coverage}
	}
	return out
}

// sameAsScratch fails unless snap ranks every query exactly as a snapshot
// built from scratch does (scores equal to the last bit), and holds the
// same memories with the same metadata.
func sameAsScratch(t *testing.T, st *memdir.Store, snap *recall.Snapshot, queries []string, step string) {
	t.Helper()
	ref := scratch(t, st)
	if snap.Len() != ref.Len() {
		t.Fatalf("%s: snapshot holds %d memories, the folder %d", step, snap.Len(), ref.Len())
	}
	meta := map[string]recall.Memory{}
	for i := range ref.Len() {
		m, _, _ := ref.Memory(i)
		meta[m.File] = m
	}
	for i := range snap.Len() {
		m, _, err := snap.Memory(i)
		if err != nil || fmt.Sprint(m) != fmt.Sprint(meta[m.File]) {
			t.Fatalf("%s: memory %d is %+v (%v), the file says %+v", step, i, m, err, meta[m.File])
		}
	}
	for _, q := range queries {
		got, want := scores(snap, q), scores(ref, q)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: query %q ranks\n%v\nfrom scratch\n%v", step, q, got, want)
		}
	}
}

var words = strings.Fields("deploy friday release manager kafka retention topic postgres mock integration test table " +
	"flaky retry backoff cache snapshot index rename inode folder sweep merge segment delta base tombstone")

func sentence(rng *rand.Rand, n int) string {
	var b []string
	for range n {
		b = append(b, words[rng.IntN(len(words))])
	}
	return strings.Join(b, " ")
}

// TestFresh_Differential: random adds, edits, removals and renames through
// the real store (and in-place edits by another program, then a sweep)
// leave a snapshot of base and delta that ranks every query exactly as a
// snapshot built from scratch, across delta rewrites and merges.
func TestFresh_Differential(t *testing.T) {
	st := MustOpen(t, t0)
	rng := rand.New(rand.NewPCG(13, 1))
	queries := []string{"deploy friday", "kafka retention topic", "flaky integration test mock", "snapshot delta merge tombstone", "nothing here at all"}
	var names []string
	add := func() {
		name := fmt.Sprintf("Note %d %s", len(names), words[rng.IntN(len(words))])
		save(t, st, name, sentence(rng, 6), sentence(rng, 10+rng.IntN(60)))
		names = append(names, name)
	}
	for range 30 {
		add()
	}
	merged, deltas := 0, 0
	for step := range 260 {
		live, _ := st.Files()
		switch op := rng.IntN(10); {
		case op < 3 || len(live) < 5:
			add()
		case op < 6: // an edit through the store: a new file by rename
			name := names[rng.IntN(len(names))]
			if _, err := st.Get(name); err == nil {
				if _, err := st.Save(t.Context(), memdir.Memory{Name: name, Description: sentence(rng, 5), Body: sentence(rng, 20)}, memdir.SaveOptions{MustExist: true}); err != nil {
					t.Fatal(err)
				}
			}
		case op < 7:
			name := names[rng.IntN(len(names))]
			if _, err := st.Get(name); err == nil {
				if _, err := st.Forget(t.Context(), name, false); err != nil {
					t.Fatal(err)
				}
			}
		case op < 8: // another program renames a file
			f := live[rng.IntN(len(live))]
			if err := os.Rename(st.Path(f), st.Path(fmt.Sprintf("renamed-%d.md", step))); err != nil {
				t.Fatal(err)
			}
		case op < 9: // another program edits a file in place: seen by the sweep
			f := live[rng.IntN(len(live))]
			raw, _ := os.ReadFile(st.Path(f))
			if err := os.WriteFile(st.Path(f), append(raw, "\n"+sentence(rng, 8)+"\n"...), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := snapshot.Sweep(t.Context(), st); err != nil {
				t.Fatal(err)
			}
		default:
			if _, err := snapshot.Sweep(t.Context(), st); err != nil {
				t.Fatal(err)
			}
		}
		snap, problems, err := snapshot.Fresh(t.Context(), st)
		if err != nil || len(problems) > 0 {
			t.Fatalf("step %d: %v %v", step, err, problems)
		}
		if snap.DeltaLen() > 0 || len(snap.Tombstones()) > 0 {
			deltas++
		} else {
			merged++
		}
		sameAsScratch(t, st, snap, queries, fmt.Sprintf("step %d", step))
		// What a new process reads from disk is the same.
		sameAsScratch(t, st, snapshot.SnapshotForTest(st), queries, fmt.Sprintf("step %d, from disk", step))
	}
	if deltas == 0 || merged == 0 {
		t.Errorf("the sequence never exercised both shapes: %d steps with a delta, %d without", deltas, merged)
	}
}

// TestFresh_InPlaceEditBySweep: an in-place edit by another program (same
// inode, the folder's mtime unmoved) is left to the sweep by Fresh, which
// stats no file while the folder is unchanged, and the sweep finds it.
func TestFresh_InPlaceEditBySweep(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy window", "Deploys happen on Tuesdays", "Ask the release manager.")
	save(t, st, "Table tests", "Write table-driven tests", "Use t.Run.")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old)
	search(t, st, "deploy")
	raw, _ := os.ReadFile(st.Path(a))
	if err := os.WriteFile(st.Path(a), []byte(strings.Replace(string(raw), "Ask the release manager.", "Kafka retention is seven days.", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(st.Dir(), old, old)
	if got := search(t, st, "kafka retention"); len(got) != 0 {
		t.Fatalf("Fresh read a file though the folder is unchanged: %v", got)
	}
	if _, err := snapshot.Sweep(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	if got := search(t, st, "kafka retention"); !slices.Equal(got, []string{a}) {
		t.Fatalf("after the sweep, search = %v", got)
	}
	if snap := snapshot.SnapshotForTest(st); time.Since(time.Unix(0, snap.Swept())) > time.Minute {
		t.Errorf("the sweep's time is not recorded: %v", time.Unix(0, snap.Swept()))
	}
	// A sweep when due only: just swept, nothing to do.
	if _, err := snapshot.SweepIfDue(t.Context(), st, time.Hour); err != nil {
		t.Fatal(err)
	}
}

// TestRecall_InjectsTheFileAsItIsNow: what Recall injects is read from the
// file at that moment: an in-place edit the snapshot has not seen shows in
// the text (and goes into the snapshot), a memory superseded in place is
// not injected, and one deleted after the snapshot was read is not either.
func TestRecall_InjectsTheFileAsItIsNow(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	b := save(t, st, "Deploy checklist", "Before a deploy on fridays", "Run the smoke tests.")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old)
	root := t.TempDir()
	rec, _, err := snapshot.Recall(t.Context(), st, root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if err != nil || !strings.Contains(rec.Text, "Ask the release manager.") {
		t.Fatalf("first recall: %v\n%s", err, rec.Text)
	}
	// Edited in place: the folder does not move.
	raw, _ := os.ReadFile(st.Path(a))
	os.WriteFile(st.Path(a), []byte(strings.Replace(string(raw), "Ask the release manager.", "Ask the on-call planner, always.", 1)), 0o600)
	os.Chtimes(st.Dir(), old, old)
	rec, _, err = snapshot.Recall(t.Context(), st, root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if err != nil || !strings.Contains(rec.Text, "on-call planner") || strings.Contains(rec.Text, "release manager") {
		t.Fatalf("after an in-place edit: %v\n%s", err, rec.Text)
	}
	if got := search(t, st, "planner"); !slices.Equal(got, []string{a}) {
		t.Errorf("the change seen at injection is not in the snapshot: search = %v", got)
	}
	// Superseded in place.
	raw, _ = os.ReadFile(st.Path(a))
	os.WriteFile(st.Path(a), []byte(strings.Replace(string(raw), "---\n", "---\nsuperseded_by: "+b+"\n", 1)), 0o600)
	os.Chtimes(st.Dir(), old, old)
	if m, err := st.Read(a); err != nil || m.SupersededBy == "" {
		t.Fatalf("the test's edit does not supersede: %+v %v", m.SupersededBy, err)
	}
	rec, _, _ = snapshot.Recall(t.Context(), st, root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if strings.Contains(rec.Text, "on-call planner") || !strings.Contains(rec.Text, "smoke tests") {
		t.Fatalf("a memory superseded in place is injected:\n%s", rec.Text)
	}
	// Deleted between the snapshot's read and the selection.
	snap, _, err := snapshot.Fresh(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(st.Path(b))
	got, _ := snapshot.From(st, snap, root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if strings.Contains(got.Text, "smoke tests") {
		t.Fatalf("a deleted memory is injected:\n%s", got.Text)
	}
}

// TestFresh_CorruptDelta: a delta of garbage, or cut short, is never
// trusted: the snapshot is rebuilt from the files.
func TestFresh_CorruptDelta(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	search(t, st, "deploy")
	c := save(t, st, "Kafka retention", "Topics keep seven days", "Compacted topics keep forever.")
	for i, cut := range []func([]byte) []byte{
		func([]byte) []byte { return []byte("garbage") },
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { return b[:10] },
		func(b []byte) []byte { return b[:len(b)-1] },
	} {
		// A change, so that the delta on disk is over the base on disk.
		save(t, st, fmt.Sprintf("Deploy note %d", i), "No deploys on Fridays", "Ask the release manager.")
		search(t, st, "kafka")
		delta, err := os.ReadFile(st.Path(snapshot.DeltaFile))
		if sn := snapshot.SnapshotForTest(st); err != nil || sn == nil || sn.DeltaLen() == 0 {
			t.Fatalf("no delta after a change: %v", err)
		}
		bad := cut(delta)
		os.WriteFile(st.Path(snapshot.DeltaFile), bad, 0o600)
		if snapshot.SnapshotForTest(st) != nil {
			t.Errorf("a corrupt delta (%d bytes) is read", len(bad))
		}
		if got := search(t, st, "kafka retention"); !slices.Equal(got, []string{c}) {
			t.Fatalf("with a corrupt delta, search = %v", got)
		}
	}
}

// TestFresh_StaleDeltaAfterMerge: a writer killed between a merge's two
// writes leaves the new base beside the old delta: the delta names the
// old base and is never read over the new one.
func TestFresh_StaleDeltaAfterMerge(t *testing.T) {
	st := MustOpen(t, t0)
	for i := range 40 {
		save(t, st, fmt.Sprintf("Deploy note %d", i), "No deploys on Fridays", "Ask the release manager.")
	}
	search(t, st, "deploy")
	save(t, st, "Kafka retention", "Topics keep seven days", "Compacted topics keep forever.")
	search(t, st, "kafka")
	before, err := os.ReadFile(st.Path(snapshot.DeltaFile))
	if err != nil {
		t.Fatal(err)
	}
	// Enough changes for a sweep to merge.
	for i := range 40 {
		save(t, st, fmt.Sprintf("Deploy note %d", i), fmt.Sprintf("No deploys on Fridays, take %d", i), "Ask the release manager.")
		search(t, st, "deploy")
	}
	if _, err := snapshot.Sweep(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	snap := snapshot.SnapshotForTest(st)
	if snap == nil || snap.DeltaLen() != 0 {
		t.Fatalf("the sweep did not merge the delta")
	}
	// As if the writer had been killed before the merge's empty delta.
	os.WriteFile(st.Path(snapshot.DeltaFile), before, 0o600)
	snap = snapshot.SnapshotForTest(st)
	if snap == nil || snap.DeltaLen() != 0 || snap.Len() != 41 {
		t.Fatalf("a delta of the old base is read over the new one")
	}
	sameAsScratch(t, st, snap, []string{"deploy fridays", "kafka"}, "after the merge")
}
