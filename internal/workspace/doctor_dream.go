package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// dream checks what consolidation and verify leave in a memory folder: a
// batch that could not be finished (every later write would fail on it),
// the memories marked stale, and when the memories were last consolidated.
func (c *checker) dream(l paths.Layout, now time.Time) {
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if err != nil {
		return // memory() said why
	}
	pending := filepath.Join(l.MemoryDir, memdir.BatchDir, "pending")
	if _, err := os.Lstat(pending); err == nil {
		c.add("batches", CheckFail, "free the disk or fix the folder's permissions and run any memdir command, which finishes it; or remove "+pending+" to drop it",
			"a change of several memories ('memdir dream --apply' or --undo) is under way, or was cut short and could not be finished")
	} else if !errors.Is(err, fs.ErrNotExist) {
		c.add("batches", CheckFail, "", "%v", err)
	}
	mems, _, err := st.List()
	if err != nil {
		return
	}
	stale := 0
	for _, m := range mems {
		if m.Stale != "" && m.SupersededBy == "" {
			stale++
		}
	}
	if stale > 0 {
		c.add("stale", CheckInfo, "'memdir verify' says what each names that no longer exists; '--fix' edits renamed paths", "%d %s marked stale", stale, map[bool]string{true: "memory is", false: "memories are"}[stale == 1])
	}
	if last, err := st.LastConsolidated(); err == nil {
		if last.IsZero() {
			c.add("consolidation", CheckInfo, "'memdir dream' shows what it would merge, supersede, date or expire", "never consolidated")
		} else {
			c.add("consolidation", CheckInfo, "", "last consolidated %s ago (%s)", now.Sub(last).Round(time.Minute), last.Local().Format("2006-01-02 15:04"))
		}
	}
}
