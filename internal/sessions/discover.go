// Package sessions finds the agents' transcripts on disk, reads what is new
// in them since memdir last processed them, and decides which days are
// pending. Reading and deciding are apart: Discover and Read do the I/O,
// while Pending, MarkExtracted, MarkDone and BuildIndex are pure functions
// of what was read and of the processing State.
//
// memdir never writes, moves or deletes an agent's transcripts.
package sessions

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/transcript"
)

// File is one transcript on disk.
type File struct {
	Path    string             `json:"path"`
	Dialect transcript.Dialect `json:"dialect"`
	// Folder is Claude Code's project folder name (the sanitised project
	// path); empty for Codex.
	Folder string `json:"folder,omitempty"`
	// SessionID comes from the file name: <id>.jsonl, or the session folder
	// of <id>/subagents/agent-<agent>.jsonl. It is empty when the name does
	// not tell (old agent-*.jsonl files, Codex rollouts): the records do.
	SessionID string    `json:"session_id,omitempty"`
	Agent     string    `json:"agent,omitempty"` // subagent id, for a subagent's transcript
	Size      int64     `json:"size"`
	ModTime   time.Time `json:"mtime"`
}

// Roots says where to look. Empty fields are not searched.
type Roots struct {
	Claude string // the agent home: transcripts are <Claude>/projects/*/
	Codex  string // Codex's home: rollouts are <Codex>/sessions/YYYY/MM/DD/
}

// Discover lists the transcripts under roots, sorted by path. A folder that
// does not exist holds none; other errors (a folder that cannot be read) are
// returned beside what was found.
func Discover(roots Roots) ([]File, []error) {
	var files []File
	var errs []error
	if roots.Claude != "" {
		f, e := discoverClaude(filepath.Join(roots.Claude, "projects"))
		files, errs = append(files, f...), append(errs, e...)
	}
	if roots.Codex != "" {
		f, e := discoverCodex(filepath.Join(roots.Codex, "sessions"))
		files, errs = append(files, f...), append(errs, e...)
	}
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
	return files, errs
}

func discoverClaude(projects string) ([]File, []error) {
	folders, err := os.ReadDir(projects)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var files []File
	var errs []error
	for _, folder := range folders {
		if !folder.IsDir() {
			continue
		}
		dir := filepath.Join(projects, folder.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.Type().IsRegular() && strings.HasSuffix(name, ".jsonl"):
				f := File{Path: filepath.Join(dir, name), Dialect: transcript.ClaudeCode, Folder: folder.Name()}
				stem := strings.TrimSuffix(name, ".jsonl")
				if agent, ok := strings.CutPrefix(stem, "agent-"); ok {
					f.Agent = agent // 2.0.x: agent-<id>.jsonl beside the session; the records name it
				} else {
					f.SessionID = stem
				}
				if stat(&f) {
					files = append(files, f)
				}
			case e.IsDir() && name != "memory":
				// <session>/subagents/**/agent-<id>.jsonl
				sub := filepath.Join(dir, name, "subagents")
				filepath.WalkDir(sub, func(p string, d fs.DirEntry, err error) error {
					if err != nil {
						if !errors.Is(err, fs.ErrNotExist) {
							errs = append(errs, err)
						}
						return nil
					}
					base := d.Name()
					if !d.Type().IsRegular() || !strings.HasPrefix(base, "agent-") || !strings.HasSuffix(base, ".jsonl") {
						return nil
					}
					f := File{Path: p, Dialect: transcript.ClaudeCode, Folder: folder.Name(), SessionID: name,
						Agent: strings.TrimSuffix(strings.TrimPrefix(base, "agent-"), ".jsonl")}
					if stat(&f) {
						files = append(files, f)
					}
					return nil
				})
			}
		}
	}
	return files, errs
}

func discoverCodex(sessions string) ([]File, []error) {
	var files []File
	var errs []error
	filepath.WalkDir(sessions, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			return nil
		}
		base := d.Name()
		if d.Type().IsRegular() && strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl") {
			f := File{Path: p, Dialect: transcript.Codex}
			if stat(&f) {
				files = append(files, f)
			}
		}
		return nil
	})
	return files, errs
}

func stat(f *File) bool {
	fi, err := os.Stat(f.Path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f.Size, f.ModTime = fi.Size(), fi.ModTime()
	return true
}
