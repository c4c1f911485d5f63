package workspace

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
	"github.com/memdir/memdir/internal/transcript"
)

// dayWork gathers what an engine needs for day d: its projects (as the
// projects index names them), its conversation (secrets redacted), each
// project's commits of the day, the learnings already known and the day's
// current summary.
func (t Transcripts) dayWork(ctx context.Context, d sessions.Day, ix sessions.ProjectsIndex, s learning.Settings) (DayWork, error) {
	p, err := t.Folder.Path(synthesis.DailyFile(d.Date))
	if err != nil {
		return DayWork{}, err
	}
	w := DayWork{Date: d.Date, Path: p, Projects: []string{}, Commits: map[string][]extract.Commit{}, Rules: SynthesisRules}
	redactDays([]sessions.Day{d})
	in := extract.DayInput{Date: d.Date, Commits: w.Commits}
	dirs := map[string]string{} // project → a folder of it, for git
	for _, ds := range d.Sessions {
		name := projectName(ix, ds.CWD)
		if name != "" && !slices.Contains(w.Projects, name) {
			w.Projects = append(w.Projects, name)
			dirs[name] = ds.CWD
		}
		if !slices.Contains(w.transcripts, ds.Path) {
			w.transcripts = append(w.transcripts, ds.Path)
		}
		in.Sessions = append(in.Sessions, extract.DaySession{Project: name, Session: ds.SessionID,
			Messages: messages(&transcript.Session{Messages: ds.Messages})})
	}
	sort.Strings(w.Projects)
	in.Projects = w.Projects
	var buf bytes.Buffer
	if err := sessions.WriteText(&buf, []sessions.Day{d}, t.Loc); err != nil {
		return w, err
	}
	w.Conversation = buf.String()
	for _, name := range w.Projects {
		if cs := dayCommits(ctx, dirs[name], d.Date, t.Loc); len(cs) > 0 {
			w.Commits[name] = cs
		}
	}
	if w.Previous, _, err = t.Folder.ReadText(synthesis.DailyFile(d.Date)); err != nil {
		return w, err
	}
	// A day summarised again keeps the projects of its summary so far: the
	// learnings merged from it are filed under them.
	if prev, perr := learning.ParseDaily(synthesis.DailyFile(d.Date), w.Previous); w.Previous != "" && perr == nil {
		for _, name := range prev.Projects {
			if !slices.Contains(w.Projects, name) {
				w.Projects = append(w.Projects, name)
			}
		}
		sort.Strings(w.Projects)
	}
	if w.Existing, err = t.knownLearnings(d.Date, s); err != nil {
		return w, err
	}
	in.Known = w.Existing
	w.input = in
	return w, nil
}

// projectName is the name the projects index gives the project of cwd
// (the folder's name when the index does not know it); "" without a cwd.
func projectName(ix sessions.ProjectsIndex, cwd string) string {
	if cwd == "" {
		return ""
	}
	if p, ok := ix.Lookup(cwd); ok && p.Name != "" {
		return p.Name
	}
	return filepath.Base(cwd)
}

// knownLearnings are the learnings of the long-term files (those that
// parse) and of the daily summaries of the ContextDays before date.
func (t Transcripts) knownLearnings(date string, s learning.Settings) ([]learning.Learning, error) {
	m, err := t.Folder.LoadMemory()
	if err != nil {
		return nil, err
	}
	known := []learning.Learning{}
	// Learnings dated the day itself came from its own summary (a run
	// killed after routing them, before the day was marked done): they are
	// the day's, not known before it.
	add := func(ls []learning.Learning) {
		for _, l := range ls {
			if l.Date != date {
				known = append(known, l)
			}
		}
	}
	if m.Global != nil {
		add(m.Global.Learnings(""))
	}
	keys := make([]string, 0, len(m.Projects))
	for k := range m.Projects {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if f := m.Projects[k]; f != nil {
			add(f.Learnings(""))
		}
	}
	day, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return nil, err
	}
	for i := 1; i <= s.Synthesis.ContextDays; i++ {
		prev := day.AddDate(0, 0, -i).Format(time.DateOnly)
		text, ok, err := t.Folder.ReadText(synthesis.DailyFile(prev))
		if err != nil || !ok {
			continue
		}
		if dl, err := learning.ParseDaily(prev+".md", text); err == nil {
			known = append(known, dl.Learnings...)
		}
	}
	return known, nil
}

// dayCommits reads the commits of the day in dir's git repository (local
// dates, all branches, newest first, at most 50); none when dir is not in
// a repository or git is missing.
func dayCommits(ctx context.Context, dir, date string, loc *time.Location) []extract.Commit {
	if dir == "" {
		return nil
	}
	start, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "log", "--all", "--no-merges", "-n", "50",
		"--since="+start.Format(time.RFC3339), "--until="+start.AddDate(0, 0, 1).Format(time.RFC3339),
		"--format=%h%x09%cI%x09%s")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	var cs []extract.Commit
	for line := range strings.Lines(string(out)) {
		f := strings.SplitN(strings.TrimRight(line, "\r\n"), "\t", 3)
		if len(f) == 3 {
			cs = append(cs, extract.Commit{Hash: f[0], Time: f[1], Subject: f[2]})
		}
	}
	return cs
}

// heuristicSummary is the offline engine: extract.DailySummary, merged
// losslessly into the day's summary when the day has one already (content
// that arrived after it was written). A summary that does not parse is
// refused, and the day waits.
func heuristicSummary(w DayWork) (string, error) {
	d := extract.DailySummary(w.input)
	if w.Previous == "" {
		return learning.RenderDaily(d), nil
	}
	_, err := learning.ParseDaily(synthesis.DailyFile(w.Date), w.Previous) // named as the folder has it
	text := ""
	if err == nil {
		text, err = learning.MergeDaily(w.Previous, d)
	}
	if err != nil {
		return "", hint.With(fmt.Errorf("the day's summary does not parse: %w", err),
			"fix the line named (or move the file aside), then run 'memdir synthesize' again")
	}
	return text, nil
}
