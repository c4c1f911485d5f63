package search_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/internal/corpus"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// reference searches the slow, obvious way: decode every line, match every
// line of its text.
func reference(t *testing.T, files []sessions.File, opt search.Options) []search.Result {
	t.Helper()
	m, err := search.NewMatcher(opt)
	if err != nil {
		t.Fatal(err)
	}
	var out []search.Result
	for _, f := range files {
		fh, err := os.Open(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		no := 0
		for sc.Scan() {
			no++
			msg, ok := transcript.LineMessage(f.Dialect, sc.Bytes())
			if !ok || (opt.Role != "" && msg.Role != opt.Role) || (!opt.Since.IsZero() && msg.Timestamp.Before(opt.Since)) {
				continue
			}
			if opt.Project != "" && msg.CWD != opt.Project && !strings.HasPrefix(msg.CWD, opt.Project+"/") {
				continue
			}
			for i, l := range strings.Split(msg.Text, "\n") {
				if m.Match(l) {
					out = append(out, search.Result{Path: f.Path, Dialect: f.Dialect, SessionID: f.SessionID, Project: msg.CWD,
						Role: msg.Role, Time: msg.Timestamp, Line: no, TextLine: i + 1, Text: l, Sidechain: msg.Sidechain})
				}
			}
		}
		fh.Close()
	}
	return out
}

func run(t *testing.T, files []sessions.File, opt search.Options) ([]search.Result, search.Stats) {
	t.Helper()
	var got []search.Result
	st, err := search.Run(context.Background(), files, opt, func(r search.Result) error {
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, st
}

// TestRun_MatchesReference checks the fast path (rare-byte finder, chunked
// reads, structural prefilter, parallel files) against the obvious search
// on a generated corpus of 6 MB.
func TestRun_MatchesReference(t *testing.T) {
	home := t.TempDir()
	cs, err := corpus.Generate(home, corpus.Options{Seed: 7, Bytes: 6e6, Projects: 3})
	if err != nil {
		t.Fatal(err)
	}
	files, errs := sessions.Discover(sessions.Roots{Claude: home})
	if len(errs) > 0 || len(files) != cs.Files {
		t.Fatalf("discovered %d files (%v), generated %d", len(files), errs, cs.Files)
	}
	anyCWD := ""
	for _, r := range reference(t, files, search.Options{Pattern: "the"}) {
		anyCWD = r.Project
		break
	}
	for _, opt := range []search.Options{
		{Pattern: corpus.Needle},
		{Pattern: "rollback"},
		{Pattern: "Rollback", IgnoreCase: true},
		{Pattern: "ROLLBACK commit", IgnoreCase: true},
		{Pattern: `roll(back|out)\b`, Regex: true},
		{Pattern: `pool (exhausted|drained)`, Regex: true},
		{Pattern: `(?i)ROLLBACK`, Regex: true},
		{Pattern: `CONNECTION POOL`, Regex: true, IgnoreCase: true},
		{Pattern: `worker\s+logs`, Regex: true},
		// Anchors act on each line of the text, as results are lines.
		{Pattern: `^[A-Z]\w+ the`, Regex: true},
		{Pattern: `\.$`, Regex: true},
		{Pattern: "Connection Pool", IgnoreCase: true},
		{Pattern: "The", IgnoreCase: true, Role: "assistant"},
		{Pattern: "the", Role: "user"},
		{Pattern: "cache", Project: anyCWD},
		{Pattern: "error", Since: time.Date(2026, 9, 3, 0, 0, 0, 0, time.UTC)},
		{Pattern: "x", Workers: 1},
		{Pattern: "never appears anywhere"},
	} {
		t.Run(fmt.Sprintf("%+v", opt), func(t *testing.T) {
			want := reference(t, files, opt)
			got, st := run(t, files, opt)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("results differ from the reference (-want +got):\n%s", diff)
			}
			if st.Results != len(want) || st.Files != len(files) {
				t.Errorf("stats %+v for %d results in %d files", st, len(want), len(files))
			}
		})
	}
	// The needle planted in tool output is not a result; the one in prompts is.
	got, _ := run(t, files, search.Options{Pattern: corpus.Needle})
	if len(got) != cs.Needles {
		t.Errorf("%d results for the needle, %d planted in prompts", len(got), cs.Needles)
	}
}

func TestRun_LongLinesAndBadInput(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("word ", 600_000) // 3 MB of text: past the first read
	rec := func(text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":"u","timestamp":"2026-11-20T10:00:00Z","cwd":"/p","sessionId":"s","message":{"role":"user","content":%q}}`, text)
	}
	lines := []string{
		rec("first needle here"),
		rec(big + "needle at the end of a long line"),
		"{torn json needle",
		rec("bad utf8 \xff needle"),
		rec(strings.Repeat("y", 200_000) + " needle past the cap"),
		rec("last needle"),
		rec("torn needle"),
	}
	body := strings.Join(lines[:6], "\n") + "\n" + lines[6][:40] // the last line is torn
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	f := sessions.File{Path: path, Dialect: transcript.ClaudeCode, SessionID: "s", Size: int64(len(body)), ModTime: time.Now()}
	got, _ := run(t, []sessions.File{f}, search.Options{Pattern: "needle", MaxLine: 4 << 20})
	var at []int
	for _, r := range got {
		at = append(at, r.Line)
	}
	// Line 5 is under the 4 MiB cap here; run again with a smaller cap.
	if diff := cmp.Diff([]int{1, 2, 5, 6}, at); diff != "" {
		t.Errorf("lines with results (-want +got):\n%s", diff)
	}
	got, _ = run(t, []sessions.File{f}, search.Options{Pattern: "needle", MaxLine: 100_000})
	at = nil
	for _, r := range got {
		at = append(at, r.Line)
	}
	// Lines 2 and 5 are over a 100 kB cap: skipped, and numbering goes on.
	if diff := cmp.Diff([]int{1, 6}, at); diff != "" {
		t.Errorf("with a 100 kB cap, lines with results (-want +got):\n%s", diff)
	}
}

func TestRun_LimitAndErrors(t *testing.T) {
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Seed: 3, Bytes: 2e6, Projects: 2}); err != nil {
		t.Fatal(err)
	}
	files, _ := sessions.Discover(sessions.Roots{Claude: home})
	got, st := run(t, files, search.Options{Pattern: "the", Limit: 5})
	if len(got) != 5 || st.Results != 5 {
		t.Errorf("--limit 5 gave %d results (%+v)", len(got), st)
	}
	// The limit stops the search inside a file, not only between files:
	// the first file's first five results, with fewer lines decoded.
	all, stAll := run(t, files[:1], search.Options{Pattern: "the"})
	first, stFirst := run(t, files[:1], search.Options{Pattern: "the", Limit: 5})
	if len(all) <= 10 {
		t.Fatalf("the first file has only %d results: the test needs more", len(all))
	}
	if diff := cmp.Diff(all[:5], first); diff != "" {
		t.Errorf("limited results are not the first ones (-want +got):\n%s", diff)
	}
	if stFirst.Decoded >= stAll.Decoded {
		t.Errorf("a limit of 5 decoded %d lines, the whole file %d", stFirst.Decoded, stAll.Decoded)
	}
	if _, err := search.Run(context.Background(), files, search.Options{Pattern: "(", Regex: true}, nil); err == nil {
		t.Error("a bad regular expression was accepted")
	}
	if _, err := search.Run(context.Background(), files, search.Options{}, nil); err == nil {
		t.Error("an empty pattern was accepted")
	}
	gone := append([]sessions.File{{Path: filepath.Join(home, "missing.jsonl")}}, files...)
	_, err := search.Run(context.Background(), gone, search.Options{Pattern: "the"}, func(r search.Result) error { return nil })
	if err == nil || !os.IsNotExist(errUnwrap(err)) {
		t.Errorf("a vanished file: err=%v, want not-exist", err)
	}
	if !regexp.MustCompile(`missing\.jsonl`).MatchString(fmt.Sprint(err)) {
		t.Errorf("the error does not name the file: %v", err)
	}
}

func errUnwrap(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

// TestRun_Folding: a regexp folds case as Go's regexp does (ſ is s, K is
// k), so its raw prefilter must not lose such lines; --ignore-case on an
// ASCII pattern folds ASCII letters only.
func TestRun_Folding(t *testing.T) {
	dir := t.TempDir()
	line := `{"type":"user","uuid":"u","timestamp":"2026-11-20T10:00:00Z","cwd":"/p","sessionId":"s","message":{"role":"user","content":"We loſt the \u212aey and the LOST key"}}` + "\n"
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	files := []sessions.File{{Path: path, Dialect: transcript.ClaudeCode, SessionID: "s", ModTime: time.Now()}}
	for _, tc := range []struct {
		opt  search.Options
		want int
	}{
		{search.Options{Pattern: "(?i)lost the key", Regex: true}, 1},
		{search.Options{Pattern: "lost the key", Regex: true, IgnoreCase: true}, 1},
		{search.Options{Pattern: "LOST KEY", IgnoreCase: true}, 1},
		{search.Options{Pattern: "lost the key", IgnoreCase: true}, 0}, // ASCII folding: ſ is not s
		{search.Options{Pattern: "loſt", IgnoreCase: true}, 1},
	} {
		got, _ := run(t, files, tc.opt)
		if len(got) != tc.want {
			t.Errorf("%+v: %d results, want %d", tc.opt, len(got), tc.want)
		}
	}
}

// TestRun_AnchorsPerLine: results are lines of a message's text, so ^ and $
// match at each line's start and end, not only the text's.
func TestRun_AnchorsPerLine(t *testing.T) {
	dir := t.TempDir()
	rec := func(role, text string) string {
		return fmt.Sprintf(`{"type":%q,"uuid":"u","timestamp":"2026-11-20T10:00:00Z","cwd":"/p","sessionId":"s","message":{"id":"m","role":%q,"content":%q}}`+"\n", role, role, text)
	}
	body := rec("user", "first line of the prompt\nTODO: migrate the database\nthen the TODO list") +
		rec("assistant", "Done.\nNext: the tests.\nTODO") +
		rec("user", "a TODO: in the middle")
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	files := []sessions.File{{Path: path, Dialect: transcript.ClaudeCode, SessionID: "s", ModTime: time.Now()}}
	for _, tc := range []struct {
		pattern string
		want    []string // the matching lines
	}{
		{`^TODO`, []string{"TODO: migrate the database", "TODO"}},
		{`^TODO$`, []string{"TODO"}},
		{`database$`, []string{"TODO: migrate the database"}},
		{`^Next:.*\.$`, []string{"Next: the tests."}},
		{`(?m)^todo`, nil},
		{`(?i)^todo:`, []string{"TODO: migrate the database"}},
		{`^first`, []string{"first line of the prompt"}},
	} {
		opt := search.Options{Pattern: tc.pattern, Regex: true}
		got, _ := run(t, files, opt)
		var lines []string
		for _, r := range got {
			lines = append(lines, r.Text)
		}
		if diff := cmp.Diff(tc.want, lines); diff != "" {
			t.Errorf("%s: matching lines (-want +got):\n%s", tc.pattern, diff)
		}
		if diff := cmp.Diff(reference(t, files, opt), got); diff != "" {
			t.Errorf("%s: results differ from the reference (-want +got):\n%s", tc.pattern, diff)
		}
	}
}

// TestRun_CodexLongSessionMeta: a rollout's first line (session_meta, with
// the instructions) can be far over 64 KiB; its id and working directory
// still name the session and project of the results.
func TestRun_CodexLongSessionMeta(t *testing.T) {
	dir := t.TempDir()
	meta := fmt.Sprintf(`{"timestamp":"2026-11-21T08:00:00.000Z","type":"session_meta","payload":{"id":"0199-abc","cwd":"/home/dev/web","instructions":%q}}`,
		"# AGENTS.md\n"+strings.Repeat("- a rule line for the project\n", 4000))
	msg := `{"timestamp":"2026-11-21T08:00:01.500Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"use pnpm for the login form"}]}}`
	path := filepath.Join(dir, "rollout-2026-11-21T08-00-00-abc.jsonl")
	if err := os.WriteFile(path, []byte(meta+"\n"+msg+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(meta) < 100<<10 {
		t.Fatalf("session_meta is %d bytes: the test needs over 64 KiB", len(meta))
	}
	files := []sessions.File{{Path: path, Dialect: transcript.Codex, ModTime: time.Now()}}
	got, _ := run(t, files, search.Options{Pattern: "pnpm"})
	if len(got) != 1 || got[0].SessionID != "0199-abc" || got[0].Project != "/home/dev/web" || got[0].Line != 2 {
		t.Fatalf("results = %+v, want one at line 2 of session 0199-abc in /home/dev/web", got)
	}
	if got, _ := run(t, files, search.Options{Pattern: "pnpm", Project: "/home/dev/web"}); len(got) != 1 {
		t.Fatalf("--project /home/dev/web: %d results, want 1", len(got))
	}
}
