package workspace

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/synthesis"
)

// Recall of what synthesis wrote: the learnings of the global and the
// project's long-term memory files, and the learnings and key points of
// the daily summaries of the last ContextDays days. They are few (a few
// hundred short entries), so they are read, indexed in memory and ranked
// with recall's BM25F on every recall; a synthesis folder without those
// files costs one directory listing.

// Learning recall's limits.
const (
	// LearningK is the most learnings one recall adds.
	LearningK = 3
	// LearningFloor is the least coverage of the query a learning must
	// have (above the policy's threshold when that is lower): few entries
	// make an idf noisy, and an unrelated prompt must add nothing.
	LearningFloor = 0.5
	// LearningBudget bounds the tokens of the learnings' section.
	LearningBudget = 400
)

// LearningHit is one entry of synthesis that recall ranked for a query.
type LearningHit struct {
	// ID names the entry in a session's exclusions: its source and title
	// ("daily/2026-11-20.md#Permission glob syntax").
	ID string `json:"id"`
	// Source is the file, relative to the synthesis folder.
	Source string `json:"source"`
	Date   string `json:"date,omitempty"` // the learning's date, else the daily summary's
	// Tag is the learning's scope/type, or "key point".
	Tag         string  `json:"tag"`
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description"`
	Lesson      string  `json:"lesson,omitempty"`
	Score       float64 `json:"score"`
	Coverage    float64 `json:"coverage"`
	Kept        bool    `json:"kept"`
	Why         string  `json:"why"`
}

// Learnings is what RecallLearnings found.
type Learnings struct {
	Hits []LearningHit // the ranked entries, best first, with decisions
	Text string        // the section to inject, "" when none was kept
}

// KeptIDs lists the IDs of the kept entries.
func (ls Learnings) KeptIDs() []string {
	var out []string
	for _, h := range ls.Hits {
		if h.Kept {
			out = append(out, h.ID)
		}
	}
	return out
}

// RecallSynthesis is Recall for a project without a memory folder: what
// synthesis wrote only.
func RecallSynthesis(env Env, l paths.Layout, q Query) Recalled {
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	out := Recalled{Terms: recall.Default.Terms(q.Text, nil)}
	out.addLearnings(RecallLearnings(env, l, q.Text, q.Policy, "", now))
	return out
}

// addLearnings appends what learning recall found to r: its section after
// the memories' rendering, its problems as warnings.
func (r *Recalled) addLearnings(ls Learnings, problems []error) {
	r.Learnings = ls.Hits
	if ls.Text != "" {
		r.Text += ls.Text
	}
	for _, p := range problems {
		r.Warnings = append(r.Warnings, p.Error())
	}
}

// KeptLearnings lists the IDs of the learnings recall kept, for a
// session's exclusions.
func (r Recalled) KeptLearnings() []string {
	return Learnings{Hits: r.Learnings}.KeptIDs()
}

// learningBudget is the tokens the learnings' section may take after the
// memories' rendering took its part of p's budget.
func learningBudget(p recall.Policy, rendered string) int {
	budget := p.Budget
	if budget <= 0 {
		budget = recall.DefaultPolicy.Budget
	}
	return min(LearningBudget, budget-recall.Tokens(rendered))
}

// RecallLearnings ranks the synthesis folder's entries for query and keeps
// at most LearningK of those covering at least LearningFloor of it (or
// p.Threshold when higher) and matching two of its words or more, never
// one in p.Exclude, within p's budget (at most LearningBudget). A file
// that cannot be read or parsed is left out and named in problems.
// rendered is what recall already renders for the query (the memories),
// whose tokens count against p's budget. now's date and the days before
// it are the recent daily summaries.
func RecallLearnings(env Env, l paths.Layout, query string, p recall.Policy, rendered string, now time.Time) (Learnings, []error) {
	return recallLearnings(synthesisFolder(env, l), filepath.Base(l.ProjectRoot), query, p, learningBudget(p, rendered), now)
}

func synthesisFolder(env Env, l paths.Layout) *synthesis.Folder {
	return synthesis.Open(l.SynthesisDir, lockfile.Options{Holder: env.Holder}) // read only: no lock is taken
}

func recallLearnings(f *synthesis.Folder, project, query string, p recall.Policy, budget int, now time.Time) (Learnings, []error) {
	var out Learnings
	terms, groups := recall.Default.Prompt(query)
	if len(terms) == 0 || budget < recall.MinBudget() {
		return out, nil
	}
	entries, problems := readLearnings(f, project, now)
	if len(entries) == 0 {
		return out, problems
	}
	docs := make([]recall.Doc, len(entries))
	mems := make(recall.Memories, len(entries))
	for i, e := range entries {
		mems[i] = recall.Memory{File: e.ID, Name: e.Title, Description: e.Description, Type: e.Tag, Body: e.Lesson}
		docs[i] = recall.Analyse(mems[i])
	}
	ranked := recall.NewIndex(docs, recall.DefaultParams).SearchGroups(terms, groups)
	// Stricter than memories: two words of a query of two or more.
	var pass []recall.Scored
	for _, s := range ranked {
		if s.Of >= 2 && s.Matched < 2 {
			continue
		}
		pass = append(pass, s)
	}
	pol := recall.Policy{K: LearningK, Budget: budget, Threshold: max(p.Threshold, LearningFloor), Exclude: p.Exclude}
	decided := map[int]recall.Candidate{}
	for _, c := range recall.Select(mems, pass, pol, now) {
		decided[c.Doc] = c
	}
	var lines []string
	for _, s := range ranked {
		h := entries[s.Doc]
		h.Score, h.Coverage = s.Score, s.Coverage
		c, ok := decided[s.Doc]
		switch {
		case !ok:
			h.Why = "matches one word of the prompt"
		case c.Kept:
			// Select defanged the kept entry's text: render that.
			h.Kept, h.Why = true, "kept"
			lines = append(lines, renderLearning(h, c.Memory))
		default:
			h.Why = c.Why
		}
		out.Hits = append(out.Hits, h)
	}
	if len(lines) > 0 {
		out.Text = learningsHeader + strings.Join(lines, "") + learningsFooter
	}
	return out, problems
}

const (
	learningsHeader = "<memdir-learnings>\nFrom long-term memory and recent daily summaries (memdir synthesis): dated lessons from past sessions, not facts about now.\n"
	learningsFooter = "</memdir-learnings>\n"
)

// renderLearning is one kept entry's line, in the learning line's own
// form with its date and source: "- **Title** [global/error] (2026-11-20,
// daily/2026-11-20.md): description Lesson: lesson".
func renderLearning(h LearningHit, m recall.Memory) string {
	var b strings.Builder
	b.WriteString("- ")
	if m.Name != "" {
		b.WriteString("**" + m.Name + "** ")
	}
	fmt.Fprintf(&b, "[%s] (", h.Tag)
	if h.Date != "" {
		b.WriteString(h.Date + ", ")
	}
	fmt.Fprintf(&b, "%s): %s", h.Source, m.Description)
	if lesson := strings.TrimSpace(m.Body); lesson != "" {
		b.WriteString(" Lesson: " + lesson)
	}
	b.WriteString("\n")
	return b.String()
}

// readLearnings reads the entries recall ranks: the project's long-term
// file, the global one, then the daily summaries of the last ContextDays
// days, newest first; an entry whose scope and title came earlier (a
// learning routed from a summary into a long-term file) is read once. One
// listing of the synthesis folder tells which exist.
func readLearnings(f *synthesis.Folder, project string, now time.Time) ([]LearningHit, []error) {
	names, err := os.ReadDir(f.Dir())
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []error{err}
	}
	has := map[string]bool{}
	for _, e := range names {
		has[e.Name()] = true
	}
	var out []LearningHit
	var problems []error
	seen := map[string]bool{}
	add := func(h LearningHit) {
		key := strings.ToLower(h.Tag + "|" + h.Title + "|" + h.Description)
		if h.Title != "" {
			key = strings.ToLower(h.Tag + "|" + h.Title)
		}
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, h)
	}
	longTerm := func(kind learning.Kind, rel, proj string) {
		b, err := f.ReadFileMax(rel, synthesis.MaxHookRead)
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err != nil {
			problems = append(problems, err)
			return
		}
		var ls []learning.Learning
		err = failOpen(func() error {
			lf, err := learning.ParseFile(kind, rel, proj, string(b))
			if err == nil {
				ls = lf.Learnings("")
			}
			return err
		})
		if err != nil {
			problems = append(problems, fmt.Errorf("learnings of %s left out of recall: %w", rel, err))
			return
		}
		for _, l := range ls {
			add(hitOf(l, rel, ""))
		}
	}
	if has[learning.ProjectMemoryDir] {
		longTerm(learning.ProjectFile, path.Join(learning.ProjectMemoryDir, synthesis.LongTermFile(project)), project)
	}
	if has[learning.GlobalFileName] {
		longTerm(learning.GlobalFile, learning.GlobalFileName, "")
	}
	if has["daily"] {
		s, err := f.Settings()
		if err != nil {
			problems = append(problems, err) // the defaults stand in
		}
		days, err := recentDays(f, now, s.Synthesis.ContextDays)
		if err != nil {
			problems = append(problems, err)
		}
		for _, day := range days {
			rel := path.Join("daily", day+".md")
			b, err := f.ReadFileMax(rel, synthesis.MaxHookRead)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			var d learning.Daily
			err = failOpen(func() (err error) {
				d, err = learning.ParseDaily(day+".md", string(b))
				return err
			})
			if err != nil {
				problems = append(problems, fmt.Errorf("%s left out of recall: %w", rel, err))
				continue
			}
			for _, l := range d.Learnings {
				if l.Scope == learning.Global || sameProject(l.Scope, project) {
					add(hitOf(l, rel, day))
				}
			}
			if len(d.Projects) > 0 && !slices.ContainsFunc(d.Projects, func(p string) bool { return sameProject(p, project) }) {
				continue // the day's key points are of other projects
			}
			for _, k := range d.KeyPoints {
				add(LearningHit{ID: rel + "#" + k, Source: rel, Date: day, Tag: "key point", Description: k})
			}
		}
	}
	return out, problems
}

// hitOf is a learning of file rel as recall ranks it; a learning without
// a date of its own takes day's.
func hitOf(l learning.Learning, rel, day string) LearningHit {
	return LearningHit{ID: rel + "#" + l.Title, Source: rel, Date: cmp.Or(l.Date, day), Tag: l.Scope + "/" + string(l.Type),
		Title: l.Title, Description: l.Description, Lesson: l.Lesson}
}

// sameProject reports whether a project name as a summary tags it names
// project (the folder's name): compared as their long-term files are named.
func sameProject(tag, project string) bool {
	return synthesis.LongTermFile(tag) == synthesis.LongTermFile(project)
}

// recentDays lists the daily summaries of the last n days up to now's
// local date, newest first.
func recentDays(f *synthesis.Folder, now time.Time, n int) ([]string, error) {
	dir, err := f.Path("daily")
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	today := now.Format(time.DateOnly)
	oldest := now.AddDate(0, 0, -(n - 1)).Format(time.DateOnly)
	var days []string
	for _, e := range entries {
		day, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !e.Type().IsRegular() || day > today || day < oldest {
			continue
		}
		if _, err := time.Parse(time.DateOnly, day); err == nil {
			days = append(days, day)
		}
	}
	slices.Sort(days)
	slices.Reverse(days)
	return days, nil
}
