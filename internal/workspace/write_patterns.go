package workspace

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/patterns"
)

// WritePatterns prints a patterns run for a person: each pattern with its
// support, proposals and flags; candidates after; conflicts with both
// sides.
func WritePatterns(w io.Writer, r PatternsReport) error {
	ew := &errWriter{w: w}
	scope := "project " + r.Project
	if r.All {
		scope = "every project"
	}
	ew.printf("Patterns in %d %s of %s (%s engine; a pattern needs %d distinct tasks).", r.Diaries, map[bool]string{true: "diary", false: "diaries"}[r.Diaries == 1], scope, r.Engine, r.MinTasks)
	if r.Drafts > 0 {
		ew.printf(" %d %s left out ('memdir diary accept' them).", r.Drafts, plural(r.Drafts, "draft"))
	}
	ew.printf("\n")
	for _, b := range r.Bad {
		ew.printf("unreadable, left out: %s: %s\n", b.Stem, b.Error)
	}
	for _, p := range r.Patterns {
		writePattern(ew, p)
	}
	if len(r.Patterns) == 0 {
		ew.printf("\nNo pattern yet.\n")
	}
	for _, c := range r.Conflicts {
		ew.printf("\nconflict %s / %s: %s\n", c.A, c.B, c.Reason)
		for _, id := range []string{c.A, c.B} {
			if i := slices.IndexFunc(r.Patterns, func(v PatternView) bool { return v.ID == id }); i >= 0 {
				p := r.Patterns[i]
				ew.printf("  %s (%s): %s\n", id, p.Polarity, cutLine(p.Title, 160))
				writeSupport(ew, p.Support, 160)
			}
		}
	}
	if len(r.Candidates) > 0 {
		ew.printf("\nCandidates (not proposed until they recur in %d tasks):\n", r.MinTasks)
		for _, c := range r.Candidates {
			ew.printf("  %s  seen in %d tasks: not proposed  %s\n", c.ID, len(c.Tasks), cutLine(c.Title, 120))
		}
	}
	var other []patterns.Flag
	for _, f := range r.Flags {
		if !slices.ContainsFunc(r.Patterns, func(v PatternView) bool { return v.ID == f.ID }) {
			other = append(other, f)
		}
	}
	if len(other) > 0 {
		ew.printf("\nTo review:\n")
		for _, f := range other {
			ew.printf("  %s [%s] %s\n", f.ID, f.Kind, f.Reason)
		}
	}
	for _, wn := range r.Warnings {
		ew.printf("warning: %s\n", wn)
	}
	if len(r.Patterns) > 0 {
		engine := ""
		if r.Engine == PatternsAgent {
			engine = "--engine agent " // the grouping it read, not the offline one
		}
		ew.printf("\nNothing applied. Apply with 'memdir patterns %s--apply ID' (--kind rule,command,memory).\n", engine)
	}
	return ew.err
}

func writePattern(ew *errWriter, p PatternView) {
	ew.printf("\n%s  %d tasks  %s  %s to %s\n", p.ID, len(p.Tasks), strings.Join(p.Projects, ", "), p.FirstSeen, p.LastSeen)
	ew.printf("  %s\n", cutLine(p.Title, 200))
	writeSupport(ew, p.Support, 200)
	if p.Conflict != "" {
		ew.printf("  in conflict with %s: nothing proposed until it is settled\n", p.Conflict)
	}
	for _, pr := range p.Proposals {
		switch pr.Kind {
		case patterns.KindRule:
			ew.printf("  rule: %s\n", pr.Title)
			if p.ClaudeDiff != "" {
				for l := range strings.SplitSeq(strings.TrimRight(p.ClaudeDiff, "\n"), "\n") {
					ew.printf("    %s\n", l)
				}
			}
		case patterns.KindCommand:
			ew.printf("  command: %s (%s)\n", pr.Title, pr.Path)
		case patterns.KindTest:
			ew.printf("  test idea: %s\n", pr.Title)
		case patterns.KindMemory:
			ew.printf("  memory: %s\n", pr.Name)
		}
	}
	for _, a := range p.Applied {
		ew.printf("  applied %s: %s (%s)\n", a.Kind, a.Path, a.At)
	}
	for _, f := range p.Flags {
		ew.printf("  review [%s]: %s\n", f.Kind, f.Reason)
	}
}

// WriteApply prints what --apply wrote, or would write.
func WriteApply(w io.Writer, r ApplyReport) error {
	ew := &errWriter{w: w}
	verb := "Applied"
	if r.DryRun {
		verb = "Would apply"
	}
	for _, it := range r.Applied {
		ew.printf("%s %s %s: %s", verb, it.ID, it.Kind, it.Path)
		if it.Created {
			ew.printf(" (new file)")
		}
		ew.printf("\n")
		if it.Diff != "" {
			ew.printf("%s", it.Diff)
		}
	}
	for _, s := range r.Skipped {
		ew.printf("skipped: %s\n", s)
	}
	switch {
	case r.DryRun:
		ew.printf("Nothing written (--dry-run).\n")
	case len(r.Applied) == 0:
		ew.printf("Nothing to write.\n")
	default:
		if r.Backup != "" {
			ew.printf("CLAUDE.md was backed up to %s in the synthesis folder.\n", r.Backup)
		}
		ew.printf("Undo with 'memdir patterns --revert ID' (memories stay until 'memdir forget').\n")
	}
	return ew.err
}

// WriteRevert prints what --revert did.
func WriteRevert(w io.Writer, r RevertReport) error {
	ew := &errWriter{w: w}
	if len(r.Reverted) == 0 {
		ew.printf("Nothing applied to revert.\n")
	}
	for _, it := range r.Reverted {
		ew.printf("%s %s %s: %s\n", it.ID, it.Kind, it.Path, it.Done)
	}
	return ew.err
}

// writeSupport quotes one line per task, the first that is not an error
// line (the lesson in the writer's words), and counts the others; --json
// has them all.
func writeSupport(ew *errWriter, support []patterns.Line, width int) {
	var order []string
	by := map[string][]patterns.Line{}
	for _, l := range support {
		if by[l.Diary] == nil {
			order = append(order, l.Diary)
		}
		by[l.Diary] = append(by[l.Diary], l)
	}
	for _, d := range order {
		ls := by[d]
		best := ls[0]
		if i := slices.IndexFunc(ls, func(l patterns.Line) bool { return l.Kind != diary.Errors }); i >= 0 {
			best = ls[i]
		}
		more := ""
		if len(ls) > 1 {
			more = fmt.Sprintf(" (+%d more)", len(ls)-1)
		}
		ew.printf("    %s: %q%s\n", d, cutLine(best.Text, width), more)
	}
}
