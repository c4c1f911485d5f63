package learning

import (
	"strings"
	"testing"
)

func TestPinnable(t *testing.T) {
	t.Parallel()
	m := &Memory{
		Global:   mustParse(t, GlobalFile, GlobalFileName, "", handGlobal),
		Projects: map[string]*File{"granada": mustParse(t, ProjectFile, ProjectFileName("granada"), "granada", handProject)},
	}
	var got []string
	for _, c := range Pinnable(m) {
		got = append(got, c.File+" | "+c.Section+" | "+c.Learning.Title)
	}
	want := []string{
		GlobalFileName + " | Key Learnings | Dataiku heap scans",
		GlobalFileName + " | Key Learnings | Old undated thing",
		GlobalFileName + " | Error Patterns to Avoid | Permission glob syntax",
		GlobalFileName + " | Best Practices | PreToolUse hooks",
		ProjectFileName("granada") + " | Error Patterns to Avoid | Missing Accident_Key check",
		ProjectFileName("granada") + " | Data Quirks | PolicyholderType=1 filter",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Pinnable:\n%s\nwant (Patterns & Preferences is auto-pinned, not listed):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPinLearning(t *testing.T) {
	t.Parallel()
	load := func(t *testing.T) (*Memory, *File) {
		f := mustParse(t, ProjectFile, ProjectFileName("granada"), "granada", handProject)
		return &Memory{Projects: map[string]*File{"granada": f}}, f
	}
	t.Run("Moves", func(t *testing.T) {
		m, f := load(t)
		Migrate(m, today) // the workspace pins after migration
		c := Pinnable(m)[1]
		if c.Learning.Title != "PolicyholderType=1 filter" || c.Learning.Date != today {
			t.Fatalf("candidate %+v", c)
		}
		ops := PinLearning(m, c.File, c.Learning, " Hard-won lesson, applies to every analysis ", today)
		if len(ops) != 1 || ops[0].Kind != "pin" || ops[0].Section != Pinned || ops[0].File != c.File ||
			ops[0].Reason != "Hard-won lesson, applies to every analysis; moved from ## Data Quirks" {
			t.Fatalf("ops %+v", ops)
		}
		want := "## Pinned\n<!-- These survive decay -->\n" +
			"- **PolicyholderType=1 filter** [granada/data-quirk] (" + today + "): Most rows are renewals\n" +
			"  - Lesson: Filter to PolicyholderType=1 for new business analysis\n" +
			"  - *Pinned: Hard-won lesson, applies to every analysis*\n"
		out := f.Format()
		if !strings.Contains(out, want) {
			t.Fatalf("after PinLearning:\n%s\nwant it to hold\n%s", out, want)
		}
		if len(f.Learnings(DataQuirks)) != 0 {
			t.Fatalf("## Data Quirks still holds %+v", f.Learnings(DataQuirks))
		}
		if !strings.Contains(out, "*Last updated: "+today+"*") {
			t.Fatalf("footer date not written:\n%s", out)
		}
		if _, err := ParseFile(ProjectFile, f.Name, "granada", out); err != nil {
			t.Fatalf("the result does not parse: %v", err)
		}
		if again := PinLearning(m, c.File, c.Learning, "again", today); len(again) != 0 {
			t.Fatalf("pinning a pinned learning again: %+v", again)
		}
	})
	for name, tc := range map[string]struct {
		file   string
		edit   func(*Learning)
		reason string
		today  string
	}{
		"OtherFile":   {file: GlobalFileName},
		"OtherLine":   {edit: func(l *Learning) { l.Line++ }},
		"OtherLesson": {edit: func(l *Learning) { l.Lesson += "!" }},
		"EmptyReason": {reason: "  "},
		"MultiLine":   {reason: "first\nsecond"},
		"BadToday":    {today: "2026-02-30"},
		"OtherTitle":  {edit: func(l *Learning) { l.Title = "nothing" }},
	} {
		t.Run(name, func(t *testing.T) {
			m, f := load(t)
			before := f.Format()
			c := Pinnable(m)[0]
			if tc.edit != nil {
				tc.edit(&c.Learning)
			}
			file := c.File
			if tc.file != "" {
				file = tc.file
			}
			reason, day := "a reason", today
			if tc.reason != "" {
				reason = tc.reason
			}
			if tc.today != "" {
				day = tc.today
			}
			if ops := PinLearning(m, file, c.Learning, reason, day); len(ops) != 0 {
				t.Fatalf("ops %+v", ops)
			}
			if f.Format() != before {
				t.Fatalf("the file changed:\n%s", f.Format())
			}
		})
	}
}
