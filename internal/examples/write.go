package examples

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// ExampleMemories parses the example memories, in file order, as memories
// to save: from "quickstart", trusted as the user's own.
func ExampleMemories() ([]memdir.Memory, error) {
	files, err := fs.Glob(Memories, "memories/*.md")
	if err != nil {
		return nil, err
	}
	var out []memdir.Memory
	for _, f := range files {
		b, err := fs.ReadFile(Memories, f)
		if err != nil {
			return nil, err
		}
		ex, err := memdir.Parse(filepath.Base(f), b)
		if err != nil {
			return nil, fmt.Errorf("bundled example: %w", err)
		}
		out = append(out, memdir.Memory{
			Name: ex.Name, Description: ex.Description, Type: ex.Type,
			Source: "quickstart", Trust: memdir.TrustUser, Body: ex.Body,
		})
	}
	return out, nil
}

// Saved is an example memory SaveMemories saved.
type Saved struct {
	Type memdir.Type
	File string
}

// SaveMemories saves the example memories into st, in file order, and
// returns those it saved (all, or those before the error).
func SaveMemories(ctx context.Context, st *memdir.Store) ([]Saved, error) {
	mems, err := ExampleMemories()
	if err != nil {
		return nil, err
	}
	var out []Saved
	for _, m := range mems {
		res, err := st.Save(ctx, m, memdir.SaveOptions{})
		if err != nil {
			return out, err
		}
		out = append(out, Saved{Type: m.Type, File: res.File})
	}
	return out, nil
}

// Placement is where WriteTranscripts puts the example sessions: an agent
// home (a throwaway one: never a real agent's), the project's folder name
// under its projects/, and a Codex home.
type Placement struct {
	Home       string
	ProjectKey string
	CodexHome  string
}

// Written is an example transcript WriteTranscripts wrote.
type Written struct {
	Agent string
	Path  string
}

// WriteTranscripts writes Transcripts(project, …) where the agents write
// them: the Claude Code session on claudeAt's day, in <Home>/projects/
// <ProjectKey>/, and the Codex session at 14:00 the day before, in
// <CodexHome>/sessions/YYYY/MM/DD/.
func WriteTranscripts(p Placement, project string, claudeAt time.Time) ([]Written, error) {
	codexDay := claudeAt.AddDate(0, 0, -1)
	var out []Written
	for _, tr := range Transcripts(project, claudeAt, codexDay.Add(4*time.Hour)) {
		path := filepath.Join(p.Home, "projects", p.ProjectKey, tr.Session+".jsonl")
		if tr.Agent == "codex" {
			path = filepath.Join(p.CodexHome, "sessions", codexDay.Format("2006/01/02"), "rollout-"+codexDay.Format("2006-01-02")+"T14-00-00-"+tr.Session+".jsonl")
		}
		if err := os.MkdirAll(filepath.Dir(path), memdir.DirPerm); err != nil {
			return out, err
		}
		if err := atomicfile.WriteFile(path, tr.Data, 0o600); err != nil {
			return out, err
		}
		out = append(out, Written{Agent: tr.Agent, Path: path})
	}
	return out, nil
}

// Sandbox is a throwaway folder for trying memdir: an agent home, a
// project and a Codex home, side by side.
type Sandbox struct {
	Dir, Home, Project, CodexHome string
}

// NewSandbox makes the throwaway folder in dir (without one, in a new
// temporary folder) and the project's folder in it.
func NewSandbox(dir string) (Sandbox, error) {
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "memdir-quickstart-")
	} else if dir, err = filepath.Abs(dir); err == nil {
		if names, _ := os.ReadDir(dir); len(names) > 0 {
			// A run over an earlier one would stop halfway (its diary is
			// there already): a throwaway folder starts empty.
			return Sandbox{}, hint.With(fmt.Errorf("%s is not empty: quickstart makes its throwaway home and project in a new or empty folder", dir),
				"remove it (rm -r %s), or name another with --dir", dir)
		}
		err = os.MkdirAll(dir, memdir.DirPerm)
	}
	if err != nil {
		return Sandbox{}, fmt.Errorf("make the throwaway folder: %w", err)
	}
	s := Sandbox{Dir: dir, Home: filepath.Join(dir, "home"), Project: filepath.Join(dir, "project"), CodexHome: filepath.Join(dir, "codex")}
	return s, os.MkdirAll(s.Project, memdir.DirPerm)
}

// Getenv is the environment of a run in the sandbox: HOME is the
// sandbox's folder and CODEX_HOME its Codex home; nothing else is set, so
// the caller's own overrides and settings do not apply.
func (s Sandbox) Getenv(k string) string {
	switch k {
	case "HOME":
		return s.Dir
	case "CODEX_HOME":
		return s.CodexHome
	}
	return ""
}
