package learning

import (
	"strings"
	"testing"
)

func TestPinUnpin(t *testing.T) {
	t.Parallel()
	f := mustParse(t, ProjectFile, ProjectFileName("granada"), "granada", handProject)
	m := &Memory{Projects: map[string]*File{"granada": f}}
	ops := Pin(m, "accident_KEY", "granada", today)
	if len(ops) != 1 || ops[0].Kind != "pin" || ops[0].Section != Pinned || !strings.Contains(ops[0].Reason, "## Error Patterns to Avoid") {
		t.Fatalf("Pin ops %+v", ops)
	}
	want := "# granada\n\n## Pinned\n<!-- These survive decay -->\n" +
		"- **Missing Accident_Key check** [granada/error] (2026-02-03): Joined without filtering CWOP\n" +
		"  - Lesson: Always filter Accident_Key != '99' before joins\n  - *Pinned: by the user (" + today + ")*\n\n" +
		"## Error Patterns to Avoid\n\n## Best Practices\n"
	if got := f.Format(); !strings.HasPrefix(got, want) {
		t.Fatalf("after Pin:\n%s\nwant prefix\n%s", got, want)
	}
	if again := Pin(m, "accident_key", "", today); len(again) != 0 {
		t.Fatalf("pinning a pinned learning again: %+v", again)
	}
	if none := Pin(m, "no such thing", "", today); len(none) != 0 {
		t.Fatalf("Pin with no match: %+v", none)
	}
	if other := Pin(m, "accident", "cartwheel", today); len(other) != 0 {
		t.Fatalf("Pin limited to another project: %+v", other)
	}

	ops = Unpin(m, "Accident_Key", "", today)
	if len(ops) != 1 || ops[0].Kind != "unpin" || ops[0].Section != ErrorPatterns {
		t.Fatalf("Unpin ops %+v", ops)
	}
	got := f.Learnings(ErrorPatterns)
	if len(got) != 1 || got[0].Lesson != "Always filter Accident_Key != '99' before joins" || len(got[0].Notes) != 0 || got[0].Date != "2026-02-03" {
		t.Fatalf("after Unpin ## Error Patterns to Avoid = %+v", got)
	}
	if len(f.Learnings(Pinned)) != 0 {
		t.Fatalf("Pinned still holds %+v", f.Learnings(Pinned))
	}
	if none := Unpin(m, "accident", "", today); len(none) != 0 {
		t.Fatalf("Unpin with nothing pinned: %+v", none)
	}
}

func TestPin_GlobalAddsPinnedAfterPatterns(t *testing.T) {
	t.Parallel()
	g := mustParse(t, GlobalFile, GlobalFileName, "", handGlobal)
	m := &Memory{Global: g}
	ops := Pin(m, "heap scans", "", today)
	if len(ops) != 1 {
		t.Fatalf("ops %+v", ops)
	}
	out := g.Format()
	i, j, k := strings.Index(out, "## Patterns & Preferences"), strings.Index(out, "## Pinned\n"), strings.Index(out, "## My Own Notes")
	if !(i < j && j < k) {
		t.Fatalf("## Pinned not right after Patterns & Preferences:\n%s", out)
	}
	if !strings.Contains(out, "## Pinned\n<!-- These survive decay -->\n- **Dataiku heap scans**") {
		t.Fatalf("pinned entry misplaced:\n%s", out)
	}
	// Unpin moves it back to the section of its type, at the top.
	Unpin(m, "heap", "", today)
	if ls := g.Learnings(KeyLearnings); len(ls) != 2 || ls[0].Title != "Dataiku heap scans" {
		t.Fatalf("Key Learnings after Unpin %+v", ls)
	}
}

const crossA = `# alpha

## Error Patterns to Avoid
- **Go test cache hides env changes** [alpha/error]: go test caches results across env var changes
  - Lesson: Run go test -count=1 after changing env
- **Never force push to main** [alpha/error]: A force push rewrote the release branch
- **Alpha-only thing** [alpha/command]: make alpha

## Useful Commands
- **Alpha build** [alpha/command] (2026-02-01): make build-alpha
`

const crossB = `# beta

## Pinned
<!-- These survive decay -->

## Best Practices
- **Go test cache hides env changes** [beta/best-practice] (2026-01-20): Go test caches results across env var changes
  - Lesson: run go test -count=1 after changing env

---
*Last updated: 2026-02-01*
`

func TestMigrate(t *testing.T) {
	t.Parallel()
	g := mustParse(t, GlobalFile, GlobalFileName, "", strings.Replace(handGlobal, "- macOS, zsh, Go 1.26\n", "- macOS, zsh, Go 1.26\n- **My role** [global/decision]: I am the team's data engineer\n", 1))
	a := mustParse(t, ProjectFile, ProjectFileName("alpha"), "alpha", crossA)
	b := mustParse(t, ProjectFile, ProjectFileName("beta"), "beta", crossB)
	m := &Memory{Global: g, Projects: map[string]*File{"alpha": a, "beta": b}}
	ops := Migrate(m, today)
	kinds := map[string]int{}
	for _, op := range ops {
		kinds[op.Kind+" "+op.File] = kinds[op.Kind+" "+op.File] + 1
	}
	// Pinned added to global and alpha; global's undated Key Learnings entry
	// and alpha's three undated entries dated; the go test cache learning
	// leaves alpha and beta for global Pinned; the force push learning is
	// pinned in alpha.
	want := map[string]int{
		"migrate " + GlobalFileName: 2, "migrate " + a.Name: 4,
		"pin " + GlobalFileName: 1, "pin " + a.Name: 2, "pin " + b.Name: 1,
	}
	if len(kinds) != len(want) {
		t.Fatalf("ops %v, want %v\n%+v", kinds, want, ops)
	}
	for k, n := range want {
		if kinds[k] != n {
			t.Fatalf("ops %v, want %v\n%+v", kinds, want, ops)
		}
	}
	gp := g.Learnings(Pinned)
	if len(gp) != 1 || gp[0].Scope != Global || gp[0].Lesson != "Run go test -count=1 after changing env" ||
		gp[0].Notes[0] != "*Pinned: in projects alpha, beta (migration "+today+")*" {
		t.Fatalf("global Pinned %+v", gp)
	}
	ap := a.Learnings(Pinned)
	if len(ap) != 1 || ap[0].Title != "Never force push to main" || ap[0].Date != today || ap[0].Notes[0] != "*Pinned: safety-critical (migration "+today+")*" {
		t.Fatalf("alpha Pinned %+v", ap)
	}
	if !strings.HasPrefix(a.Format(), "# alpha\n\n## Pinned\n<!-- These survive decay -->\n- **Never force push") {
		t.Fatalf("alpha's Pinned not right after the H1:\n%s", a.Format())
	}
	if !strings.Contains(a.Format(), "- **Alpha-only thing** [alpha/command] ("+today+"): make alpha\n") {
		t.Fatalf("undated learning not dated in place:\n%s", a.Format())
	}
	if len(b.Learnings("")) != 0 {
		t.Fatalf("beta still holds %+v", b.Learnings(""))
	}
	// The patterns section's identity line is auto-pinned already: untouched.
	if !strings.Contains(g.Format(), "- **My role** [global/decision]: I am the team's data engineer\n") {
		t.Fatalf("auto-pinned section changed:\n%s", g.Format())
	}
	for _, f := range []*File{g, a, b} {
		if _, err := ParseFile(f.Kind, f.Name, f.Project, f.Format()); err != nil {
			t.Fatalf("migrated %s does not parse: %v", f.Name, err)
		}
	}

	snap := []string{g.Format(), a.Format(), b.Format()}
	if again := Migrate(m, "2026-03-02"); len(again) != 0 {
		t.Fatalf("second Migrate ops %+v, want none", again)
	}
	if g.Format() != snap[0] || a.Format() != snap[1] || b.Format() != snap[2] {
		t.Fatalf("second Migrate changed a file")
	}
}

func TestPinReason(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"I'm a backend engineer":                    "identity",
		"My role is tech lead":                      "identity",
		"DROP TABLE without a backup":               "safety-critical",
		"Never commit credentials to the repo":      "safety-critical",
		"git push --force wiped a colleague's work": "safety-critical",
		"Prefer tabs over spaces":                   "",
		"Dropdown menus need aria labels":           "",
	} {
		if got := PinReason(Learning{Title: "t", Description: text}); got != want {
			t.Errorf("PinReason(%q)=%q, want %q", text, got, want)
		}
	}
}

func TestAlwaysLoaded(t *testing.T) {
	t.Parallel()
	if got := AlwaysLoaded(NewGlobal(), 1500); got != "" {
		t.Fatalf("AlwaysLoaded(template)=%q, want \"\"", got)
	}
	g := mustParse(t, GlobalFile, GlobalFileName, "", handGlobal)
	m := &Memory{Global: g}
	Pin(m, "PreToolUse", "", today)
	full := "## About Me\n- I am a data engineer at Acme.\n  - prefers terse answers\n\n## Current Projects\n- granada: claims analytics\n\n" +
		"## Technical Environment\n- macOS, zsh, Go 1.26\n\n## Patterns & Preferences\n- **Small commits** [global/decision] (2026-01-10): One logical change per commit\n" +
		"  - Lesson: Keep commits reviewable\n\n## Pinned\n- **PreToolUse hooks** [global/best-practice] (2026-02-01): Subagents don't inherit permissions\n" +
		"  - Lesson: Use PreToolUse hooks with permissionDecision allow\n  - *Pinned: by the user (" + today + ")*\n"
	if got := AlwaysLoaded(g, 1500); got != full {
		t.Fatalf("AlwaysLoaded:\n%s\nwant\n%s", got, full)
	}
	cut := AlwaysLoaded(g, 50)
	if len(cut) > 200 {
		t.Fatalf("AlwaysLoaded(50 tokens) is %d bytes", len(cut))
	}
	want := "## About Me\n- I am a data engineer at Acme.\n  - prefers terse answers\n\n## Current Projects\n- granada: claims analytics\n" +
		"(… 3 more entries in global-long-term-memory.md: memdir context shows them)\n"
	if cut != want {
		t.Fatalf("AlwaysLoaded(50):\n%s\nwant\n%s", cut, want)
	}
}

// TestOps_KeepHandWritten runs every decision on a hand-kept global file:
// what a person wrote that is not a learning stays, byte for byte.
func TestOps_KeepHandWritten(t *testing.T) {
	t.Parallel()
	g := mustParse(t, GlobalFile, GlobalFileName, "", handGlobal)
	m := &Memory{Global: g}
	s := DefaultSettings()
	s.Synthesis.MaxFileTokens = 100
	var ops []Op
	ops = append(ops, Migrate(m, today)...)
	ops = append(ops, Route(m, []Learning{{Title: "Retry with jitter", Scope: Global, Type: BestPractice, Description: "Exponential backoff with jitter"}}, today)...)
	ops = append(ops, Pin(m, "jitter", "", today)...)
	ops = append(ops, Unpin(m, "jitter", "", today)...)
	ops = append(ops, Prune(m, s, "2026-06-01")...)
	ops = append(ops, Decay(m, s, "2026-09-01")...)
	if len(ops) < 6 {
		t.Fatalf("only %d ops: the decisions did not run", len(ops))
	}
	out := g.Format()
	for _, keep := range []string{
		"# Global Long-Term Memory\n\nSome intro paragraph a person wrote.\n\n## About Me\n<!-- Who the user is -->\n- I am a data engineer at Acme.\n  - prefers terse answers\n",
		"## Current Projects\n- granada: claims analytics\n",
		"## My Own Notes\nFree text under a section memdir does not know.\n```\n## not a heading\n- **T** [global/nonsense]: inside a fence, not a learning\n```\n",
		"<!-- Subject to 30-day decay -->\n",
		"- a plain bullet, not a learning\n",
		"- **Small commits** [global/decision] (2026-01-10): One logical change per commit\n  - Lesson: Keep commits reviewable\n",
	} {
		if !strings.Contains(out, keep) {
			t.Fatalf("lost %q:\n%s", keep, out)
		}
	}
	if _, err := ParseFile(GlobalFile, GlobalFileName, "", out); err != nil {
		t.Fatalf("result does not parse: %v", err)
	}
	if _, err := ParseArchive(m.Archive.Format()); err != nil || len(m.Archive.Learnings()) != 5 {
		t.Fatalf("archive %v, %d learnings, want the 5 pruned or decayed:\n%s", err, len(m.Archive.Learnings()), m.Archive.Format())
	}
}
