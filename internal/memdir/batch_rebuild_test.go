package memdir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// TestApply_RebuildIndex: a batch that rebuilds MEMORY.md cuts an index
// past Claude Code's caps back to the budget (hand-written lines kept, the
// retired memory's line gone, a recently recalled memory kept), and its
// undo puts the old index back byte for byte.
func TestApply_RebuildIndex(t *testing.T) {
	dir := t.TempDir()
	var ix strings.Builder
	ix.WriteString("# Memory\n\nWritten by hand: keep this line.\n")
	for i := range 260 {
		f := fmt.Sprintf("m%03d.md", i)
		body := fmt.Sprintf("---\nname: Memory %03d\ndescription: generated memory %d\ntype: project\ncreated: 2026-01-01T00:00:00Z\n---\nFact %d.\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&ix, "- [Memory %03d](%s) — generated memory %d\n", i, f, i)
	}
	if err := os.WriteFile(filepath.Join(dir, memdir.IndexFile), []byte(ix.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Of memories written alike, the one recall gave lately keeps a line.
	recent := map[string]time.Time{"m250.md": time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	res, err := st.Apply(context.Background(), memdir.Batch{Label: "test", Retire: []string{"m000.md"}, RebuildIndex: true, Recent: recent})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, memdir.IndexFile))
	lines := strings.Count(string(got), "\n")
	if res.LeftOut < 100 {
		t.Errorf("LeftOut = %d, want the ~120 memories without a line counted", res.LeftOut)
	}
	if !res.Index || lines > memdir.IndexBudgetLines || !strings.Contains(string(got), "Written by hand: keep this line.") || strings.Contains(string(got), "(m000.md)") {
		t.Errorf("index after the batch: changed %v, %d lines (budget %d), hand line kept %v, retired line gone %v",
			res.Index, lines, memdir.IndexBudgetLines, strings.Contains(string(got), "Written by hand"), !strings.Contains(string(got), "(m000.md)"))
	}
	if !strings.Contains(string(got), "(m250.md)") || strings.Contains(string(got), "(m249.md)") {
		t.Error("the rebuilt index does not rank the recently recalled m250.md above its peers")
	}
	if _, err := st.Undo(context.Background(), res.ID, false); err != nil {
		t.Fatal(err)
	}
	if back, _ := os.ReadFile(filepath.Join(dir, memdir.IndexFile)); string(back) != ix.String() {
		t.Error("the undo did not put MEMORY.md back byte for byte")
	}
}

// TestApply_SupersededLosesItsLine: a memory a batch marks superseded is
// history: its MEMORY.md line goes, so an agent is not pointed at it.
func TestApply_SupersededLosesItsLine(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"old.md", "new.md"} {
		body := "---\nname: " + f + "\ndescription: deploys\ntype: project\n---\nDeploys.\n"
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ix := "- [old.md](old.md) — deploys\n- [new.md](new.md) — deploys\n"
	if err := os.WriteFile(filepath.Join(dir, memdir.IndexFile), []byte(ix), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	old, err := st.Read("old.md")
	if err != nil {
		t.Fatal(err)
	}
	old.SupersededBy = "new.md"
	if _, err := st.Apply(context.Background(), memdir.Batch{Label: "test", Save: []memdir.Memory{old}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, memdir.IndexFile)); string(got) != "- [new.md](new.md) — deploys\n" {
		t.Errorf("MEMORY.md after the supersede:\n%s", got)
	}
}
