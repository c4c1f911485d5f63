package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/patterns"
	"github.com/memdir/memdir/internal/safefile"
	"github.com/memdir/memdir/internal/synthesis"
)

// PatternsOptions choose the diaries `memdir patterns` reads and how.
type PatternsOptions struct {
	MinTasks int    // default patterns.DefaultMinTasks
	Since    string // YYYY-MM-DD, today, yesterday or 30d
	Project  string // default: the current project
	All      bool   // every project's diaries
	// Engine is "" or heuristic (offline), or a model engine (anthropic,
	// openai, claude) that regroups the heuristic engine's lines by meaning
	// and words the rules, or the agent engine (PatternsAgent), where the
	// agent running the plugin's skill is that model; memdir counts the
	// tasks either way.
	Engine string
	// applying: an apply reads the patterns; the agent engine then writes
	// no request, and applies only a grouping the agent gave.
	applying bool
}

// PatternView is a pattern as reported: the engine's, with the CLAUDE.md
// diff its rule would make to the project's file now, what was applied
// from it, and its review flags.
type PatternView struct {
	patterns.Pattern
	// ClaudeDiff is the unified diff of the project's CLAUDE.md that
	// applying its rule would make ("" when the rule is there already or
	// the pattern has no rule).
	ClaudeDiff string             `json:"claude_md_diff,omitempty"`
	Applied    []patterns.Applied `json:"applied,omitempty"`
	Flags      []patterns.Flag    `json:"flags"`
}

// PatternsReport is what a patterns run found.
type PatternsReport struct {
	Project    string              `json:"project,omitempty"` // "" with All
	All        bool                `json:"all,omitempty"`
	Since      string              `json:"since,omitempty"`
	Engine     string              `json:"engine"`
	Diaries    int                 `json:"diaries"`         // accepted diaries read
	Drafts     int                 `json:"drafts_left_out"` // drafts not read
	Bad        []BadDiary          `json:"unreadable,omitempty"`
	Lines      int                 `json:"lines"`
	MinTasks   int                 `json:"min_tasks"`
	ClaudeMD   string              `json:"claude_md"` // the project's CLAUDE.md
	Patterns   []PatternView       `json:"patterns"`
	Candidates []patterns.Pattern  `json:"candidates"`
	Conflicts  []patterns.Conflict `json:"conflicts"`
	// Flags are every review flag, those of records not seen in this run
	// included.
	Flags []patterns.Flag `json:"flags"`
	// Agent is the agent engine's request and grouping files.
	Agent    *AgentRequest     `json:"agent,omitempty"`
	Records  []patterns.Record `json:"-"`
	Warnings []string          `json:"warnings,omitempty"`
}

// Patterns finds what recurs across the accepted diaries the options
// choose (drafts are left out and counted), and reconciles it with the
// records of earlier runs (synthesis PatternsFile, under the folder's
// lock): a pattern keeps its record, and one that stopped recurring, or
// an applied one that keeps recurring, is flagged for review.
func (d *Diaries) Patterns(ctx context.Context, o PatternsOptions, now time.Time) (PatternsReport, error) {
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return PatternsReport{}, err
	}
	defer unlock()
	rep, err := d.patterns(ctx, o, false, now)
	if err != nil || len(rep.Records) == 0 {
		return rep, err
	}
	return rep, d.saveRecords(rep.Records)
}

// CheckMinTasks refuses a --min-tasks below 2 (0 in PatternsOptions
// means the default, but not when a user types it).
func CheckMinTasks(n int) error {
	if n < 2 {
		return hint.With(fmt.Errorf("--min-tasks %d: a pattern is what recurs, in 2 tasks at the least", n),
			"use --min-tasks 3 (the default) or 2; what one task says stays in its diary")
	}
	return nil
}

// patterns is Patterns for a caller holding the lock; it writes nothing
// but a model engine's answer, kept for --apply (not in a dry run).
func (d *Diaries) patterns(ctx context.Context, o PatternsOptions, dryRun bool, now time.Time) (PatternsReport, error) {
	if err := CheckPatternsEngine(o.Engine); err != nil {
		return PatternsReport{}, err
	}
	if o.MinTasks != 0 {
		if err := CheckMinTasks(o.MinTasks); err != nil {
			return PatternsReport{}, err
		}
	}
	rep := PatternsReport{Since: o.Since, All: o.All, Engine: o.Engine, ClaudeMD: d.claudePath()}
	if rep.Engine == "" {
		rep.Engine = "heuristic"
	}
	if !o.All {
		rep.Project = o.Project
		if rep.Project == "" {
			rep.Project = d.Project()
		}
	}
	infos, bad, err := d.List(DiaryFilter{Project: o.Project, All: o.All, Since: o.Since}, now)
	if err != nil {
		return rep, err
	}
	rep.Bad = bad
	var docs []patterns.Doc
	for _, in := range infos {
		if in.Entry.Draft() {
			rep.Drafts++
			continue
		}
		docs = append(docs, patterns.Doc{ID: in.Stem, Entry: in.Entry})
	}
	records, err := d.loadRecords()
	if err != nil {
		return rep, err
	}
	var res patterns.Result
	var warnings []string
	if o.Engine == PatternsAgent {
		scope := rep.Project + "\x00" + fmt.Sprint(o.All) + "\x00" + o.Since
		res, rep.Agent, warnings, err = d.agentFind(scope, docs, patterns.Options{MinTasks: o.MinTasks, Known: patterns.KnownOf(records)}, !o.applying && !dryRun, now)
		if rep.Agent == nil || !rep.Agent.Answered {
			rep.Engine = ExtractHeuristic // its patterns, until the agent answers
		}
	} else {
		res, warnings, err = d.find(ctx, o, docs, patterns.KnownOf(records), dryRun, now)
	}
	rep.Warnings = append(rep.Warnings, warnings...)
	if err != nil {
		return rep, err
	}
	rep.Diaries, rep.Lines, rep.MinTasks = res.Diaries, res.Lines, res.MinTasks
	rep.Candidates, rep.Conflicts = res.Candidates, res.Conflicts
	if rep.Conflicts == nil {
		rep.Conflicts = []patterns.Conflict{}
	}
	if rep.Candidates == nil {
		rep.Candidates = []patterns.Pattern{}
	}
	if len(infos) == 0 && !o.All {
		rep.Warnings = append(rep.Warnings, d.noDiariesOf(rep.Project, now))
	}
	scope := patterns.Scope{Partial: o.Since != ""}
	if !o.All {
		scope.Projects = []string{rep.Project}
	}
	rep.Records, rep.Flags = patterns.Reconcile(records, res, now.In(time.Local).Format(time.DateOnly), scope)
	if rep.Agent != nil && !rep.Agent.Answered {
		// The offline patterns stand in until the agent answers: recorded,
		// their ids and tasks would be taken over by the agent's patterns.
		rep.Records = nil
	}
	claude, err := d.readClaude()
	if err != nil {
		rep.Warnings = append(rep.Warnings, err.Error())
	}
	for _, p := range res.Patterns {
		v := PatternView{Pattern: p}
		for i := range rep.Records {
			if rep.Records[i].ID == p.ID {
				v.Applied = rep.Records[i].ActiveApplied()
			}
		}
		for _, f := range rep.Flags {
			if f.ID == p.ID {
				v.Flags = append(v.Flags, f)
			}
		}
		if err == nil {
			v.ClaudeDiff, rep.Warnings = ruleDiff(claude, p, rep.Warnings)
		}
		rep.Patterns = append(rep.Patterns, v)
	}
	if rep.Patterns == nil {
		rep.Patterns = []PatternView{}
	}
	if rep.Flags == nil {
		rep.Flags = []patterns.Flag{}
	}
	return rep, nil
}

// ruleDiff is the diff of CLAUDE.md that p's rule would make.
func ruleDiff(claude []byte, p patterns.Pattern, warnings []string) (string, []string) {
	line := ruleLine(p)
	if line == "" {
		return "", warnings
	}
	out, _, err := patterns.AddRules(claude, []string{line})
	if err != nil {
		return "", appendNew(warnings, err.Error())
	}
	return patterns.Diff("CLAUDE.md", claude, out), warnings
}

func appendNew(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// ruleLine is the CLAUDE.md line of p's rule proposal, or "".
func ruleLine(p patterns.Pattern) string {
	for _, pr := range p.Proposals {
		if pr.Kind == patterns.KindRule {
			return pr.Content
		}
	}
	return ""
}

// claudePath is the project's CLAUDE.md: in the checkout memdir runs in.
func (d *Diaries) claudePath() string {
	root := d.Layout.WorkTree
	if root == "" {
		root = d.Layout.ProjectRoot
	}
	return filepath.Join(root, "CLAUDE.md")
}

// maxClaudeMD bounds the CLAUDE.md memdir reads and rewrites.
const maxClaudeMD = 4 << 20

// readClaude reads the project's CLAUDE.md; a missing one is empty.
func (d *Diaries) readClaude() ([]byte, error) {
	b, err := safefile.ReadFile(d.claudePath(), maxClaudeMD)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// claudeExists reports whether the project has a CLAUDE.md.
func (d *Diaries) claudeExists() bool {
	_, err := os.Lstat(d.claudePath())
	return err == nil
}

// loadRecords reads the pattern records; a missing file is none.
func (d *Diaries) loadRecords() ([]patterns.Record, error) {
	var rs []patterns.Record
	_, err := d.Folder.ReadJSON(synthesis.PatternsFile, &rs)
	var ce *synthesis.CorruptError
	if errors.As(err, &ce) {
		return nil, hint.With(err, "move the file aside (mv %s %s.bad): memdir then starts its pattern records again, and forgets what it applied", ce.Path, ce.Path)
	}
	return rs, err
}

// saveRecords writes the pattern records. The caller holds the lock.
func (d *Diaries) saveRecords(rs []patterns.Record) error {
	if rs == nil {
		rs = []patterns.Record{}
	}
	return d.Folder.WriteJSON(synthesis.PatternsFile, rs)
}

// noDiariesOf says a project has no diary, and which projects have.
func (d *Diaries) noDiariesOf(project string, now time.Time) string {
	all, _, err := d.List(DiaryFilter{All: true}, now)
	if err != nil || len(all) == 0 {
		return fmt.Sprintf("no diaries of project %s: write one with 'memdir diary add', or draft one with 'memdir diary draft'", project)
	}
	var names []string
	for _, in := range all {
		if !slices.Contains(names, in.Entry.Project) && in.Entry.Project != "" {
			names = append(names, in.Entry.Project)
		}
	}
	slices.Sort(names)
	return fmt.Sprintf("no diaries of project %s; diaries exist of %s (--project NAME, or --all)", project, strings.Join(names, ", "))
}
