package workspace

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/synthesis"
)

// QuickstartResult is what Quickstart did, as 'memdir quickstart --json'
// prints it.
type QuickstartResult struct {
	Dir               string              `json:"dir"`
	Home              string              `json:"home"`
	Project           string              `json:"project"`
	MemoryDir         string              `json:"memory_dir"`
	Saved             []string            `json:"saved"`
	Index             memdir.Loaded       `json:"index"`
	Transcripts       []string            `json:"transcripts"`
	Pending           []PendingDay        `json:"pending"`
	Extracted         string              `json:"extracted_day"`
	Recalls           []RecallReport      `json:"recalls"`
	ExtractedMemories []string            `json:"extracted_memories"`
	Synthesis         QuickstartSynthesis `json:"synthesis"`
	Dream             QuickstartDream     `json:"dream"`
	Diary             QuickstartDiary     `json:"diary"`
	Patterns          QuickstartPatterns  `json:"patterns"`
}

// QuickstartSynthesis is what the quickstart's synthesis wrote: the daily
// summaries, and the skill's one-line result.
type QuickstartSynthesis struct {
	DailyFiles []string `json:"daily_files"`
	Line       string   `json:"line"`
}

// QuickstartOptions tunes Quickstart.
type QuickstartOptions struct {
	Holder string    // who takes the locks, for "locked by …"
	Now    time.Time // zero: the time
	Report Report
	// Say gets the narrative, a format and its arguments at a time; nil
	// says nothing (--json).
	Say func(format string, args ...any)
}

// Quickstart runs memdir end to end in the sandbox sb, offline, through
// the use cases every front end calls: it saves the example memories,
// shows MEMORY.md, writes the example transcripts (yesterday's with Claude
// Code, the day before's with Codex), lists the pending days, extracts
// yesterday's, recalls for a prompt a memory answers and one none does,
// extracts memories from the sessions, recalls one of them, and
// synthesizes the sessions' days into daily summaries, consolidates, and
// drafts a task diary from a session, finds the pattern it shares with
// the example diaries, and applies and reverts it in the project's
// CLAUDE.md (quickstart_diary.go). It tells the steps
// to o.Say as it goes and returns what it did. The caller's own
// environment plays no part: sb.Getenv is the run's.
func Quickstart(ctx context.Context, sb examples.Sandbox, o QuickstartOptions) (QuickstartResult, error) {
	q := &quickstart{ctx: ctx, o: o, sb: sb, env: Env{Getenv: sb.Getenv, Cwd: sb.Project, HomeFlag: sb.Home, ProjectFlag: sb.Project, Holder: o.Holder}}
	q.o.Now = cmp.Or(o.Now, time.Now())
	q.out = QuickstartResult{Dir: sb.Dir, Home: sb.Home, Project: sb.Project, ExtractedMemories: []string{}}
	q.say("memdir quickstart — a throwaway home in %s\n\n", sb.Dir)
	err := q.run()
	return q.out, err
}

// quickstart is one Quickstart run.
type quickstart struct {
	ctx context.Context
	o   QuickstartOptions
	sb  examples.Sandbox
	env Env
	ws  *Workspace
	t   Transcripts
	out QuickstartResult
}

func (q *quickstart) say(format string, args ...any) {
	if q.o.Say != nil {
		q.o.Say(format, args...)
	}
}

// sayLines says text's lines after indent: those naming one of the
// files in only, or all with a nil only.
func (q *quickstart) sayLines(indent, text string, only []string) {
	for line := range strings.Lines(text) {
		if only == nil || slices.ContainsFunc(only, func(f string) bool { return strings.Contains(line, "("+f+")") }) {
			q.say("%s%s", indent, line)
		}
	}
}

// sayText says text's lines after indent, blank lines left blank.
func (q *quickstart) sayText(indent, text string) {
	for line := range strings.Lines(text) {
		if line == "\n" {
			q.say("\n")
			continue
		}
		q.say("%s%s", indent, line)
	}
}

func (q *quickstart) run() error {
	var err error
	if err = q.env.CheckProject(); err != nil {
		return err
	}
	if q.ws, err = Open(q.env, true); err != nil {
		return err
	}
	if q.t, err = q.env.TranscriptsAt(q.ws.Layout); err != nil {
		return err
	}
	for _, step := range []func() error{q.memories, q.transcripts, q.recalls, q.extract, q.synthesize, q.dream, q.diaries} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// memories saves the example memories and shows MEMORY.md.
func (q *quickstart) memories() error {
	st := q.ws.Store
	q.out.MemoryDir = q.ws.Layout.MemoryDir
	q.say("1. Saving example memories into %s\n", q.out.MemoryDir)
	saved, err := examples.SaveMemories(q.ctx, st)
	for _, m := range saved {
		q.out.Saved = append(q.out.Saved, m.File)
		q.say("   %-10s %s\n", m.Type, m.File)
	}
	if err != nil {
		return err
	}
	if q.out.Index, err = st.LoadIndex(q.ctx); err != nil {
		return err
	}
	u := memdir.IndexUsage(q.out.Index.Text)
	q.say("\n2. MEMORY.md as the agent loads it at session start (%d/%d lines, %d/%d characters):\n\n",
		u.Lines, memdir.MaxIndexLines, u.Chars, memdir.MaxIndexChars)
	q.sayLines("   ", q.out.Index.Text, nil)
	return nil
}

// transcripts writes two example sessions, yesterday's with Claude Code
// and the day before's with Codex, where those agents write them, lists
// the pending days and extracts yesterday's.
func (q *quickstart) transcripts() error {
	l := q.ws.Layout
	y := q.o.Now.AddDate(0, 0, -1)
	claudeAt := time.Date(y.Year(), y.Month(), y.Day(), 10, 0, 0, 0, time.Local)
	q.say("\n\n3. Two example session transcripts, as the agents write them:\n")
	written, err := examples.WriteTranscripts(examples.Placement{Home: l.Home, ProjectKey: l.ProjectKey, CodexHome: q.t.Roots.Codex}, q.sb.Project, claudeAt)
	if err != nil {
		return err
	}
	for _, w := range written {
		q.out.Transcripts = append(q.out.Transcripts, w.Path)
		q.say("   %-11s %s\n", w.Agent, w.Path)
	}
	if q.out.Pending, err = q.t.PendingDays(q.ctx, q.o.Report); err != nil {
		return err
	}
	q.say("\n4. memdir transcripts list-pending — days not yet processed:\n\n")
	var b strings.Builder
	WritePending(&b, q.out.Pending, "   ")
	q.say("%s", b.String())
	q.out.Extracted = claudeAt.Format(time.DateOnly)
	q.say("\n5. memdir transcripts extract %s — that day's conversation, tool calls on one line,\n   the hook's injected context left out:\n\n", q.out.Extracted)
	found, err := q.t.ExtractDays(q.ctx, ExtractRequest{Days: []string{q.out.Extracted}}, q.o.Report, func(b []byte) error {
		q.sayText("   ", string(b))
		return nil
	})
	if err != nil {
		return err
	}
	if !found {
		q.say("   No pending transcript content for %s ('memdir transcripts list-pending' shows the pending days).\n", q.out.Extracted)
	}
	return nil
}

// recall runs lexical recall for prompt, as 'memdir recall' does.
func (q *quickstart) recall(prompt string) (RecallReport, error) {
	rec, err := q.ws.Recall(q.ctx, Query{Text: prompt, Policy: recall.DefaultPolicy})
	for _, w := range rec.Warnings {
		q.o.Report.warnf("%s", w)
	}
	r := rec.Report(prompt, false)
	q.out.Recalls = append(q.out.Recalls, r)
	return r, err
}

// recalls recalls for two prompts: one a memory answers, one none does.
func (q *quickstart) recalls() error {
	for i, prompt := range []string{"should the integration tests mock PostgreSQL?", "what's a good name for a cat?"} {
		q.say("\n%d. memdir recall %q — what a hook would inject:\n\n", 6+i, prompt)
		r, err := q.recall(prompt)
		if err != nil {
			return err
		}
		if r.Injected == "" {
			q.say("   (nothing: no memory covers enough of this prompt, so nothing is injected)\n")
			continue
		}
		q.sayLines("   ", r.Injected, nil)
	}
	return nil
}

// extract turns the example sessions' durable statements into memories,
// and recalls one of them.
func (q *quickstart) extract() error {
	q.say("\n8. memdir extract — the heuristic engine reads what the user said in the example sessions:\n\n")
	res, err := q.t.ExtractMemories(q.ctx, q.env, ExtractOptions{Transcripts: q.out.Transcripts, Warn: func(err error) {
		q.o.Report.warnf("%v; %s", err, HintFor(err))
	}})
	if err != nil {
		return err
	}
	for _, r := range res.Reports {
		q.out.ExtractedMemories = append(q.out.ExtractedMemories, r.Saved...)
	}
	q.say("   Saved %d memories: %s\n", len(q.out.ExtractedMemories), strings.Join(q.out.ExtractedMemories, ", "))
	if idx, err := q.ws.Store.LoadIndex(q.ctx); err == nil {
		q.say("   Their lines in MEMORY.md:\n")
		q.sayLines("     ", idx.Text, q.out.ExtractedMemories)
	}
	prompt := "does the cache loader need a context on every call?"
	r, err := q.recall(prompt)
	if err != nil {
		return err
	}
	q.say("\n9. memdir recall %q — the extracted memory comes back:\n\n", prompt)
	q.sayLines("   ", r.Injected, nil)
	return nil
}

// synthesize summarises the example sessions' days (both before today)
// into daily summaries with the heuristic engine, and shows them.
func (q *quickstart) synthesize() error {
	res, err := q.t.Synthesize(q.ctx, q.env, SynthesizeOptions{Now: q.o.Now}, q.o.Report)
	if err != nil {
		return err
	}
	q.out.Synthesis = QuickstartSynthesis{DailyFiles: []string{}, Line: res.Line()}
	q.say("\n10. memdir synthesize — each day's sessions become a daily summary, its learnings long-term memory:\n")
	for _, d := range res.Days {
		if d.Error != "" {
			return fmt.Errorf("synthesize %s: %s", d.Date, d.Error)
		}
		text, _, err := q.t.Folder.ReadText(synthesis.DailyFile(d.Date))
		if err != nil {
			return err
		}
		q.out.Synthesis.DailyFiles = append(q.out.Synthesis.DailyFiles, d.File)
		q.say("\n   %s:\n\n", d.File)
		q.sayText("     ", text)
	}
	q.say("\n   %s\n", res.Line())
	return nil
}
