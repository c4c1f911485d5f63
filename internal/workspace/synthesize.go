package workspace

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// SynthesizeOptions says which days Synthesize summarises, and how.
type SynthesizeOptions struct {
	Engine string   // heuristic (""), anthropic, openai or claude: extraction's engines
	Dates  []string // only these days; none: every pending day before today
	DryRun bool     // plan only: write nothing, mark nothing
	Models Models   // the model engines' clients; the zero value reads the environment
	Now    time.Time
}

// SynthesizedDay is what Synthesize did with one day.
type SynthesizedDay struct {
	Date        string   `json:"date"`
	File        string   `json:"daily_file"`
	Transcripts int      `json:"transcripts"`
	Sessions    int      `json:"sessions"`
	Bytes       int      `json:"bytes"`
	Learnings   int      `json:"learnings"`
	Warnings    []string `json:"warnings,omitempty"`
	Error       string   `json:"error,omitempty"` // the day stays pending
}

// SynthesisResult is what a synthesis did (in a dry run, would do).
type SynthesisResult struct {
	DryRun   bool             `json:"dry_run"`
	Engine   string           `json:"engine,omitempty"`
	Migrated bool             `json:"migrated"`
	Days     []SynthesizedDay `json:"days"`
	// Later are pending days left for a later run: today's, still going on.
	Later       []string      `json:"later,omitempty"`
	Transcripts int           `json:"transcripts"`
	Global      int           `json:"routed_global"`
	Project     int           `json:"routed_project"`
	Archived    int           `json:"archived"`
	Purged      int           `json:"purged_archive_groups"`
	Plan        []learning.Op `json:"plan"`
	Written     []string      `json:"written"`
	Tokens      llm.Usage     `json:"tokens,omitzero"`
}

// Failed reports whether a day could not be summarised.
func (r SynthesisResult) Failed() bool {
	return slices.ContainsFunc(r.Days, func(d SynthesizedDay) bool { return d.Error != "" })
}

// Line is the skill's one-line result.
func (r SynthesisResult) Line() string {
	var dates []string
	for _, d := range r.Days {
		if d.Error == "" {
			dates = append(dates, d.Date)
		}
	}
	verb := "Processed"
	if r.DryRun {
		verb = "Would process"
	}
	return fmt.Sprintf("%s %s into daily summaries for [%s]. Routed %s to global memory, %d to project memory. Archived %s.",
		verb, sessions.Plural(r.Transcripts, "transcript"), strings.Join(dates, ", "),
		sessions.Plural(r.Global, "learning"), r.Project, sessions.Plural(r.Archived, "old learning"))
}

func (r *SynthesisResult) count(ops []learning.Op) {
	for _, op := range ops {
		switch op.Kind {
		case "add", "update":
			if op.Learning.Scope == learning.Global {
				r.Global++
			} else {
				r.Project++
			}
		case "archive", "prune":
			r.Archived++
		case "purge":
			r.Purged++
		}
	}
	r.Plan = append(r.Plan, ops...)
}

// synthesisTimeout bounds a model's summary of one day (a whole day's
// conversation is a long prompt).
const synthesisTimeout = 5 * time.Minute

// synthesizer is one Synthesize run.
type synthesizer struct {
	ctx   context.Context
	t     Transcripts
	env   Env
	o     SynthesizeOptions
	r     Report
	s     learning.Settings
	today string
	res   SynthesisResult
	chat  llm.Client
	mem   *synthesis.Memory // a dry run's memory, changed in place and never written
	// first: pending readies only the oldest day (prepare), and lists
	// every pending day in listed.
	first  bool
	skip   []string // days prepare passes over
	listed []string
	seen   []string // the transcripts of the days done
	// paths are the transcripts holding each pending day's content, those
	// of excluded projects too: marking the day done marks them all.
	paths map[string][]string
}

// Synthesize runs the synthesize skill's whole cycle: migration once, the
// projects index, each pending day to its daily summary with learnings
// (engine), routing with dedupe and updates, pruning, decay and the
// archive's purge, each day marked done only once its summary and its
// learnings are written, then the synthesis timestamp.
func (t Transcripts) Synthesize(ctx context.Context, env Env, o SynthesizeOptions, r Report) (SynthesisResult, error) {
	if err := CheckExtractEngine(o.Engine); err != nil {
		return SynthesisResult{}, err
	}
	o.Engine = cmp.Or(o.Engine, ExtractHeuristic)
	o.Now = cmp.Or(o.Now, time.Now())
	y := &synthesizer{ctx: ctx, t: t, env: env, o: o, r: r, today: sessions.DateOf(o.Now, t.Loc)}
	y.res = SynthesisResult{DryRun: o.DryRun, Engine: o.Engine, Days: []SynthesizedDay{}, Plan: []learning.Op{}, Written: []string{}}
	var err error
	if y.s, err = t.Folder.Settings(); err != nil {
		return y.res, hint.With(err, "fix or remove %s", synthesis.SettingsFile)
	}
	if o.Engine != ExtractHeuristic {
		if y.chat, err = o.Models.chat(env, o.Engine, synthesisTimeout); err != nil {
			return y.res, hint.With(err, "see 'memdir extract --help' (LLM ENGINES): synthesis uses the same keys")
		}
	}
	if err := t.NeedHome(r); err != nil {
		return y.res, err
	}
	if err := y.migrate(); err != nil {
		return y.res, err
	}
	days, ix, err := y.pending()
	if err != nil {
		return y.res, err
	}
	for _, d := range days {
		if err := ctx.Err(); err != nil {
			return y.res, err
		}
		y.day(d, ix)
	}
	if err := y.finish(); err != nil {
		return y.res, err
	}
	return y.res, nil
}

// locked runs fn under the synthesis folder's lock with the processing
// state loaded (a dry run takes no lock: it writes nothing).
func (y *synthesizer) locked(fn func(st *sessions.State) error) error {
	if y.o.DryRun {
		st, err := y.t.LoadState()
		if err != nil {
			return err
		}
		return fn(st)
	}
	st, unlock, err := y.t.LockState(y.ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return fn(st)
}

// memory loads the long-term files (a dry run keeps one copy for the run).
func (y *synthesizer) memory() (*synthesis.Memory, error) {
	if y.o.DryRun && y.mem != nil {
		return y.mem, nil
	}
	m, err := y.t.Folder.LoadMemory()
	if err == nil && y.o.DryRun {
		y.mem = m
	}
	return m, err
}

// save writes what changed in m, unless in a dry run.
func (y *synthesizer) save(m *synthesis.Memory) error {
	if y.o.DryRun {
		y.res.Written = append(y.res.Written, m.Changed()...)
		return nil
	}
	w, err := y.t.Folder.SaveMemory(m)
	y.res.Written = append(y.res.Written, w...)
	return err
}

// migrate runs the skill's Phase 0 once: Pinned sections, dates on
// undated learnings, conservative pinning, then the marker. With a model
// engine, the model then pins what it finds worth it by the skill's
// criteria (synthesize_pin.go); its failure is a warning.
func (y *synthesizer) migrate() error {
	if y.t.Folder.Migrated() {
		return nil
	}
	// The model chooses before the lock is taken; its choices are
	// applied below, after the same Migrate, to the same learnings.
	picks := y.migrationPicks()
	return y.locked(func(*sessions.State) error {
		m, err := y.memory()
		if err != nil {
			return err
		}
		if err := m.Usable(); err != nil {
			return badFiles(err)
		}
		for k, f := range m.Projects {
			if err := m.Usable(k); err != nil || f == nil {
				return badFiles(err)
			}
		}
		ops := learning.Migrate(&m.Memory, y.today)
		ops = append(ops, y.applyPicks(&m.Memory, picks)...)
		y.res.Migrated = true
		y.res.Plan = append(y.res.Plan, ops...)
		if err := y.save(m); err != nil || y.o.DryRun {
			return err
		}
		return y.t.Folder.MarkMigrated(y.today)
	})
}

// badFiles is the error of long-term files that did not parse.
func badFiles(err error) error {
	return hint.With(fmt.Errorf("long-term memory that does not parse is left as it is: %w", err),
		"fix the line named (or move the file aside), then run 'memdir synthesize' again")
}

// pending builds the projects index and reads the pending days to
// summarise, recording in the state what was read (as 'transcripts
// extract' does), so that marking a day done marks no more than that.
func (y *synthesizer) pending() ([]sessions.Day, sessions.ProjectsIndex, error) {
	var (
		days []sessions.Day
		ix   sessions.ProjectsIndex
	)
	err := y.locked(func(st *sessions.State) error {
		if y.t.ZoneConflict(st) != nil {
			y.r.warnf("the days were counted in the time zone %s, and are now counted in %s: days marked done past a cursor are pending again", st.DaysZone, y.t.Zone)
			st.Recount(y.t.Zone)
		}
		var unplaced int
		ix, unplaced = y.t.ProjectsIndex(y.ctx, st, y.r)
		if unplaced > 0 {
			y.r.warnf("%s name no working directory: their days are tagged with no project", sessions.Plural(unplaced, "transcript"))
		}
		scans := y.t.ReadPending(y.ctx, st, y.r)
		var whole []sessions.Day // the days as read, excluded sessions too
		for _, d := range sessions.Pending(scans, y.t.Loc, y.o.Dates...) {
			if len(y.o.Dates) == 0 && d.Date >= y.today {
				y.res.Later = append(y.res.Later, d.Date)
				continue
			}
			// Sessions of projects the settings exclude are not summarised
			// (the day is still marked done: they stay out for good).
			if y.paths == nil {
				y.paths = map[string][]string{}
			}
			y.paths[d.Date] = transcriptPaths(d)
			whole = append(whole, d)
			kept := d
			kept.Sessions = slices.DeleteFunc(slices.Clone(d.Sessions), func(s sessions.DaySession) bool {
				return excluded(y.s.Exclude, y.env.getenv("HOME"), "", s.CWD) != ""
			})
			days = append(days, kept)
			y.listed = append(y.listed, d.Date)
		}
		if y.first {
			// The first day to summarise, after those only excluded
			// projects worked on (the caller marks them done).
			for i, d := range days {
				if len(d.Sessions) > 0 && !slices.Contains(y.skip, d.Date) {
					days, whole = days[:i+1], whole[:i+1]
					break
				}
			}
		}
		if y.o.DryRun {
			return nil
		}
		sessions.MarkExtracted(st, scans, whole)
		if err := y.t.Folder.WriteJSON(sessions.StateFile, st); err != nil {
			return err
		}
		return y.t.Folder.WriteJSON(sessions.IndexFile, ix)
	})
	return days, ix, err
}

// day summarises one day and commits it; a failure is the day's, and the
// run goes on with the next.
func (y *synthesizer) day(d sessions.Day, ix sessions.ProjectsIndex) {
	if len(d.Sessions) == 0 {
		// Only excluded projects worked that day: no summary, and the day
		// is done.
		err := y.locked(func(st *sessions.State) error {
			if y.o.DryRun {
				return nil
			}
			_, err := y.t.markDoneLocked(y.ctx, st, []string{d.Date}, "", y.paths[d.Date], y.r)
			return err
		})
		if err != nil {
			y.r.warnf("%s: %v", d.Date, err)
		}
		return
	}
	w, err := y.t.dayWork(y.ctx, d, ix, y.s)
	res := SynthesizedDay{Date: d.Date, File: w.Path, Sessions: len(d.Sessions), Transcripts: transcriptsOf(d)}
	if err == nil {
		var text string
		if text, err = y.summarize(w); err == nil {
			res, err = y.commit(w, text, res)
		}
	}
	if err != nil {
		res.Error = err.Error()
		y.r.warnf("%s: %v (the day stays pending)", d.Date, err)
	} else {
		// A transcript that spans days is one transcript processed.
		for _, s := range d.Sessions {
			if !slices.Contains(y.seen, s.Path) {
				y.seen = append(y.seen, s.Path)
				y.res.Transcripts++
			}
		}
	}
	y.res.Days = append(y.res.Days, res)
}

// summarize writes the day's summary with the run's engine.
func (y *synthesizer) summarize(w DayWork) (string, error) {
	if y.chat == nil {
		return heuristicSummary(w)
	}
	text, usage, err := modelSummary(y.ctx, y.chat, w)
	y.res.Tokens.InputTokens += usage.InputTokens
	y.res.Tokens.OutputTokens += usage.OutputTokens
	return text, err
}

// commit validates the day's summary and, under the lock, writes it (with
// the user notes of the file it replaces), routes its learnings, prunes
// what grew past its size, and marks the day done: in that order, so a
// crash leaves the day pending, never done without its summary.
func (y *synthesizer) commit(w DayWork, text string, res SynthesizedDay) (SynthesizedDay, error) {
	err := y.locked(func(st *sessions.State) error {
		out, err := y.t.applyDaily(y, w.Date, text, w.Projects)
		res.Bytes, res.Learnings, res.Warnings = out.bytes, out.learnings, out.warnings
		if err != nil || y.o.DryRun {
			return err
		}
		paths := y.paths[w.Date]
		if paths == nil {
			paths = w.transcripts
		}
		_, err = y.t.markDoneLocked(y.ctx, st, []string{w.Date}, "", paths, y.r)
		return err
	})
	return res, err
}

// applied is what applyDaily did.
type applied struct {
	bytes, learnings int
	warnings         []string
}

// applyDaily is the deterministic part of a day's synthesis, shared by
// Synthesize and Apply: check the text (errors refuse it), keep the user
// notes of the day's current file, write it, route its learnings, prune.
// The caller holds the lock.
func (t Transcripts) applyDaily(y *synthesizer, date, text string, projects []string) (applied, error) {
	var out applied
	var errs []string
	for _, p := range learning.CheckDaily(date, text, projects) {
		msg := p.Msg
		if p.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", p.Line, p.Msg)
		}
		if p.Warning {
			out.warnings = append(out.warnings, msg)
		} else {
			errs = append(errs, msg)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("the summary of %s is refused: %s", date, strings.Join(errs, "; "))
	}
	old, _, err := t.Folder.ReadText(synthesis.DailyFile(date))
	if err != nil {
		return out, err
	}
	if old != "" {
		// A summary someone edited into something that does not parse is
		// never replaced from a bad parse: it is named, and the day waits.
		if _, err := learning.ParseDaily(synthesis.DailyFile(date), old); err != nil {
			return out, hint.With(fmt.Errorf("the day's summary does not parse: %w", err),
				"fix the line named (or move the file aside), then run 'memdir synthesize' again")
		}
	}
	text = learning.MergeNotes(text, old)
	daily, err := learning.ParseDaily(date+".md", text)
	if err != nil {
		return out, err
	}
	out.bytes = len(text)
	m, err := y.memory()
	if err != nil {
		return out, err
	}
	ls := routable(scoped(daily.Learnings), m, y.s, y.today, date)
	out.learnings = len(daily.Learnings)
	if err := m.Usable(scopes(ls)...); err != nil {
		return out, badFiles(err)
	}
	ops := learning.Route(&m.Memory, ls, y.today)
	ops = append(ops, learning.Prune(&m.Memory, y.s, y.today)...)
	y.res.count(ops)
	if y.o.DryRun {
		y.res.Written = append(y.res.Written, synthesis.DailyFile(date))
		return out, y.save(m)
	}
	if old != text {
		if err := t.Folder.WriteFile(synthesis.DailyFile(date), []byte(text)); err != nil {
			return out, err
		}
		y.res.Written = append(y.res.Written, synthesis.DailyFile(date))
	}
	return out, y.save(m)
}

// finish decays and purges the archive, then writes the timestamp.
func (y *synthesizer) finish() error {
	return y.locked(func(*sessions.State) error {
		m, err := y.memory()
		if err != nil {
			return err
		}
		if err := m.Usable(); err != nil {
			// Decay needs the archive and the global file; the days are
			// done, and the next run decays once they are fixed.
			y.r.warnf("decay skipped: %v", err)
			return nil
		}
		var ops []learning.Op
		for k, f := range m.Projects {
			if f == nil {
				y.r.warnf("decay skips %s: %v", k, m.Usable(k))
			}
		}
		ops = learning.Decay(&m.Memory, y.s, y.today)
		y.res.count(ops)
		if err := y.save(m); err != nil || y.o.DryRun {
			return err
		}
		if y.res.Failed() {
			return nil // not synthesized: the next session says so again
		}
		return y.t.Folder.MarkSynthesized(y.o.Now)
	})
}

// scoped returns ls with each project scope in its file's key form.
func scoped(ls []learning.Learning) []learning.Learning {
	out := make([]learning.Learning, len(ls))
	for i, l := range ls {
		if l.Scope != learning.Global {
			l.Scope = synthesis.ProjectKey(l.Scope)
		}
		out[i] = l
	}
	return out
}

// routable keeps the learnings of day's summary that routing takes. As
// the skill routes the summaries of the last AgeDays days, a day older
// than that routes nothing (it was routed when it was summarised, and its
// learnings have decayed since; one summarised that late keeps them in its
// file). A learning the archive holds already — the same one: scope,
// title, type and date — left long-term memory (pruned, decayed, replaced)
// and is not brought back by a second summary of its day.
func routable(ls []learning.Learning, m *synthesis.Memory, s learning.Settings, today, day string) []learning.Learning {
	t, err := time.Parse(time.DateOnly, today)
	if err != nil {
		return ls
	}
	if day < t.AddDate(0, 0, -s.Decay.AgeDays).Format(time.DateOnly) {
		return nil
	}
	var archived []learning.ArchivedLearning
	if m.Archive != nil {
		archived = m.Archive.Learnings()
	}
	var out []learning.Learning
	for _, l := range ls {
		if !slices.ContainsFunc(archived, func(a learning.ArchivedLearning) bool {
			return a.Scope == l.Scope && strings.EqualFold(a.Title, l.Title) && a.Type == l.Type && a.Date == l.Date
		}) {
			out = append(out, l)
		}
	}
	return out
}

// scopes lists the project keys of ls.
func scopes(ls []learning.Learning) []string {
	var out []string
	for _, l := range ls {
		if l.Scope != learning.Global && !slices.Contains(out, l.Scope) {
			out = append(out, l.Scope)
		}
	}
	return out
}

// transcriptPaths lists the transcripts holding content of d.
func transcriptPaths(d sessions.Day) []string {
	var out []string
	for _, s := range d.Sessions {
		if !slices.Contains(out, s.Path) {
			out = append(out, s.Path)
		}
	}
	return out
}

// transcriptsOf counts the transcripts holding content of d.
func transcriptsOf(d sessions.Day) int { return len(transcriptPaths(d)) }
