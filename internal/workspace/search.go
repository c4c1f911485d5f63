package workspace

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

// SearchTranscripts searches the conversation text of every transcript
// for opt, handing each result to each as it is found; since, when set, is
// a day (see Day) the messages must be from. A transcript that cannot be
// read is a warning, not an error.
func (t Transcripts) SearchTranscripts(ctx context.Context, opt search.Options, since string, r Report, each func(search.Result) error) (search.Stats, error) {
	t.WarnHome(r)
	if since != "" {
		d, err := t.Day(since)
		if err != nil {
			return search.Stats{}, err
		}
		opt.Since, _ = time.ParseInLocation(time.DateOnly, d, t.Loc)
	}
	if _, err := search.NewMatcher(opt); err != nil {
		return search.Stats{}, hint.With(err, "see 'memdir search --help'")
	}
	files, errs := sessions.Discover(t.Roots)
	for _, err := range errs {
		r.warnf("%v", err)
	}
	stats, err := search.Run(ctx, files, opt, each)
	if err != nil {
		r.warnf("%v", err)
	}
	return stats, nil
}

// ProjectPath is the --project folder itself, absolute, cleaned and with
// symlinks resolved ("" without one): not widened to its git root, as a
// search wants the sessions run in it or below (a monorepo's package, say).
func (e Env) ProjectPath() string {
	p := e.ProjectFlag
	if p == "" {
		return ""
	}
	if home := e.getenv("HOME"); home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.Cwd, p)
	}
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return p
}

// MemoryHit is a line of a memory file that matches a search.
type MemoryHit struct {
	File string `json:"file"`
	Path string `json:"path"`
	Line int    `json:"line"` // 1-based
	Text string `json:"text"`
}

// SearchMemories finds the lines of st's memory files that m matches.
// Once limit hits (0: no limit) are found, each further file is read up to
// its first line only. A file that cannot be read is a warning. It also
// returns how many files there are.
func SearchMemories(st *memdir.Store, m *search.Matcher, limit int, r Report) (hits []MemoryHit, files int, err error) {
	names, err := st.Files()
	if err != nil {
		return nil, 0, err
	}
	hits = []MemoryHit{}
	for _, f := range names {
		raw, _, err := st.Raw(f)
		if err != nil {
			r.warnf("%v", err)
			continue
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if m.Match(line) {
				hits = append(hits, MemoryHit{File: f, Path: st.Path(f), Line: i + 1, Text: line})
			}
			if limit > 0 && len(hits) >= limit {
				break
			}
		}
	}
	return hits, len(names), nil
}
