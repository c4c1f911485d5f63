package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
	"github.com/spf13/cobra"
)

type contextFileJSON struct {
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	Text    string `json:"text,omitempty"`
	Warning string `json:"warning,omitempty"`
}

type contextDayJSON struct {
	Date string `json:"date"`
	contextFileJSON
}

type contextJSON struct {
	Project     string            `json:"project"`
	Path        string            `json:"path"`
	WorkDays    int               `json:"work_days"`
	Showing     int               `json:"showing"`
	MemoryIndex contextFileJSON   `json:"memory_index"`
	LongTerm    contextFileJSON   `json:"long_term"`
	Days        []contextDayJSON  `json:"days"`
	Known       *sessions.Project `json:"index_entry,omitempty"`
}

type knownProjectJSON struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	WorkDays int    `json:"work_days"`
	Latest   string `json:"latest,omitempty"`
	Sessions int    `json:"sessions"`
}

func (a *app) contextCmd() *cobra.Command {
	var days int
	var list bool
	cmd := &cobra.Command{
		Use:   "context [PROJECT_PATH]",
		Short: "Print a project's memory context, or list the known projects",
		Long: `Context prints what memdir knows of a project (default: the current one): its
MEMORY.md as an agent loads it (capped), its long-term memory file
(<home>/memory/project-memory/<name>-long-term-memory.md) and the daily
summaries (<home>/memory/daily/DATE.md) of its last --days work days, oldest
first. Work days come from the transcripts (see 'memdir transcripts
build-index'); parts that do not exist yet are named, not invented.

--list prints every project seen in the transcripts, with its number of work
days and the latest one.

Context only reads. Work days are computed from the transcripts each time,
so they are never stale; 'memdir transcripts build-index' caches what it
read, which makes this fast.`,
		Example: `  memdir context
  memdir context ~/src/api --days 3
  memdir context --list --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if list && len(args) > 0 {
				return withHint(errors.New("--list takes no PROJECT_PATH"), "run 'memdir context --list', then 'memdir context PATH'")
			}
			if days < 0 {
				return withHint(fmt.Errorf("--days %d is negative", days), "use --days 7 for the last seven work days")
			}
			env, err := a.transcriptsEnv()
			if err != nil {
				return err
			}
			a.warnHome(env)
			ix, err := a.loadProjectsIndex(env)
			if err != nil {
				return err
			}
			if list {
				return a.listProjects(ix)
			}
			if len(args) == 1 {
				a.project = args[0]
				if !filepath.IsAbs(a.project) {
					a.project = filepath.Join(a.cwd, a.project)
				}
				if _, err := os.Stat(a.project); err != nil {
					a.warnf("%s does not exist here; showing what memdir has recorded for that path", a.project)
				}
				if env, err = a.transcriptsEnv(); err != nil {
					return err
				}
			}
			return a.printContext(env, ix, days)
		},
	}
	cmd.Flags().IntVar(&days, "days", 7, "how many of the latest work days to show")
	cmd.Flags().BoolVar(&list, "list", false, "list the known projects")
	return cmd
}

// loadProjectsIndex computes the projects index from the transcripts, up
// to date, without writing anything: the cached summaries in the state make
// this read only what is new since 'memdir transcripts build-index' ran.
func (a *app) loadProjectsIndex(env transcriptsEnv) (sessions.ProjectsIndex, error) {
	st, err := env.LoadState()
	if err != nil {
		return sessions.ProjectsIndex{}, err
	}
	ix, _ := a.projectsIndex(env, st)
	return ix, nil
}

func (a *app) listProjects(ix sessions.ProjectsIndex) error {
	var out []knownProjectJSON
	for _, p := range sortedProjects(ix) {
		k := knownProjectJSON{Name: p.Name, Path: p.OriginalPath, WorkDays: len(p.WorkDays), Sessions: len(p.Sessions)}
		if n := len(p.WorkDays); n > 0 {
			k.Latest = p.WorkDays[n-1]
		}
		out = append(out, k)
	}
	if a.json {
		if out == nil {
			out = []knownProjectJSON{}
		}
		return a.printJSON(map[string]any{"projects": out})
	}
	if len(out) == 0 {
		a.printf("No projects known yet: no transcript under the agent home.\n")
		return nil
	}
	a.printf("## Known Projects\n\n")
	for _, k := range out {
		a.printf("- **%s** (%s, latest: %s) `%s`\n", k.Name, sessions.Plural(k.WorkDays, "work day"), k.Latest, k.Path)
	}
	return nil
}

func (a *app) printContext(env transcriptsEnv, ix sessions.ProjectsIndex, days int) error {
	l := env.Layout
	c := contextJSON{Project: filepath.Base(l.ProjectRoot), Path: l.ProjectRoot, Days: []contextDayJSON{}}
	p, ok := ix.Lookup(l.ProjectRoot)
	if ok {
		c.Known, c.Project = p, p.Name
		c.WorkDays = len(p.WorkDays)
		shown := p.WorkDays[max(0, len(p.WorkDays)-days):]
		c.Showing = len(shown)
		for _, d := range shown {
			f, err := readContextFile(env.Folder, filepath.Join("daily", d+".md"))
			if err != nil {
				return err
			}
			c.Days = append(c.Days, contextDayJSON{Date: d, contextFileJSON: f})
		}
	}
	c.MemoryIndex = contextFileJSON{Path: filepath.Join(l.MemoryDir, memdir.IndexFile)}
	if b, err := os.ReadFile(c.MemoryIndex.Path); err == nil {
		ld := memdir.Load(string(b))
		c.MemoryIndex.Exists, c.MemoryIndex.Text, c.MemoryIndex.Warning = true, ld.Text, ld.Warning
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	lt, err := readContextFile(env.Folder, filepath.Join("project-memory", synthesis.LongTermFile(c.Project)))
	if err != nil {
		return err
	}
	c.LongTerm = lt
	if a.json {
		return a.printJSON(c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Project Memory: %s\n\n**Path**: %s\n", c.Project, c.Path)
	if ok {
		fmt.Fprintf(&b, "**Work Days**: %d total, showing last %d\n", c.WorkDays, c.Showing)
	} else {
		fmt.Fprintf(&b, "**Work Days**: none recorded (no transcript of this project; see 'memdir transcripts build-index')\n")
	}
	section := func(title string, f contextFileJSON, missing string) {
		fmt.Fprintf(&b, "\n### %s\n`%s`\n\n", title, f.Path)
		switch {
		case !f.Exists:
			fmt.Fprintf(&b, "(%s)\n", missing)
		default:
			fmt.Fprintf(&b, "%s\n", strings.TrimSpace(f.Text))
			if f.Warning != "" {
				fmt.Fprintf(&b, "\n%s\n", f.Warning)
			}
		}
	}
	section("MEMORY.md", c.MemoryIndex, "no memories saved for this project yet")
	section("Long-term memory", c.LongTerm, "no long-term memory file yet")
	for _, d := range c.Days {
		section(d.Date, d.contextFileJSON, "No daily summary found")
	}
	a.printf("%s", b.String())
	return nil
}

func readContextFile(f *synthesis.Folder, rel string) (contextFileJSON, error) {
	p, err := f.Path(rel)
	if err != nil {
		return contextFileJSON{}, err
	}
	c := contextFileJSON{Path: p}
	b, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, err
	}
	c.Exists, c.Text = true, string(b)
	return c, nil
}
