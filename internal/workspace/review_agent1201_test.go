package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/patterns"
)

// keyLines writes five diaries whose first and fourth lines name the two
// markers of a private key (neither line is a secret, and the diary write
// redacts neither) around three lines about migrations.
func keyLines(t *testing.T, d *Diaries) []string {
	t.Helper()
	var stems []string
	for i, line := range []string{
		"The deploy key file must start with -----BEGIN OPENSSH PRIVATE KEY----- or ssh refuses it",
		"Forgot to run make migrate before the integration tests",
		"The integration tests failed because make migrate had not run",
		"Pasted key lost its last line -----END OPENSSH PRIVATE KEY----- so ssh said invalid format",
		"Run make migrate before the integration tests",
	} {
		e := entry(fmt.Sprintf("Task number %d", i+1), line)
		e.Date = day.AddDate(0, 0, i).Format(time.DateOnly)
		w, err := d.Write(context.Background(), e, diary.SourceHand, day.AddDate(0, 0, i))
		if err != nil {
			t.Fatal(err)
		}
		stems = append(stems, w.Stem)
	}
	return stems
}

// TestReview1201_RedactionSwallowsRequestLines: agentFind redacts the whole
// request message at once (redact.String(msg)), so the private-key rule,
// whose BEGIN…END match spans newlines, joins a line naming the BEGIN marker
// to a later line naming the END marker and replaces everything between:
// L2, L3 and L4 vanish from the request file, though its header says it
// holds 5 lines and the offline groups still name L2 and L3. The agent
// cannot group lines it never sees (the three migration lessons are lost).
// Each line should be redacted on its own, so every line L1…Ln is in the
// request. (The model engines' find() has the same flaw.)
func TestReview1201_RedactionSwallowsRequestLines(t *testing.T) {
	d, _ := diaryEnv(t)
	keyLines(t, d)
	rep, err := d.Patterns(context.Background(), PatternsOptions{Engine: PatternsAgent}, day)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rep.Agent.RequestFile)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= rep.Agent.Lines; i++ {
		if !regexp.MustCompile(fmt.Sprintf(`(?m)^L%d \[T`, i)).Match(b) {
			t.Errorf("the request says it holds %d lines, but L%d is not in it", rep.Agent.Lines, i)
		}
	}
}

// TestReview1201_SwallowedLineEditKeepsStaleGrouping: the request's hash is
// taken over the redacted message, in which lines between a BEGIN and an
// END private-key marker are gone (see above), so editing such a line (here
// so that it says something else: make migrate wiped production) does not
// make a new request: the old grouping is read against the edited line
// ("a diary added or edited since makes a new request" does not hold). An
// edit of any line should change the request.
func TestReview1201_SwallowedLineEditKeepsStaleGrouping(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	stems := keyLines(t, d)
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(`{"groups": [{"lines": ["L2", "L3", "L5"], "rule": "Run make migrate before the integration tests."}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	orig, _, err := d.Raw(stems[2])
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), "The integration tests failed because make migrate had not run", "The integration tests failed because make migrate wiped the production database", 1)
	if _, changed, err := d.SaveEdit(ctx, stems[2], orig, []byte(edited), filepath.Join(t.TempDir(), "edit.md")); err != nil || !changed {
		t.Fatal(changed, err)
	}
	rep2, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Agent.Answered {
		t.Errorf("a diary line was edited, yet the grouping made before the edit was used (same file %v)", rep2.Agent.GroupsFile == rep.Agent.GroupsFile)
	}
}

// TestReview1201_LongLineEditKeepsStaleGrouping: GroupRequest cuts each line
// at 400 bytes (oneLine(l.Text, 400)) and the hash covers only that, so an
// edit past a long line's 400th byte (here one that takes the lesson back)
// leaves the request's key alone and the old grouping is used against the
// edited line. Help and README promise "a diary added or edited since makes
// a new request": the hash should cover the lines' whole text.
func TestReview1201_LongLineEditKeepsStaleGrouping(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	paraphrases(t, d)
	long := strings.Repeat("Times were shifted by hours because a container clock was not UTC ", 7)
	e := entry("Task number 9", long+"and the fix was to set TZ=UTC")
	e.Date = day.AddDate(0, 0, 6).Format(time.DateOnly)
	w, err := d.Write(ctx, e, diary.SourceHand, day.AddDate(0, 0, 6))
	if err != nil {
		t.Fatal(err)
	}
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(`{"groups": [{"lines": ["L1", "L2", "L3", "L5"], "rule": "Keep times in UTC."}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	orig, _, err := d.Raw(w.Stem)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), "and the fix was to set TZ=UTC", "but none of this mattered: it was a stale cache", 1)
	if _, changed, err := d.SaveEdit(ctx, w.Stem, orig, []byte(edited), filepath.Join(t.TempDir(), "edit.md")); err != nil || !changed {
		t.Fatal(changed, err)
	}
	rep2, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Agent.Answered {
		t.Errorf("the diary was edited, yet the grouping made before the edit was used")
	}
}

// TestReview1201_AnsweredRunDropsOmittedWarning: when the lines do not fit
// the request, only the unanswered run warns that the older lines were left
// out; the answered run, whose patterns ignore those lines, says nothing
// (agentFind returns before the warning is made). The model engines warn
// on every run, the cached answer included. The answered run should warn
// too.
func TestReview1201_AnsweredRunDropsOmittedWarning(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	for i := range 6 {
		var ls []string
		for j := range 25 {
			ls = append(ls, fmt.Sprintf("Diary %d line %d: ", i, j)+strings.Repeat("the integration tests need a migrated database first ", 9))
		}
		e := entry(fmt.Sprintf("Task number %d", i+1), ls...)
		e.Date = day.AddDate(0, 0, i).Format(time.DateOnly)
		if _, err := d.Write(ctx, e, diary.SourceHand, day.AddDate(0, 0, i)); err != nil {
			t.Fatal(err)
		}
	}
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	omitted := rep.Lines - rep.Agent.Lines
	if omitted <= 0 {
		t.Fatalf("setup: nothing omitted (%d lines)", rep.Lines)
	}
	g := fmt.Sprintf(`{"groups": [{"lines": ["L%d", "L%d", "L%d"], "rule": "Migrate the database first."}]}`, omitted+1, omitted+30, omitted+55)
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(g), 0o600); err != nil {
		t.Fatal(err)
	}
	rep2, err := d.Patterns(ctx, o, day)
	if err != nil || !rep2.Agent.Answered {
		t.Fatal(err, rep2.Agent)
	}
	if !strings.Contains(strings.Join(rep2.Warnings, "\n"), "older lines") {
		t.Errorf("%d of %d lines were not in the request, and the answered run does not say so: %q", omitted, rep2.Lines, rep2.Warnings)
	}
}

// TestReview1201_HeuristicRunPollutesRecords: every new request's first run
// shows the offline patterns only provisionally ("until the agent answers"),
// yet Patterns saves them to patterns.json. The agent's pattern inherits
// the provisional record (knownID), and Reconcile folds by union: the
// record keeps the tasks the agent left out (support 4 for a pattern of 3
// tasks) and the last-seen date of a line the agent left out, which hides
// the "not seen for 90 days" review flag the same grouping raises without
// the provisional run. The record of the agent's pattern should describe
// the agent's pattern.
func TestReview1201_HeuristicRunPollutesRecords(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) *Diaries {
		d, _ := diaryEnv(t)
		lessons(t, d, 3, day)
		late := day.AddDate(0, 0, 95)
		e := entry("Port the CLI flags", "Missing table errors in integration tests: `make migrate` had not been run")
		e.Date = late.Format(time.DateOnly)
		if _, err := d.Write(ctx, e, diary.SourceHand, late); err != nil {
			t.Fatal(err)
		}
		return d
	}
	now := day.AddDate(0, 0, 100)
	o := PatternsOptions{Engine: PatternsAgent}
	grouping := []byte(`{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "Run make migrate before the integration tests."}]}`)
	stale := func(rep PatternsReport, id string) bool {
		return slices.ContainsFunc(rep.Flags, func(f patterns.Flag) bool { return f.ID == id && f.Kind == patterns.FlagStale })
	}

	// Without the provisional run: the agent's grouping alone.
	d0 := setup(t)
	probe, err := d0.patterns(ctx, o, false, now) // saves no records
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(probe.Agent.GroupsFile, grouping, 0o600); err != nil {
		t.Fatal(err)
	}
	base, err := d0.Patterns(ctx, o, now)
	if err != nil || len(base.Patterns) != 1 || !stale(base, base.Patterns[0].ID) {
		t.Fatalf("setup: without the provisional run: %v %+v flags %+v", err, base.Patterns, base.Flags)
	}

	// The skill's path: the provisional run, then the answered one.
	d := setup(t)
	rep, err := d.Patterns(ctx, o, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, grouping, 0o600); err != nil {
		t.Fatal(err)
	}
	rep2, err := d.Patterns(ctx, o, now)
	if err != nil || len(rep2.Patterns) != 1 {
		t.Fatal(err, rep2.Patterns)
	}
	p := rep2.Patterns[0]
	rs, err := d.loadRecords()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.ID == p.ID && (r.Support != len(p.Tasks) || r.LastSeen != p.LastSeen) {
			t.Errorf("record of %s: support %d, last seen %s; the agent's pattern: %d tasks, last seen %s", p.ID, r.Support, r.LastSeen, len(p.Tasks), p.LastSeen)
		}
	}
	if !stale(rep2, p.ID) {
		t.Errorf("%s, last seen %s, is not flagged stale on %s (it is without the provisional heuristic run): flags %+v", p.ID, p.LastSeen, now.Format(time.DateOnly), rep2.Flags)
	}
}

// TestReview1201_OtherScopeRequestDeletesCurrentGrouping: a new request
// removes every other key's files older than a week, including the
// grouping of another scope that still matches its diaries. Here the
// project's grouping (written 8 days ago, diaries unchanged) is deleted by
// one run with --since, and the next plain run is back to the heuristic
// engine with a new request: the agent's work is lost although "the
// diaries have moved past" it (the comment's reason) is false. Only files
// whose request no longer matches the diaries (or unanswered old requests)
// should go.
func TestReview1201_OtherScopeRequestDeletesCurrentGrouping(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	paraphrases(t, d)
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(`{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "Keep times in UTC."}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	old := now.Add(-8 * 24 * time.Hour)
	for _, p := range []string{rep.Agent.GroupsFile, rep.Agent.RequestFile} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if rep, err := d.Patterns(ctx, o, now); err != nil || !rep.Agent.Answered {
		t.Fatalf("setup: the grouping is current: %v %+v", err, rep.Agent)
	}
	if _, err := d.Patterns(ctx, PatternsOptions{Engine: PatternsAgent, Since: "2026-03-03"}, now); err != nil {
		t.Fatal(err)
	}
	rep3, err := d.Patterns(ctx, o, now)
	if err != nil {
		t.Fatal(err)
	}
	if !rep3.Agent.Answered {
		t.Errorf("the project's current grouping was deleted by a --since run: %s exists: %v", rep.Agent.GroupsFile, fileExists(rep.Agent.GroupsFile))
	}
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }

// TestReview1201_DryRunApplyWritesAndDeletes: --apply --dry-run is "say what
// would be written; write nothing" (and patterns() says it writes nothing
// in a dry run), but with --engine agent and no grouping yet it writes a
// request file and deletes other requests' files older than a week.
// A dry run should leave the drafts folder as it was.
func TestReview1201_DryRunApplyWritesAndDeletes(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	dir, err := d.Folder.Path(DraftsDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	oldFile := filepath.Join(dir, "patterns-0123456789abcdef.groups.json")
	if err := os.WriteFile(oldFile, []byte(`{"groups": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-10 * 24 * time.Hour)
	if err := os.Chtimes(oldFile, old, old); err != nil {
		t.Fatal(err)
	}
	heur, err := d.patterns(ctx, PatternsOptions{}, true, time.Now())
	if err != nil || len(heur.Patterns) != 1 {
		t.Fatal(err, heur.Patterns)
	}
	// With no grouping from the agent, the apply is refused (it would not
	// apply what was shown); either way it writes nothing.
	_, err = d.PatternsApply(ctx, ApplyOptions{PatternsOptions: PatternsOptions{Engine: PatternsAgent}, IDs: []string{heur.Patterns[0].ID}, DryRun: true}, time.Now())
	if err == nil || !strings.Contains(err.Error(), "no grouping from the agent") {
		t.Errorf("apply with no grouping: %v, want it refused", err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != filepath.Base(oldFile) {
		t.Errorf("a dry run changed the drafts folder: %v (was [%s])", names, filepath.Base(oldFile))
	}
}

// TestReview1201_SkillFallbackCannotApply: the skill says that after three
// refused groupings the agent tells the user and shows the offline
// patterns, and its only apply command is 'memdir patterns --engine agent
// --apply <id>'. That command reads the refused grouping and exits 1, so
// the offline pattern the user picked cannot be applied the way the skill
// says. Either the apply should work, or the skill should give a command
// that does (plain --apply) for that case.
func TestReview1201_SkillFallbackCannotApply(t *testing.T) {
	d, _ := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day)
	if err != nil || len(rep.Patterns) != 1 {
		t.Fatal(err, rep.Patterns)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(`{"groups": [{"lines": ["L1", "L9"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = d.PatternsApply(ctx, ApplyOptions{PatternsOptions: o, IDs: []string{rep.Patterns[0].ID}, Kinds: []string{patterns.KindRule}}, day)
	if err == nil {
		return
	}
	skill, rerr := os.ReadFile(filepath.Join("..", "..", "plugin", "memdir", "skills", "patterns", "SKILL.md"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	s := strings.Join(strings.Fields(string(skill)), " ")
	if strings.Contains(s, "show the offline patterns") && !strings.Contains(s, "`memdir patterns --apply") {
		t.Errorf("the skill's fallback shows the offline patterns, and its apply command fails on them: %v", err)
	}
}

// TestReview1201_ApplyFallsBackToHeuristicSilently: the agent's pattern is
// shown (answered run), then a diary is added (another session's hook, say)
// before the skill runs 'memdir patterns --engine agent --apply ID --rule'.
// The request's hash changed, so the apply finds no grouping, writes a new
// request and applies the heuristic engine's pattern of the same id (the
// offline group inherited the id through the records): another group of
// lines, here 5 tasks where the user was shown 3, and the warning that
// these are the offline patterns is dropped (ApplyReport has no warnings).
// An apply with --engine agent should refuse when the agent has not
// answered the current request, not apply a pattern that was never shown.
func TestReview1201_ApplyFallsBackToHeuristicSilently(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 5, day)
	o := PatternsOptions{Engine: PatternsAgent}
	rep, err := d.Patterns(ctx, o, day.AddDate(0, 0, 10))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(`{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "Run make migrate before the integration tests."}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	shown, err := d.Patterns(ctx, o, day.AddDate(0, 0, 10))
	if err != nil || !shown.Agent.Answered || len(shown.Patterns) != 1 {
		t.Fatal(err, shown.Patterns)
	}
	p := shown.Patterns[0]
	e := entry("Make the checkout button pink", "The spring campaign wanted the checkout button pink")
	e.Date = day.AddDate(0, 0, 8).Format(time.DateOnly)
	if _, err := d.Write(ctx, e, diary.SourceHand, day.AddDate(0, 0, 8)); err != nil {
		t.Fatal(err)
	}
	_, err = d.PatternsApply(ctx, ApplyOptions{PatternsOptions: o, IDs: []string{p.ID}, Kinds: []string{patterns.KindRule},
		Rule: "Run make migrate before the integration tests."}, day.AddDate(0, 0, 10))
	if err != nil {
		return // refused: fine
	}
	b, _ := os.ReadFile(filepath.Join(proj, "CLAUDE.md"))
	want := fmt.Sprintf("<!-- memdir pattern %s, %d tasks -->", p.ID, len(p.Tasks))
	if !strings.Contains(string(b), want) {
		t.Errorf("shown: %s in %d tasks (the agent's grouping); applied something else, without a word:\n%s", p.ID, len(p.Tasks), b)
	}
}
