//go:build unix

package snapshot_test

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// TestRecall_SnapshotCutShort: the mapped snapshot cut short in place
// under a reader (cp over it, rsync --inplace) is an error, not a fault
// that kills the process — a hook that died would exit 2 and block the
// agent.
func TestRecall_SnapshotCutShort(t *testing.T) {
	st := MustOpen(t, t0)
	for i := range 200 {
		save(t, st, fmt.Sprintf("Deploy freeze %d", i), "No deploys on Fridays", strings.Repeat("release manager approves the deploy window. ", 40))
	}
	// Files and folder from an hour ago, so the snapshot is trusted as written.
	old := time.Now().Add(-time.Hour)
	files, _ := st.Files()
	for _, f := range append(files, ".") {
		os.Chtimes(st.Path(f), old, old)
	}
	snapshot.Fresh(t.Context(), st) // built and written
	// Setting times moved the files' change times to now: date the
	// snapshot well after them so none is racy and the next call maps it.
	later := time.Now().Add(time.Hour)
	snapshot.DateForTest(t, st, later)
	snap, _, err := snapshot.Fresh(t.Context(), st) // mapped from the file
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(st.Path(snapshot.File), 0); err != nil {
		t.Fatal(err)
	}
	rec, problems := snapshot.From(st, snap, t.TempDir(), "deploy friday release manager", recall.DefaultPolicy, time.Now())
	if rec.Text != "" || len(problems) == 0 || !strings.Contains(problems[len(problems)-1].Error(), "changed while it was read") {
		t.Fatalf("text=%q problems=%v", rec.Text, problems)
	}
	// The next recall rebuilds the snapshot and answers.
	rec, _, err = snapshot.Recall(t.Context(), st, t.TempDir(), "deploy friday release manager", recall.DefaultPolicy, time.Now())
	if err != nil || rec.Text == "" {
		t.Fatalf("after the rebuild: %v %q", err, rec.Text)
	}
}

// TestRecallIndex_CopyKeepsMtime: a same-size file moved into place with
// its old mtime kept (cp -p, rsync -a, touch -r), and the folder's time
// put back too, is seen by the sweep through its change time and inode,
// long after the snapshot. (With the folder's time put back, a prompt's
// check trusts the snapshot: that is the sweep's case.)
func TestRecallIndex_CopyKeepsMtime(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy window", "Deploys happen on Tuesdays at noon", "Ask the release manager.")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Path(a), old, old)
	os.Chtimes(st.Path("."), old, old)
	if got := search(t, st, "tuesdays noon"); len(got) != 1 {
		t.Fatalf("search = %v", got)
	}
	// The snapshot is from long after the file: nothing is racy.
	later := old.Add(30 * time.Minute)
	snapshot.DateForTest(t, st, later)
	raw, _ := os.ReadFile(st.Path(a))
	edited := strings.Replace(string(raw), "Deploys happen on Tuesdays at noon", "Deploys are FROZEN; never deploy!!", 1)
	if len(edited) != len(raw) {
		t.Fatal("the edit must keep the size")
	}
	tmp := st.Path(".tmp-copy")
	os.WriteFile(tmp, []byte(edited), 0o600)
	info, _ := os.Stat(st.Path(a))
	os.Chtimes(tmp, info.ModTime(), info.ModTime())
	if err := os.Rename(tmp, st.Path(a)); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(st.Path("."), old, old) // and the folder's time as it was
	if _, err := snapshot.Sweep(t.Context(), st); err != nil {
		t.Fatal(err)
	}
	if got := search(t, st, "frozen"); len(got) != 1 {
		t.Fatalf("the copied-in edit is not seen: %v", got)
	}
}

// TestRecall_FifoSnapshot: a FIFO in the snapshot's place is not opened
// for a blocking read (a hook would hang): recall rebuilds and answers.
func TestRecall_FifoSnapshot(t *testing.T) {
	st := MustOpen(t, t0)
	save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	idx := st.Path(snapshot.File)
	os.Remove(idx)
	if err := syscall.Mkfifo(idx, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan []string, 1)
	go func() { done <- search(t, st, "release manager") }()
	select {
	case got := <-done:
		if len(got) != 1 {
			t.Errorf("search = %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("recall hangs on a FIFO in the snapshot's place")
	}
}
