package workspace

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/patterns"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/safefile"
	"github.com/memdir/memdir/internal/synthesis"
)

// ApplyOptions choose what `memdir patterns --apply` writes: the patterns
// are found again with PatternsOptions, then the proposals of Kinds
// (default rule and memory) of the patterns IDs are written.
type ApplyOptions struct {
	PatternsOptions
	IDs    []string
	Kinds  []string // rule, command, memory
	DryRun bool     // say what would be written; write nothing
	// Rule words the rule (and the memory, and the command's description)
	// of the one pattern applied, in place of memdir's wording: the agent's,
	// through the plugin's skill, or a person's.
	Rule string
}

// DefaultApplyKinds are what --apply writes without --kind.
var DefaultApplyKinds = []string{patterns.KindRule, patterns.KindMemory}

// AppliedItem is one proposal written (or, in a dry run, to write).
type AppliedItem struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Path  string `json:"path"` // a file, or a memory's name
	Title string `json:"title"`
	Diff  string `json:"diff,omitempty"` // CLAUDE.md's diff, for a rule
	// Created: the file did not exist before.
	Created bool `json:"created,omitempty"`
}

// ApplyReport is what --apply did.
type ApplyReport struct {
	DryRun  bool          `json:"dry_run,omitempty"`
	Applied []AppliedItem `json:"applied"`
	Skipped []string      `json:"skipped,omitempty"` // why a chosen kind was not written
	Backup  string        `json:"backup,omitempty"`  // CLAUDE.md's copy, before
}

// PatternsApply writes the chosen proposals of current patterns (not
// candidates; a pattern in conflict is refused, naming the conflict):
// a rule into the memdir block of the project's CLAUDE.md (backed up
// first to the synthesis folder's backups; created when missing), a
// command to .claude/commands/<name>.md (never over a file memdir did not
// write), a memory saved as feedback with the pattern as its source. What
// was written is recorded, for PatternsRevert. Nothing is written without
// IDs, and nothing at all when one of them is refused.
func (d *Diaries) PatternsApply(ctx context.Context, o ApplyOptions, now time.Time) (rep ApplyReport, err error) {
	rep = ApplyReport{DryRun: o.DryRun}
	if len(o.IDs) == 0 {
		return rep, hint.With(errors.New("no pattern chosen"), "name the patterns to apply: 'memdir patterns' lists them with their ids")
	}
	kinds, err := applyKinds(o.Kinds)
	if err != nil {
		return rep, err
	}
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return rep, err
	}
	defer unlock()
	o.applying = true
	found, err := d.patterns(ctx, o.PatternsOptions, o.DryRun, now)
	if err != nil {
		return rep, err
	}
	if o.Engine == PatternsAgent && (found.Agent == nil || !found.Agent.Answered) {
		// The diaries changed since the agent's grouping (or it never
		// gave one): its patterns are not the ones shown.
		return rep, hint.With(errors.New("no grouping from the agent for the diaries as they are now: the patterns shown were made from other lines, or were the offline engine's"),
			"run 'memdir patterns --engine agent' and answer its request again; to apply an offline pattern, leave out --engine agent")
	}
	chosen, err := choose(found, o.IDs)
	if err != nil {
		return rep, err
	}
	if o.Rule != "" {
		rule, err := checkRule(o.Rule, len(chosen))
		if err != nil {
			return rep, err
		}
		chosen[0].Proposals = patterns.ProposeWith(chosen[0], rule)
	}
	plan, err := d.planApply(found.Records, chosen, kinds, &rep)
	if err != nil {
		return rep, err
	}
	if o.DryRun {
		return rep, nil
	}
	records := found.Records
	defer func() {
		// What was written is recorded, even when a later step failed.
		if serr := d.saveRecords(records); err == nil && serr != nil {
			err = hint.With(serr, "what was applied is written but not recorded: 'memdir patterns --revert' still removes the rules (it reads CLAUDE.md's block)")
		}
	}()
	return rep, d.writePlan(ctx, plan, &rep, &records, now)
}

func applyKinds(given []string) ([]string, error) {
	if len(given) == 0 {
		return DefaultApplyKinds, nil
	}
	for _, k := range given {
		switch k {
		case patterns.KindRule, patterns.KindCommand, patterns.KindMemory:
		case patterns.KindTest:
			return nil, hint.With(errors.New("a test idea is not written: memdir prints it for you to write the test"), "use --kind rule, command or memory")
		default:
			return nil, hint.With(fmt.Errorf("unknown kind %q", k), "use --kind rule, command or memory (comma-separated)")
		}
	}
	return given, nil
}

// choose finds each id among the current patterns, refusing a candidate,
// an unknown id and a pattern in conflict.
func choose(rep PatternsReport, ids []string) ([]patterns.Pattern, error) {
	var out []patterns.Pattern
	for _, id := range ids {
		i := slices.IndexFunc(rep.Patterns, func(v PatternView) bool { return v.ID == id })
		if i < 0 {
			if c := slices.IndexFunc(rep.Candidates, func(p patterns.Pattern) bool { return p.ID == id }); c >= 0 {
				return nil, hint.With(fmt.Errorf("%s is a candidate, seen in %d tasks (a pattern needs %d): nothing is proposed for it", id, len(rep.Candidates[c].Tasks), rep.MinTasks),
					"wait until it recurs, or lower --min-tasks if you are sure")
			}
			return nil, hint.With(fmt.Errorf("no pattern %s in the diaries read", id), "'memdir patterns' lists the current patterns and their ids (with the same --project, --all, --since)")
		}
		p := rep.Patterns[i].Pattern
		if p.Conflict != "" {
			return nil, hint.With(fmt.Errorf("%s conflicts with %s: one asks to do what the other asks to avoid", id, p.Conflict),
				"settle it in the diaries (edit the lines that are wrong), then run 'memdir patterns' again")
		}
		if !slices.ContainsFunc(out, func(q patterns.Pattern) bool { return q.ID == id }) {
			out = append(out, p)
		}
	}
	return out, nil
}

// applyPlan is what an apply writes, all checked before any write.
type applyPlan struct {
	claudeOld, claudeNew []byte
	claudeCreated        bool
	rules                map[string]string // pattern id → the rule line added
	commands             []commandWrite
	memories             []memoryWrite
	support              map[string]int
}

type commandWrite struct {
	id, path, title string
	content         []byte
	created         bool
}

type memoryWrite struct {
	id   string
	prop patterns.Proposal
}

// planApply checks every write and fills rep's items.
func (d *Diaries) planApply(records []patterns.Record, chosen []patterns.Pattern, kinds []string, rep *ApplyReport) (applyPlan, error) {
	plan := applyPlan{rules: map[string]string{}, support: map[string]int{}}
	var lines []string
	for _, p := range chosen {
		plan.support[p.ID] = len(p.Tasks)
		for _, k := range kinds {
			pr, ok := proposalOf(p, k)
			if !ok {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s has no %s proposal", p.ID, k))
				continue
			}
			switch k {
			case patterns.KindRule:
				lines = append(lines, pr.Content)
				plan.rules[p.ID] = pr.Content
			case patterns.KindCommand:
				cw, err := d.planCommand(records, p.ID, pr)
				if err != nil {
					return plan, err
				}
				if cw == nil {
					rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: %s holds this command already", p.ID, pr.Path))
					continue
				}
				plan.commands = append(plan.commands, *cw)
				rep.Applied = append(rep.Applied, AppliedItem{ID: p.ID, Kind: k, Path: cw.path, Title: pr.Title, Created: cw.created})
			case patterns.KindMemory:
				plan.memories = append(plan.memories, memoryWrite{id: p.ID, prop: pr})
				rep.Applied = append(rep.Applied, AppliedItem{ID: p.ID, Kind: k, Path: pr.Name, Title: pr.Title})
			}
		}
	}
	if len(lines) == 0 {
		return plan, nil
	}
	old, err := d.readClaude()
	if err != nil {
		return plan, hint.With(err, "memdir reads the project's CLAUDE.md to add its rules; make it readable, or apply --kind memory only")
	}
	out, added, err := patterns.AddRules(old, lines)
	if err != nil {
		return plan, hint.With(err, "nothing was written; fix %s, then apply again", d.claudePath())
	}
	plan.claudeOld, plan.claudeNew, plan.claudeCreated = old, out, !d.claudeExists()
	diff := patterns.Diff("CLAUDE.md", old, out)
	for id, line := range plan.rules {
		if !slices.Contains(added, line) {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: its rule is in CLAUDE.md already", id))
			delete(plan.rules, id)
		}
	}
	first := true
	for _, p := range chosen {
		if _, ok := plan.rules[p.ID]; ok {
			it := AppliedItem{ID: p.ID, Kind: patterns.KindRule, Path: d.claudePath(), Title: patterns.Rule(p), Created: plan.claudeCreated}
			if first {
				it.Diff, first = diff, false
			}
			rep.Applied = append(rep.Applied, it)
		}
	}
	slices.SortStableFunc(rep.Applied, func(a, b AppliedItem) int { return strings.Compare(kindOrder(a.Kind), kindOrder(b.Kind)) })
	return plan, nil
}

func kindOrder(k string) string {
	return map[string]string{patterns.KindRule: "1", patterns.KindCommand: "2", patterns.KindMemory: "3"}[k]
}

func proposalOf(p patterns.Pattern, kind string) (patterns.Proposal, bool) {
	for _, pr := range p.Proposals {
		if pr.Kind == kind {
			return pr, true
		}
	}
	return patterns.Proposal{}, false
}

// planCommand checks a command file's write: refused over a file memdir
// did not write (or that changed since); nil when it holds it already.
func (d *Diaries) planCommand(records []patterns.Record, id string, pr patterns.Proposal) (*commandWrite, error) {
	root := filepath.Dir(d.claudePath())
	path := filepath.Join(root, filepath.FromSlash(pr.Path))
	content := []byte(pr.Content)
	cur, err := safefile.ReadFile(path, maxClaudeMD)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &commandWrite{id: id, path: path, title: pr.Title, content: content, created: true}, nil
	case err != nil:
		return nil, err
	case string(cur) == pr.Content:
		return nil, nil
	}
	h := hashOf(cur)
	for _, r := range records {
		for _, a := range r.ActiveApplied() {
			if a.Kind == patterns.KindCommand && a.Path == path && a.Hash == h {
				return &commandWrite{id: id, path: path, title: pr.Title, content: content, created: a.Created}, nil
			}
		}
	}
	return nil, hint.With(fmt.Errorf("%s exists and memdir did not write it: nothing was written", path),
		"rename or remove it if it can go, or apply without command (--kind rule,memory)")
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writePlan writes what planApply checked, recording each write.
func (d *Diaries) writePlan(ctx context.Context, plan applyPlan, rep *ApplyReport, records *[]patterns.Record, now time.Time) error {
	at := now.UTC().Format(time.RFC3339)
	record := func(id string, a patterns.Applied) {
		a.At, a.SupportAt = at, plan.support[id]
		for i := range *records {
			if (*records)[i].ID == id {
				(*records)[i].Applied = append((*records)[i].Applied, a)
				return
			}
		}
	}
	// intend records a file's write before it is made, so that a crash
	// between the two leaves a record revert can act on (a rule not in
	// the block, or a command file gone, is "already gone" to it).
	// unrecord takes back what was recorded when the write failed.
	var unrecord func(id, kind string)
	intend := func(id string, a patterns.Applied) error {
		record(id, a)
		if err := d.saveRecords(*records); err != nil {
			unrecord(id, a.Kind) // nothing written, nothing to record
			return err
		}
		return nil
	}
	unrecord = func(id, kind string) {
		for i := range *records {
			r := &(*records)[i]
			if n := len(r.Applied); r.ID == id && n > 0 && r.Applied[n-1].Kind == kind && r.Applied[n-1].At == at {
				r.Applied = r.Applied[:n-1]
			}
		}
	}
	if len(plan.rules) > 0 {
		backup := ""
		if !plan.claudeCreated {
			var err error
			if backup, err = d.backup(plan.claudeOld, now); err != nil {
				return hint.With(err, "nothing was written; memdir backs CLAUDE.md up before it changes it")
			}
			rep.Backup = backup
		}
		for _, id := range slices.Sorted(maps.Keys(plan.rules)) {
			record(id, patterns.Applied{Kind: patterns.KindRule, Path: d.claudePath(), Created: plan.claudeCreated, Backup: backup})
		}
		if err := d.saveRecords(*records); err != nil {
			for id := range plan.rules {
				unrecord(id, patterns.KindRule)
			}
			return hint.With(err, "nothing was written to CLAUDE.md: memdir records what it applies first")
		}
		if err := d.writeProjectFile(d.claudePath(), plan.claudeNew); err != nil {
			for id := range plan.rules {
				unrecord(id, patterns.KindRule)
			}
			return err
		}
	}
	for _, c := range plan.commands {
		if err := intend(c.id, patterns.Applied{Kind: patterns.KindCommand, Path: c.path, Created: c.created, Hash: hashOf(c.content)}); err != nil {
			return hint.With(err, "%s was not written: memdir records what it applies first", c.path)
		}
		if err := d.writeProjectFile(c.path, c.content); err != nil {
			unrecord(c.id, patterns.KindCommand)
			return err
		}
	}
	if len(plan.memories) == 0 {
		return nil
	}
	ws, err := OpenLayout(d.Env, d.Layout, true)
	if err != nil {
		return err
	}
	for _, m := range plan.memories {
		res, err := ws.Save(ctx, SaveRequest{Type: string(memdir.TypeFeedback), Name: m.prop.Name, Description: m.prop.Title,
			Body: m.prop.Content, Source: "memdir pattern " + m.id})
		if err != nil {
			return err
		}
		record(m.id, patterns.Applied{Kind: patterns.KindMemory, Path: filepath.Join(ws.Layout.MemoryDir, res.File)})
	}
	return nil
}

// backup copies CLAUDE.md's bytes into the synthesis folder's backups.
func (d *Diaries) backup(b []byte, now time.Time) (string, error) {
	base := synthesis.BackupsDir + "/" + now.UTC().Format("20060102T150405Z")
	rel := base + "-CLAUDE.md"
	for i := 2; ; i++ {
		p, err := d.Folder.Path(rel)
		if err != nil {
			return "", err
		}
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			break
		}
		rel = fmt.Sprintf("%s-%d-CLAUDE.md", base, i)
	}
	return rel, d.Folder.WriteFile(rel, b)
}

// writeProjectFile writes a file of the project atomically, keeping its
// mode (a new one is 0644, like a file a person makes).
//
// A link (CLAUDE.md → AGENTS.md, a linked .claude folder) is written
// through, so it stays a link, when what it points to is inside the
// project; memdir refuses to write through one that leaves the project.
func (d *Diaries) writeProjectFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	target, err := d.projectTarget(path)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	return atomicfile.WriteFile(target, b, mode)
}

// projectTarget is the file path names once links are followed: its
// folder resolved, then the file itself when it is a link. The result
// must be inside the project.
func (d *Diaries) projectTarget(path string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	target := filepath.Join(dir, filepath.Base(path))
	if fi, err := os.Lstat(target); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(target); err != nil {
			return "", hint.With(fmt.Errorf("%s is a link memdir cannot follow: %w", path, err), "make it a file, or point it at a file of the project")
		}
	}
	root := d.Layout.WorkTree
	if root == "" {
		root = d.Layout.ProjectRoot
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", hint.With(fmt.Errorf("%s leads out of the project, to %s: memdir does not write there", path, target),
			"make it a file of the project, or apply --kind memory only")
	}
	return target, nil
}

// maxRule bounds a rule worded by hand: one line of CLAUDE.md.
const maxRule = 240

// checkRule checks a rule given with --rule: for one pattern, one line,
// not too long; a secret in it is redacted.
func checkRule(rule string, patternsChosen int) (string, error) {
	switch {
	case patternsChosen != 1:
		return "", hint.With(errors.New("--rule words one pattern's rule"), "apply one pattern at a time with --rule")
	case strings.ContainsAny(rule, "\n\r"):
		return "", hint.With(errors.New("a rule is one line"), "write the rule as one sentence")
	case len(strings.TrimSpace(rule)) < 8:
		return "", hint.With(errors.New("the rule is too short to say anything"), "write the rule as one sentence a newcomer could follow")
	case len(rule) > maxRule:
		return "", hint.With(fmt.Errorf("the rule is %d bytes, over %d", len(rule), maxRule), "shorten it to one sentence")
	case strings.Contains(rule, "<!--") || strings.Contains(rule, "-->"):
		return "", hint.With(errors.New("a rule may not hold an HTML comment: memdir marks its block with them"), "leave the markers out")
	}
	rule, _ = redact.Private(rule)
	rule, _ = redact.String(strings.TrimSpace(rule))
	return rule, nil
}
