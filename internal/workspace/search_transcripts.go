package workspace

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
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
