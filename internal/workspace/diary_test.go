package workspace

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/patterns"
)

// diaryEnv is a home and a project folder in t.TempDir.
func diaryEnv(t *testing.T) (*Diaries, string) {
	t.Helper()
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := Env{Getenv: func(k string) string {
		switch k {
		case "HOME":
			return home
		case "MEMDIR_HOME":
			return filepath.Join(home, ".claude")
		}
		return ""
	}, Cwd: proj}
	d, err := OpenDiaries(env)
	if err != nil {
		t.Fatal(err)
	}
	return d, proj
}

var day = time.Date(2026, 3, 2, 12, 0, 0, 0, time.Local)

func entry(task string, mistakes ...string) diary.Entry {
	e := diary.Entry{Task: task, Outcome: diary.OutcomeSuccess}
	e.Add(diary.Mistakes, mistakes...)
	return e
}

func TestDiaryWrite_FillsRedactsNumbers(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	e := entry("Fix the login test", "pasted AKIAIOSFODNN7EXAMPLE into the config")
	w, err := d.Write(ctx, e, diary.SourceHand, day)
	if err != nil {
		t.Fatal(err)
	}
	if w.Stem != "2026-03-02-fix-the-login-test" || len(w.Redacted) == 0 || w.Draft {
		t.Fatalf("written %+v", w)
	}
	b, _ := os.ReadFile(w.Path)
	if bytes.Contains(b, []byte("AKIAIOSFODNN7EXAMPLE")) || !bytes.Contains(b, []byte("project: proj")) || !bytes.Contains(b, []byte("source: hand")) {
		t.Fatalf("file:\n%s", b)
	}
	w2, err := d.Write(ctx, e, diary.SourceHand, day)
	if err != nil || w2.Stem != w.Stem+"-2" {
		t.Fatalf("second write %+v, %v", w2, err)
	}
	// An invalid entry lists every problem and writes nothing.
	_, err = d.Write(ctx, diary.Entry{Date: "2026-13-40"}, "", day)
	var ve *diary.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) < 3 {
		t.Fatalf("invalid entry: %v", err)
	}
	infos, bad, err := d.List(DiaryFilter{}, day)
	if err != nil || len(infos) != 2 || len(bad) != 0 {
		t.Fatalf("list %d %v %v", len(infos), bad, err)
	}
	// Another project's diary is listed with All only; a damaged file is
	// listed as bad.
	o := entry("Other thing", "a mistake")
	o.Project = "elsewhere"
	if _, err := d.Write(ctx, o, "", day); err != nil {
		t.Fatal(err)
	}
	if err := d.Folder.WriteDiary("2026-03-01-broken", []byte("---\nproject: [\n---\n")); err != nil {
		t.Fatal(err)
	}
	infos, bad, _ = d.List(DiaryFilter{All: true}, day)
	if len(infos) != 3 || len(bad) != 1 || bad[0].Stem != "2026-03-01-broken" {
		t.Fatalf("list --all: %d, bad %v", len(infos), bad)
	}
	infos, _, _ = d.List(DiaryFilter{Since: "2026-03-03"}, day)
	if len(infos) != 0 {
		t.Fatalf("since: %d", len(infos))
	}
}

func TestDiaryAcceptRemoveEdit(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	e := entry("Draft me", "a mistake")
	e.Status = diary.StatusDraft
	w, err := d.Write(ctx, e, diary.SourceTranscript, day)
	if err != nil || !w.Draft {
		t.Fatalf("%+v %v", w, err)
	}
	drafts, _, _ := d.List(DiaryFilter{Drafts: true}, day)
	if len(drafts) != 1 {
		t.Fatalf("drafts %d", len(drafts))
	}
	acc, err := d.Accept(ctx, []string{w.Stem})
	if err != nil || len(acc) != 1 {
		t.Fatalf("accept %v %v", acc, err)
	}
	info, _ := d.Show(w.Stem)
	if info.Entry.Draft() {
		t.Fatal("still a draft")
	}
	// An invalid edit is refused and the file keeps its bytes.
	orig, _, _ := d.Raw(w.Stem)
	_, _, err = d.SaveEdit(ctx, w.Stem, orig, []byte("---\ndate: nope\n---\n## Task: x\n"), "/tmp/draft.md")
	if err == nil || !strings.Contains(err.Error(), "date") {
		t.Fatalf("invalid edit: %v", err)
	}
	if now, _, _ := d.Raw(w.Stem); !bytes.Equal(now, orig) {
		t.Fatal("an invalid edit changed the file")
	}
	edited := bytes.Replace(orig, []byte("a mistake"), []byte("a better mistake"), 1)
	if _, changed, err := d.SaveEdit(ctx, w.Stem, orig, edited, "/tmp/draft.md"); err != nil || !changed {
		t.Fatalf("edit: %v", err)
	}
	if _, err := d.Remove(ctx, []string{w.Stem}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Show(w.Stem); err == nil {
		t.Fatal("removed diary still shows")
	}
}

// TestDiaryWrite_RefusesFutureDates: a date more than a day after now is
// refused (a day of slack for clocks and zones), listed with the entry's
// other problems, and nothing is written.
func TestDiaryWrite_RefusesFutureDates(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	e := entry("Tomorrow is fine", "a mistake")
	e.Date = day.AddDate(0, 0, 1).Format(time.DateOnly)
	if _, err := d.Write(ctx, e, "", day); err != nil {
		t.Fatalf("a day ahead: %v", err)
	}
	e = entry("The day after is not", "a mistake")
	e.Date = day.AddDate(0, 0, 2).Format(time.DateOnly)
	_, err := d.Write(ctx, e, "", day)
	var ve *diary.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 || !strings.Contains(err.Error(), "2026-03-04 is in the future") {
		t.Fatalf("two days ahead: %v", err)
	}
	if !strings.Contains(hint.Of(err), "fix every problem") {
		t.Errorf("no hint: %q", hint.Of(err))
	}
	e.Outcome = "great"
	if !errors.As(func() error { _, err := d.Write(ctx, e, "", day); return err }(), &ve) || len(ve.Problems) != 2 {
		t.Errorf("with another problem: %+v", ve)
	}
	if infos, _, _ := d.List(DiaryFilter{All: true}, day); len(infos) != 1 {
		t.Errorf("%d diaries written, want 1", len(infos))
	}
}

// lessons writes n accepted diaries that share a lesson.
func lessons(t *testing.T, d *Diaries, n int, start time.Time) {
	t.Helper()
	tasks := []string{"Add the billing export", "Fix the flaky upload test", "Rename the user table", "Speed up the search page", "Port the CLI flags"}
	lines := []string{
		"Forgot to run `make migrate` before the integration tests, they failed with a missing table",
		"The integration tests failed again because I did not run `make migrate` first",
		"Run `make migrate` before running the integration tests or the tables are missing",
		"Missing table errors in integration tests: `make migrate` had not been run",
		"Integration tests need `make migrate` first, otherwise missing table",
	}
	for i := range n {
		e := entry(tasks[i], lines[i])
		e.Date = start.AddDate(0, 0, i).Format(time.DateOnly)
		if _, err := d.Write(context.Background(), e, diary.SourceHand, start.AddDate(0, 0, i)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPatternsApplyRevert_RestoresClaudeMD(t *testing.T) {
	for _, c := range []struct {
		name string
		orig []byte // nil: no CLAUDE.md
	}{
		{"no final newline", []byte("# Project\n\nUse tabs.")},
		{"final newline", []byte("# Project\n\nUse tabs.\n")},
		{"missing", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, proj := diaryEnv(t)
			ctx := context.Background()
			claude := filepath.Join(proj, "CLAUDE.md")
			if c.orig != nil {
				if err := os.WriteFile(claude, c.orig, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			lessons(t, d, 3, day)
			rep, err := d.Patterns(ctx, PatternsOptions{}, day)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Patterns) != 1 || len(rep.Patterns[0].Tasks) != 3 || rep.Patterns[0].ClaudeDiff == "" {
				t.Fatalf("patterns: %+v", rep)
			}
			id := rep.Patterns[0].ID
			ar, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}}, day)
			if err != nil {
				t.Fatal(err)
			}
			if len(ar.Applied) != 2 {
				t.Fatalf("applied %+v", ar)
			}
			b, _ := os.ReadFile(claude)
			if rules, err := patterns.BlockRules(b); err != nil || len(rules) != 1 {
				t.Fatalf("CLAUDE.md block %q: %v\n%s", rules, err, b)
			}
			if c.orig != nil && (ar.Backup == "" || !bytes.HasPrefix(b, c.orig)) {
				t.Fatalf("backup %q, file:\n%s", ar.Backup, b)
			}
			if _, err := d.PatternsRevert(ctx, nil, false, day); err != nil {
				t.Fatal(err)
			}
			b, err = os.ReadFile(claude)
			switch {
			case c.orig == nil && !errors.Is(err, os.ErrNotExist):
				t.Fatalf("CLAUDE.md memdir created is still there: %q", b)
			case c.orig != nil && !bytes.Equal(b, c.orig):
				t.Fatalf("revert gave %q, want %q", b, c.orig)
			}
		})
	}
}

func TestPatternsApply_Refusals(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 2, day)
	rep, err := d.Patterns(ctx, PatternsOptions{}, day)
	if err != nil || len(rep.Patterns) != 0 || len(rep.Candidates) != 1 {
		t.Fatalf("two tasks: %+v %v", rep, err)
	}
	if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{rep.Candidates[0].ID}}, day); err == nil || !strings.Contains(err.Error(), "candidate") {
		t.Fatalf("candidate applied: %v", err)
	}
	if _, err := d.PatternsApply(ctx, ApplyOptions{}, day); err == nil {
		t.Fatal("apply without ids")
	}
	// A damaged block: a clear error, nothing written.
	d2, proj2 := diaryEnv(t)
	lessons(t, d2, 3, day)
	damaged := []byte("# P\n<!-- memdir:patterns:begin -->\n- x\n")
	claude := filepath.Join(proj2, "CLAUDE.md")
	os.WriteFile(claude, damaged, 0o644)
	rep, _ = d2.Patterns(ctx, PatternsOptions{}, day)
	_, err = d2.PatternsApply(ctx, ApplyOptions{IDs: []string{rep.Patterns[0].ID}}, day)
	if !errors.Is(err, patterns.ErrBlockDamaged) {
		t.Fatalf("damaged block: %v", err)
	}
	if b, _ := os.ReadFile(claude); !bytes.Equal(b, damaged) {
		t.Fatal("damaged CLAUDE.md changed")
	}
	_ = proj
}

func TestPatterns_FlagsRecurringAfterApply(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	rep, _ := d.Patterns(ctx, PatternsOptions{}, day)
	id := rep.Patterns[0].ID
	if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}, Kinds: []string{"rule"}}, day.AddDate(0, 0, 3)); err != nil {
		t.Fatal(err)
	}
	// Two more tasks after the apply: the rule did not help.
	tasks := []string{"Add the audit log", "Fix the date picker"}
	for i, task := range tasks {
		e := entry(task, "Integration tests failed: missing table, `make migrate` was not run before them")
		e.Date = day.AddDate(0, 0, 10+i).Format(time.DateOnly)
		if _, err := d.Write(ctx, e, "", day.AddDate(0, 0, 10+i)); err != nil {
			t.Fatal(err)
		}
	}
	rep, _ = d.Patterns(ctx, PatternsOptions{}, day.AddDate(0, 0, 12))
	if len(rep.Patterns) != 1 || rep.Patterns[0].ID != id {
		t.Fatalf("patterns %+v", rep.Patterns)
	}
	if f := rep.Patterns[0].Flags; len(f) != 1 || f[0].Kind != patterns.FlagRecurring {
		t.Fatalf("flags %+v", f)
	}
}

// TestDiaryDraft_SessionHasDiaryAndProject: a draft is filed under the
// project the session ran in (and says it is not the current one); a
// second draft of the session is ErrSessionHasDiary unless Force.
func TestDiaryDraft_SessionHasDiaryAndProject(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	p := filepath.Join(proj, "s.jsonl")
	lines := []string{
		`{"type":"user","sessionId":"sess-9","cwd":"/nonexistent-memdir-test/elsewhere","timestamp":"2026-03-01T10:00:00Z","uuid":"u1","message":{"role":"user","content":"Add the billing export"}}`,
		`{"type":"assistant","sessionId":"sess-9","cwd":"/nonexistent-memdir-test/elsewhere","timestamp":"2026-03-01T10:01:00Z","uuid":"a1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./..."}}]}}`,
		`{"type":"user","sessionId":"sess-9","cwd":"/nonexistent-memdir-test/elsewhere","timestamp":"2026-03-01T10:02:00Z","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"FAIL: relation orders does not exist"}]}}`,
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, _, err := d.Draft(ctx, DraftSource{Transcript: p}, day)
	if err != nil || !w.FromTranscript || !w.Draft || w.Project != "elsewhere" || !w.OtherProject {
		t.Fatalf("draft %+v, %v", w, err)
	}
	_, _, err = d.Draft(ctx, DraftSource{Transcript: p}, day)
	if !errors.Is(err, ErrSessionHasDiary) || !strings.Contains(err.Error(), "session sess-9 already has a diary: "+w.Stem) {
		t.Fatalf("second draft: %v", err)
	}
	if w2, _, err := d.Draft(ctx, DraftSource{Transcript: p, Force: true}, day); err != nil || w2.Stem != w.Stem+"-2" {
		t.Fatalf("forced draft %+v, %v", w2, err)
	}
	// Written by hand in the current project: not another project's.
	if w, err := d.Write(ctx, entry("Here", "x"), "", day); err != nil || w.OtherProject || w.FromTranscript {
		t.Fatalf("write %+v, %v", w, err)
	}
}
