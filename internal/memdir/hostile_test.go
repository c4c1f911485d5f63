package memdir_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// TestSave_HostileFieldsRoundTrip: every field a save writes reads back as
// it was given (one line for the description; invalid UTF-8 as U+FFFD, not
// as YAML's !!binary base64), whatever YAML syntax it looks like.
func TestSave_HostileFieldsRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	values := []string{"x\n---\ny", "x\n...\ny", "x\n---", "---\nx", "x\r\n---\r\ny", "a\n\n---\n\nb", "bad \xff utf8", "nul \x00 x", "del \x7f x", "bom \ufeff x", "ls \u2028 x", "# hash", "a: b", "- dash", "'q'", "\"dq\"", "| pipe", "> gt", "&anchor", "*alias", "!tag", "%pct", "@at", "`bt`", "---", "...", "~", "null", "0x10", "1e3", "2026-01-01", "[a, b]", "{a: b}", "?", "  lead", "tab\tx", "\x1b[31mred"}
	for i, v := range values {
		name := fmt.Sprintf("m%d", i)
		_, err := st.Save(ctx, memdir.Memory{Name: name, Description: v, Type: memdir.TypeUser, Body: "b\n", Source: v, Refs: []string{v}}, memdir.SaveOptions{})
		if err != nil {
			t.Logf("save %q refused: %v", v, err)
			continue
		}
		m, err := st.Get(name)
		if err != nil {
			t.Errorf("%q: saved, then unreadable: %v", v, err)
			continue
		}
		wantDesc, v := memdir.OneLineForTest(strings.ToValidUTF8(v, "\uFFFD")), strings.ToValidUTF8(v, "\uFFFD")
		if m.Description != wantDesc || m.Source != v || len(m.Refs) != 1 || m.Refs[0] != v {
			t.Errorf("saved %q, read back description=%q source=%q refs=%q", v, m.Description, m.Source, m.Refs)
		}
	}
}

// laughs is a small frontmatter whose unknown field "x" nests aliases:
// level i is a list of n aliases of level i-1.
func laughs(depth, n int) string {
	var b strings.Builder
	b.WriteString("---\nname: Laughs\ndescription: d\ntype: user\nx:\n  l0: &l0 lol\n")
	for i := 1; i <= depth; i++ {
		items := make([]string, n)
		for j := range items {
			items[j] = fmt.Sprintf("*l%d", i-1)
		}
		fmt.Fprintf(&b, "  l%d: &l%d [%s]\n", i, i, strings.Join(items, ", "))
	}
	b.WriteString("---\nbody\n")
	return b.String()
}

// TestSave_UpdateKeepsAliasesUnexpanded: updating a memory whose
// frontmatter nests YAML aliases (a field memdir does not know, kept on
// rewrite) does not expand them: a 1 KB "billion laughs" file cost an
// update minutes and gigabytes, under the folder's lock.
func TestSave_UpdateKeepsAliasesUnexpanded(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	src := laughs(9, 9)
	t.Logf("file is %d bytes", len(src))
	if err := os.WriteFile(st.Path("laughs.md"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get("laughs.md"); err != nil {
		t.Fatalf("the file parses: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := st.Save(context.Background(), memdir.Memory{File: "laughs.md", Description: "new"}, memdir.SaveOptions{MustExist: true})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Logf("save: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("updating the description of a 1 KB memory did not finish in 5 s")
	}
	m, err := st.Get("laughs.md")
	b, _ := os.ReadFile(st.Path("laughs.md"))
	if err != nil || m.Description != "new" || !strings.Contains(string(b), "*l8") {
		t.Errorf("after the update: %v %q\n%s", err, m.Description, b)
	}
}

// TestSave_UpdateAnchoredField: a field that carries a YAML anchor used
// elsewhere in the frontmatter can be updated (the anchor stays).
func TestSave_UpdateAnchoredField(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"---\nname: Anch\ndescription: &d old\ntype: user\nsee: *d\n---\nbody\n",
		"---\nname: Anch\ndescription: d\ntype: &t user\nkind: *t\n---\nbody\n",
		"---\nname: Anch\ndescription: d\ntype: user\nrefs: &r [a]\nmore: *r\n---\nbody\n",
	} {
		st := MustOpen(t, t0)
		os.WriteFile(st.Path("anch.md"), []byte(src), 0o600)
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%q: update panicked: %v", src, r)
				}
			}()
			_, err := st.Save(context.Background(), memdir.Memory{File: "anch.md", Description: "new", Type: memdir.TypeProject, Refs: []string{"b"}}, memdir.SaveOptions{MustExist: true})
			b, _ := os.ReadFile(st.Path("anch.md"))
			t.Logf("err=%v\n%s", err, b)
			if err != nil {
				t.Errorf("%q: update refused: %v", src, err)
			}
		}()
	}
}

// TestSave_DescriptionControlChars: NUL and terminal escapes in a
// description become spaces: it is printed by list and loaded into the
// agent's context through MEMORY.md.
func TestSave_DescriptionControlChars(t *testing.T) {
	st := MustOpen(t, t0)
	if _, err := st.Save(context.Background(), memdir.Memory{Name: "Colours", Description: "red \x1b[31malert\x1b[0m and \x00 nul", Type: memdir.TypeUser, Body: "b\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := st.Get("Colours")
	if err != nil || m.Description != "red [31malert [0m and nul" {
		t.Errorf("description %q, %v", m.Description, err)
	}
	if ix, _ := os.ReadFile(st.Path(memdir.IndexFile)); strings.ContainsAny(string(ix), "\x1b\x00") {
		t.Errorf("MEMORY.md holds control characters: %q", ix)
	}
}

// TestSave_UpdateKeepsAliasValues: updating a field whose value an unknown
// field aliases leaves that field's value as it was ("unknown fields are
// kept"): the anchor moves to the alias's place.
func TestSave_UpdateKeepsAliasValues(t *testing.T) {
	st := MustOpen(t, t0)
	os.WriteFile(st.Path("tabs.md"), []byte("---\nname: Prefer tabs\ndescription: &d old\ntype: user\nsee: *d\nalso: *d\n---\nbody\n"), 0o600)
	if _, err := st.Save(context.Background(), memdir.Memory{File: "tabs.md", Description: "new"}, memdir.SaveOptions{MustExist: true}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(st.Path("tabs.md"))
	if !strings.Contains(string(b), "description: new\n") || !strings.Contains(string(b), "see: &d old\n") || !strings.Contains(string(b), "also: *d\n") {
		t.Errorf("after the update:\n%s", b)
	}
}
