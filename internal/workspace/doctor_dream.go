package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
	if n, at := lastHeld(l); n > 0 {
		c.add("consolidation", CheckInfo, "'memdir dream' shows them with their reasons; '--apply' writes them",
			"the automatic consolidation of %s left %d %s for you to confirm", at.Local().Format("2006-01-02 15:04"), n, plural(n, "operation"))
	}
	if last, err := st.LastConsolidated(); err == nil {
		if last.IsZero() {
			c.add("consolidation", CheckInfo, "'memdir dream' shows what it would merge, supersede, date or expire", "never consolidated")
		} else {
			c.add("consolidation", CheckInfo, "", "last consolidated %s ago (%s)", now.Sub(last).Round(time.Minute), last.Local().Format("2006-01-02 15:04"))
		}
	}
}

// DreamHeldLine is the line a session starts with when the project's last
// automatic consolidation left operations for a person and no dream ran
// since (lastConsolidated, the folder's, is that run's own time); "" else.
func DreamHeldLine(l paths.Layout, lastConsolidated time.Time) string {
	n, at := lastHeld(l)
	if n == 0 || lastConsolidated.After(at.Add(time.Second)) {
		return ""
	}
	return fmt.Sprintf("memdir: the automatic consolidation of %s left %d %s for the user to confirm (prunes and other changes that may lose something); `memdir dream` shows them with their reasons. Mention it to the user when it fits: they decide.",
		at.Local().Format("2006-01-02"), n, plural(n, "operation"))
}

// lastHeld is how many operations the project's last automatic
// consolidation left for a person, from DreamLog's last line of it, and
// when it ran; 0 when none, or when it cannot tell.
func lastHeld(l paths.Layout) (int, time.Time) {
	b, err := os.ReadFile(filepath.Join(l.SynthesisDir, filepath.FromSlash(DreamLog)))
	if err != nil || len(b) > 4<<20 {
		return 0, time.Time{}
	}
	var last DreamAutoResult
	for line := range strings.Lines(string(b)) {
		var r DreamAutoResult
		if json.Unmarshal([]byte(line), &r) == nil && r.Project == l.ProjectRoot && r.Ran {
			last = r
		}
	}
	return last.Held, last.Time
}
