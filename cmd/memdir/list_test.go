package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
)

// TestList_SameAsParsingEveryFile: list, which prints from the snapshot
// and streams (issue 13), prints what it printed when it parsed every
// file and held them all: the same lines in the same columns, the same
// --json array, the same warnings.
func TestList_SameAsParsingEveryFile(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	mem := filepath.Join(root, "mem")
	env := map[string]string{"HOME": root, "MEMDIR_MEMORY_DIR": mem}
	memdirRun := func(args ...string) (string, string) {
		t.Helper()
		out, errs, err := runIn(root, project, env, "", args...)
		if err != nil {
			t.Fatalf("memdir %v: %v\n%s", args, err, errs)
		}
		return out, errs
	}
	for _, m := range [][3]string{
		{"project", "Deploy day", "We deploy on Fridays"},
		{"feedback", "Table tests", "Go tests as tables"},
		{"reference", "Grafana board", "Dashboards on grafana.internal/d/api"},
		{"feedback", "Ünïcode näme, longer than the others", "Columns count runes, not bytes"},
		{"user", "Backend engineer", "Writes Go; new to React"},
	} {
		memdirRun("save", "--type", m[0], "--name", m[1], "--description", m[2], "--body", m[2]+".")
	}
	os.WriteFile(filepath.Join(mem, "loose-note.md"), []byte("# A note without frontmatter\n\nbody\n"), 0o600)
	os.WriteFile(filepath.Join(mem, "ñoté-by-hand-with-a-long-name.md"), []byte("---\nname: By hand\ntype: project\n---\nbody\n"), 0o600)
	os.WriteFile(filepath.Join(mem, "broken.md"), []byte("---\nname: [unclosed\n---\nbody"), 0o600)
	os.WriteFile(filepath.Join(mem, "a-first.md"), []byte("---\nname: First by file\ndescription: sorts first among users\ntype: user\n---\nbody\n"), 0o600)

	st, err := memdir.Open(mem, memdir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"", "feedback", "user", workspace.Untyped, "reference"} {
		mems, problems, err := workspace.ListMemories(st, typ)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
		for _, m := range mems {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s — %s\n", cmpOrUntyped(string(m.Type)), m.File, m.Stamp().Local().Format("2006-01-02"), m.Title(), m.Summary())
		}
		tw.Flush()
		if len(mems) == 0 {
			want.WriteString("no memories match\n")
		}
		args := []string{"list"}
		if typ != "" {
			args = append(args, "--type", typ)
		}
		got, errs := memdirRun(args...)
		if got != want.String() {
			t.Errorf("list %q:\n%s\nwant:\n%s", typ, got, want.String())
		}
		if len(problems) != 1 || !strings.Contains(errs, "broken.md") || !strings.Contains(errs, "memdir doctor") {
			t.Errorf("list %q warned %q (problems %v)", typ, errs, problems)
		}

		out := make([]workspace.MemoryJSON, 0, len(mems))
		for _, m := range mems {
			j := workspace.ToJSON(st, m, false)
			j.Scope = memdir.ScopePrivate // every entry says its folder's scope (issue 16)
			out = append(out, j)
		}
		var wantJSON bytes.Buffer
		printJSONTo(&wantJSON, out)
		gotJSON, _ := memdirRun(append([]string{"--json"}, args...)...)
		if gotJSON != wantJSON.String() {
			t.Errorf("list --json %q:\n%s\nwant:\n%s", typ, gotJSON, wantJSON.String())
		}
	}
}

func cmpOrUntyped(t string) string {
	if t == "" {
		return workspace.Untyped
	}
	return t
}
