//go:build unix

package memdir_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
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
	st.RecallIndex(t.Context())                 // built and written
	snap, _, err := st.RecallIndex(t.Context()) // mapped from the file
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(st.Path(memdir.RecallIndexFile), 0); err != nil {
		t.Fatal(err)
	}
	rec, problems := st.RecallFrom(snap, t.TempDir(), "deploy friday release manager", recall.DefaultPolicy, time.Now())
	if rec.Text != "" || len(problems) == 0 || !strings.Contains(problems[len(problems)-1].Error(), "changed while it was read") {
		t.Fatalf("text=%q problems=%v", rec.Text, problems)
	}
	// The next recall rebuilds the snapshot and answers.
	rec, _, err = st.Recall(t.Context(), t.TempDir(), "deploy friday release manager", recall.DefaultPolicy, time.Now())
	if err != nil || rec.Text == "" {
		t.Fatalf("after the rebuild: %v %q", err, rec.Text)
	}
}
