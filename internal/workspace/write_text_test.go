package workspace

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

func TestTranscripts_Days(t *testing.T) {
	tr := Transcripts{Loc: time.UTC}
	today := time.Now().UTC().Format(time.DateOnly)
	days, err := tr.Days([]string{"2026-11-20", "today"})
	if err != nil || strings.Join(days, " ") != "2026-11-20 "+today {
		t.Errorf("Days = %q, %v; want [2026-11-20 %s]", days, err, today)
	}
	if days, err := tr.Days(nil); err != nil || days != nil {
		t.Errorf("Days(nil) = %q, %v; want nil (every pending day)", days, err)
	}
	_, err = tr.Days([]string{"2026-11-20", "someday"})
	if err == nil || !strings.Contains(hint.Of(err), "YYYY-MM-DD") {
		t.Errorf("Days(someday) = %v (hint %q); want an error with the date format as hint", err, hint.Of(err))
	}
}

func TestWriteDone(t *testing.T) {
	results := []DoneResult{
		{Date: "2026-11-19"},
		{Date: "2026-11-20", Marked: 3, Archived: []string{"a.jsonl", "b.jsonl"}, Left: 1},
		{Date: "2026-11-21", Marked: 1, Left: 2},
	}
	var out strings.Builder
	var warnings []string
	warn := func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) }
	if err := WriteDone(&out, results, "/arch", warn); err != nil {
		t.Fatal(err)
	}
	want := "Nothing pending on 2026-11-19.\n" +
		"Marked 2026-11-20 done: 3 messages.\n" +
		"Archived 2 transcripts to /arch/2026-11-20.\n" +
		"Marked 2026-11-21 done: 1 message.\n"
	if out.String() != want {
		t.Errorf("WriteDone wrote\n%s\nwant\n%s", out.String(), want)
	}
	wantWarn := []string{
		"1 message of 2026-11-20 arrived after the last extract and stays pending; run 'memdir transcripts extract 2026-11-20'",
		"2 messages of 2026-11-21 arrived after the last extract and stay pending; run 'memdir transcripts extract 2026-11-21'",
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarn, "\n") {
		t.Errorf("warnings = %q, want %q", warnings, wantWarn)
	}
}

func TestWriteProjectsAndKnownProjects(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	ix := sessions.ProjectsIndex{Projects: map[string]*sessions.Project{
		"/src/old": {Name: "old", OriginalPath: "/src/old", WorkDays: []string{"2026-11-01"}, LastSeen: now.AddDate(0, 0, -19)},
		"/src/api": {Name: "api", OriginalPath: "/src/api", WorkDays: []string{"2026-11-19", "2026-11-20"}, LastSeen: now},
	}}
	var b strings.Builder
	if err := WriteProjectsIndex(&b, "/home/memory/projects-index.json", ix); err != nil {
		t.Fatal(err)
	}
	want := "Built project index: /home/memory/projects-index.json\nProjects found: 2\n" +
		"  api: 2 work days (/src/api)\n  old: 1 work day (/src/old)\n"
	if b.String() != want {
		t.Errorf("WriteProjectsIndex wrote\n%s\nwant\n%s", b.String(), want)
	}

	for _, tc := range []struct {
		name     string
		projects []KnownProject
		want     string
	}{
		{"none", nil, "No projects known yet: no transcript under the agent home.\n"},
		{"some", KnownProjects(ix), "## Known Projects\n\n" +
			"- **api** (2 work days, latest: 2026-11-20) `/src/api`\n" +
			"- **old** (1 work day, latest: 2026-11-01) `/src/old`\n"},
	} {
		var b strings.Builder
		if err := WriteKnownProjects(&b, tc.projects); err != nil || b.String() != tc.want {
			t.Errorf("%s: WriteKnownProjects wrote %q, %v; want %q", tc.name, b.String(), err, tc.want)
		}
	}
}

func TestExtractResult_WriteText(t *testing.T) {
	mem := extract.Candidate{Type: "feedback", Description: "use tabs"}
	plan := []extract.Action{
		{Op: extract.Create, Memory: mem, Reason: "new"},
		{Op: extract.Update, Target: "tabs.md", Memory: mem, Reason: "same statement"},
		{Op: extract.Supersede, Target: "spaces.md", Memory: mem, Reason: "contradicts"},
	}
	for _, tc := range []struct {
		name   string
		res    ExtractResult
		dryRun bool
		want   string
	}{
		{"staged", ExtractResult{Staged: true, Targets: []string{"a", "b"}}, false,
			"Another extraction is running: staged 2 transcript(s) for it.\n"},
		{"nothing", ExtractResult{Reports: []ExtractReport{{Ran: true}}}, false, "Saved no memories.\n"},
		{"one saved", ExtractResult{Reports: []ExtractReport{{Saved: []string{"a.md"}}}}, false, "Saved 1 memory: a.md\n"},
		{"all kinds", ExtractResult{Reports: []ExtractReport{
			{Saved: []string{"a.md"}, Updated: []string{"u.md"}},
			{Saved: []string{"b.md"}, Superseded: []string{"s.md", "t.md"}},
		}}, false, "Saved 2 memories: a.md, b.md\nUpdated u.md\nSuperseded s.md, t.md\n"},
		{"plan not shown without dry run", ExtractResult{Reports: []ExtractReport{{Plan: plan}}}, false, "Saved no memories.\n"},
		{"dry run", ExtractResult{Reports: []ExtractReport{{Plan: plan}}}, true,
			"would save [feedback] use tabs (new)\n" +
				"would update tabs.md with [feedback] use tabs (same statement)\n" +
				"would supersede spaces.md with [feedback] use tabs (contradicts)\n"},
	} {
		var b strings.Builder
		if err := tc.res.WriteText(&b, tc.dryRun); err != nil || b.String() != tc.want {
			t.Errorf("%s: WriteText wrote %q, %v; want %q", tc.name, b.String(), err, tc.want)
		}
	}
}

func TestRecallReport_WriteExplain(t *testing.T) {
	var b strings.Builder
	if err := (RecallReport{Terms: []string{"tab", "indent"}}).WriteExplain(&b); err != nil {
		t.Fatal(err)
	}
	if want := "query terms: tab indent\nno memory holds any of them\n"; b.String() != want {
		t.Errorf("WriteExplain wrote %q, want %q", b.String(), want)
	}
	r := RecallReport{Terms: []string{"tab"}, Memories: 1, Considered: 2, Tokens: 42, Candidates: []RecallCandidate{
		{File: "tabs.md", Score: 2.5, Coverage: 1, Why: "kept", ByField: map[string]float64{"name": 1, "description": 0.5, "body": 1}},
		{File: "a-much-longer-name.md", Score: 0.25, Coverage: 0.5, Why: "below threshold"},
	}}
	b.Reset()
	if err := r.WriteExplain(&b); err != nil {
		t.Fatal(err)
	}
	want := "query terms: tab\n" +
		"file                   score  name   description  body   coverage  decision\n" +
		"tabs.md                2.500  1.000  0.500        1.000  1.00      kept\n" +
		"a-much-longer-name.md  0.250  0.000  0.000        0.000  0.50      below threshold\n" +
		"1 of 2 candidates kept, 42 tokens\n"
	if b.String() != want {
		t.Errorf("WriteExplain wrote\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteSearchSummary(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stats   search.Stats
		verbose bool
		want    string
	}{
		{"no match", search.Stats{Files: 3, Bytes: 2_500_000}, false, "No matches in 3 transcripts (2.5 MB).\n"},
		{"results, piped", search.Stats{Files: 3, Bytes: 2_500_000, Results: 2}, false, ""},
		{"results, terminal", search.Stats{Files: 1, Bytes: 50_000, Results: 1}, true, "1 result in 1 transcript (0.1 MB) in 1.235s\n"},
	} {
		var b strings.Builder
		if err := WriteSearchSummary(&b, tc.stats, 1234567*time.Microsecond, tc.verbose); err != nil || b.String() != tc.want {
			t.Errorf("%s: WriteSearchSummary wrote %q, %v; want %q", tc.name, b.String(), err, tc.want)
		}
	}
}

func TestWriteMemoryHits(t *testing.T) {
	var out, errw strings.Builder
	if err := WriteMemoryHits(&out, &errw, nil, 4); err != nil || out.String() != "" || errw.String() != "No matches in 4 memory files.\n" {
		t.Errorf("no hits: wrote %q and %q on errw, %v", out.String(), errw.String(), err)
	}
	out.Reset()
	errw.Reset()
	hits := []MemoryHit{{File: "tabs.md", Line: 3, Text: "use tabs"}, {File: "go.md", Line: 1, Text: "go 1.26"}}
	if err := WriteMemoryHits(&out, &errw, hits, 4); err != nil || out.String() != "tabs.md:3: use tabs\ngo.md:1: go 1.26\n" || errw.String() != "" {
		t.Errorf("hits: wrote %q and %q on errw, %v", out.String(), errw.String(), err)
	}
}

func TestWriteIndexCheck(t *testing.T) {
	usage := memdir.Usage{Lines: 50, Chars: 5000, LineRatio: 0.25, CharRatio: 0.2}
	for _, tc := range []struct {
		name string
		r    memdir.IndexReport
		want string
	}{
		{"healthy", memdir.IndexReport{Exists: true, Usage: usage}, "MEMORY.md: 50/200 lines (25%), 5000/25000 characters (20%)\n"},
		{"every problem", memdir.IndexReport{Usage: usage, Dangling: []string{"gone.md"}, Orphans: []string{"new.md"},
			Duplicates: []string{"twice.md"}, LeftOut: 3, Loaded: memdir.Loaded{Truncated: true, Warning: "cut at 200 lines"}},
			"MEMORY.md: 50/200 lines (25%), 5000/25000 characters (20%)\n" +
				"  missing: it will be rebuilt from the files on the next save or 'memdir index'\n" +
				"  dangling: a line points at gone.md, which does not exist\n" +
				"  orphan: new.md has no index line\n" +
				"  duplicate: twice.md is listed more than once\n" +
				"  full: 3 memories have no line (it holds the most useful; 'memdir list' finds the others)\n" +
				"  truncated: cut at 200 lines\n"},
	} {
		var b strings.Builder
		if err := WriteIndexCheck(&b, tc.r); err != nil || b.String() != tc.want {
			t.Errorf("%s: WriteIndexCheck wrote\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
	}
	// Near a cap, without a problem, it says how near.
	near := memdir.IndexReport{Exists: true, Usage: memdir.IndexUsage(strings.Repeat("- [x](x.md) — a line\n", 190))}
	var b strings.Builder
	if err := WriteIndexCheck(&b, near); err != nil || !strings.Contains(b.String(), "\n  near cap: ") {
		t.Errorf("near cap: wrote %q, %v; want a near cap line", b.String(), err)
	}
}

func TestWriteRebuildAndProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  memdir.RebuildResult
		want string
	}{
		{"unchanged", memdir.RebuildResult{}, "MEMORY.md is up to date\n"},
		{"changed, full", memdir.RebuildResult{Changed: true, Added: []string{"a.md", "b.md"}, Removed: []string{"c.md"}, LeftOut: 7},
			"rebuilt MEMORY.md: 2 added, 1 removed\n" +
				"7 of the memories have no line: MEMORY.md holds the most useful (at most 140 lines); 'memdir list' and 'memdir recall QUERY' find the others\n"},
	} {
		var b strings.Builder
		if err := WriteRebuild(&b, tc.res); err != nil || b.String() != tc.want {
			t.Errorf("%s: WriteRebuild wrote %q, %v; want %q", tc.name, b.String(), err, tc.want)
		}
	}
	if err := RebuildProblem(memdir.RebuildResult{}); err != nil {
		t.Errorf("RebuildProblem of a full read = %v, want nil", err)
	}
	err := RebuildProblem(memdir.RebuildResult{Skipped: []string{"bad.md", "worse.md"}})
	var he *hint.Error
	if err == nil || !errors.As(err, &he) ||
		err.Error() != "2 memory files could not be read; their index lines were kept: bad.md, worse.md" ||
		!strings.HasPrefix(hint.Of(err), "'memdir doctor' says why") {
		t.Errorf("RebuildProblem = %v (hint %q)", err, hint.Of(err))
	}
}
