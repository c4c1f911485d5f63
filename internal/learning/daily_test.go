package learning

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const sampleDaily = `# 2026-02-03

<!-- projects: granada, cartwheel -->

## Sessions Summary
Fixed the permission globs and the Granada joins.

## Topics
- Permission globs
- Granada joins

## Key Points
- PreToolUse hooks work for subagent permissions

## Learnings
- **Permission glob syntax** [global/error] (2026-02-03): Used ` + "`:*`" + ` instead of ` + "`/*`" + `
  - Lesson: Use ` + "`/`" + ` for path separators in permission globs

- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP
  - Lesson: Always filter Accident_Key != '99' before joins

## Commits
- ea83b7f - "fix: Simplify PreCompact hook"

## 14:30 - User Note
Remember to call the bank.
  indented, verbatim
`

func TestParseDaily_RenderRoundTrip(t *testing.T) {
	t.Parallel()
	d, err := ParseDaily("2026-02-03.md", sampleDaily)
	if err != nil {
		t.Fatal(err)
	}
	if d.Date != "2026-02-03" || !reflect.DeepEqual(d.Projects, []string{"granada", "cartwheel"}) {
		t.Fatalf("date %q projects %v", d.Date, d.Projects)
	}
	if len(d.Learnings) != 2 || d.Learnings[1].Scope != "granada" || d.Learnings[1].Lesson == "" || d.Learnings[1].Line != 19 {
		t.Fatalf("learnings %+v", d.Learnings)
	}
	if len(d.UserNotes) != 1 || d.UserNotes[0].Heading != "14:30 - User Note" {
		t.Fatalf("user notes %+v", d.UserNotes)
	}
	if got := RenderDaily(d); got != sampleDaily {
		t.Fatalf("RenderDaily(ParseDaily(x)) differs:\n%s\nwant\n%s", got, sampleDaily)
	}
}

func TestRenderDaily_UserNotesPreserved(t *testing.T) {
	t.Parallel()
	d, err := ParseDaily("d.md", sampleDaily)
	if err != nil {
		t.Fatal(err)
	}
	d.Summary = "Rewritten."
	d.Learnings = nil
	got := RenderDaily(d)
	if !strings.Contains(got, "## 14:30 - User Note\nRemember to call the bank.\n  indented, verbatim\n") {
		t.Fatalf("user note lost:\n%s", got)
	}
	if !strings.HasSuffix(got, "verbatim\n") {
		t.Fatalf("user note not last:\n%s", got)
	}
}

func TestMergeNotes(t *testing.T) {
	t.Parallel()
	fresh := RenderDaily(Daily{Date: "2026-02-03", Summary: "New."})
	got := MergeNotes(fresh, sampleDaily)
	if !strings.HasSuffix(got, "\n\n## 14:30 - User Note\nRemember to call the bank.\n  indented, verbatim\n") {
		t.Fatalf("MergeNotes did not append the note:\n%s", got)
	}
	if again := MergeNotes(got, sampleDaily); again != got {
		t.Fatalf("MergeNotes twice added the note again:\n%s", again)
	}
	if same := MergeNotes(sampleDaily, sampleDaily); same != sampleDaily {
		t.Fatalf("MergeNotes(x, x) changed x")
	}
}

func TestParseDaily_Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		line       int
	}{
		{"BadType", "# 2026-02-03\n\n## Learnings\n- **T** [global/nonsense] (2026-02-03): x\n", 4},
		{"BadDate", "# 2026-02-03\n\n## Learnings\n\n- **T** [global/error] (2026-02-30): x\n", 5},
		{"InvalidUTF8", "# 2026-02-03\n\nbad \xff\n", 3},
		{"NUL", "# x\x00\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDaily("d.md", tt.text)
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tt.line {
				t.Fatalf("ParseDaily err=%v, want a ParseError at line %d", err, tt.line)
			}
		})
	}
}

// dailyOfSize pads a valid daily summary to exactly n bytes.
func dailyOfSize(tb testing.TB, n int) string {
	tb.Helper()
	base := RenderDaily(Daily{Date: "2026-02-03", Summary: "S.", Topics: []string{"t"}, KeyPoints: []string{"k"}})
	pad := n - len(base) - len("x\n")
	if pad < 0 {
		tb.Fatalf("base too long")
	}
	s := base + "x" + strings.Repeat("y", pad) + "\n"
	if len(s) != n {
		tb.Fatalf("len %d, want %d", len(s), n)
	}
	return s
}

func TestCheckDaily_Size(t *testing.T) {
	t.Parallel()
	tests := []struct {
		size    int
		want    string
		warning bool
	}{
		{4096, "", false},
		{4097, "Daily summary 2026-02-03.md is 4.0 KB (target: 1-4 KB)\nConsider removing less important details", true},
		{8192, "Daily summary 2026-02-03.md is 8.0 KB (target: 1-4 KB)\nConsider removing less important details", true},
		{8193, "Daily summary 2026-02-03.md is 8.0 KB (max 4 KB)\nRe-synthesize with more aggressive compaction", false},
		{9318, "Daily summary 2026-02-03.md is 9.1 KB (max 4 KB)\nRe-synthesize with more aggressive compaction", false},
	}
	for _, tt := range tests {
		ps := CheckDaily("2026-02-03", dailyOfSize(t, tt.size), nil)
		if tt.want == "" {
			if len(ps) != 0 {
				t.Fatalf("size %d: problems %+v, want none", tt.size, ps)
			}
			continue
		}
		if len(ps) != 1 || ps[0].Msg != tt.want || ps[0].Warning != tt.warning {
			t.Fatalf("size %d: problems %+v, want one %q (warning %v)", tt.size, ps, tt.want, tt.warning)
		}
	}
}

func TestCheckDaily_Content(t *testing.T) {
	t.Parallel()
	if ps := CheckDaily("2026-02-03", sampleDaily, []string{"granada", "cartwheel"}); len(ps) != 0 {
		t.Fatalf("sample: %+v", ps)
	}
	tests := []struct {
		name, text string
		projects   []string
		line       int
		msgHas     string
		warning    bool
	}{
		{"WrongH1", strings.Replace(sampleDaily, "# 2026-02-03", "# 2026-02-04", 1), nil, 1, "want \"# 2026-02-03\"", false},
		{"MissingSection", strings.Replace(sampleDaily, "## Topics", "## Topicz", 1), nil, 0, "missing section \"## Topics\"", false},
		{"UnknownScope", sampleDaily, []string{"cartwheel"}, 19, "scope \"granada\"", false},
		{"FutureDate", strings.Replace(sampleDaily, "[granada/error] (2026-02-03)", "[granada/error] (2026-02-04)", 1), nil, 19, "after the day", false},
		{"Undated", strings.Replace(sampleDaily, "[granada/error] (2026-02-03)", "[granada/error]", 1), nil, 19, "no date", true},
		{"BadType", strings.Replace(sampleDaily, "[granada/error]", "[granada/oops]", 1), nil, 19, "unknown type", false},
		// Decay would archive a learning dated long before its day as soon
		// as it is routed.
		{"PastDate", strings.Replace(sampleDaily, "[granada/error] (2026-02-03)", "[granada/error] (2025-01-01)", 1), nil, 19, "before the day", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps := CheckDaily("2026-02-03", tt.text, tt.projects)
			if len(ps) != 1 || ps[0].Line != tt.line || !strings.Contains(ps[0].Msg, tt.msgHas) || ps[0].Warning != tt.warning {
				t.Fatalf("CheckDaily=%+v, want one at line %d saying %q (warning %v)", ps, tt.line, tt.msgHas, tt.warning)
			}
		})
	}
}

func FuzzParseDaily(f *testing.F) {
	f.Add(sampleDaily)
	f.Add("# 2026-01-01\n## Topics\n- a\n  b\n-\n## Learnings\n- **a** b** [g/error]: c\n    deep\n")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := ParseDaily("d.md", text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v is not a ParseError with a line", err)
			}
			return
		}
		once := RenderDaily(d)
		d2, err := ParseDaily("d.md", once)
		if err != nil {
			t.Fatalf("rendered daily does not parse: %v\n%s", err, once)
		}
		if twice := RenderDaily(d2); twice != once {
			t.Fatalf("render not stable:\n%q\n%q", once, twice)
		}
		if MergeNotes(once, text) != once && len(d.UserNotes) > 0 {
			t.Fatalf("MergeNotes added notes the rendering has")
		}
	})
}

func TestCheckDaily_MalformedLearningLines(t *testing.T) {
	t.Parallel()
	bad := []string{
		"* **T** [global/error] (2026-02-03): d",
		"- **T**: [global/error] (2026-02-03): d",
		"- T [global/command] (2026-02-03): d",
		"-  **T** [global/error] (2026-02-03): d",
		" - **T** [global/error] (2026-02-03): d",
		"- a plain bullet",
		"1. **T** [global/error] (2026-02-03): d",
		"+ **T** [global/error] (2026-02-03): d",
		"\t- **T** [global/error] (2026-02-03): d",
	}
	for _, b := range bad {
		t.Run(b, func(t *testing.T) {
			text := strings.Replace(sampleDaily, "\n## Commits", "\n"+b+"\n\n## Commits", 1)
			ps := CheckDaily("2026-02-03", text, nil)
			want := "not a learning line (want `- **Title** [scope/type] (YYYY-MM-DD): description`)"
			if len(ps) != 1 || ps[0].Line != 22 || ps[0].Warning || ps[0].Msg != want {
				t.Fatalf("CheckDaily=%+v, want one error at line 22: %q", ps, want)
			}
		})
	}
	fine := "## Learnings\n<!-- a comment\n- **not** a learning -->\n\n- **T** [global/error] (2026-02-03): d\n  - Lesson: l\n  - * odd sub-bullet\n    deeper\n\n" +
		"```\n- code\n```\n"
	text := strings.Replace(sampleDaily, "## Learnings\n", fine, 1)
	if ps := CheckDaily("2026-02-03", text, nil); len(ps) != 0 {
		t.Fatalf("CheckDaily=%+v, want none", ps)
	}
}

// TestCheckDaily_EveryProblemOfALine: a learning line with three problems
// gets three, in one run: an agent fixes them at once rather than spending
// a refusal on each.
func TestCheckDaily_EveryProblemOfALine(t *testing.T) {
	text := strings.Replace(sampleDaily, "[granada/error] (2026-02-03)", "[nowhere/oops] (2026-13-45)", 1)
	ps := CheckDaily("2026-02-03", text, []string{"granada"})
	var msgs []string
	for _, p := range ps {
		msgs = append(msgs, p.Msg)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"unknown type \"oops\"", "impossible date", "scope \"nowhere\""} {
		if !strings.Contains(all, want) {
			t.Errorf("no problem saying %q in:\n%s", want, all)
		}
	}
}
