package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatternsApply_ThroughALink: a CLAUDE.md that links to AGENTS.md in
// the project stays a link; the rule lands in AGENTS.md and revert gives
// its bytes back. A link that leaves the project is refused.
func TestPatternsApply_ThroughALink(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	agents := filepath.Join(proj, "AGENTS.md")
	orig := []byte("# Agents\n\nUse tabs.\n")
	if err := os.WriteFile(agents, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(proj, "CLAUDE.md")
	if err := os.Symlink("AGENTS.md", claude); err != nil {
		t.Fatal(err)
	}
	lessons(t, d, 3, day)
	rep, err := d.Patterns(ctx, PatternsOptions{}, day)
	if err != nil || len(rep.Patterns) != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	id := rep.Patterns[0].ID
	if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}}, day); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(claude); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("CLAUDE.md is no longer a link: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(agents); !bytes.Contains(b, []byte("memdir pattern "+id)) {
		t.Fatalf("the rule is not in AGENTS.md:\n%s", b)
	}
	if _, err := d.PatternsRevert(ctx, nil, false, day); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(agents); !bytes.Equal(b, orig) {
		t.Errorf("revert gave %q", b)
	}
	if fi, err := os.Lstat(claude); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after revert CLAUDE.md is no longer a link")
	}

	outside := filepath.Join(t.TempDir(), "elsewhere.md")
	if err := os.WriteFile(outside, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(claude)
	if err := os.Symlink(outside, claude); err != nil {
		t.Fatal(err)
	}
	if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{id}}, day); err == nil || !strings.Contains(err.Error(), "leads out of the project") {
		t.Errorf("a link out of the project: %v", err)
	}
	if b, _ := os.ReadFile(outside); !bytes.Equal(b, orig) {
		t.Errorf("the file outside the project changed: %q", b)
	}
}

// TestPatternsRevert_OnlyThisProject: a revert with no id in one project
// leaves what was applied to another.
func TestPatternsRevert_OnlyThisProject(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	rep, err := d.Patterns(ctx, PatternsOptions{}, day)
	if err != nil || len(rep.Patterns) != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := d.PatternsApply(ctx, ApplyOptions{IDs: []string{rep.Patterns[0].ID}, Kinds: []string{"rule"}}, day); err != nil {
		t.Fatal(err)
	}
	d2 := otherProject(t, d, proj)
	if r, err := d2.PatternsRevert(ctx, nil, false, day); err != nil || len(r.Reverted) != 0 {
		t.Fatalf("revert in another project: %+v %v", r, err)
	}
	if b, _ := os.ReadFile(filepath.Join(proj, "CLAUDE.md")); !bytes.Contains(b, []byte("memdir pattern")) {
		t.Errorf("another project's revert took the rule out:\n%s", b)
	}
	if _, err := d2.Patterns(ctx, PatternsOptions{}, day); err != nil {
		t.Fatal(err)
	}
	if r, err := d2.Patterns(ctx, PatternsOptions{}, day); err != nil || len(r.Flags) != 0 {
		t.Errorf("another project's run flags this one's pattern: %+v %v", r.Flags, err)
	}
	if r, err := d2.PatternsRevert(ctx, nil, true, day); err != nil || len(r.Reverted) != 1 {
		t.Errorf("--all reverts it: %+v %v", r, err)
	}
}

func TestPatterns_MinTasksBelowTwo(t *testing.T) {
	d, _ := diaryEnv(t)
	for _, n := range []int{1, -3} {
		if _, err := d.Patterns(context.Background(), PatternsOptions{MinTasks: n}, day); err == nil {
			t.Errorf("--min-tasks %d accepted", n)
		}
	}
}

// TestPatterns_JSONListsNeverNull: an empty run's lists are [] in JSON.
func TestPatterns_JSONListsNeverNull(t *testing.T) {
	d, _ := diaryEnv(t)
	rep, err := d.Patterns(context.Background(), PatternsOptions{}, day)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rep)
	for _, k := range []string{`"patterns":[]`, `"candidates":[]`, `"conflicts":[]`, `"flags":[]`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("no %s in %s", k, b)
		}
	}
}

// TestPatternsRevert_MemoryWhereSaved: a pattern of one project's diaries
// applied from another saves its memory in the other's folder, and only a
// revert there takes it back.
func TestPatternsRevert_MemoryWhereSaved(t *testing.T) {
	d, proj := diaryEnv(t)
	ctx := context.Background()
	lessons(t, d, 3, day)
	d2 := otherProject(t, d, proj)
	o := PatternsOptions{Project: d.Project()}
	rep, err := d2.Patterns(ctx, o, day)
	if err != nil || len(rep.Patterns) != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	if _, err := d2.PatternsApply(ctx, ApplyOptions{PatternsOptions: o, IDs: []string{rep.Patterns[0].ID}, Kinds: []string{"memory"}}, day); err != nil {
		t.Fatal(err)
	}
	if r, err := d.PatternsRevert(ctx, nil, false, day); err != nil || len(r.Reverted) != 0 {
		t.Errorf("the diaries' project took back a memory saved in another's folder: %+v %v", r.Reverted, err)
	}
	if r, err := d2.PatternsRevert(ctx, nil, false, day); err != nil || len(r.Reverted) != 1 || r.Reverted[0].Kind != "memory" {
		t.Errorf("revert where it was saved: %+v %v", r.Reverted, err)
	}
}

// otherProject opens the diaries from a second project beside proj, in
// the same home.
func otherProject(t *testing.T, d *Diaries, proj string) *Diaries {
	t.Helper()
	other := filepath.Join(filepath.Dir(proj), "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	env := d.Env
	env.Cwd = other
	d2, err := OpenDiaries(env)
	if err != nil {
		t.Fatal(err)
	}
	return d2
}
