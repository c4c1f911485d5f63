package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/patterns"
)

// QuickstartDiary is what the quickstart's task diaries step wrote: the
// draft from a session (accepted) and the example diaries.
type QuickstartDiary struct {
	Drafted  string   `json:"drafted"`  // the draft's stem, accepted
	Examples []string `json:"examples"` // the example diaries' stems
}

// QuickstartPatterns is what 'memdir patterns' found across the diaries,
// what --apply wrote and whether --revert gave CLAUDE.md back.
type QuickstartPatterns struct {
	Found    []string `json:"found"`    // pattern ids
	Tasks    int      `json:"tasks"`    // distinct tasks of the first
	Applied  []string `json:"applied"`  // kind: path, as --apply wrote them
	Restored bool     `json:"restored"` // CLAUDE.md back byte for byte
}

// diaries drafts a task diary from an example session where an
// integration test fails on a missing table until the migrations run,
// accepts it, saves the diaries of earlier tasks, and shows the pattern
// they share, applied to CLAUDE.md and reverted.
func (q *quickstart) diaries() error {
	d, err := OpenDiaries(q.env)
	if err != nil {
		return err
	}
	if err := q.draftDiary(d); err != nil {
		return err
	}
	if err := q.exampleDiaries(d); err != nil {
		return err
	}
	return q.patterns(d)
}

// draftDiary writes the example session, drafts its diary, shows it and
// accepts it.
func (q *quickstart) draftDiary(d *Diaries) error {
	w, err := examples.WriteDiaryTranscript(filepath.Join(q.sb.Dir, "sessions"), q.sb.Project, q.o.Now.Add(-2*time.Hour))
	if err != nil {
		return err
	}
	res, _, err := d.Draft(q.ctx, DraftSource{Transcript: w.Path}, q.o.Now)
	if err != nil {
		return err
	}
	if res.Stem == "" {
		return fmt.Errorf("diary draft: %s", res.Nothing)
	}
	info, err := d.Show(res.Stem)
	if err != nil {
		return err
	}
	q.say("\n12. memdir diary draft --transcript %s\n    A task diary drafted from a finished Claude Code session, where an integration test failed\n    on a missing table until `make migrate` ran: what failed, the error, what passed.\n\n", w.Path)
	q.say("   ## Task: %s   (status: %s)\n", info.Entry.Task, info.Entry.Status)
	for _, k := range []diary.Kind{diary.Worked, diary.Mistakes, diary.Errors} {
		for _, it := range info.Entry.Items(k) {
			q.say("   %-14s %s\n", k.Title()+":", it)
		}
	}
	q.say("   ('memdir diary show %s' prints all of it)\n", res.Stem)
	accepted, err := d.Accept(q.ctx, []string{res.Stem})
	if err != nil {
		return err
	}
	if len(accepted) != 1 {
		return fmt.Errorf("diary accept %s: not accepted", res.Stem)
	}
	q.out.Diary.Drafted = res.Stem
	q.say("\n   memdir diary accept %s — patterns read accepted diaries only.\n", res.Stem)
	return nil
}

// exampleDiaries saves the diaries of the project's earlier tasks.
func (q *quickstart) exampleDiaries(d *Diaries) error {
	entries, err := examples.Diaries(q.o.Now)
	if err != nil {
		return err
	}
	q.out.Diary.Examples = []string{}
	for _, e := range entries {
		w, err := d.Write(q.ctx, e, "", q.o.Now)
		if err != nil {
			return err
		}
		q.out.Diary.Examples = append(q.out.Diary.Examples, w.Stem)
	}
	q.say("   memdir diary add — diaries of %d earlier tasks of the project, as an agent writes them:\n", len(entries))
	for _, e := range entries {
		q.say("     %s  %s\n", e.Date, e.Task)
	}
	return nil
}

// patterns finds the pattern, applies it to the project's CLAUDE.md and
// reverts it, checking the file is back byte for byte.
func (q *quickstart) patterns(d *Diaries) error {
	claude, err := q.sb.WriteClaudeMD()
	if err != nil {
		return err
	}
	before, err := os.ReadFile(claude)
	if err != nil {
		return err
	}
	rep, err := d.Patterns(q.ctx, PatternsOptions{}, q.o.Now)
	if err != nil {
		return err
	}
	if len(rep.Patterns) == 0 {
		return fmt.Errorf("patterns: no pattern found in the example diaries")
	}
	q.out.Patterns = QuickstartPatterns{Found: []string{}, Applied: []string{}, Tasks: len(rep.Patterns[0].Tasks)}
	for _, p := range rep.Patterns {
		q.out.Patterns.Found = append(q.out.Patterns.Found, p.ID)
	}
	q.say("\n   memdir patterns — a lesson in 3 or more tasks is a pattern, proposed as a rule; the pink button stays a one-off:\n\n")
	var b strings.Builder
	if err := WritePatterns(&b, rep); err != nil {
		return err
	}
	q.sayText("   ", b.String())
	q.say("   The offline engine groups lessons said in shared words; 'memdir patterns --engine agent' (the\n" +
		"   /memdir:patterns skill) has your agent group them by meaning, with memdir counting and checking.\n")
	return q.applyRevert(d, rep.Patterns[0].Pattern, claude, before)
}

// applyRevert applies p's rule and memory, then reverts them.
func (q *quickstart) applyRevert(d *Diaries, p patterns.Pattern, claude string, before []byte) error {
	applied, err := d.PatternsApply(q.ctx, ApplyOptions{IDs: []string{p.ID}}, q.o.Now)
	if err != nil {
		return err
	}
	q.say("\n   memdir patterns --apply %s:\n", p.ID)
	for _, it := range applied.Applied {
		q.out.Patterns.Applied = append(q.out.Patterns.Applied, it.Kind+": "+it.Path)
		switch {
		case it.Kind == patterns.KindRule:
			q.say("     rule   → %s (%d lines added, inside a marked memdir block; a backup kept)\n", it.Path, addedLines(it.Diff))
		default:
			q.say("     %-6s → %s\n", it.Kind, it.Path)
		}
	}
	if _, err := d.PatternsRevert(q.ctx, []string{p.ID}, false, q.o.Now); err != nil {
		return err
	}
	after, err := os.ReadFile(claude)
	if err != nil {
		return err
	}
	if q.out.Patterns.Restored = bytes.Equal(before, after); !q.out.Patterns.Restored {
		return fmt.Errorf("patterns --revert: %s is not back as it was (%d bytes before, %d after)", claude, len(before), len(after))
	}
	q.say("   memdir patterns --revert %s: CLAUDE.md is back byte for byte (%d bytes); the memory stays until 'memdir forget'.\n", p.ID, len(after))
	return nil
}

// addedLines counts a unified diff's added lines.
func addedLines(diff string) int {
	n := 0
	for l := range strings.Lines(diff) {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			n++
		}
	}
	return n
}
