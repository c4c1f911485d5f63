package snapshot_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/snapshot"
)

// settle moves the folder's mtime to a time long past, as a folder nobody
// touched for a while, and brings the snapshot to it by a look, so later
// writes start from a time the snapshot trusts.
func settle(t *testing.T, st *memdir.Store, step int) {
	t.Helper()
	old := time.Now().Add(-time.Hour).Add(time.Duration(step) * time.Millisecond).Add(123 * time.Nanosecond)
	if err := os.Chtimes(st.Dir(), old, old); err != nil {
		t.Fatal(err)
	}
	if _, _, err := snapshot.Fresh(t.Context(), st); err != nil {
		t.Fatal(err)
	}
}

// writer makes the random writes of TestFresh_FromLogDifferential.
type writer struct {
	t       *testing.T
	st      *memdir.Store
	rng     *rand.Rand
	names   []string
	batches []string
}

func (w *writer) add() {
	name := fmt.Sprintf("Note %d %s", len(w.names), words[w.rng.IntN(len(words))])
	save(w.t, w.st, name, sentence(w.rng, 6), sentence(w.rng, 10+w.rng.IntN(60)))
	w.names = append(w.names, name)
}

// write makes one random write and says which kind.
func (w *writer) write(step int) string {
	t, st, rng := w.t, w.st, w.rng
	live, _ := st.Files()
	switch n := rng.IntN(20); {
	case n < 4 || len(live) < 8:
		w.add()
		return "save"
	case n < 8:
		name := w.names[rng.IntN(len(w.names))]
		if _, err := st.Get(name); err == nil {
			if _, err := st.Save(t.Context(), memdir.Memory{Name: name, Description: sentence(rng, 5), Body: sentence(rng, 20)}, memdir.SaveOptions{MustExist: true, KeepPrevious: rng.IntN(2) == 0}); err != nil {
				t.Fatal(err)
			}
		}
		return "edit"
	case n < 10:
		if _, err := st.Forget(t.Context(), live[rng.IntN(len(live))], rng.IntN(3) == 0); err != nil {
			t.Fatal(err)
		}
		return "forget"
	case n < 12:
		if vs, _ := st.Versions(w.names[rng.IntN(len(w.names))]); len(vs) > 0 {
			if _, err := st.Restore(t.Context(), vs[0].File, vs[0].Version); err != nil {
				t.Logf("restore %s: %v", vs[0].File, err) // it holds that version already
			}
		}
		return "restore"
	case n < 14:
		m, err := st.Read(live[rng.IntN(len(live))])
		if err != nil {
			t.Fatal(err)
		}
		m.Body = sentence(rng, 15)
		b := memdir.Batch{Label: "test", Save: []memdir.Memory{m, {Name: fmt.Sprintf("Batch %d %d", step, rng.IntN(1000)), Description: "d", Type: memdir.TypeProject, Body: sentence(rng, 12)}}}
		if retire := live[rng.IntN(len(live))]; retire != m.File {
			b.Retire = []string{retire}
		}
		res, err := st.Apply(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		w.batches = append(w.batches, res.ID)
		return "batch"
	case n < 15 && len(w.batches) > 0:
		id := w.batches[len(w.batches)-1]
		w.batches = w.batches[:len(w.batches)-1]
		if _, err := st.Undo(t.Context(), id, true); err != nil {
			t.Logf("undo %s: %v", id, err)
		}
		return "undo"
	case n < 16:
		if _, err := st.UpdateSide(t.Context(), memdir.UsageFile, func([]byte) ([]byte, error) {
			return fmt.Appendf(nil, `{"step":%d}`, step), nil
		}); err != nil {
			t.Fatal(err)
		}
		return "side"
	case n < 18:
		switch rng.IntN(3) {
		case 0:
			f := live[rng.IntN(len(live))]
			if err := os.Rename(st.Path(f), st.Path(fmt.Sprintf("renamed-%d-%d.md", step, rng.IntN(1000)))); err != nil {
				t.Fatal(err)
			}
		case 1:
			if err := os.Remove(st.Path(live[rng.IntN(len(live))])); err != nil {
				t.Fatal(err)
			}
		default:
			body := fmt.Sprintf("---\nname: Added %d\ndescription: by hand\ntype: project\n---\n%s\n", step, sentence(rng, 12))
			if err := os.WriteFile(filepath.Join(st.Dir(), fmt.Sprintf("added-%d-%d.md", step, rng.IntN(1000))), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return "another program"
	default:
		settle(t, st, step)
		return "settle"
	}
}

// TestFresh_FromLogDifferential: every kind of write the store makes
// (save, edit, forget, restore, a batch and its undo, a side file) brings
// the snapshot up to date from the store's written log, without a listing;
// another program's add, remove or rename, alone or between memdir's
// writes, breaks the log's chain, and the next call lists. After every
// step the snapshot ranks every query exactly as one built from scratch.
func TestFresh_FromLogDifferential(t *testing.T) {
	st := MustOpen(t, t0)
	w := &writer{t: t, st: st, rng: rand.New(rand.NewPCG(7, 3))}
	queries := []string{"deploy friday", "kafka retention topic", "flaky integration test mock", "snapshot delta merge tombstone", "nothing here at all"}
	for range 30 {
		w.add()
	}
	settle(t, st, 0)
	fromLog, listed := map[string]int{}, 0
	for step := range 200 {
		// One to three writes between two looks, as a prompt may follow
		// several saves.
		var ops []string
		for range 1 + w.rng.IntN(3) {
			ops = append(ops, w.write(step))
		}
		// What the look below must account for: the writes since the
		// last settle (which looked at the folder itself).
		last := -1
		for i, o := range ops {
			if o == "settle" {
				last = i
			}
		}
		since := ops[last+1:]
		op := "settle"
		if len(since) > 0 {
			op = since[0]
		}
		if slices.Contains(since, "another program") {
			op = "another program"
		}
		snap, problems, err := snapshot.Fresh(t.Context(), st)
		if err != nil || len(problems) > 0 {
			t.Fatalf("step %d %v: %v %v", step, ops, err, problems)
		}
		if snapshot.FromLogForTest(st) {
			fromLog[op]++
		} else {
			listed++
		}
		sameAsScratch(t, st, snap, queries, fmt.Sprintf("step %d %v", step, ops))
		sameAsScratch(t, st, snapshot.SnapshotForTest(st), queries, fmt.Sprintf("step %d %v, from disk", step, ops))
	}
	t.Logf("brought up to date from the log: %v; by a look: %d", fromLog, listed)
	for _, op := range []string{"save", "edit", "forget", "restore", "batch", "undo", "side"} {
		if fromLog[op] == 0 {
			t.Errorf("no %s was followed from the log", op)
		}
	}
	if fromLog["another program"] > 0 {
		t.Errorf("%d changes by another program were taken from memdir's log", fromLog["another program"])
	}
}

// TestFresh_FromLogLostNames: a hold whose names the written log cannot
// carry (a backslash or a line break in a file name memdir reached by its
// memory's name; a log that cannot be appended to) is never followed from
// the log: the next call lists, and the snapshot is the folder's.
func TestFresh_FromLogLostNames(t *testing.T) {
	body := "---\nname: Kafka retention\ndescription: topic retention\ntype: project\n---\nkafka retention topic seven days\n"
	queries := []string{"kafka retention topic", "postgres mock integration", "deploy friday"}
	for _, tc := range []struct{ what, file string }{
		{"backslash", `kafka\retention.md`},
		{"line break", "kafka\nretention.md"},
		{"log not writable", "kafka-retention.md"},
	} {
		for _, op := range []string{"forget", "save"} {
			t.Run(tc.what+"/"+op, func(t *testing.T) {
				st := MustOpen(t, t0)
				for i := range 5 {
					save(t, st, fmt.Sprintf("Note %d", i), "d", "deploy friday release")
				}
				if err := os.WriteFile(filepath.Join(st.Dir(), tc.file), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
				settle(t, st, 0)
				if tc.what == "log not writable" {
					// A folder where the log goes: every append fails.
					for _, f := range []string{memdir.WrittenLog, memdir.WrittenLog + ".1"} {
						os.Remove(st.Path(f))
					}
					if err := os.Mkdir(st.Path(memdir.WrittenLog), 0o700); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(st.Path(memdir.WrittenLog+"/keep"), nil, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				var err error
				if op == "forget" {
					_, err = st.Forget(t.Context(), "Kafka retention", false)
				} else {
					_, err = st.Save(t.Context(), memdir.Memory{Name: "Kafka retention", Body: "postgres mock integration flaky\n"}, memdir.SaveOptions{MustExist: true})
				}
				if err != nil {
					t.Fatal(err)
				}
				snap, problems, err := snapshot.Fresh(t.Context(), st)
				if err != nil || len(problems) > 0 {
					t.Fatal(err, problems)
				}
				if snapshot.FromLogForTest(st) {
					t.Errorf("brought up to date from a log that lost a name")
				}
				sameAsScratch(t, st, snap, queries, op)
			})
		}
	}
}
