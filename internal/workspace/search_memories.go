package workspace

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/search"
)

// MemoryHit is a line of a memory file that matches a search.
type MemoryHit struct {
	File  string `json:"file"` // team/<file> for a team memory
	Scope string `json:"scope,omitempty"`
	Path  string `json:"path"`
	Line  int    `json:"line"` // 1-based
	Text  string `json:"text"`
}

// SearchMemories finds the lines of st's memory files that m matches, up
// to limit hits (0: no limit). A file that cannot be read is a warning.
// It also returns how many files there are.
func SearchMemories(st *memdir.Store, m *search.Matcher, limit int, r Report) (hits []MemoryHit, files int, err error) {
	hits = []MemoryHit{}
	files, err = searchStore(st, "", "", m, limit, &hits, r)
	return hits, files, err
}

// SearchProject is SearchMemories over the project's folders: the private
// memories, then the team folder's (named team/<file>, scope team) when
// the project keeps one, then the user's global folder (named
// global/<file>), as recall reads them; limit holds for them together. A
// team or global folder that cannot be read is a warning, and the others
// are searched. err is memdir.ErrNotFound when there is none.
func SearchProject(env Env, l paths.Layout, m *search.Matcher, limit int, r Report) (hits []MemoryHit, files int, err error) {
	hits = []MemoryHit{}
	found := false
	ws, err := OpenLayout(env, l, false)
	switch {
	case errors.Is(err, memdir.ErrNotFound):
	case err != nil:
		return nil, 0, err
	default:
		found = true
		n, err := searchStore(ws.Store, "", memdir.ScopePrivate, m, limit, &hits, r)
		if err != nil {
			return nil, 0, err
		}
		files += n
	}
	t, err := OpenTeamReader(env, l)
	switch {
	case err != nil:
		r.warnf("%v", fmt.Errorf("team memories left out: %w", err))
	case t != nil:
		found = true
		n, err := searchStore(t.Store, TeamPrefix, memdir.ScopeTeam, m, limit, &hits, r)
		if err != nil {
			r.warnf("%v", fmt.Errorf("team memories left out: %w", err))
		}
		files += n
	}
	g, err := OpenGlobalReader(env, l)
	switch {
	case err != nil:
		r.warnf("%v", fmt.Errorf("global memories left out: %w", err))
	case g != nil && (ws == nil || !sameDir(g.Store.Dir(), ws.Store.Dir())):
		found = true
		n, err := searchStore(g.Store, GlobalPrefix, memdir.ScopePrivate, m, limit, &hits, r)
		if err != nil {
			r.warnf("%v", fmt.Errorf("global memories left out: %w", err))
		}
		files += n
	}
	if !found {
		return hits, 0, memdir.ErrNotFound
	}
	return hits, files, nil
}

// searchStore adds the hits of st's files to hits, each named prefix+file
// with scope, until there are limit (0: no limit), and returns how many
// files st holds.
func searchStore(st *memdir.Store, prefix, scope string, m *search.Matcher, limit int, hits *[]MemoryHit, r Report) (int, error) {
	names, err := st.Files()
	if err != nil {
		return 0, err
	}
	for _, f := range names {
		if limit > 0 && len(*hits) >= limit {
			break
		}
		raw, _, err := st.Raw(f)
		if err != nil {
			r.warnf("%v", err)
			continue
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if m.Match(line) {
				*hits = append(*hits, MemoryHit{File: prefix + f, Scope: scope, Path: st.Path(f), Line: i + 1, Text: redacted(line)})
			}
			if limit > 0 && len(*hits) >= limit {
				break
			}
		}
	}
	return len(names), nil
}
