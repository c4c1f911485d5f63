package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
)

func TestListAndSearchMemories(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []memdir.Memory{
		{Name: "Zeta reference", Description: "where dashboards are", Type: memdir.TypeReference, Body: "Grafana at grafana.example.\n"},
		{Name: "Alpha feedback", Description: "tests", Type: memdir.TypeFeedback, Body: "Use real databases in tests.\nNever mock them.\n"},
		{Name: "Beta user", Description: "role", Type: memdir.TypeUser, Body: "Backend engineer; writes tests first.\n"},
	} {
		if _, err := ws.Store.Save(context.Background(), m, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	untyped := "---\nname: Loose note\ndescription: no type\n---\nA note about tests.\n"
	if err := os.WriteFile(filepath.Join(l.MemoryDir, "loose-note.md"), []byte(untyped), 0o600); err != nil {
		t.Fatal(err)
	}

	all, problems, err := ListMemories(ws.Store, "")
	if err != nil || len(problems) != 0 {
		t.Fatal(err, problems)
	}
	var order []string
	for _, m := range all {
		order = append(order, string(m.Type)+":"+m.File)
	}
	if got, want := strings.Join(order, " "), "user:beta-user.md feedback:alpha-feedback.md reference:zeta-reference.md :loose-note.md"; got != want {
		t.Errorf("order %q, want %q", got, want)
	}
	if only, _, _ := ListMemories(ws.Store, Untyped); len(only) != 1 || only[0].File != "loose-note.md" {
		t.Errorf("untyped: %+v", only)
	}
	if only, _, _ := ListMemories(ws.Store, "feedback"); len(only) != 1 || only[0].File != "alpha-feedback.md" {
		t.Errorf("feedback: %+v", only)
	}

	m, err := search.NewMatcher(search.Options{Pattern: "TESTS", IgnoreCase: true})
	if err != nil {
		t.Fatal(err)
	}
	hits, files, err := SearchMemories(ws.Store, m, 0, Report{})
	if err != nil {
		t.Fatal(err)
	}
	if files != 4 || len(hits) < 4 {
		t.Fatalf("%d files, hits %+v", files, hits)
	}
	for _, h := range hits {
		if !strings.Contains(strings.ToLower(h.Text), "tests") || h.Path != filepath.Join(l.MemoryDir, h.File) || h.Line < 1 {
			t.Errorf("hit %+v", h)
		}
	}
}

func TestIndexProblem(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ws.Store.CheckIndex()
	if err != nil {
		t.Fatal(err)
	}
	if err := IndexProblem(r); err != nil {
		t.Errorf("an empty folder: %v", err)
	}
	save(t, ws, "Prefers tabs")
	if err := os.Remove(filepath.Join(l.MemoryDir, memdir.IndexFile)); err != nil {
		t.Fatal(err)
	}
	if r, err = ws.Store.CheckIndex(); err != nil {
		t.Fatal(err)
	}
	err = IndexProblem(r)
	if err == nil || err.Error() != "the index needs attention" || !strings.Contains(hint.Of(err), "memdir index --rebuild") {
		t.Errorf("a missing index: %v", err)
	}
}
