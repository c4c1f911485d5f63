package main

import (
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
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/spf13/cobra"
)

// check is one line of the doctor's report.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, info, warn or fail
	Detail string `json:"detail"`
}

func (a *app) initCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the memory folder for this project",
		Long: `Init creates this project's memory folder (mode 0700) and the synthesis
folder, and prints where they are. Running it again changes nothing. Saving a
memory creates the folder too; init is for seeing where memories will go.`,
		Example: `  cd ~/src/api && memdir init`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, l, err := a.store(true)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(l.SynthesisDir, memdir.DirPerm); err != nil {
				return fmt.Errorf("create synthesis folder: %w", err)
			}
			if a.json {
				return a.printJSON(map[string]string{"memory_dir": st.Dir(), "synthesis_dir": l.SynthesisDir, "project_root": l.ProjectRoot})
			}
			a.printf("memory folder: %s\nsynthesis folder: %s\n", st.Dir(), l.SynthesisDir)
			a.printf("next: memdir save --type user --name \"My role\" --description \"...\" --body \"...\"\n")
			return nil
		},
	}
}

func (a *app) doctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the memory folder, its files and its index",
		Long: `Doctor checks where memdir writes, folder and file permissions, every memory
file's frontmatter, links that lead out of the folder, leftover temporary
files, and MEMORY.md against the files and its caps. It changes nothing and
exits 1 when it finds a problem.`,
		Example: `  memdir doctor
  memdir doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			checks := a.doctor()
			fails := 0
			for _, c := range checks {
				if c.Status == "fail" {
					fails++
				}
			}
			if a.json {
				if err := a.printJSON(map[string]any{"checks": checks, "problems": fails}); err != nil {
					return err
				}
			} else {
				for _, c := range checks {
					a.printf("%-5s %-12s %s\n", c.Status, c.Name, c.Detail)
				}
			}
			if fails > 0 {
				return withHint(fmt.Errorf("%s found", sessions.Plural(fails, "problem")), "fix what is marked fail above; 'memdir index --rebuild' fixes index lines")
			}
			return nil
		},
	}
}

func (a *app) doctor() []check {
	out := a.doctorMemory()
	if len(out) > 0 && out[0].Name == "layout" {
		return out
	}
	out = append(out, a.doctorTranscripts()...)
	return append(out, a.doctorClaude()...)
}

// doctorClaude checks the Claude Code integration: where memdir's hooks
// are installed, that the binary they call exists, and the hooks' log.
func (a *app) doctorClaude() []check {
	var out []check
	add := func(status, format string, args ...any) {
		out = append(out, check{Name: "claude hooks", Status: status, Detail: fmt.Sprintf(format, args...)})
	}
	var where, plugins []string
	a.eachSettings(func(scope, path string, doc *claudeinstall.Object, err error) {
		if err != nil {
			add("warn", "%s is not valid JSON: %v", path, err)
			return
		}
		for _, p := range claudeinstall.PluginsEnabled(doc) {
			plugins = append(plugins, p+" ("+scope+")")
		}
		if events := claudeinstall.Installed(doc); len(events) > 0 {
			where = append(where, scope)
			for _, bin := range claudeinstall.Binaries(doc) {
				if _, err := os.Stat(bin); err != nil {
					add("fail", "%s calls %s, which is gone; run 'memdir install claude --scope %s' again", path, bin, scope)
				}
			}
		}
	})
	switch {
	case len(where) > 0 && len(plugins) > 0:
		add("warn", "installed (%s) and the plugin %s is enabled too: every memory arrives twice; run 'memdir uninstall claude' or 'claude plugin uninstall memdir@memdir'", strings.Join(where, ", "), strings.Join(plugins, ", "))
	case len(plugins) > 0:
		add("ok", "the plugin %s wires memdir's hooks", strings.Join(plugins, ", "))
	case len(where) == 0:
		add("info", "not installed; 'memdir install claude' wires recall and extraction into Claude Code")
	default:
		add("ok", "installed (%s)", strings.Join(where, ", "))
	}
	if env, err := a.transcriptsEnv(); err == nil {
		if b, err := env.Folder.ReadFile(hooksLog); err == nil && len(b) > 0 {
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			add("warn", "%d hook failures logged in %s; the last: %s", len(lines), filepath.Join(env.Folder.Dir(), hooksLog), lines[len(lines)-1])
		}
	}
	return out
}

// retentionWarnAge is when an unprocessed transcript is near Claude Code's
// default cleanup (cleanupPeriodDays, 30 days).
const retentionWarnAge = 25 * 24 * time.Hour

// doctorTranscripts checks the processing state and warns about
// transcripts Claude Code will soon delete with content not processed.
func (a *app) doctorTranscripts() []check {
	var out []check
	add := func(status, format string, args ...any) {
		out = append(out, check{Name: "transcripts", Status: status, Detail: fmt.Sprintf(format, args...)})
	}
	env, err := a.transcriptsEnv()
	if err != nil {
		add("fail", "%v", err)
		return out
	}
	st, err := env.LoadState()
	if err != nil {
		add("fail", "%v; %s", err, hintFor(err))
		return out
	}
	files, errs := sessions.Discover(env.Roots)
	for _, err := range errs {
		add("warn", "%v", err)
	}
	unread, old, reset := 0, 0, 0
	for _, f := range files {
		e := st.Transcripts[f.Path]
		if e != nil && e.Reset != "" {
			reset++
		}
		if e != nil && e.Cursor.Offset >= f.Size {
			continue
		}
		unread++
		if time.Since(f.ModTime) > retentionWarnAge {
			old++
		}
	}
	switch {
	case len(files) == 0:
		add("info", "no transcripts under %s", filepath.Join(env.Roots.Claude, "projects"))
	default:
		add("ok", "%s found, %d with content not yet processed ('memdir transcripts list-pending')", sessions.Plural(len(files), "transcript"), unread)
	}
	if old > 0 {
		add("warn", "over 25 days old with content not processed: %s; Claude Code deletes transcripts after 30 days (cleanupPeriodDays); run 'memdir transcripts extract' and 'done', or raise cleanupPeriodDays", sessions.Plural(old, "transcript"))
	}
	if reset > 0 {
		add("info", "read again from the start after they shrank or were replaced: %s", sessions.Plural(reset, "transcript"))
	}
	return out
}

func (a *app) doctorMemory() []check {
	var out []check
	add := func(name, status, format string, args ...any) {
		out = append(out, check{Name: name, Status: status, Detail: fmt.Sprintf(format, args...)})
	}
	l, err := a.layout()
	if err != nil {
		add("layout", "fail", "%v", err)
		return out
	}
	add("project", "ok", "%s (from %s)", l.ProjectRoot, l.ProjectVia)
	if _, err := os.Stat(l.Home); err != nil {
		add("home", "info", "%s does not exist yet", l.Home)
	} else {
		add("home", "ok", "%s (from %s)", l.Home, l.HomeSource)
	}
	if l.Disabled {
		add("auto memory", "info", "off, by %s: hooks will not inject or extract", l.DisabledWhy)
	}
	info, err := os.Stat(l.MemoryDir)
	if errors.Is(err, fs.ErrNotExist) {
		add("memory", "info", "%s does not exist yet; 'memdir save' or 'memdir init' creates it", l.MemoryDir)
		return out
	}
	if err != nil {
		add("memory", "fail", "%v", err)
		return out
	}
	private := info.Mode().Perm()&0o077 == 0
	if perm := info.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		add("memory", "fail", "%s is mode %04o: others can read your memories; run chmod 700 %s", l.MemoryDir, perm, l.MemoryDir)
	} else {
		add("memory", "ok", "%s", l.MemoryDir)
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if err != nil {
		add("memory", "fail", "%v", err)
		return out
	}
	mems, problems, err := st.List()
	if err != nil {
		add("files", "fail", "%v", err)
		return out
	}
	for _, p := range problems {
		add("files", "fail", "%v", p)
	}
	loose := 0
	for _, m := range mems {
		if fi, err := os.Stat(st.Path(m.File)); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
			loose++
		}
	}
	untypedN := 0
	for _, m := range mems {
		if m.Type == "" {
			untypedN++
		}
	}
	switch {
	case loose > 0 && private:
		// Nobody else can enter the folder (Claude Code writes its files
		// with the default umask, 0644): worth tightening, not a failure.
		add("files", "warn", "%s open to others, inside a folder only you can enter; run chmod 600 %s/*.md", sessions.Plural(loose, "memory file"), l.MemoryDir)
	case loose > 0:
		add("files", "fail", "%s open to others; run chmod 600 %s/*.md", sessions.Plural(loose, "memory file"), l.MemoryDir)
	default:
		add("files", "ok", "%s (%d without a type)", map[bool]string{true: "1 memory parses", false: fmt.Sprintf("%d memories parse", len(mems))}[len(mems) == 1], untypedN)
	}
	if temps := countTemps(l.MemoryDir); temps > 0 {
		add("temp files", "warn", "%d temporary files from interrupted writes; the next write removes those over a minute old", temps)
	}
	r, err := st.CheckIndex()
	if err != nil {
		add("index", "fail", "%v", err)
		return out
	}
	switch {
	case !r.Exists && len(mems) == 0:
		add("index", "ok", "no MEMORY.md and no memories")
	case !r.Exists:
		add("index", "fail", "MEMORY.md is missing; run 'memdir index --rebuild'")
	default:
		var issues []string
		if n := len(r.Dangling); n > 0 {
			issues = append(issues, fmt.Sprintf("%s at missing files (%s)", map[bool]string{true: "1 line points", false: fmt.Sprintf("%d lines point", n)}[n == 1], strings.Join(r.Dangling, ", ")))
		}
		if n := len(r.Orphans); n > 0 {
			issues = append(issues, fmt.Sprintf("%d files have no line (%s)", n, strings.Join(r.Orphans, ", ")))
		}
		if n := len(r.Duplicates); n > 0 {
			issues = append(issues, fmt.Sprintf("%d files are listed twice", n))
		}
		if len(issues) > 0 {
			add("index", "fail", "%s; run 'memdir index --rebuild'", strings.Join(issues, "; "))
		} else {
			add("index", "ok", "every memory has exactly one line")
		}
	}
	switch {
	case r.Loaded.Truncated:
		add("caps", "fail", "%s", r.Loaded.Warning)
	case r.Usage.Warning() != "":
		add("caps", "warn", "%s", r.Usage.Warning())
	default:
		add("caps", "ok", "%d/%d lines, %d/%d characters", r.Usage.Lines, memdir.MaxIndexLines, r.Usage.Chars, memdir.MaxIndexChars)
	}
	return out
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
