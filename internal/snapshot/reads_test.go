package snapshot_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// TestReads: a recall with Reads reuses what an earlier one read of a
// file that has not changed since, and reads again a file edited in
// place — same size, its modification time put back — because its
// change time moved; a file changed within the racy window is never
// kept.
func TestReads(t *testing.T) {
	st := MustOpen(t, t0)
	a := save(t, st, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old)
	os.Chtimes(st.Path(a), old, old)
	root := t.TempDir()
	reads := snapshot.NewReads()
	recallWith := func() string {
		t.Helper()
		snap, _, err := snapshot.Fresh(t.Context(), st)
		if err != nil {
			t.Fatal(err)
		}
		rec, problems := snapshot.FromParts([]snapshot.Part{{Store: st, Snap: snap, Reads: reads}}, root, "deploy fridays", recall.DefaultPolicy, time.Now())
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		return rec.Text
	}
	// Its change time is now: within the racy window, never kept.
	if text := recallWith(); !strings.Contains(text, "release manager") {
		t.Fatalf("first recall:\n%s", text)
	}
	recallWith()
	if n := reads.HitsForTest(); n != 0 {
		t.Fatalf("a file changed within the racy window was reused %d times", n)
	}
	time.Sleep(2100 * time.Millisecond)
	recallWith() // kept now
	if text := recallWith(); !strings.Contains(text, "release manager") || reads.HitsForTest() != 1 {
		t.Fatalf("a settled file was not reused (hits %d):\n%s", reads.HitsForTest(), text)
	}
	// Edited in place, same size, its modification time put back.
	raw, _ := os.ReadFile(st.Path(a))
	edited := strings.Replace(string(raw), "Ask the release manager.", "Ask the release planner.", 1)
	if len(edited) != len(raw) || edited == string(raw) {
		t.Fatal("the test's edit must keep the size")
	}
	os.WriteFile(st.Path(a), []byte(edited), 0o600)
	os.Chtimes(st.Path(a), old, old)
	os.Chtimes(st.Dir(), old, old)
	if text := recallWith(); !strings.Contains(text, "release planner") || reads.HitsForTest() != 1 {
		t.Fatalf("an in-place edit was not seen (hits %d):\n%s", reads.HitsForTest(), text)
	}
}
