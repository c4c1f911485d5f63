package learning

import (
	"fmt"
	"strings"
	"testing"
)

const today = "2026-03-01"

func TestRoute_EveryScopeAndType(t *testing.T) {
	t.Parallel()
	want := map[Kind]map[Type]string{
		GlobalFile:  {Error: ErrorPatterns, BestPractice: BestPractices, DataQuirk: KeyLearnings, Decision: PatternsPrefs, Command: KeyLearnings},
		ProjectFile: {Error: ErrorPatterns, BestPractice: BestPractices, DataQuirk: DataQuirks, Decision: KeyDecisions, Command: UsefulCommands},
	}
	// Distinct subjects, so that no learning is a duplicate of another.
	subjects := map[Type]string{Error: "Kafka offsets reset", BestPractice: "Terraform plan review", DataQuirk: "Timezone drift in exports",
		Decision: "Postgres over MySQL", Command: "Grep logs with ripgrep"}
	for _, scope := range []string{Global, "granada"} {
		for _, typ := range Types {
			t.Run(scope+"/"+string(typ), func(t *testing.T) {
				m := &Memory{}
				l := Learning{Title: subjects[typ], Scope: scope, Type: typ, Date: "2026-02-28", Description: "about " + subjects[typ], Lesson: "remember it"}
				ops := Route(m, []Learning{l}, today)
				kind, file := GlobalFile, m.Global
				if scope != Global {
					kind, file = ProjectFile, m.Projects[scope]
				}
				sec := want[kind][typ]
				if SectionFor(kind, typ) != sec {
					t.Fatalf("SectionFor(%v, %s)=%q, want %q", kind, typ, SectionFor(kind, typ), sec)
				}
				if len(ops) != 1 || ops[0].Kind != "add" || ops[0].Section != sec || ops[0].File != file.Name {
					t.Fatalf("ops %+v, want one add to %s ## %s", ops, file.Name, sec)
				}
				got := file.Learnings(sec)
				if len(got) != 1 || got[0].Title != l.Title || got[0].Lesson != "remember it" {
					t.Fatalf("## %s holds %+v", sec, got)
				}
				if n := len(file.Learnings("")); n != 1 {
					t.Fatalf("file holds %d learnings, want 1", n)
				}
				footer := "*Last synthesized: " + today + "*"
				if kind == ProjectFile {
					footer = "*Last updated: " + today + "*"
				}
				if !strings.Contains(file.Format(), footer) {
					t.Fatalf("footer not dated:\n%s", file.Format())
				}
			})
		}
	}
}

func TestRoute_KeepsBytesAndOrder(t *testing.T) {
	t.Parallel()
	g := mustParse(t, GlobalFile, GlobalFileName, "", handGlobal)
	m := &Memory{Global: g}
	ops := Route(m, []Learning{
		{Title: "Flaky network in CI", Scope: Global, Type: Error, Date: "2026-02-28", Description: "Retries hide real failures", Lesson: "Fail fast"},
		{Title: "Zombie processes", Scope: Global, Type: Error, Description: "Children outlive the runner"},
	}, today)
	if len(ops) != 2 || ops[0].Kind != "add" || ops[1].Kind != "add" || ops[1].Learning.Date != today {
		t.Fatalf("ops %+v", ops)
	}
	got := g.Format()
	want := strings.Replace(handGlobal, "<!-- Subject to 30-day decay -->\n", "<!-- Subject to 30-day decay -->\n"+
		"- **Flaky network in CI** [global/error] (2026-02-28): Retries hide real failures\n  - Lesson: Fail fast\n"+
		"- **Zombie processes** [global/error] ("+today+"): Children outlive the runner\n", 1)
	want = strings.Replace(want, "*Last synthesized: 2026-02-03*", "*Last synthesized: "+today+"*", 1)
	if got != want {
		t.Fatalf("Route changed more than its entries:\n%s\nwant\n%s", got, want)
	}
}

func TestRoute_Dedupe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		l    Learning
		skip bool
	}{
		{"SameTitleOtherWords", Learning{Title: "Permission glob syntax", Scope: Global, Type: Error, Description: "globs again", Lesson: "slash"}, true},
		{"Reworded", Learning{Title: "Glob syntax for permissions", Scope: Global, Type: BestPractice, Description: "Used :* where /* was needed in permission globs",
			Lesson: "Use / as the path separator in permission globs"}, true},
		{"InPinned", Learning{Title: "Subagent permissions via PreToolUse hook", Scope: Global, Type: BestPractice, Description: "Subagents don't inherit permissions",
			Lesson: "Use PreToolUse hooks with permissionDecision allow"}, true},
		{"Different", Learning{Title: "Docker layer caching", Scope: Global, Type: BestPractice, Description: "Order Dockerfile steps by change frequency",
			Lesson: "Copy go.mod before the source"}, false},
		{"SameWordsOtherTopic", Learning{Title: "Permission denied on socket", Scope: Global, Type: Error, Description: "docker.sock needs the docker group",
			Lesson: "Add the user to the docker group"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(handGlobal, "## Best Practices\n- **PreToolUse", "## Pinned\n- **PreToolUse", 1)
			m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
			ops := Route(m, []Learning{tt.l}, today)
			if got := ops[0].Kind == "skip"; got != tt.skip || len(ops) != 1 {
				t.Fatalf("ops %+v, want skip=%v", ops, tt.skip)
			}
			if tt.skip && (!strings.Contains(ops[0].Reason, "already in ## ") || m.Global.Format() != text) {
				t.Fatalf("skip changed the file or has reason %q", ops[0].Reason)
			}
		})
	}
	t.Run("SameCall", func(t *testing.T) {
		m := &Memory{}
		a := Learning{Title: "Vacuum after bulk delete", Scope: "granada", Type: BestPractice, Description: "Tables bloat after bulk deletes"}
		b := Learning{Title: "vacuum  after BULK delete", Scope: "granada", Type: BestPractice, Description: "run VACUUM"}
		ops := Route(m, []Learning{a, b}, today)
		if len(ops) != 2 || ops[0].Kind != "add" || ops[1].Kind != "skip" {
			t.Fatalf("ops %+v", ops)
		}
		if again := Route(m, []Learning{a}, today); len(again) != 1 || again[0].Kind != "skip" {
			t.Fatalf("second route %+v, want a skip", again)
		}
	})
}

func TestRoute_ContradictionUpdate(t *testing.T) {
	t.Parallel()
	base := `# granada

## Pinned
- **Always use the staging replica** [granada/decision] (2026-01-05): Query the staging replica for analytics
  - *Pinned: by the user (2026-01-06)*

## Error Patterns to Avoid
- **Arrow export broken** [granada/error] (2026-02-01): The Arrow exporter is broken on Windows paths
  - Lesson: Export CSV on Windows
- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP

## Best Practices
- **Use pandas for the claims join** [granada/best-practice] (2026-02-02): Use pandas to join claims and policies
`
	tests := []struct {
		name    string
		l       Learning
		op      string
		section string
		gone    string
	}{
		{"BrokenToFixed", Learning{Title: "Arrow export fixed", Scope: "granada", Type: BestPractice, Description: "The Arrow exporter works now on Windows paths"},
			"update", ErrorPatterns, "Arrow export broken"},
		{"UseToDont", Learning{Title: "Don't use pandas for the claims join", Scope: "granada", Type: BestPractice, Description: "Avoid pandas to join claims and policies: it runs out of memory"},
			"update", BestPractices, "Use pandas for the claims join"},
		// A user-pinned entry is never replaced: the contradiction is added,
		// its reason names the pinned entry (see TestRoute_NeverReplaces).
		{"PinnedSameScope", Learning{Title: "Never use the staging replica", Scope: "granada", Type: Decision, Description: "The staging replica is no longer refreshed; query prod read-only"},
			"add", KeyDecisions, ""},
		{"Unrelated", Learning{Title: "Claims dates are UTC", Scope: "granada", Type: DataQuirk, Description: "All claim timestamps are stored in UTC"},
			"add", DataQuirks, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, ProjectFile, ProjectFileName("granada"), "granada", base)
			m := &Memory{Projects: map[string]*File{"granada": f}}
			ops := Route(m, []Learning{tt.l}, today)
			if len(ops) != 1 || ops[0].Kind != tt.op || ops[0].Section != tt.section {
				t.Fatalf("ops %+v, want %s in ## %s", ops, tt.op, tt.section)
			}
			out := f.Format()
			if tt.gone == "" {
				return
			}
			if strings.Contains(out, tt.gone) || !strings.Contains(ops[0].Reason, tt.gone) || !strings.Contains(ops[0].Reason, tt.l.Title) {
				t.Fatalf("old entry still there or reason %q does not quote both:\n%s", ops[0].Reason, out)
			}
			got := f.Learnings(tt.section)
			if got[0].Title != tt.l.Title {
				t.Fatalf("## %s starts with %q, want the update in place", tt.section, got[0].Title)
			}
			if !strings.Contains(out, "- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP\n") {
				t.Fatalf("untouched entry changed:\n%s", out)
			}
			// The replaced entry is not lost: it is in the archive, with
			// its source and what replaced it.
			arch := m.Archive.Learnings()
			if len(arch) != 1 || arch[0].Title != tt.gone || arch[0].Archived != today {
				t.Fatalf("archive %+v, want %q under %s", arch, tt.gone, today)
			}
			if !strings.Contains(m.Archive.Format(), "  - *Source: granada-long-term-memory.md*\n  - *Replaced by: "+tt.l.Title+" ("+today+")*\n") {
				t.Fatalf("archive lacks the Source and Replaced by notes:\n%s", m.Archive.Format())
			}
		})
	}
	t.Run("PinnedOtherScopeUntouched", func(t *testing.T) {
		g := NewGlobal()
		g.doc.section(Pinned).insert(1, newItem(Learning{Title: "Always use the staging replica", Scope: "granada", Type: Decision, Date: "2026-01-05",
			Description: "Query the staging replica for analytics"}))
		m := &Memory{Global: g}
		ops := Route(m, []Learning{{Title: "Never use the staging replica", Scope: Global, Type: Decision, Description: "Staging replicas lag; query prod read-only"}}, today)
		if len(ops) != 1 || ops[0].Kind != "add" || !strings.Contains(g.Format(), "Always use the staging replica") {
			t.Fatalf("ops %+v, want an add that leaves the pinned entry of another scope", ops)
		}
	})
}

func TestRoute_InvalidSkipped(t *testing.T) {
	t.Parallel()
	m := &Memory{}
	ops := Route(m, []Learning{{Title: "T", Scope: "a/b", Type: Error, Description: "d"}, {Title: "T", Scope: "p", Type: "oops", Description: "d"}}, today)
	if len(ops) != 2 || ops[0].Kind != "skip" || ops[1].Kind != "skip" || len(m.Projects) != 0 {
		t.Fatalf("ops %+v projects %v", ops, m.Projects)
	}
}

func TestRoute_MissingSectionAdded(t *testing.T) {
	t.Parallel()
	text := "# Global Long-Term Memory\n\n## About Me\n- me\n\n## Error Patterns to Avoid\n- **E** [global/error] (2026-02-01): e\n"
	m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
	Route(m, []Learning{{Title: "Table-driven tests", Scope: Global, Type: BestPractice, Date: today, Description: "t.Run per case"},
		{Title: "Prefer rebase", Scope: Global, Type: Decision, Date: today, Description: "linear history"}}, today)
	want := "# Global Long-Term Memory\n\n## About Me\n- me\n\n## Patterns & Preferences\n<!-- Coding style, decision patterns -->\n" +
		"- **Prefer rebase** [global/decision] (" + today + "): linear history\n\n" +
		"## Error Patterns to Avoid\n- **E** [global/error] (2026-02-01): e\n\n## Best Practices\n<!-- Patterns and approaches that worked well -->\n" +
		"- **Table-driven tests** [global/best-practice] (" + today + "): t.Run per case\n\n---\n*Last synthesized: " + today + "*\n"
	if got := m.Global.Format(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if m.Projects == nil || len(m.Projects) != 0 {
		t.Fatalf("Projects %v", m.Projects)
	}
	p := &Memory{}
	Route(p, []Learning{{Title: "x", Scope: "alpha", Type: Command, Description: "y"}}, today)
	if p.Global != nil || p.Archive != nil {
		t.Fatalf("routing a project learning made a global file or an archive")
	}
}

func TestRoute_ContradictionNoLongerNeeded(t *testing.T) {
	t.Parallel()
	f := mustParse(t, ProjectFile, ProjectFileName("granada"), "granada", handProject)
	m := &Memory{Projects: map[string]*File{"granada": f}}
	// Another title, two thirds of the words: not the same subject enough
	// to replace the entry; the add says it may contradict it.
	ops := Route(m, []Learning{{Title: "Accident_Key filter no longer needed", Scope: "granada", Type: BestPractice,
		Description: "The CWOP rows were removed; joins without the Accident_Key filter work now"}}, today)
	if len(ops) != 1 || ops[0].Kind != "add" || !strings.Contains(ops[0].Reason, `may contradict "Missing Accident_Key check"`) {
		t.Fatalf("ops %+v, want an add that may contradict the error", ops)
	}
	// The same title but for polarity words, and the same object: replaced.
	ops = Route(m, []Learning{{Title: "Missing Accident_Key check no longer needed", Scope: "granada", Type: BestPractice,
		Description: "The CWOP rows were removed; joins without the Accident_Key filter work now"}}, today)
	if len(ops) != 1 || ops[0].Kind != "update" || ops[0].Section != ErrorPatterns {
		t.Fatalf("ops %+v, want an update in ## Error Patterns to Avoid", ops)
	}
	if got := f.Learnings(ErrorPatterns); len(got) != 1 || got[0].Title != "Missing Accident_Key check no longer needed" {
		t.Fatalf("## Error Patterns to Avoid = %+v", got)
	}
	// A flipped polarity ("always use" against "no longer needed") with two
	// shared subject words of five is not the same subject.
	l := Learning{Title: "CWOP rows for audits", Scope: "granada", Type: DataQuirk,
		Description: "Always use the CWOP rows for the yearly audits of claims"}
	if !flips(polarity(fullText(l)), polarity(fullText(f.Learnings(ErrorPatterns)[0]))) {
		t.Fatalf("test learning does not flip polarity")
	}
	ops = Route(m, []Learning{l}, today)
	if len(ops) != 1 || ops[0].Kind != "add" {
		t.Fatalf("ops %+v, want an add", ops)
	}
}

// TestRoute_NeverReplaces holds the contradictions that replaced
// compatible entries: protected sections are never updated, and a shared
// word or two is not the same subject. Each old entry stays as it was.
func TestRoute_NeverReplaces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, section, entry string
		l                    Learning
		maybe                bool // the add's reason names the entry
	}{
		{"AboutMe", AboutMe, "- **Vim for Go** [global/decision] (2026-01-05): I use vim for Go code editing",
			Learning{Title: "Vim for Go", Scope: Global, Type: Decision, Description: "I don't use vim for Go code editing anymore"}, true},
		{"AboutMeOtherObject", AboutMe, "- **Editor** [global/decision] (2026-01-05): I use vim for Go code editing",
			Learning{Title: "No vim for markdown", Scope: Global, Type: Decision, Description: "I don't use vim for markdown"}, false},
		{"CurrentProjects", CurrentProjects, "- **Granada** [global/decision] (2026-01-05): Always use the claims warehouse",
			Learning{Title: "Granada", Scope: Global, Type: BestPractice, Description: "Never use the claims warehouse"}, true},
		{"PinnedByUser", Pinned, "- **Named volumes for postgres** [global/best-practice] (2026-01-05): Use named docker volumes for postgres data\n  - *Pinned: by the user (2026-01-06)*",
			Learning{Title: "Bind mounts for source", Scope: Global, Type: BestPractice, Description: "Bind mounts are fine for source code, not for postgres data: don't use them there"}, false},
		{"PinnedSameTitle", Pinned, "- **Named volumes for postgres** [global/best-practice] (2026-01-05): Use named docker volumes for postgres data\n  - *Pinned: by the user (2026-01-06)*",
			Learning{Title: "Named volumes for postgres", Scope: Global, Type: BestPractice, Description: "Don't use named docker volumes for postgres data"}, true},
		{"TableTests", BestPractices, "- **Use table tests for Go parsers** [global/best-practice] (2026-01-05): Table-driven tests keep parser cases short",
			Learning{Title: "Don't use table tests for CLI e2e", Scope: Global, Type: BestPractice, Description: "Table tests make CLI e2e failures hard to read"}, false},
		{"SameWordsOtherObject", BestPractices, "- **Vim for Go and markdown** [global/best-practice] (2026-01-05): Use vim for Go code",
			Learning{Title: "Vim for markdown", Scope: Global, Type: BestPractice, Description: "Don't use vim for markdown"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "# Global Long-Term Memory\n\n## " + tt.section + "\n" + tt.entry + "\n\n---\n*Last synthesized: 2026-02-01*\n"
			m := &Memory{Global: mustParse(t, GlobalFile, GlobalFileName, "", text)}
			ops := Route(m, []Learning{tt.l}, today)
			if len(ops) != 1 || ops[0].Kind != "add" {
				t.Fatalf("ops %+v, want one add", ops)
			}
			if !strings.Contains(m.Global.Format(), "\n"+tt.entry+"\n") || len(m.Global.Learnings(tt.section)) == 0 {
				t.Fatalf("the entry changed:\n%s", m.Global.Format())
			}
			ls := m.Global.Learnings(tt.section)
			old := ls[len(ls)-1].Title
			if got := strings.Contains(ops[0].Reason, "may contradict "+fmt.Sprintf("%q", old)); got != tt.maybe {
				t.Fatalf("reason %q, want it to name %q: %v", ops[0].Reason, old, tt.maybe)
			}
			if m.Archive != nil {
				t.Fatalf("archive written: %q", m.Archive.Format())
			}
		})
	}
}

func TestSameSubject(t *testing.T) {
	t.Parallel()
	l := func(title, desc string) *features {
		return featuresOf(Learning{Title: title, Scope: Global, Type: BestPractice, Description: desc})
	}
	tests := []struct {
		a, b *features
		want bool
	}{
		{l("Vim", "I use vim for Go code editing"), l("Vim", "I don't use vim for markdown"), true}, // the same title
		{l("Don't use vim!", "x"), l("don't  use VIM", "y"), true},
		{l("Editor choice", "I use vim for Go code editing"), l("Editor choice for notes", "I don't use vim for markdown"), false},
		{l("Vim for Go and markdown", "Use vim for Go code"), l("Vim for markdown", "Don't use vim for markdown"), false},
		{l("Arrow export broken", "The Arrow exporter is broken on Windows paths"), l("Arrow export fixed", "The Arrow exporter works now on Windows paths"), true},
		{l("Use table tests for Go parsers", "Table-driven tests for parsers"), l("Don't use table tests for CLI e2e", "Table tests hide CLI failures"), false},
		{l("Named volumes", "Use named docker volumes for postgres data"), l("Bind mounts", "Bind mounts are fine for source code, not for postgres data"), false},
		{l("Pandas join", "Use pandas to join claims and policies"), l("No pandas join", "Avoid pandas to join claims and policies: out of memory"), true},
	}
	for i, tt := range tests {
		if got := sameSubject(tt.a, tt.b); got != tt.want {
			t.Errorf("%d: sameSubject(%q, %q)=%v, want %v", i, tt.a.text, tt.b.text, got, tt.want)
		}
	}
}
