package sessions

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/transcript"
)

// IndexFile is the projects index's file name in the synthesis folder.
const IndexFile = "projects-index.json"

// UpdateSummaries brings every file's cached Summary in st up to date,
// reading only what was appended since it was last taken (the whole file
// when it shrank or was replaced). Entries of files that
// no longer exist are dropped. It returns the read errors, one per failing file.
func UpdateSummaries(ctx context.Context, files []File, st *State, loc *time.Location, opt ReadOptions) []error {
	entries := make([]*Entry, len(files))
	for i, f := range files {
		entries[i] = st.entry(f)
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.Path] = true
	}
	for p := range st.Transcripts {
		if _, err := os.Stat(p); !seen[p] && errors.Is(err, fs.ErrNotExist) {
			delete(st.Transcripts, p)
		}
	}
	errs := make([]error, len(files))
	parallel(ctx, len(files), opt, files, func(i int) {
		f, e := files[i], entries[i]
		sum := e.Summary
		if sum == nil {
			sum = &Summary{}
		}
		if sum.Scanned.Offset == f.Size && sum.Scanned.Offset > 0 {
			if fresh, err := MarkAt(f.Path, sum.Scanned.Offset, sum.Scanned.Line); err == nil && fresh.Head == sum.Scanned.Head && fresh.Tail == sum.Scanned.Tail {
				return // unchanged
			}
		}
		s, reset, err := readFrom(f, sum.Scanned)
		if err != nil {
			errs[i] = err
			return
		}
		if reset != "" {
			sum = &Summary{}
		}
		sum.add(s, f, loc)
		if m, err := MarkAt(f.Path, s.NextOffset, s.NextLine); err == nil {
			sum.Scanned = m
		} else {
			errs[i] = err
			return
		}
		e.Summary = sum
		e.learn(s)
	})
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

func (sum *Summary) add(s *transcript.Session, f File, loc *time.Location) {
	if sum.SessionID == "" {
		sum.SessionID = cmp.Or(f.SessionID, s.ID)
	}
	if sum.CWD == "" {
		sum.CWD = s.CWD
	}
	if sum.Branch == "" {
		sum.Branch = s.GitBranch
	}
	if !s.Start.IsZero() && (sum.Start.IsZero() || s.Start.Before(sum.Start)) {
		sum.Start = s.Start
	}
	if s.End.After(sum.End) {
		sum.End = s.End
	}
	sc := Scan{File: f, Session: s}
	for _, m := range s.Messages {
		if !isContent(m) {
			continue
		}
		sum.Messages++
		if d := messageDay(m, sc, loc); !slices.Contains(sum.Days, d) {
			sum.Days = append(sum.Days, d)
		}
	}
	slices.Sort(sum.Days)
}

// ProjectsIndex maps each project to the days worked on it. It extends the
// synthesize skill's projects-index.json (version 1) with sessions, last
// seen, branches and agents.
type ProjectsIndex struct {
	Version     int                 `json:"version"`
	LastUpdated time.Time           `json:"lastUpdated"`
	Projects    map[string]*Project `json:"projects"` // by lower-cased path
	// PathVariations lists the spellings of a path that differ only in case.
	PathVariations map[string][]string `json:"pathVariations,omitempty"`
}

// Project is one project of the index.
type Project struct {
	Name         string    `json:"name"`
	OriginalPath string    `json:"originalPath"`
	EncodedPaths []string  `json:"encodedPaths"`
	WorkDays     []string  `json:"workDays"`
	Sessions     []string  `json:"sessions"`
	LastSeen     time.Time `json:"lastSeen,omitzero"`
	Branches     []string  `json:"branches,omitempty"`
	Agents       []string  `json:"agents"`
}

// BuildIndex makes the projects index from the summaries in st. Files whose
// records name no working directory are counted in unplaced.
func BuildIndex(st *State, now time.Time) (ix ProjectsIndex, unplaced int) {
	ix = ProjectsIndex{Version: 1, LastUpdated: now.UTC(), Projects: map[string]*Project{}}
	spellings := map[string][]string{}
	for path, e := range st.Transcripts {
		sum := e.Summary
		if sum == nil || sum.Messages == 0 {
			continue
		}
		cwd := cmp.Or(sum.CWD, e.CWD)
		if cwd == "" {
			unplaced++
			continue
		}
		key := strings.ToLower(cwd)
		p := ix.Projects[key]
		if p == nil {
			p = &Project{Name: filepath.Base(cwd), OriginalPath: cwd}
			ix.Projects[key] = p
		}
		if !slices.Contains(spellings[key], cwd) {
			spellings[key] = append(spellings[key], cwd)
		}
		if e.Dialect == transcript.ClaudeCode {
			// <home>/projects/<encoded>/<file> or …/<encoded>/<session>/subagents/…
			rel := filepath.Dir(path)
			for filepath.Base(filepath.Dir(rel)) != "projects" && rel != filepath.Dir(rel) {
				rel = filepath.Dir(rel)
			}
			p.EncodedPaths = appendNew(p.EncodedPaths, filepath.Base(rel))
		}
		p.WorkDays = appendNew(p.WorkDays, sum.Days...)
		p.Sessions = appendNew(p.Sessions, cmp.Or(sum.SessionID, e.SessionID))
		p.Branches = appendNew(p.Branches, sum.Branch)
		p.Agents = appendNew(p.Agents, string(e.Dialect))
		if sum.End.After(p.LastSeen) {
			p.LastSeen = sum.End.UTC()
		}
	}
	for key, p := range ix.Projects {
		for _, s := range [][]string{p.EncodedPaths, p.WorkDays, p.Sessions, p.Branches, p.Agents} {
			slices.Sort(s)
		}
		if p.EncodedPaths == nil {
			p.EncodedPaths = []string{}
		}
		if v := spellings[key]; len(v) > 1 {
			slices.Sort(v)
			if ix.PathVariations == nil {
				ix.PathVariations = map[string][]string{}
			}
			ix.PathVariations[key] = v
		}
	}
	return ix, unplaced
}

// appendNew appends the non-empty values not in s yet.
func appendNew(s []string, vals ...string) []string {
	for _, v := range vals {
		if v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	return s
}

// Lookup finds the project at path (compared lower-cased, like the skill),
// or the project whose path is the longest prefix of it.
func (ix ProjectsIndex) Lookup(path string) (*Project, bool) {
	key := strings.ToLower(filepath.Clean(path))
	if p, ok := ix.Projects[key]; ok {
		return p, true
	}
	var best *Project
	bestLen := 0
	for k, p := range ix.Projects {
		if strings.HasPrefix(key, k+string(filepath.Separator)) && len(k) > bestLen {
			best, bestLen = p, len(k)
		}
	}
	return best, best != nil
}

// Sorted lists the index's projects, most recently seen first (then by
// path).
func (ix ProjectsIndex) Sorted() []*Project {
	ps := make([]*Project, 0, len(ix.Projects))
	for _, p := range ix.Projects {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(x, y *Project) int {
		if c := y.LastSeen.Compare(x.LastSeen); c != 0 {
			return c
		}
		return cmp.Compare(x.OriginalPath, y.OriginalPath)
	})
	return ps
}
