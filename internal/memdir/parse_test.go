package memdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func readTestdata(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "memories", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestParse_Layouts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want Memory
	}{
		{"cc-metadata.md", Memory{Name: "user-prefers-pnpm", Description: "The user uses pnpm, never npm, in every JavaScript project", Type: TypeFeedback}},
		{"legacy-top.md", Memory{Name: "Release freeze", Description: "No merges after 2026-12-01: the release branch is cut then", Type: TypeProject}},
		{"untyped.md", Memory{}},
		{"crlf.md", Memory{Name: "crlf", Description: "written on windows", Type: TypeUser}},
		{"memdir-full.md", Memory{
			Name: "Prefer table-driven tests", Description: "Write Go tests as tables run with t.Run", Type: TypeFeedback,
			Scope: "team", Created: time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC), Updated: time.Date(2026, 11, 2, 10, 30, 0, 0, time.UTC),
			Source: "session 0b5c3f7e line 42", Trust: TrustUser, Refs: []string{"internal/store/store_test.go", "TestStore_Put"}, Pinned: true,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := Parse(tt.file, readTestdata(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !m.fieldsEqual(tt.want) {
				t.Errorf("Parse() fields mismatch (-want +got):\n%s", cmp.Diff(fieldsOf(tt.want), fieldsOf(m)))
			}
			if m.File != tt.file {
				t.Errorf("File=%q, want %q", m.File, tt.file)
			}
		})
	}
}

// fieldsOf strips the unexported parse state so cmp can diff memories.
func fieldsOf(m Memory) Memory {
	return Memory{Name: m.Name, Description: m.Description, Type: m.Type, Scope: m.Scope, Created: m.Created,
		Updated: m.Updated, Source: m.Source, Trust: m.Trust, Refs: m.Refs, SupersededBy: m.SupersededBy, Pinned: m.Pinned, Stale: m.Stale, Body: m.Body}
}

func TestParse_Body(t *testing.T) {
	t.Parallel()
	m, err := Parse("x.md", []byte("\xef\xbb\xbf---\nname: x\n---\nline 1\n\n---\nnot frontmatter\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "line 1\n\n---\nnot frontmatter\n"; m.Body != want {
		t.Errorf("Body=%q, want %q", m.Body, want)
	}
	m, _ = Parse("untyped.md", readTestdata(t, "untyped.md"))
	if got, want := m.Summary(), "Notes on the staging cluster"; got != want {
		t.Errorf("Summary()=%q, want %q (first body line without #)", got, want)
	}
}

func TestParse_Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"InvalidType", "---\nname: x\ntype: preference\n---\n", 3, `invalid type "preference"`},
		{"InvalidTypeInMetadata", "---\nname: x\nmetadata:\n  type: nope\n---\n", 4, `invalid type "nope"`},
		{"NotClosed", "---\nname: x\n", 1, "never closed"},
		{"Malformed", "---\nname: x\ndescription: a: b\n---\n", 3, "malformed frontmatter"},
		{"NotMapping", "---\n- a\n- b\n---\n", 2, "not a mapping"},
		{"ListForName", "---\nname: [a, b]\n---\n", 2, "name must be a single value"},
		{"BadDate", "---\ncreated: yesterday\n---\n", 2, "not a date"},
		{"BadPinned", "---\npinned: maybe\n---\n", 2, "pinned must be true or false"},
		{"BadScope", "---\nscope: world\n---\n", 2, "invalid scope"},
		{"BadTrust", "---\ntrust: everyone\n---\n", 2, "invalid trust"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.md", []byte(tt.in))
			var fe *FrontmatterError
			if !errors.As(err, &fe) {
				t.Fatalf("Parse()=%v, want a *FrontmatterError", err)
			}
			if fe.Line != tt.line || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Parse()=%q (line %d), want line %d and %q", err, fe.Line, tt.line, tt.msg)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("errors.Is(%v, ErrInvalid)=false", err)
			}
			if !strings.HasPrefix(err.Error(), "m.md:") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestFormat_Unchanged(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"cc-metadata.md", "legacy-top.md", "untyped.md", "crlf.md", "memdir-full.md"} {
		b := readTestdata(t, f)
		m, err := Parse(f, b)
		if err != nil {
			t.Fatal(err)
		}
		if got := Format(m); string(got) != string(b) {
			t.Errorf("%s: Format(Parse(b)) changed the file:\n%s", f, cmp.Diff(string(b), string(got)))
		}
	}
}

func TestFormat_KeepsUnknownFields(t *testing.T) {
	t.Parallel()
	m, err := Parse("legacy-top.md", readTestdata(t, "legacy-top.md"))
	if err != nil {
		t.Fatal(err)
	}
	m.Description = "No merges after 2026-12-02"
	m.Updated = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)
	got := string(Format(m))
	want := `---
name: Release freeze
description: No merges after 2026-12-02
type: project
# a comment the user wrote
owner: platform-team
tags: [release, process]
updated: 2026-11-22T15:00:00Z
---
Merge freeze starts 2026-12-01.
`
	if got != want {
		t.Errorf("Format() mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestFormat_MetadataLayout(t *testing.T) {
	t.Parallel()
	m, err := Parse("cc-metadata.md", readTestdata(t, "cc-metadata.md"))
	if err != nil {
		t.Fatal(err)
	}
	m.Type = TypeUser
	out := string(Format(m))
	if !strings.Contains(out, "metadata:\n  node_type: memory\n  type: user\n  originSessionId: 0b5c3f7e") {
		t.Errorf("type not updated inside metadata, or metadata fields lost:\n%s", out)
	}
	if strings.Contains(out, "\ntype: user") {
		t.Errorf("a second, top-level type was added:\n%s", out)
	}
	again, err := Parse("cc-metadata.md", []byte(out))
	if err != nil || again.Type != TypeUser {
		t.Errorf("re-parse: type=%q, err=%v", again.Type, err)
	}
}

func TestFormat_New(t *testing.T) {
	t.Parallel()
	m := Memory{
		Name: "yes", Description: "it's: #1", Type: TypeReference, Scope: ScopePrivate,
		Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Updated: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Source: "manual", Trust: TrustUser, Refs: []string{"a/b.go"}, Body: "body\n",
	}
	got := string(Format(m))
	want := `---
name: "yes"
description: 'it''s: #1'
type: reference
scope: private
created: 2026-01-02T03:04:05Z
updated: 2026-01-02T03:04:05Z
source: manual
trust: user
refs:
- a/b.go
---
body
`
	if got != want {
		t.Errorf("Format() mismatch (-want +got):\n%s", cmp.Diff(want, got))
	}
	back, err := Parse("yes.md", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if !back.fieldsEqual(m) || back.Body != m.Body {
		t.Errorf("round trip changed fields:\n%s", cmp.Diff(fieldsOf(m), fieldsOf(back)))
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"Prefer tabs":                     "prefer-tabs",
		"  --Release: freeze!! (Dec) -- ": "release-freeze-dec",
		"user_prefers_pnpm":               "user-prefers-pnpm",
		"../etc/passwd":                   "etc-passwd",
		"Café au lait":                    "caf-au-lait",
		strings.Repeat("a", 100):          strings.Repeat("a", 80),
		"CON":                             "con-note",
		"Lpt1":                            "lpt1-note",
		"console":                         "console",
	}
	for in, want := range tests {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q)=%q, want %q", in, got, want)
		}
	}
	if a, b := Slug("日本語"), Slug("中文"); a == b || !strings.HasPrefix(a, "memory-") {
		t.Errorf("Slug of non-ASCII names: %q, %q; want distinct memory-<hash> names", a, b)
	}
}

// FuzzParse checks that the frontmatter parser never panics and that
// Parse → Format → Parse is stable: the second format reproduces the first.
func FuzzParse(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "memories"))
	for _, e := range entries {
		f.Add(readTestdata(f, e.Name()))
	}
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nname: a\nrefs: b\npinned: yes\n---\nx"))
	f.Add([]byte("---\nmetadata: {type: user, modified: 2026-01-01}\n---\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse("f.md", b)
		if err != nil {
			return
		}
		m.Description = oneLine(m.Description + " x") // force a rewrite of the frontmatter
		out := Format(m)
		m2, err := Parse("f.md", out)
		if err != nil {
			t.Fatalf("Format output does not parse: %v\n%q", err, out)
		}
		if !m2.fieldsEqual(m) {
			t.Fatalf("fields changed across Format:\n%s", cmp.Diff(fieldsOf(m), fieldsOf(m2)))
		}
		if m2.Body != m.Body {
			t.Fatalf("body changed: %q → %q", m.Body, m2.Body)
		}
		if out2 := Format(m2); string(out2) != string(out) {
			t.Fatalf("Format is not stable:\n%s", cmp.Diff(string(out), string(out2)))
		}
	})
}

// TestParse_TabIndented: a block indented with tabs is read as Claude Code
// reads it (tabs to spaces, then again).
func TestParse_TabIndented(t *testing.T) {
	raw := "---\nname: Testing approach\ndescription: real database\nmetadata:\n\ttype: feedback\n\tmodified: 2026-01-02\n---\nNo mocks.\n"
	m, err := Parse("t.md", []byte(raw))
	if err != nil || m.Type != TypeFeedback || m.Name != "Testing approach" {
		t.Fatalf("Parse = %+v, %v", m, err)
	}
}
