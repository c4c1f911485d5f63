package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

// SearchTranscripts searches the conversation text of every transcript
// for opt, handing each result to each in time order (the earliest
// opt.Limit of them, with a limit); since, when set, is
// a day (see Day) the messages must be from. A transcript that cannot be
// read is a warning, not an error. Credentials in the results are
// redacted.
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
	// Results come in time order, not in the order of the files (by
	// session id): all are gathered, then sorted, then cut to the limit.
	limit := opt.Limit
	opt.Limit = 0
	var found []search.Result
	stats, err := search.Run(ctx, files, opt, func(res search.Result) error {
		found = append(found, res)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return stats, err
		}
		r.warnf("%v", err)
	}
	search.SortByTime(found)
	if limit > 0 && len(found) > limit {
		found = found[:limit]
	}
	stats.Results = len(found)
	for _, res := range found {
		if err := each(RedactedResult(res)); err != nil {
			return stats, err
		}
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

// CheckProject fails when --project names a folder that does not exist:
// its memory folder would be an empty one nobody meant.
func (e Env) CheckProject() error {
	p := e.ProjectPath()
	if p == "" {
		return nil
	}
	if info, err := os.Stat(p); err != nil || !info.IsDir() {
		return hint.With(fmt.Errorf("project folder %s does not exist", p), "check the path given to --project (or leave it out: the default is the git root of the working directory)")
	}
	return nil
}

// RedactedResult is r with its credentials replaced, in the matching line
// and the lines around it: a transcript holds whatever was pasted into
// the session, and what leaves through a search holds none.
func RedactedResult(r search.Result) search.Result {
	r.Text = redacted(r.Text)
	r.Before = slices.Clone(r.Before)
	for i := range r.Before {
		r.Before[i] = redacted(r.Before[i])
	}
	r.After = slices.Clone(r.After)
	for i := range r.After {
		r.After[i] = redacted(r.After[i])
	}
	return r
}
