package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/safefile"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// ContextFile is one file of a project's context, read whole.
type ContextFile struct {
	Path    string `json:"path"`
	Exists  bool   `json:"exists"`
	Text    string `json:"text,omitempty"`
	Warning string `json:"warning,omitempty"` // MEMORY.md's, when its caps cut it
}

// ContextDay is the daily summary of one work day.
type ContextDay struct {
	Date string `json:"date"`
	ContextFile
}

// ProjectContext is what memdir knows of a project: its MEMORY.md as an
// agent loads it, its long-term memory file and the daily summaries of its
// latest work days, oldest first.
type ProjectContext struct {
	Project     string       `json:"project"`
	Path        string       `json:"path"`
	WorkDays    int          `json:"work_days"`
	Showing     int          `json:"showing"`
	MemoryIndex ContextFile  `json:"memory_index"`
	LongTerm    ContextFile  `json:"long_term"`
	Days        []ContextDay `json:"days"`
	// Known is the project's entry in the projects index; nil when no
	// transcript of the project was found.
	Known *sessions.Project `json:"index_entry,omitempty"`
}

// Context reads the context of t's project from ix and the files, with at
// most days daily summaries. It only reads.
func (t Transcripts) Context(ix sessions.ProjectsIndex, days int) (ProjectContext, error) {
	l := t.Layout
	c := ProjectContext{Project: filepath.Base(l.ProjectRoot), Path: l.ProjectRoot, Days: []ContextDay{}}
	if p, ok := ix.Lookup(l.ProjectRoot); ok {
		c.Known, c.Project = p, p.Name
		c.WorkDays = len(p.WorkDays)
		shown := p.WorkDays[max(0, len(p.WorkDays)-days):]
		c.Showing = len(shown)
		for _, d := range shown {
			f, err := readContextFile(t.Folder, filepath.Join("daily", d+".md"))
			if err != nil {
				return c, err
			}
			c.Days = append(c.Days, ContextDay{Date: d, ContextFile: f})
		}
	}
	c.MemoryIndex = ContextFile{Path: filepath.Join(l.MemoryDir, memdir.IndexFile)}
	if b, err := safefile.ReadFile(c.MemoryIndex.Path, memdir.MaxIndexSize); err == nil {
		ld := memdir.Load(string(b))
		c.MemoryIndex.Exists, c.MemoryIndex.Text, c.MemoryIndex.Warning = true, redacted(ld.Text), ld.Warning
	} else if !errors.Is(err, fs.ErrNotExist) {
		return c, err
	}
	lt, err := readContextFile(t.Folder, filepath.Join("project-memory", synthesis.LongTermFile(c.Project)))
	c.LongTerm = lt
	return c, err
}

// Markdown is the context as 'memdir context' prints it for an agent to
// read: parts that do not exist yet are named, not invented.
func (c ProjectContext) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Project Memory: %s\n\n**Path**: %s\n", c.Project, c.Path)
	if c.Known != nil {
		fmt.Fprintf(&b, "**Work Days**: %d total, showing last %d\n", c.WorkDays, c.Showing)
	} else {
		fmt.Fprintf(&b, "**Work Days**: none recorded (no transcript of this project; see 'memdir transcripts build-index')\n")
	}
	section := func(title string, f ContextFile, missing string) {
		fmt.Fprintf(&b, "\n### %s\n`%s`\n\n", title, f.Path)
		if !f.Exists {
			fmt.Fprintf(&b, "(%s)\n", missing)
			return
		}
		fmt.Fprintf(&b, "%s\n", strings.TrimSpace(f.Text))
		if f.Warning != "" {
			fmt.Fprintf(&b, "\n%s\n", f.Warning)
		}
	}
	section("MEMORY.md", c.MemoryIndex, "no memories saved for this project yet")
	section("Long-term memory", c.LongTerm, "no long-term memory file yet")
	for _, d := range c.Days {
		section(d.Date, d.ContextFile, "No daily summary found")
	}
	return b.String()
}

func readContextFile(f *synthesis.Folder, rel string) (ContextFile, error) {
	p, err := f.Path(rel)
	if err != nil {
		return ContextFile{}, err
	}
	c := ContextFile{Path: p}
	b, err := safefile.ReadFile(p, memdir.MaxIndexSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, err
	}
	c.Exists, c.Text = true, redacted(string(b))
	return c, nil
}

// redacted is s with its credentials replaced: what an agent reads of a
// file memdir may not have written (a hand edit, Claude Code's own memory,
// a teammate's commit) never holds one.
func redacted(s string) string {
	out, _ := redact.String(s)
	return out
}

// KnownProject is a project seen in the transcripts.
type KnownProject struct {
	Name     string `json:"name"`
	Path     string `json:"path"`
	WorkDays int    `json:"work_days"`
	Latest   string `json:"latest,omitempty"` // the latest work day
	Sessions int    `json:"sessions"`
}

// KnownProjects lists ix's projects, most recently seen first; never nil.
func KnownProjects(ix sessions.ProjectsIndex) []KnownProject {
	out := []KnownProject{}
	for _, p := range ix.Sorted() {
		k := KnownProject{Name: p.Name, Path: p.OriginalPath, WorkDays: len(p.WorkDays), Sessions: len(p.Sessions)}
		if n := len(p.WorkDays); n > 0 {
			k.Latest = p.WorkDays[n-1]
		}
		out = append(out, k)
	}
	return out
}
