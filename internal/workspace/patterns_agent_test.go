package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/patterns"
)

// TestPatterns_AgentEngine walks the plugin skill's path: the first run
// writes a request and lists the offline patterns; a grouping memdir
// cannot use is refused with the reason; a good one becomes patterns
// memdir counts itself, and --apply uses it; a diary written since makes
// a new request, so a grouping is never read against other lines.
func TestPatterns_AgentEngine(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	paraphrases(t, d)
	o := PatternsOptions{Engine: PatternsAgent}

	rep, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Agent == nil || rep.Agent.Answered || rep.Agent.Lines != 4 || rep.Engine != ExtractHeuristic || len(rep.Patterns) != 0 {
		t.Fatalf("first run: %+v agent %+v", rep, rep.Agent)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), rep.Agent.GroupsFile) {
		t.Errorf("the warning does not say where the grouping goes: %q", rep.Warnings)
	}
	req, err := os.ReadFile(rep.Agent.RequestFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{rep.Agent.GroupsFile, patterns.GroupPrompt, "L1 [T1", "L4 [T4", "container clock was Europe/Berlin"} {
		if !strings.Contains(string(req), want) {
			t.Errorf("the request lacks %q:\n%s", want, req)
		}
	}
	if filepath.Dir(rep.Agent.GroupsFile) != filepath.Dir(rep.Agent.RequestFile) || strings.HasPrefix(rep.Agent.GroupsFile, filepath.Join(proj, "")) {
		t.Errorf("files: %s %s", rep.Agent.RequestFile, rep.Agent.GroupsFile)
	}

	for bad, why := range map[string]string{
		`{"groups": [{"lines": ["L9"], "rule": "x"}]}`:                                   `names "L9", which is no line`,
		`{"groups": [{"lines": ["L1", "L2"]}, {"lines": ["L2", "L3"]}]}`:                 "line L2 is in two groups",
		`{"groups": [{"lines": ["L1"], "rule": "a\nb"}]}`:                                "not one line",
		`the lines L1, L2 and L3 say one thing`:                                          "not valid",
		`{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "UTC", "because": "I say"}]}`: "unknown field",
	} {
		if err := os.WriteFile(rep.Agent.GroupsFile, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := d.Patterns(ctx, o, day)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), rep.Agent.GroupsFile) {
			t.Errorf("grouping %q: err %v, want one naming the file and %q", bad, err, why)
		}
	}

	good := `{"groups": [{"lines": ["L1", "L2", "L3"], "rule": "Keep times in UTC and convert to a zone only at the edges."}, {"lines": ["L4"], "rule": "Pink buttons."}]}`
	if err := os.WriteFile(rep.Agent.GroupsFile, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	rep2, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Engine != PatternsAgent || !rep2.Agent.Answered || len(rep2.Patterns) != 1 || len(rep2.Patterns[0].Tasks) != 3 || len(rep2.Warnings) != 0 {
		t.Fatalf("answered run: %+v agent %+v", rep2, rep2.Agent)
	}
	id := rep2.Patterns[0].ID
	if _, err := d.PatternsApply(ctx, ApplyOptions{PatternsOptions: o, IDs: []string{id}, Kinds: []string{patterns.KindRule}}, day); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(proj, "CLAUDE.md"))
	if !strings.Contains(string(b), "- Keep times in UTC and convert to a zone only at the edges. <!-- memdir pattern "+id) {
		t.Errorf("CLAUDE.md:\n%s", b)
	}

	// A fifth diary: the grouping above was made for four lines.
	e := entry("Task number 5", "Report dates came out a day early for Sydney users")
	e.Date = day.AddDate(0, 0, 5).Format(time.DateOnly)
	if _, err := d.Write(ctx, e, diary.SourceHand, day.AddDate(0, 0, 5)); err != nil {
		t.Fatal(err)
	}
	rep3, err := d.Patterns(ctx, o, day)
	if err != nil {
		t.Fatal(err)
	}
	if rep3.Agent.Answered || rep3.Agent.Lines != 5 || rep3.Agent.GroupsFile == rep2.Agent.GroupsFile || rep3.Engine != ExtractHeuristic {
		t.Errorf("after a new diary: %+v", rep3.Agent)
	}
	if _, err := os.Stat(rep2.Agent.GroupsFile); !os.IsNotExist(err) {
		t.Errorf("the grouping the new request supersedes is still there: %v", err)
	}
	// An apply of the pattern shown now refuses: the agent has not
	// answered the new request, and the offline pattern was not shown.
	if _, err := d.PatternsApply(ctx, ApplyOptions{PatternsOptions: o, IDs: []string{id}, Kinds: []string{patterns.KindRule}}, day); err == nil || !strings.Contains(err.Error(), "no grouping from the agent") {
		t.Errorf("apply after a new diary: %v, want it refused", err)
	}
}

// TestPatterns_AgentFilesAgeOut: a new request removes the requests and
// groupings of its own scope it supersedes, whatever their age, and those
// of other scopes (another project, --all, --since) only past 90 days;
// nothing else in the drafts folder.
func TestPatterns_AgentFilesAgeOut(t *testing.T) {
	d, _ := diaryEnv(t)
	paraphrases(t, d)
	dir, err := d.Folder.Path(DraftsDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-100 * 24 * time.Hour)
	files := map[string]bool{ // name → removed
		"patterns-0123456789abcdef.request.md":           true,
		"patterns-01234567-89abcdef01234567.groups.json": true,
		"2026-03-01.md":      false, // a summary draft
		"dream-proj.json":    false,
		"patterns-notes.txt": false,
	}
	for n := range files {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	recent := filepath.Join(dir, "patterns-fedcba98-76543210fedcba98.groups.json") // another scope's, 10 days old
	if err := os.WriteFile(recent, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	tenDays := time.Now().Add(-10 * 24 * time.Hour)
	if err := os.Chtimes(recent, tenDays, tenDays); err != nil {
		t.Fatal(err)
	}
	rep, err := d.Patterns(context.Background(), PatternsOptions{Engine: PatternsAgent}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// A request of this scope from yesterday's diaries: superseded.
	same := filepath.Join(dir, filepath.Base(rep.Agent.GroupsFile)[:len("patterns-01234567-")]+"0000000000000000.groups.json")
	if err := os.WriteFile(same, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(rep.Agent.RequestFile); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Patterns(context.Background(), PatternsOptions{Engine: PatternsAgent}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(same); !os.IsNotExist(err) {
		t.Errorf("a superseded grouping of the same scope is still there: %v", err)
	}
	if _, err := os.Stat(rep.Agent.RequestFile); err != nil {
		t.Errorf("the current request is gone: %v", err)
	}
	for n, removed := range files {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v", n, gone, removed)
		}
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("a recent grouping was removed: %v", err)
	}
}
