package learning

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// daysBefore is the date n days before day.
func daysBefore(tb testing.TB, day string, n int) string {
	tb.Helper()
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		tb.Fatal(err)
	}
	return t.AddDate(0, 0, -n).Format(time.DateOnly)
}

func TestDecay_AgeBoundary(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		age      int
		archived bool
	}{{29, false}, {30, false}, {31, true}} {
		t.Run(fmt.Sprint(tt.age), func(t *testing.T) {
			m := &Memory{}
			l := Learning{Title: "Aged entry", Scope: "granada", Type: Command, Date: daysBefore(t, today, tt.age), Description: "psql -c '\\dt'"}
			Route(m, []Learning{l}, daysBefore(t, today, tt.age))
			ops := Decay(m, DefaultSettings(), today)
			if got := len(ops) == 1 && ops[0].Kind == "archive"; got != tt.archived {
				t.Fatalf("age %d: ops %+v, want archived=%v", tt.age, ops, tt.archived)
			}
			inFile := len(m.Projects["granada"].Learnings("")) == 1
			if inFile == tt.archived {
				t.Fatalf("age %d: still in file=%v", tt.age, inFile)
			}
			if !tt.archived {
				if m.Archive != nil && m.Archive.Format() != "" {
					t.Fatalf("archive written for nothing: %q", m.Archive.Format())
				}
				return
			}
			want := "# Decay Archive\n\n## Archived " + today + "\n" +
				"- **Aged entry** [granada/command] (" + l.Date + "): psql -c '\\dt'\n  - *Source: granada-long-term-memory.md*\n"
			if got := m.Archive.Format(); got != want {
				t.Fatalf("archive:\n%s\nwant\n%s", got, want)
			}
			if ops[0].Reason != fmt.Sprintf("dated %s, 31 days old > ageDays 30", l.Date) {
				t.Fatalf("reason %q", ops[0].Reason)
			}
			if again := Decay(m, DefaultSettings(), today); len(again) != 0 {
				t.Fatalf("second decay %+v, want none", again)
			}
		})
	}
}

func TestDecay_Protected(t *testing.T) {
	t.Parallel()
	old := "2025-01-01"
	text := strings.NewReplacer("(2026-01-10)", "("+old+")", "(2026-02-01)", "("+old+")", "(2026-02-03)", "("+old+")").Replace(handGlobal)
	text = strings.Replace(text, "## Current Projects\n", "## Pinned\n- **Pinned old** [global/error] ("+old+"): never decays\n\n## Current Projects\n", 1)
	m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
	ops := Decay(m, DefaultSettings(), today)
	var titles []string
	for _, op := range ops {
		titles = append(titles, op.Learning.Title)
	}
	// Only the Best Practices entry is old and decay-eligible; Patterns &
	// Preferences, Pinned and the undated learning stay.
	if strings.Join(titles, "|") != "Dataiku heap scans|Permission glob syntax|PreToolUse hooks" {
		t.Fatalf("archived %v", titles)
	}
	out := m.Global.Format()
	for _, keep := range []string{"Small commits", "Pinned old", "Old undated thing", "I am a data engineer", "## My Own Notes\nFree text", "- a plain bullet, not a learning"} {
		if !strings.Contains(out, keep) {
			t.Fatalf("decay removed %q:\n%s", keep, out)
		}
	}
	if !strings.Contains(m.Archive.Format(), "  - Lesson: Use PreToolUse hooks with permissionDecision allow\n  - *Source: global-long-term-memory.md*") {
		t.Fatalf("archive lost the lesson:\n%s", m.Archive.Format())
	}
}

func TestDecay_ArchivePurge(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		age    int
		purged bool
	}{{364, false}, {365, false}, {366, true}} {
		t.Run(fmt.Sprint(tt.age), func(t *testing.T) {
			group := daysBefore(t, today, tt.age)
			text := "# Decay Archive\n\n## Archived 2026-02-01\n- **Recent** [global/error] (2025-12-01): r\n  - *Source: global-long-term-memory.md*\n\n" +
				"## Archived " + group + "\n- **Ancient** [p/command] (2024-01-01): a\n  - *Source: p-long-term-memory.md*\n"
			a, err := ParseArchive(text)
			if err != nil {
				t.Fatal(err)
			}
			m := &Memory{Archive: a}
			ops := Decay(m, DefaultSettings(), today)
			if got := len(ops) == 1 && ops[0].Kind == "purge" && ops[0].Learning.Title == "Ancient"; got != tt.purged {
				t.Fatalf("age %d: ops %+v, want purged=%v", tt.age, ops, tt.purged)
			}
			if tt.purged == strings.Contains(a.Format(), "Ancient") {
				t.Fatalf("age %d: archive\n%s", tt.age, a.Format())
			}
			if !strings.Contains(a.Format(), "## Archived 2026-02-01\n- **Recent**") {
				t.Fatalf("recent group lost:\n%s", a.Format())
			}
		})
	}
}

func TestArchive_GroupsNewestFirst(t *testing.T) {
	t.Parallel()
	text := "# Decay Archive\n\n## Archived 2026-02-03\n- **B** [global/error] (2025-12-15): b\n  - *Source: x.md*\n\n## Archived 2026-02-01\n- **A** [g/error] (2025-12-01): a\n  - *Source: y.md*\n"
	a, err := ParseArchive(text)
	if err != nil || a.Format() != text {
		t.Fatalf("ParseArchive: %v, round trip %q", err, a.Format())
	}
	a.add("2026-03-01", []string{"- **C** [global/command] (2026-01-01): c"}, "z.md")
	a.add("2026-03-01", []string{"- **D** [global/command] (2026-01-02): d", "  - Lesson: l"}, "z.md")
	a.add("2026-02-03", []string{"- **E** [global/command] (2026-01-03): e"}, "z.md")
	want := "# Decay Archive\n\n## Archived 2026-03-01\n- **C** [global/command] (2026-01-01): c\n  - *Source: z.md*\n- **D** [global/command] (2026-01-02): d\n  - Lesson: l\n  - *Source: z.md*\n\n" +
		"## Archived 2026-02-03\n- **B** [global/error] (2025-12-15): b\n  - *Source: x.md*\n- **E** [global/command] (2026-01-03): e\n  - *Source: z.md*\n\n" +
		"## Archived 2026-02-01\n- **A** [g/error] (2025-12-01): a\n  - *Source: y.md*\n"
	if got := a.Format(); got != want {
		t.Fatalf("archive:\n%s\nwant\n%s", got, want)
	}
	ls := a.Learnings()
	if len(ls) != 5 || ls[0].Title != "C" || ls[0].Archived != "2026-03-01" || ls[4].Archived != "2026-02-01" {
		t.Fatalf("Learnings() = %+v", ls)
	}
	if _, err := ParseArchive("# Decay Archive\n\n## Archived 2026-02-30\n"); err == nil || !strings.Contains(err.Error(), ":3: archive group: impossible date") {
		t.Fatalf("ParseArchive(bad group date) err=%v", err)
	}
}

func FuzzArchiveRoundTrip(f *testing.F) {
	for _, s := range []string{"", "# Decay Archive\n\n## Archived 2026-02-03\n- **B** [global/error] (2025-12-15): b\n  - *Source: x.md*\n", "## Archived x\n", "## Other\n- **a** [b/c]: d\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseArchive(text)
		if err != nil {
			return
		}
		if got := a.Format(); got != text {
			t.Fatalf("round trip %q, want %q", got, text)
		}
		a.add("2026-03-01", []string{"- **N** [global/error] (2026-01-01): n"}, "s.md")
		a.purge("2027-06-01", 365)
		if _, err := ParseArchive(a.Format()); err != nil {
			t.Fatalf("after add and purge: %v\n%s", err, a.Format())
		}
	})
}

// bigProject is a project file of n learnings per section, dated from
// start on, one day apart, the newest at the top of each section.
func bigProject(tb testing.TB, types []Type, n int, newest string) *File {
	tb.Helper()
	m := &Memory{}
	var ls []Learning
	for i := n - 1; i >= 0; i-- {
		for _, typ := range types {
			ls = append(ls, Learning{Title: fmt.Sprintf("%s entry %s", typ, word(i)), Scope: "big", Type: typ, Date: daysBefore(tb, newest, i*3),
				Description: fmt.Sprintf("subject %s%s ", typ, word(i)) + strings.Repeat(fmt.Sprintf("w%s%s ", typ, word(i)), 20)})
		}
	}
	// Route adds each at the top of its section: route oldest first, so the
	// newest ends at the top.
	ops := Route(m, ls, newest)
	for _, op := range ops {
		if op.Kind != "add" {
			tb.Fatalf("setup op %+v", op)
		}
	}
	return m.Projects["big"]
}

func TestPrune(t *testing.T) {
	t.Parallel()
	f := bigProject(t, []Type{Error, Command}, 20, today)
	m := &Memory{Projects: map[string]*File{"big": f}}
	before := len(f.Format()) / 4
	s := DefaultSettings()
	s.Synthesis.MaxFileTokens = before * 4 / 5
	ops := Prune(m, s, today)
	if len(ops) == 0 {
		t.Fatalf("no prune at %d tokens > %d", before, s.Synthesis.MaxFileTokens)
	}
	if after := len(f.Format()) / 4; after > s.Synthesis.MaxFileTokens {
		t.Fatalf("file at %d tokens after prune, max %d", after, s.Synthesis.MaxFileTokens)
	}
	// Commands go before errors, oldest first; none of the last 30 days.
	prev := ""
	for i, op := range ops {
		if op.Kind != "prune" || op.Learning.Type != Command {
			t.Fatalf("op %d %+v: want commands pruned first", i, op)
		}
		if prev != "" && op.Learning.Date < prev {
			t.Fatalf("op %d pruned %s after %s: want oldest first", i, op.Learning.Date, prev)
		}
		prev = op.Learning.Date
		if age, _ := daysBetween(op.Learning.Date, today); age <= 30 {
			t.Fatalf("pruned an entry %d days old", age)
		}
	}
	if !strings.HasPrefix(ops[0].Reason, fmt.Sprintf("file at %d tokens > max %d", before, s.Synthesis.MaxFileTokens)) {
		t.Fatalf("reason %q", ops[0].Reason)
	}
	if n := strings.Count(m.Archive.Format(), "*Source: big-long-term-memory.md*"); n != len(ops) {
		t.Fatalf("archive holds %d pruned entries, want %d", n, len(ops))
	}
	t.Run("ErrorsLastRecentKept", func(t *testing.T) {
		f := bigProject(t, []Type{Error, Command}, 20, today)
		m := &Memory{Projects: map[string]*File{"big": f}}
		s := DefaultSettings()
		s.Synthesis.MaxFileTokens = 1
		ops := Prune(m, s, today)
		sawErr := false
		for _, op := range ops {
			if op.Learning.Type == Error {
				sawErr = true
			} else if sawErr {
				t.Fatalf("a command pruned after an error: %+v", op)
			}
		}
		left := f.Learnings("")
		for _, l := range left {
			if age, _ := daysBetween(l.Date, today); age > 30 {
				t.Fatalf("left %+v (age %d) in a file over the bound", l, age)
			}
		}
		if len(left) != 2*11 { // days 0, 3, …, 30 of both types
			t.Fatalf("left %d learnings, want the 22 of the last 30 days", len(left))
		}
	})
	t.Run("UnderBound", func(t *testing.T) {
		m := &Memory{Projects: map[string]*File{"big": bigProject(t, []Type{Command}, 3, today)}}
		if ops := Prune(m, DefaultSettings(), today); len(ops) != 0 {
			t.Fatalf("ops %+v under the bound", ops)
		}
	})
}

// word spells i in letters, so that the stemmer keeps it.
func word(i int) string {
	return string(rune('a'+i%26)) + string(rune('a'+i/26)) + "x"
}

// BenchmarkSynthesisDecisions routes 20 learnings into, then prunes and
// decays, a project file of 200 entries (about 12k tokens).
func BenchmarkSynthesisDecisions(b *testing.B) {
	base := bigProject(b, []Type{Error, Command, DataQuirk, Decision}, 50, today).Format()
	var news []Learning
	for i := range 20 {
		news = append(news, Learning{Title: "new subject " + word(i+100), Scope: "big", Type: BestPractice, Description: "fresh " + word(i+200)})
	}
	b.ResetTimer()
	for b.Loop() {
		f, err := ParseFile(ProjectFile, ProjectFileName("big"), "big", base)
		if err != nil {
			b.Fatal(err)
		}
		m := &Memory{Projects: map[string]*File{"big": f}}
		Route(m, news, today)
		Prune(m, DefaultSettings(), today)
		Decay(m, DefaultSettings(), today)
		_ = f.Format()
	}
}

// TestDecay_IdempotentAfterCrash replays a crash between the archive's
// write and the long-term file's: the file comes back as it was, decay runs
// again (a day later too), and the archive still holds each learning once.
func TestDecay_IdempotentAfterCrash(t *testing.T) {
	t.Parallel()
	old := "2025-01-01"
	text := strings.NewReplacer("(2026-02-01)", "("+old+")", "(2026-02-03)", "("+old+")").Replace(handGlobal)
	m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
	first := Decay(m, DefaultSettings(), today)
	if len(first) != 3 {
		t.Fatalf("ops %+v, want 3 archived", first)
	}
	archived := m.Archive.Format()
	for _, day := range []string{today, "2026-03-02"} {
		m.Global = mustParse(t, GlobalFile, GlobalFileName, "", text) // the long-term write was lost
		ops := Decay(m, DefaultSettings(), day)
		if len(ops) != 3 || !strings.Contains(ops[0].Reason, "already in the archive") {
			t.Fatalf("%s: ops %+v, want 3 archive ops saying already archived", day, ops)
		}
		if got := m.Archive.Format(); got != archived {
			t.Fatalf("%s: archive changed on the replay:\n%s\nwant\n%s", day, got, archived)
		}
		if n := len(m.Archive.Learnings()); n != 3 {
			t.Fatalf("%s: archive holds %d learnings, want 3", day, n)
		}
		if ls := m.Global.Learnings(ErrorPatterns); len(ls) != 0 {
			t.Fatalf("%s: decayed entry stayed: %+v", day, ls)
		}
	}
}

// TestArchive_SameTitleOtherLearning: two different learnings that share a
// title and a date are both archived: only the same learning (type and
// description too) is "already in the archive".
func TestArchive_SameTitleOtherLearning(t *testing.T) {
	t.Parallel()
	text := "# Global Long-Term Memory\n\n## Key Learnings\n" +
		"- **Postgres upgrade** [global/command] (2025-01-01): pg_upgrade --link is fast\n\n" +
		"## Error Patterns to Avoid\n" +
		"- **Postgres upgrade** [global/error] (2025-01-01): extensions must be upgraded first\n"
	m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
	ops := Decay(m, DefaultSettings(), today)
	if len(ops) != 2 {
		t.Fatalf("ops %+v", ops)
	}
	for _, op := range ops {
		if strings.Contains(op.Reason, "already in the archive") {
			t.Fatalf("a different learning was taken for archived: %+v", op)
		}
	}
	if n := len(m.Archive.Learnings()); n != 2 {
		t.Fatalf("archive holds %d learnings, want 2:\n%s", n, m.Archive.Format())
	}
}
