package workspace

import (
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/synthesis"
)

// synthesis checks the synthesis folder's own files: settings that parse,
// long-term files that parse (synthesis refuses to rewrite one that does
// not), what they hold, and whether synthesis is due.
func (c *checker) synthesis(t Transcripts, now time.Time) {
	const name = "synthesis"
	if _, err := t.Folder.Settings(); err != nil {
		c.add(name, CheckFail, "fix or remove "+synthesis.SettingsFile, "%v", err)
		return
	}
	m, err := t.Folder.LoadMemory()
	if err != nil {
		c.add(name, CheckFail, hint.Of(err), "%v", err)
		return
	}
	for _, b := range m.Bad {
		c.add(name, CheckFail, "fix the line named (or move the file aside); synthesis leaves the file as it is until then",
			"long-term memory does not parse: %v", b)
	}
	files, learnings := 0, 0
	if _, ok, _ := t.Folder.ReadText(learning.GlobalFileName); ok && m.Global != nil {
		files, learnings = 1, len(m.Global.Learnings(""))
	}
	for _, f := range m.Projects {
		if f != nil {
			files, learnings = files+1, learnings+len(f.Learnings(""))
		}
	}
	days := 0
	if dir, err := t.Folder.Path(synthesis.DailyDir); err == nil {
		entries, _ := os.ReadDir(dir)
		days = len(entries)
	}
	last := "never"
	if at, ok := t.Folder.LastSynthesized(); ok {
		last = at.In(t.Loc).Format(time.DateOnly)
	}
	c.add(name, CheckOK, "", "%d daily summaries; %d long-term files holding %d learnings; last synthesis: %s", days, files, learnings, last)
	if line, err := SynthesisDue(t, now); err == nil && line != "" {
		c.add(name, CheckInfo, "run 'memdir synthesize'", "%s", strings.TrimPrefix(line, "memdir: "))
	}
}
