package learning

import (
	"errors"
	"strings"
	"testing"
)

// prevDaily is a day's file as a person may have left it: a preamble
// paragraph, an odd line and sub-line among the learnings, an unknown
// section, a user note, no Files Created section.
const prevDaily = `# 2026-02-03

<!-- projects: granada -->
A line a person wrote under the H1.

## Sessions Summary
Fixed the permission globs.

## Topics
- Permission globs
- Odd item
  continued, indented

## Key Points
- PreToolUse hooks work for subagent permissions

## Learnings
- **Permission glob syntax** [global/error] (2026-02-03): Used :* instead of /*
  - Lesson: Use / for path separators
    a deeper odd line
Some free text among the learnings.

## Scratch
anything at all

## 14:30 - User Note
Remember to call the bank.
  indented, verbatim
`

// curDaily is a new summary of the same day: some items already there
// (other case, other spacing), some new.
var curDaily = Daily{
	Date:      "2026-02-03",
	Projects:  []string{"granada", "cartwheel"},
	Summary:   "Fixed the Granada joins.",
	Topics:    []string{"permission GLOBS", "Granada joins"},
	KeyPoints: []string{"PreToolUse hooks work for subagent permissions", "Filter Accident_Key before joins"},
	Learnings: []Learning{
		{Title: "permission glob SYNTAX", Scope: "Global", Type: Error, Date: "2026-02-03", Description: "again"},
		{Title: "Missing Accident_Key check", Scope: "granada", Type: Error, Date: "2026-02-03", Description: "Joined without filtering CWOP", Lesson: "Filter first"},
		{Title: "Bad", Scope: "granada", Type: "nonsense", Description: "invalid: left out"},
	},
	Commits:      []string{`ea83b7f - "fix: joins" (granada)`},
	FilesCreated: []string{"docs/joins.md"},
}

const wantMerged = `# 2026-02-03

<!-- projects: cartwheel, granada -->
A line a person wrote under the H1.

## Sessions Summary
Fixed the permission globs.
Later: Fixed the Granada joins.

## Topics
- Permission globs
- Odd item
  continued, indented
- Granada joins

## Key Points
- PreToolUse hooks work for subagent permissions
- Filter Accident_Key before joins

## Learnings
- **Permission glob syntax** [global/error] (2026-02-03): Used :* instead of /*
  - Lesson: Use / for path separators
    a deeper odd line
Some free text among the learnings.

- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP
  - Lesson: Filter first

## Scratch
anything at all

## Commits
- ea83b7f - "fix: joins" (granada)

## Files Created
- docs/joins.md

## 14:30 - User Note
Remember to call the bank.
  indented, verbatim
`

// keepsLines reports the first line of prev missing from got, in order
// ("" when every line is there); a projects line may be rewritten.
func keepsLines(prev, got string) (string, bool) {
	g := strings.Split(got, "\n")
	j := 0
	for _, l := range strings.Split(strings.TrimSuffix(prev, "\n"), "\n") {
		if projectsRE.MatchString(strings.TrimSpace(l)) {
			continue
		}
		for j < len(g) && g[j] != l {
			j++
		}
		if j == len(g) {
			return l, false
		}
		j++
	}
	return "", true
}

func TestMergeDaily(t *testing.T) {
	t.Parallel()
	got, err := MergeDaily(prevDaily, curDaily)
	if err != nil {
		t.Fatal(err)
	}
	if got != wantMerged {
		t.Fatalf("MergeDaily:\n%s\nwant\n%s", got, wantMerged)
	}
	if l, ok := keepsLines(prevDaily, got); !ok {
		t.Fatalf("line %q of prev lost", l)
	}
	if again, err := MergeDaily(got, curDaily); err != nil || again != got {
		t.Fatalf("not idempotent (err %v):\n%s", err, again)
	}
	d, err := ParseDaily("d.md", got)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Learnings) != 2 || len(d.UserNotes) != 1 || d.UserNotes[0].Lines[1] != "  indented, verbatim" {
		t.Fatalf("parsed merge: %+v", d)
	}
	if ps := CheckDaily("2026-02-03", strings.Replace(got, "Some free text among the learnings.\n", "", 1), d.Projects); len(ps) != 0 {
		t.Fatalf("merged day fails CheckDaily: %+v", ps)
	}
}

func TestMergeDaily_Edges(t *testing.T) {
	t.Parallel()
	t.Run("Empty", func(t *testing.T) {
		if got, err := MergeDaily("", curDaily); err != nil || got != RenderDaily(curDaily) {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("NothingNew", func(t *testing.T) {
		p := "# 2026-02-03\n\n## Topics\n- a" // no final newline: returned as it is
		if got, err := MergeDaily(p, Daily{Date: "2026-02-03", Topics: []string{"A"}}); err != nil || got != p {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		_, err := MergeDaily("# 2026-02-03\n\n## Learnings\n- **T** [global/nonsense]: x\n", curDaily)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 4 {
			t.Fatalf("err %v, want a ParseError at line 4", err)
		}
	})
	t.Run("NoProjectsLine", func(t *testing.T) {
		got, err := MergeDaily("# 2026-02-03\n## Topics\n- a\n", Daily{Date: "2026-02-03", Projects: []string{"b", "a"}})
		if err != nil || got != "# 2026-02-03\n\n<!-- projects: a, b -->\n## Topics\n- a\n" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("UserNotesUntouched", func(t *testing.T) {
		p := "# 2026-02-03\n\n## 09:00 - User Note\n- **T** [global/error] (2026-02-03): a note, not a learning\n## Topics\n\n## 10:00 - User Note\ntext\n"
		got, err := MergeDaily(p, Daily{Date: "2026-02-03", Summary: "S.", Topics: []string{"t"},
			Learnings: []Learning{{Title: "L", Scope: Global, Type: Command, Date: "2026-02-03", Description: "d"}}})
		if err != nil {
			t.Fatal(err)
		}
		want := "# 2026-02-03\n\n## Sessions Summary\nS.\n\n## Learnings\n- **L** [global/command] (2026-02-03): d\n\n" +
			"## 09:00 - User Note\n- **T** [global/error] (2026-02-03): a note, not a learning\n## Topics\n- t\n\n## 10:00 - User Note\ntext\n"
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
}

func TestMergeDaily_SizeCap(t *testing.T) {
	t.Parallel()
	p := dailyOfSize(t, DailyTarget-300)
	cur := Daily{Date: "2026-02-03", Topics: []string{"a new topic"}}
	for i := range 20 {
		cur.Learnings = append(cur.Learnings, Learning{Title: "Learning " + string(rune('A'+i)), Scope: Global, Type: Command, Date: "2026-02-03",
			Description: strings.Repeat("words ", 8)})
	}
	got, err := MergeDaily(p, cur)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > DailyTarget || len(got) < DailyTarget-110 {
		t.Fatalf("merged size %d, want just under %d", len(got), DailyTarget)
	}
	d, _ := ParseDaily("d.md", got)
	// Learnings go first; the topic, after them, no longer fits.
	if len(d.Learnings) == 0 || len(d.Learnings) == 20 || strings.Contains(got, "- a new topic\n") {
		t.Fatalf("%d learnings added, topic added %v", len(d.Learnings), strings.Contains(got, "- a new topic"))
	}
	// Room for one learning or one key point: the learning wins.
	near := dailyOfSize(t, DailyTarget-150)
	one := Daily{Date: "2026-02-03", KeyPoints: []string{strings.Repeat("a key point that takes room ", 3)},
		Learnings: []Learning{{Title: "Never commit secrets", Scope: Global, Type: Error, Date: "2026-02-03", Description: "a key leaked"}}}
	if got, _ := MergeDaily(near, one); !strings.Contains(got, "Never commit secrets") || strings.Contains(got, "a key point that takes room") {
		t.Fatalf("near the cap, the learning gave way:\n%s", got[len(near)-50:])
	}
	if again, _ := MergeDaily(got, cur); again != got {
		t.Fatalf("capped merge not idempotent")
	}
	full := dailyOfSize(t, DailyTarget+10)
	if again, _ := MergeDaily(full, cur); again != full {
		t.Fatalf("a day over the target got more")
	}
}

func FuzzMergeDaily(f *testing.F) {
	f.Add(prevDaily)
	f.Add(sampleDaily)
	f.Add("# 2026-02-03\n```\n## Learnings\n")
	f.Add("no newline")
	f.Add("\r\n## Topics\r\n- x\r\n")
	f.Fuzz(func(t *testing.T, prev string) {
		got, err := MergeDaily(prev, curDaily)
		if _, perr := ParseDaily("d.md", prev); perr != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("prev does not parse (%v) but MergeDaily err=%v", perr, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("MergeDaily: %v", err)
		}
		if prev == "" {
			return // RenderDaily(curDaily), its invalid learning included
		}
		if _, err := ParseDaily("d.md", got); err != nil {
			t.Fatalf("merged text does not parse: %v\n%q", err, got)
		}
		if l, ok := keepsLines(prev, got); !ok {
			t.Fatalf("line %q of prev lost:\n%q\n%q", l, prev, got)
		}
	})
}
