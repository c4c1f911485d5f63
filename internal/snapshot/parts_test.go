package snapshot_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// TestFromParts: two folders ranked as one under one policy; the second
// one's memories named with its prefix and marked with its scope; one of
// them edited in place is injected as it is now and noted in its own
// folder's snapshot; one deleted behind the snapshot is not injected.
func TestFromParts(t *testing.T) {
	priv := MustOpenIn(t, filepath.Join(t.TempDir(), "private"))
	team := MustOpenIn(t, filepath.Join(t.TempDir(), "team"))
	a := save(t, priv, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
	b := save(t, team, "Deploy checklist", "Before a deploy on fridays", "Run the smoke tests.")
	old := time.Now().Add(-time.Hour)
	for _, st := range []string{priv.Dir(), team.Dir()} {
		os.Chtimes(st, old, old)
	}
	parts := func() []snapshot.Part {
		ps, _, err := snapshot.Fresh(t.Context(), priv)
		if err != nil {
			t.Fatal(err)
		}
		ts, _, err := snapshot.Fresh(t.Context(), team)
		if err != nil {
			t.Fatal(err)
		}
		return []snapshot.Part{{Store: priv, Snap: ps, Scope: "private"}, {Store: team, Snap: ts, Prefix: "team/", Scope: "team"}}
	}
	root := t.TempDir()
	kept := func(rec snapshot.Recalled) []string {
		var out []string
		for _, c := range rec.Candidates {
			if c.Kept {
				out = append(out, c.Scope+":"+c.File)
			}
		}
		slices.Sort(out)
		return out
	}
	rec, problems := snapshot.FromParts(parts(), root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if want := []string{"private:" + a, "team:team/" + b}; len(problems) > 0 || !slices.Equal(kept(rec), want) {
		t.Fatalf("kept %v, want %v (%v)", kept(rec), want, problems)
	}
	p := recall.DefaultPolicy
	p.Exclude = []string{"team/" + b}
	if rec, _ = snapshot.FromParts(parts(), root, "deploy fridays", p, time.Now()); !slices.Equal(kept(rec), []string{"private:" + a}) {
		t.Fatalf("excluded: kept %v", kept(rec))
	}
	// Edited in place: the folder does not move.
	raw, _ := os.ReadFile(team.Path(b))
	os.WriteFile(team.Path(b), []byte(strings.Replace(string(raw), "Run the smoke tests.", "Run the canary first, always.", 1)), 0o600)
	os.Chtimes(team.Dir(), old, old)
	rec, _ = snapshot.FromParts(parts(), root, "deploy fridays", recall.DefaultPolicy, time.Now())
	if !strings.Contains(rec.Text, "canary") || strings.Contains(rec.Text, "smoke tests") {
		t.Fatalf("after an in-place edit:\n%s", rec.Text)
	}
	if got := search(t, team, "canary"); !slices.Equal(got, []string{b}) {
		t.Errorf("the change seen at injection is not in the team snapshot: search = %v", got)
	}
	// Deleted between the snapshot's read and the selection.
	held := parts()
	os.Remove(team.Path(b))
	if rec, _ = snapshot.FromParts(held, root, "deploy fridays", recall.DefaultPolicy, time.Now()); !slices.Equal(kept(rec), []string{"private:" + a}) {
		t.Fatalf("deleted: kept %v\n%s", kept(rec), rec.Text)
	}
}
