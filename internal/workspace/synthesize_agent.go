package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/safefile"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// DraftsDir holds the summaries an agent writes for 'memdir synthesize
// apply': never the daily file itself, whose user notes apply keeps.
const DraftsDir = "drafts"

// Prepared is what 'memdir synthesize prepare' gives an agent: the
// pending days, and everything to write the summary of one of them.
type Prepared struct {
	PendingDays []string `json:"pending_days"`
	Work        *DayWork `json:"work"` // nil when nothing is pending
}

// Prepare runs the migration if needed, builds the projects index, and
// readies the day an agent summarises next: date, or the oldest pending
// day before today when date is "", passing over the days of skip (an
// agent gave up on them: they stay pending, and listed). Its conversation
// is recorded as shown, so that apply marks done no more than the agent
// read.
func (t Transcripts) Prepare(ctx context.Context, env Env, date string, skip []string, now time.Time, r Report) (Prepared, error) {
	y := &synthesizer{ctx: ctx, t: t, env: env, r: r, o: SynthesizeOptions{Now: cmp0(now)}}
	y.today = sessions.DateOf(y.o.Now, t.Loc)
	out := Prepared{PendingDays: []string{}}
	var err error
	if y.s, err = t.Folder.Settings(); err != nil {
		return out, hint.With(err, "fix or remove %s", synthesis.SettingsFile)
	}
	if err := t.NeedHome(r); err != nil {
		return out, err
	}
	if err := y.migrate(); err != nil {
		return out, err
	}
	if date != "" {
		y.o.Dates = []string{date}
	}
	y.first, y.skip = true, skip
	days, ix, err := y.pending()
	if err != nil {
		return out, err
	}
	out.PendingDays = append(out.PendingDays, y.listed...)
	for len(days) > 0 && (len(days[0].Sessions) == 0 || slices.Contains(skip, days[0].Date)) {
		if len(days[0].Sessions) == 0 {
			y.day(days[0], ix) // only excluded projects: done, no summary
			out.PendingDays = slices.DeleteFunc(out.PendingDays, func(d string) bool { return d == days[0].Date })
		}
		days = days[1:]
	}
	if len(days) == 0 {
		return out, nil
	}
	w, err := t.dayWork(ctx, days[0], ix, y.s)
	if err != nil {
		return out, err
	}
	if w.Path, err = t.Folder.Path(filepath.Join(DraftsDir, w.Date+".md")); err != nil {
		return out, err
	}
	// An agent's tools cut long output and long lines: the conversation
	// goes to a file it reads in parts.
	conv := filepath.Join(DraftsDir, w.Date+".conversation.txt")
	if err := t.Folder.WriteFile(conv, []byte(w.Conversation)); err != nil {
		return out, err
	}
	w.ConversationFile, _ = t.Folder.Path(conv)
	w.Conversation = ""
	out.Work = &w
	return out, nil
}

func cmp0(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}

var reDailyH1 = lazyre.New(`^# (\d{4}-\d{2}-\d{2})\s*$`)

// maxDraft bounds the summary apply reads: far past the refusal size, so
// that an oversized summary is refused with its size, not unread.
const maxDraft = 1 << 20

// Apply takes a day's summary an agent wrote (at path, relative to
// env.Cwd), checks it as the model engines' summaries are checked, and
// does the rest deterministically: the daily file (with its user notes),
// routing, pruning, the day marked done, decay, the timestamp.
func (t Transcripts) Apply(ctx context.Context, env Env, path string, now time.Time, r Report) (SynthesisResult, error) {
	y := &synthesizer{ctx: ctx, t: t, env: env, r: r, o: SynthesizeOptions{Now: cmp0(now), Engine: "agent"}}
	y.today = sessions.DateOf(y.o.Now, t.Loc)
	y.res = SynthesisResult{Engine: "agent", Days: []SynthesizedDay{}, Plan: []learning.Op{}, Written: []string{}}
	var err error
	if y.s, err = t.Folder.Settings(); err != nil {
		return y.res, hint.With(err, "fix or remove %s", synthesis.SettingsFile)
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	b, err := safefile.ReadFile(path, maxDraft)
	if errors.Is(err, fs.ErrNotExist) {
		return y.res, hint.With(err, "write the day's summary to the daily_file 'memdir synthesize prepare --json' names, then apply it")
	}
	if err != nil {
		return y.res, err
	}
	text := string(b)
	first, _, _ := strings.Cut(text, "\n")
	m := reDailyH1.FindStringSubmatch(strings.TrimSpace(first))
	if m == nil {
		return y.res, hint.With(fmt.Errorf("%s does not start with the day's heading (# YYYY-MM-DD)", path), "the first line of a daily summary is '# ' and its date")
	}
	date := m[1]
	if err := y.migrate(); err != nil {
		return y.res, err
	}
	ix, err := t.LoadProjectsIndex(ctx, r)
	if err != nil {
		return y.res, err
	}
	projects := dayProjects(ix, date)
	day := SynthesizedDay{Date: date, File: filepath.Join(t.Folder.Dir(), synthesis.DailyFile(date))}
	err = y.locked(func(st *sessions.State) error {
		out, err := t.applyDaily(y, date, text, projects)
		day.Bytes, day.Learnings, day.Warnings = out.bytes, out.learnings, out.warnings
		if err != nil {
			return err
		}
		done, err := t.markDoneLocked(ctx, st, []string{date}, "", nil, r)
		for _, d := range done {
			day.Transcripts += d.Transcripts
		}
		y.res.Transcripts += day.Transcripts
		return err
	})
	if err != nil {
		return y.res, hint.With(err, "rewrite the summary (see the rules in 'memdir synthesize prepare --json') and apply it again")
	}
	y.res.Days = append(y.res.Days, day)
	if rel, ok := strings.CutPrefix(path, filepath.Join(t.Folder.Dir(), DraftsDir)+string(filepath.Separator)); ok {
		// Applied: the draft and its conversation are done with.
		_ = t.Folder.Remove(filepath.Join(DraftsDir, rel))
		_ = t.Folder.Remove(filepath.Join(DraftsDir, date+".conversation.txt"))
	}
	return y.res, y.finish()
}

// dayProjects are the projects ix has date among the work days of.
func dayProjects(ix sessions.ProjectsIndex, date string) []string {
	var out []string
	for _, p := range ix.Sorted() {
		if slices.Contains(p.WorkDays, date) && !slices.Contains(out, p.Name) {
			out = append(out, p.Name)
		}
	}
	slices.Sort(out)
	return out
}

// LongTermChange is what a change to long-term memory alone (decay, pin,
// unpin) did, or would do.
type LongTermChange struct {
	DryRun  bool          `json:"dry_run"`
	Plan    []learning.Op `json:"plan"`
	Written []string      `json:"written"`
}

// ChangeLongTerm runs decide on the long-term files under the folder's
// lock and writes what changed (nothing in a dry run). Files that do not
// parse are refused when decide would touch them: all of them, since
// decay, pin and unpin read every file.
func (t Transcripts) ChangeLongTerm(ctx context.Context, dryRun bool, decide func(m *learning.Memory, s learning.Settings) []learning.Op) (LongTermChange, error) {
	out := LongTermChange{DryRun: dryRun, Plan: []learning.Op{}, Written: []string{}}
	s, err := t.Folder.Settings()
	if err != nil {
		return out, hint.With(err, "fix or remove %s", synthesis.SettingsFile)
	}
	unlock := func() {}
	if !dryRun {
		if unlock, err = t.Folder.Lock(ctx); err != nil {
			return out, err
		}
	}
	defer unlock()
	m, err := t.Folder.LoadMemory()
	if err != nil {
		return out, err
	}
	if len(m.Bad) > 0 {
		var errs []error
		for _, b := range m.Bad {
			errs = append(errs, b)
		}
		return out, badFiles(errors.Join(errs...))
	}
	out.Plan = append(out.Plan, decide(&m.Memory, s)...)
	if dryRun {
		out.Written = append(out.Written, m.Changed()...)
		return out, nil
	}
	w, err := t.Folder.SaveMemory(m)
	out.Written = append(out.Written, w...)
	return out, err
}

// Today is the local date of now in t's zone.
func (t Transcripts) Today(now time.Time) string { return sessions.DateOf(now, t.Loc) }

// ProjectKey is the key of the project's long-term file: the projects
// index's name of the layout's project (its folder's name when the index
// does not know it), as synthesis.ProjectKey spells it.
func (t Transcripts) ProjectKey() string {
	name := filepath.Base(t.Layout.ProjectRoot)
	var ix sessions.ProjectsIndex
	if found, err := t.Folder.ReadJSON(sessions.IndexFile, &ix); err == nil && found {
		name = projectName(ix, t.Layout.ProjectRoot)
	}
	return synthesis.ProjectKey(name)
}
