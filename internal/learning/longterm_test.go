package learning

import (
	"errors"
	"strings"
	"testing"
)

// handGlobal is a global file as a person keeps it: free bullets,
// paragraphs, an unknown section, comments, a code fence, an undated
// learning and no trailing blank line before the footer.
const handGlobal = `# Global Long-Term Memory

Some intro paragraph a person wrote.

## About Me
<!-- Who the user is -->
- I am a data engineer at Acme.
  - prefers terse answers

## Current Projects
- granada: claims analytics

## Technical Environment
- macOS, zsh, Go 1.26

## Patterns & Preferences
- **Small commits** [global/decision] (2026-01-10): One logical change per commit
  - Lesson: Keep commits reviewable

## My Own Notes
Free text under a section memdir does not know.
` + "```" + `
## not a heading
- **T** [global/nonsense]: inside a fence, not a learning
` + "```" + `

## Key Learnings
- **Dataiku heap scans** [global/data-quirk] (2026-02-03): No indexes on Dataiku tables
  - Lesson: Use row count knowledge for query planning
- **Old undated thing** [global/command]: run make lint before pushing

## Error Patterns to Avoid
<!-- Subject to 30-day decay -->
- **Permission glob syntax** [global/error] (2026-02-03): Used :* instead of /*
  - Lesson: Use / for path separators in permission globs
  - *Source: 2026-02-03.md*
- a plain bullet, not a learning

## Best Practices
- **PreToolUse hooks** [global/best-practice] (2026-02-01): Subagents don't inherit permissions
  - Lesson: Use PreToolUse hooks with permissionDecision allow
---
*Last synthesized: 2026-02-03*
`

const handProject = `# granada

## Error Patterns to Avoid
- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP
  - Lesson: Always filter Accident_Key != '99' before joins

## Best Practices

## Data Quirks
- **PolicyholderType=1 filter** [granada/data-quirk]: Most rows are renewals
  - Lesson: Filter to PolicyholderType=1 for new business analysis

## Key Decisions

## Useful Commands

---
*Last updated: 2026-02-03*
`

func mustParse(tb testing.TB, kind Kind, name, project, text string) *File {
	tb.Helper()
	f, err := ParseFile(kind, name, project, text)
	if err != nil {
		tb.Fatalf("ParseFile(%s): %v", name, err)
	}
	return f
}

func TestParseFile_RoundTrip(t *testing.T) {
	t.Parallel()
	for _, text := range []string{handGlobal, handProject, "", "\n", "no newline at end", "# X\r\n\r\n## Pinned\r\n- **T** [x/error] (2026-01-01): y\r\n",
		NewGlobal().Format(), NewProject("p").Format()} {
		f := mustParse(t, GlobalFile, "g.md", "", text)
		if got := f.Format(); got != text {
			t.Fatalf("Format(ParseFile(x)) = %q, want %q", got, text)
		}
	}
}

func TestParseFile_Sections(t *testing.T) {
	t.Parallel()
	f := mustParse(t, GlobalFile, GlobalFileName, "", handGlobal)
	if got := f.Learnings(KeyLearnings); len(got) != 2 || got[0].Title != "Dataiku heap scans" || got[0].Line != 28 || got[1].Date != "" {
		t.Fatalf("Learnings(Key Learnings) = %+v", got)
	}
	if got := f.Learnings(ErrorPatterns); len(got) != 1 || got[0].Lesson == "" || len(got[0].Notes) != 1 {
		t.Fatalf("Learnings(Error Patterns) = %+v", got)
	}
	if got := len(f.Learnings("")); got != 5 {
		t.Fatalf("Learnings(\"\") has %d, want 5 (the fenced line is not one)", got)
	}
	if got := f.SectionText(AboutMe); got != "<!-- Who the user is -->\n- I am a data engineer at Acme.\n  - prefers terse answers\n" {
		t.Fatalf("SectionText(About Me) = %q", got)
	}
	if got := f.SectionText(Pinned); got != "" {
		t.Fatalf("SectionText(Pinned) = %q, want \"\" (absent)", got)
	}
}

func TestTemplates(t *testing.T) {
	t.Parallel()
	wantProject := "# granada\n\n## Pinned\n<!-- These survive decay -->\n\n## Error Patterns to Avoid\n<!-- Mistakes encountered and how to prevent them -->\n\n" +
		"## Best Practices\n<!-- Patterns and approaches that worked well -->\n\n## Data Quirks\n<!-- Gotchas, edge cases, data quality issues -->\n\n" +
		"## Key Decisions\n<!-- Important choices made and their rationale -->\n\n## Useful Commands\n<!-- Queries, scripts, commands that helped -->\n\n" +
		"---\n*Last updated: YYYY-MM-DD*\n"
	p := NewProject("granada")
	if got := p.Format(); got != wantProject {
		t.Fatalf("NewProject:\n%s\nwant\n%s", got, wantProject)
	}
	if p.Name != "project-memory/granada-long-term-memory.md" || p.Kind != ProjectFile || p.Project != "granada" {
		t.Fatalf("NewProject fields %+v", p)
	}
	g := NewGlobal().Format()
	var heads []string
	for _, l := range strings.Split(g, "\n") {
		if h, ok := strings.CutPrefix(l, "## "); ok {
			heads = append(heads, h)
		}
	}
	want := []string{AboutMe, CurrentProjects, TechEnvironment, PatternsPrefs, Pinned, KeyLearnings, ErrorPatterns, BestPractices}
	if strings.Join(heads, "|") != strings.Join(want, "|") || !strings.HasPrefix(g, "# Global Long-Term Memory\n") ||
		!strings.HasSuffix(g, "\n---\n*Last synthesized: YYYY-MM-DD*\n") || strings.Count(g, "<!--") != len(want) {
		t.Fatalf("NewGlobal:\n%s", g)
	}
	if !p.SetDate("2026-03-01") || !strings.HasSuffix(p.Format(), "*Last updated: 2026-03-01*\n") || p.SetDate("2026-03-01") {
		t.Fatalf("SetDate: %q", p.Format())
	}
}

func TestParseFile_Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		line       int
		msgHas     string
	}{
		{"UnknownType", "# G\n\n## Key Learnings\n- **T** [global/nonsense] (2026-01-01): x\n", 4, "unknown type"},
		{"ImpossibleDate", "# G\n## Best Practices\n\n\n- **T** [global/error] (2026-02-30): x\n", 5, "impossible date"},
		{"InvalidUTF8", "# G\n## About Me\n- caf\xe9\n", 3, "invalid UTF-8"},
		{"NUL", "# G\n\x00\n", 2, "NUL"},
		{"DuplicateSection", "# G\n## Pinned\n- a\n## Best Practices\n## Pinned\n", 5, "appears twice (first at line 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFile(GlobalFile, "g.md", "", tt.text)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line || pe.File != "g.md" || !strings.Contains(pe.Msg, tt.msgHas) {
				t.Fatalf("ParseFile err=%v, want g.md:%d: …%s…", err, tt.line, tt.msgHas)
			}
			if f != nil {
				t.Fatalf("ParseFile returned a file with the error")
			}
		})
	}
	// Unknown sections may repeat; plain bullets are not errors.
	if _, err := ParseFile(GlobalFile, "g.md", "", "## Mine\n- a\n## Mine\n- **bold** text\n"); err != nil {
		t.Fatalf("ParseFile: %v", err)
	}
}

func FuzzFileRoundTrip(f *testing.F) {
	for _, s := range []string{handGlobal, handProject, NewGlobal().Format(), NewProject("x").Format(), "", "## Pinned\n- **a** [b/error]: c\n  - d",
		"---\n*Last updated: x*", "```\n## Pinned\n```\n## Pinned\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, k := range []Kind{GlobalFile, ProjectFile} {
			file, err := ParseFile(k, "f.md", "p", text)
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line < 1 {
					t.Fatalf("error %v is not a ParseError with a line", err)
				}
				continue
			}
			if got := file.Format(); got != text {
				t.Fatalf("round trip %q, want %q", got, text)
			}
			// Every decision leaves a file that parses again.
			m := &Memory{Global: file}
			if k == ProjectFile {
				m = &Memory{Projects: map[string]*File{"p": file}}
			}
			Migrate(m, "2026-03-01")
			Route(m, []Learning{{Title: "New", Scope: "p", Type: Command, Description: "d"}, {Title: "G", Scope: Global, Type: Error, Description: "e"}}, "2026-03-01")
			Decay(m, DefaultSettings(), "2026-06-01")
			for _, g := range m.files() {
				if _, err := ParseFile(g.Kind, g.Name, g.Project, g.Format()); err != nil {
					t.Fatalf("after decisions the file does not parse: %v\n%s", err, g.Format())
				}
			}
			if _, err := ParseArchive(m.Archive.Format()); err != nil {
				t.Fatalf("archive does not parse: %v", err)
			}
		}
	})
}

func TestParseFile_ProfileBracketsArePlainText(t *testing.T) {
	t.Parallel()
	text := "# Global Long-Term Memory\n\n## About Me\n- **Stack** [Go/Python]: Go and Python daily\n" +
		"- **Editor** [vim/neovim] (2026-13-45): whatever\n\n## Technical Environment\n- **OS** [macOS/Linux]: both\n\n" +
		"## Patterns & Preferences\n- **Small commits** [global/decision] (2026-01-10): One change per commit\n\n" +
		"## Error Patterns to Avoid\n- **E** [global/error] (2026-02-01): e\n"
	f, err := ParseFile(GlobalFile, GlobalFileName, "", text)
	if err != nil {
		t.Fatalf("hand-written profile lines refused: %v", err)
	}
	if got := f.Format(); got != text {
		t.Fatalf("not lossless:\n%s", got)
	}
	if ls := f.Learnings(""); len(ls) != 2 || ls[0].Title != "Small commits" || ls[1].Title != "E" {
		t.Fatalf("learnings %+v, want the two typed ones", ls)
	}
	// Typos stay errors: a typed tag in a profile section, any tag in a
	// learning section, in Pinned, in an unknown section, in a project file.
	bad := []struct {
		kind Kind
		text string
		line int
	}{
		{GlobalFile, "# G\n\n## Error Patterns to Avoid\n- **T** [global/eror] (2026-02-01): d\n", 4},
		{GlobalFile, "# G\n\n## Pinned\n- **Stack** [Go/Python]: Go and Python daily\n", 4},
		{GlobalFile, "# G\n\n## My Notes\n- **T** [global/best-practise]: d\n", 4},
		{GlobalFile, "# G\n\n## About Me\n- **T** [global/error] (2026-02-30): d\n", 4},
		{ProjectFile, "# p\n\n## About Me\n- **Stack** [Go/Python]: Go\n", 4},
	}
	for _, b := range bad {
		_, err := ParseFile(b.kind, "f.md", "p", b.text)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != b.line {
			t.Errorf("ParseFile(%q) err=%v, want a ParseError at line %d", b.text, err, b.line)
		}
	}
}
