package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/sessions"
)

// Check statuses, from good to bad.
const (
	CheckOK   = "ok"
	CheckInfo = "info"
	CheckWarn = "warn"
	CheckFail = "fail"
)

// Check is one finding of Doctor.
type Check struct {
	Name   string // what was checked: "memory", "index", "claude hooks", …
	Status string // CheckOK, CheckInfo, CheckWarn or CheckFail
	Detail string // what was found
	Hint   string // the next step, when there is one
}

// Line is the check's detail with its hint after it, as one line.
func (c Check) Line() string {
	if c.Hint == "" {
		return c.Detail
	}
	return c.Detail + "; " + c.Hint
}

// MarshalJSON gives {name, status, detail}, the detail with its hint.
func (c Check) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name   string `json:"name"`
		Status string `json:"status"`
		Detail string `json:"detail"`
	}{c.Name, c.Status, c.Line()})
}

// Failed counts the checks that failed.
func Failed(checks []Check) int {
	n := 0
	for _, c := range checks {
		if c.Status == CheckFail {
			n++
		}
	}
	return n
}

// DoctorOptions are what Doctor takes besides the environment.
type DoctorOptions struct {
	HooksLog string    // the hooks' failure log, in the synthesis folder
	Now      time.Time // zero: time.Now()
}

// Doctor checks where memdir reads and writes, the memory folder, its
// files and MEMORY.md, the transcripts' processing and the Claude Code
// integration. It changes nothing. When the layout does not resolve, that
// is the only check.
func Doctor(env Env, opt DoctorOptions) []Check {
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	l, err := env.Layout()
	if err != nil {
		return []Check{{Name: "layout", Status: CheckFail, Detail: err.Error()}}
	}
	var c checker
	c.memory(l)
	c.dream(l, opt.Now) // doctor_dream.go
	c.team(env, l)      // doctor_team.go
	t, terr := env.TranscriptsAt(l)
	if terr != nil {
		c.add("transcripts", CheckFail, "", "%v", terr)
	} else {
		c.transcripts(t, opt.Now)
		c.synthesis(t, opt.Now) // doctor_synthesis.go
	}
	c.claude(l, t, terr == nil, opt.HooksLog)
	c.pluginOnPath(l, env.getenv("PATH")) // doctor_plugin.go
	return c
}

// checker collects checks.
type checker []Check

func (c *checker) add(name, status, hint, format string, args ...any) {
	*c = append(*c, Check{Name: name, Status: status, Detail: fmt.Sprintf(format, args...), Hint: hint})
}

func (c *checker) memory(l paths.Layout) {
	c.add("project", CheckOK, "", "%s (from %s)", l.ProjectRoot, l.ProjectVia)
	if _, err := os.Stat(l.Home); err != nil {
		c.add("home", CheckInfo, "", "%s does not exist yet", l.Home)
	} else {
		c.add("home", CheckOK, "", "%s (from %s)", l.Home, l.HomeSource)
	}
	if l.Disabled {
		c.add("auto memory", CheckInfo, "", "%s", OffSwitch(l))
	}
	info, err := os.Stat(l.MemoryDir)
	if errors.Is(err, fs.ErrNotExist) {
		c.add("memory", CheckInfo, "'memdir save' or 'memdir init' creates it", "%s does not exist yet", l.MemoryDir)
		return
	}
	if err != nil {
		c.add("memory", CheckFail, "", "%v", err)
		return
	}
	private := info.Mode().Perm()&0o077 == 0
	if perm := info.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		c.add("memory", CheckFail, "run chmod 700 "+l.MemoryDir, "%s is mode %04o: others can read your memories", l.MemoryDir, perm)
	} else {
		c.add("memory", CheckOK, "", "%s", l.MemoryDir)
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if err != nil {
		c.add("memory", CheckFail, "", "%v", err)
		return
	}
	mems, problems, err := st.List()
	if err != nil {
		c.add("files", CheckFail, "", "%v", err)
		return
	}
	for _, p := range problems {
		c.add("files", CheckFail, "", "%v", p)
	}
	loose, untyped := 0, 0
	for _, m := range mems {
		if fi, err := os.Stat(st.Path(m.File)); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
			loose++
		}
		if m.Type == "" {
			untyped++
		}
	}
	chmod := "run chmod 600 " + l.MemoryDir + "/*.md"
	switch {
	case loose > 0 && private:
		// Nobody else can enter the folder (Claude Code writes its files
		// with the default umask, 0644): worth tightening, not a failure.
		c.add("files", CheckWarn, chmod, "%s open to others, inside a folder only you can enter", sessions.Plural(loose, "memory file"))
	case loose > 0:
		c.add("files", CheckFail, chmod, "%s open to others", sessions.Plural(loose, "memory file"))
	case len(mems) == 1:
		c.add("files", CheckOK, "", "1 memory parses (%d without a type)", untyped)
	default:
		c.add("files", CheckOK, "", "%d memories parse (%d without a type)", len(mems), untyped)
	}
	if temps := countTemps(l.MemoryDir); temps > 0 {
		c.add("temp files", CheckWarn, "", "%d temporary files from interrupted writes; a write removes those over a minute old (at most hourly; 'memdir index --rebuild' now)", temps)
	}
	c.index(st, len(mems))
}

func (c *checker) index(st *memdir.Store, memories int) {
	r, err := st.CheckIndex()
	if err != nil {
		c.add("index", CheckFail, "", "%v", err)
		return
	}
	rebuild := "run 'memdir index --rebuild'"
	switch {
	case !r.Exists && memories == 0:
		c.add("index", CheckOK, "", "no MEMORY.md and no memories")
	case !r.Exists:
		c.add("index", CheckFail, rebuild, "MEMORY.md is missing")
	default:
		var issues []string
		if n := len(r.Dangling); n == 1 {
			issues = append(issues, fmt.Sprintf("1 line points at missing files (%s)", strings.Join(r.Dangling, ", ")))
		} else if n > 1 {
			issues = append(issues, fmt.Sprintf("%d lines point at missing files (%s)", n, strings.Join(r.Dangling, ", ")))
		}
		if n := len(r.Orphans); n > 0 {
			issues = append(issues, fmt.Sprintf("%d files have no line (%s)", n, strings.Join(r.Orphans, ", ")))
		}
		if n := len(r.Duplicates); n > 0 {
			issues = append(issues, fmt.Sprintf("%d files are listed twice", n))
		}
		if len(issues) > 0 {
			c.add("index", CheckFail, rebuild, "%s", strings.Join(issues, "; "))
		} else {
			c.add("index", CheckOK, "", "every memory has exactly one line")
		}
	}
	switch {
	case r.Loaded.Truncated:
		c.add("caps", CheckFail, "", "%s", r.Loaded.Warning)
	case r.Usage.Warning() != "":
		c.add("caps", CheckWarn, "", "%s", r.Usage.Warning())
	default:
		c.add("caps", CheckOK, "", "%d/%d lines, %d/%d characters", r.Usage.Lines, memdir.MaxIndexLines, r.Usage.Chars, memdir.MaxIndexChars)
	}
}

// IndexProblem is the error of an index check (memdir.Store.CheckIndex)
// that needs attention, with the hint that fits it, or nil. A folder
// without memories needs no index.
func IndexProblem(r memdir.IndexReport) error {
	if r.OK() || !r.Exists && len(r.Orphans) == 0 {
		return nil
	}
	h := "run 'memdir index --rebuild' to fix its lines"
	if r.Loaded.Truncated || r.Usage.Warning() != "" {
		h = "consolidate memories (merge or forget some) to get under Claude Code's caps; 'memdir index --rebuild' fixes lines"
	}
	return hint.With(errors.New("the index needs attention"), "%s", h)
}

func countTemps(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			n++
		}
	}
	return n
}

// MemdirOff reports whether memdir's own off switch (MEMDIR_DISABLE) is
// set: its hooks then do nothing at all.
func MemdirOff(l paths.Layout) bool {
	return l.Disabled && strings.HasPrefix(l.DisabledWhy, "MEMDIR_DISABLE")
}

// OffSwitch says what the layout's off switch does: memdir's own turns its
// hooks off; Claude Code's (CLAUDE_CODE_DISABLE_AUTO_MEMORY,
// autoMemoryEnabled false, …) turn off Claude Code's own memory, and
// memdir's hooks then give MEMORY.md themselves and still recall and
// extract. "" when nothing is off.
func OffSwitch(l paths.Layout) string {
	switch {
	case !l.Disabled:
		return ""
	case MemdirOff(l):
		return "memdir's hooks are off, by " + l.DisabledWhy + ": they inject, recall and extract nothing"
	}
	return "Claude Code's own auto memory is off, by " + l.DisabledWhy + ": memdir's hooks give MEMORY.md at session start themselves, and still recall and extract (MEMDIR_DISABLE=1 turns them off)"
}

// RetentionWarnAge is when an unprocessed transcript is near Claude
// Code's default cleanup (cleanupPeriodDays, 30 days).
const RetentionWarnAge = 25 * 24 * time.Hour

// transcripts checks the two pipelines that read transcripts, each with
// its own cursor: memory extraction (the hooks and 'memdir extract',
// ExtractStateFile) and the daily summaries ('memdir transcripts',
// transcripts-state.json). It warns about transcripts Claude Code will
// soon delete that neither has read to the end.
func (c *checker) transcripts(t Transcripts, now time.Time) {
	st, err := t.LoadState()
	if err != nil {
		c.add("transcripts", CheckFail, hint.Of(err), "%v", err)
		return
	}
	var xs ExtractState
	if _, err := t.Folder.ReadJSON(ExtractStateFile, &xs); err != nil {
		c.add("transcripts", CheckWarn, "", "%v (the next extraction starts over)", err)
	}
	files, errs := sessions.Discover(t.Roots)
	for _, err := range errs {
		c.add("transcripts", CheckWarn, "", "%v", err)
	}
	unsummarised, unextracted, old, reset := 0, 0, 0, 0
	for _, f := range files {
		e := st.Transcripts[f.Path]
		if e != nil && e.Reset != "" {
			reset++
		}
		summarised := e != nil && e.Cursor.Offset >= f.Size
		x := xs.Transcripts[f.Path]
		extracted := x != nil && x.Cursor.Offset >= f.Size
		if !summarised {
			unsummarised++
		}
		if !extracted {
			unextracted++
		}
		if !summarised && !extracted && now.Sub(f.ModTime) > RetentionWarnAge {
			old++
		}
	}
	if len(files) == 0 {
		c.add("transcripts", CheckInfo, "", "no transcripts under %s", filepath.Join(t.Roots.Claude, "projects"))
	} else {
		c.add("transcripts", CheckOK, "", "%s found; with content not yet extracted into memories: %d ('memdir extract'); not yet summarised by day: %d ('memdir transcripts list-pending')",
			sessions.Plural(len(files), "transcript"), unextracted, unsummarised)
	}
	if old > 0 {
		c.add("transcripts", CheckWarn, "run 'memdir extract' and 'memdir synthesize', or raise cleanupPeriodDays",
			"over 25 days old with content neither extracted nor summarised: %s; Claude Code deletes transcripts after 30 days (cleanupPeriodDays)", sessions.Plural(old, "transcript"))
	}
	if reset > 0 {
		c.add("transcripts", CheckInfo, "", "read again from the start after they shrank or were replaced: %s", sessions.Plural(reset, "transcript"))
	}
}

// claude checks the Claude Code integration: where memdir's hooks are
// installed, that the binary they call exists, and the hooks' failure log.
func (c *checker) claude(l paths.Layout, t Transcripts, haveT bool, hooksLog string) {
	const name = "claude hooks"
	var where, plugins []string
	claudeinstall.EachSettings(l, func(scope, path string, doc *claudeinstall.Object, err error) {
		if err != nil {
			c.add(name, CheckWarn, "", "%s is not valid JSON: %v", path, err)
			return
		}
		for _, p := range claudeinstall.PluginsEnabled(doc) {
			plugins = append(plugins, p+" ("+scope+")")
		}
		if events := claudeinstall.Installed(doc); len(events) > 0 {
			where = append(where, scope)
			for _, bin := range claudeinstall.Binaries(doc) {
				if _, err := os.Stat(bin); err != nil {
					c.add(name, CheckFail, fmt.Sprintf("run 'memdir install claude --scope %s' again", scope), "%s calls %s, which is gone", path, bin)
				}
			}
		}
	})
	switch {
	case len(where) > 0 && len(plugins) > 0:
		c.add(name, CheckWarn, "run 'memdir uninstall claude' or 'claude plugin uninstall memdir@memdir'",
			"installed (%s) and the plugin %s is enabled too: every memory arrives twice", strings.Join(where, ", "), strings.Join(plugins, ", "))
	case len(plugins) > 0:
		c.add(name, CheckOK, "", "the plugin %s wires memdir's hooks", strings.Join(plugins, ", "))
	case len(where) == 0:
		c.add(name, CheckInfo, "'memdir install claude' wires recall and extraction into Claude Code", "not installed")
	default:
		c.add(name, CheckOK, "", "installed (%s)", strings.Join(where, ", "))
	}
	if !haveT || hooksLog == "" {
		return
	}
	if b, err := t.Folder.ReadFile(hooksLog); err == nil && len(b) > 0 {
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		c.add(name, CheckWarn, "", "%d hook failures logged in %s; the last: %s", len(lines), filepath.Join(t.Folder.Dir(), hooksLog), lines[len(lines)-1])
	}
}

// Init creates the project's memory folder and the synthesis folder;
// running it again changes nothing.
func Init(env Env, l paths.Layout) (*Workspace, error) {
	ws, err := OpenLayout(env, l, true)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(l.SynthesisDir, memdir.DirPerm); err != nil {
		return nil, fmt.Errorf("create synthesis folder: %w", err)
	}
	return ws, nil
}
