package diary

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/memdir/memdir/internal/transcript"
)

// parseFixture parses testdata/name with the parser its dialect needs.
func parseFixture(t *testing.T, name string) *transcript.Session {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	parse := transcript.ParseClaude
	if strings.HasPrefix(name, "codex-") {
		parse = transcript.ParseCodex
	}
	s, err := parse(bytes.NewReader(b), transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func section(e Entry, title string) []string {
	for _, s := range e.Sections {
		if s.Title == title {
			return s.Items
		}
	}
	return nil
}

// On the transcript fixtures, the draft names the commands that failed
// and their errors, collapses retries, and says which command finally
// passed after which edits.
func TestDraftFrom_Fixtures(t *testing.T) {
	goNilMap := map[Kind][]string{
		Attempted: {"`go test ./...` — failed: panic: assignment to entry in nil map (2 tries)"},
		Worked:    {"`go test ./...` passed after changing store/store.go"},
		Mistakes:  {"`go test ./...` failed with panic: assignment to entry in nil map — gone after changing store/store.go"},
		Errors:    {"panic: assignment to entry in nil map"},
	}
	cases := []struct {
		file, task, outcome, date string
		want                      map[Kind][]string
		files                     []string
	}{
		{
			file: "go-nil-map.jsonl", task: "Add a Count method to Store that counts items per category.",
			outcome: OutcomeSuccess, date: "2026-11-24", want: goNilMap,
			files: []string{"store/store.go, store/store_test.go"},
		},
		{
			file: "ts-build.jsonl", task: "The build is broken after the price refactor, can you fix it?",
			outcome: OutcomeSuccess, date: "2026-11-25",
			want: map[Kind][]string{
				Attempted: {
					"`npm run build` — failed: error TS2322: Type 'string' is not assignable to type 'number'.",
					"`npm run build` — failed: error TS2307: Cannot find module './money-utils' or its corresponding type declarations.",
				},
				Worked: {"`npm run build` passed after changing src/cart.ts"},
				Mistakes: {
					"`npm run build` failed with error TS2322: Type 'string' is not assignable to type 'number'. — gone after changing src/cart.ts, src/money.ts",
					"`npm run build` failed with error TS2307: Cannot find module './money-utils' or its corresponding type declarations. — gone after changing src/cart.ts",
				},
				Errors: {
					"error TS2322: Type 'string' is not assignable to type 'number'.",
					"error TS2307: Cannot find module './money-utils' or its corresponding type declarations.",
				},
			},
			files: []string{"src/cart.ts, src/money.ts"},
		},
		{
			file: "py-still-failing.jsonl", task: "parse_date should accept ISO week dates like 2026-W05-3.",
			outcome: OutcomeFailed, date: "2026-11-26",
			want: map[Kind][]string{
				Attempted: {
					"`python -m pytest -q tests` — failed: ValueError: unsupported date format: '2026-W05-3'",
					"`python -m pytest -q tests` — failed: AssertionError: assert datetime.date(2026, 2, 4) == datetime.date(2026, 1, 28) (2 tries)",
				},
				Errors: {
					"ValueError: unsupported date format: '2026-W05-3'",
					"AssertionError: assert datetime.date(2026, 2, 4) == datetime.date(2026, 1, 28)",
				},
			},
			files: []string{"etl/dates.py"},
		},
		{
			file: "codex-go-nil-map.jsonl", task: "Fix the failing store tests.",
			outcome: OutcomeSuccess, date: "2026-11-28", want: goNilMap,
			files: []string{"store/store.go"},
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			s := parseFixture(t, c.file)
			e := DraftFrom(s, DraftOptions{Project: "demo"})
			if err := Validate(e); err != nil {
				t.Fatalf("the draft does not validate: %v\n%s", err, Format(e))
			}
			if e.Task != c.task || e.Outcome != c.outcome || e.Date != c.date || e.Session != s.ID || e.Project != "demo" {
				t.Errorf("task %q outcome %q date %q session %q project %q; want %q %q %q %q demo",
					e.Task, e.Outcome, e.Date, e.Session, e.Project, c.task, c.outcome, c.date, s.ID)
			}
			if !e.Draft() || e.Source != SourceTranscript {
				t.Errorf("status %q source %q: a heuristic draft is a draft from a transcript", e.Status, e.Source)
			}
			for _, k := range []Kind{Attempted, Worked, Mistakes, Errors, EdgeCases, Patterns} {
				if diff := cmp.Diff(c.want[k], e.Items(k)); diff != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", k.Title(), diff, Format(e))
				}
			}
			if diff := cmp.Diff(c.files, section(e, FilesTitle)); diff != "" {
				t.Errorf("files changed (-want +got):\n%s", diff)
			}
			back, err := Parse("draft.md", Format(e))
			if err != nil || !cmp.Equal(back.Items(Attempted), e.Items(Attempted)) {
				t.Errorf("the draft does not read back: %v", err)
			}
		})
	}
}

// A session that only read and answered has nothing to draft: no
// sections, so the caller says so instead of writing an empty entry.
func TestDraftFrom_ReadOnly(t *testing.T) {
	e := DraftFrom(parseFixture(t, "read-only.jsonl"), DraftOptions{Date: "2026-12-01"})
	if len(e.Sections) != 0 || e.Outcome != "" {
		t.Fatalf("a read-only session drafted outcome %q and:\n%s", e.Outcome, Format(e))
	}
	if e.Task != "Where do we configure the HTTP timeouts?" || e.Date != "2026-12-01" {
		t.Fatalf("task %q date %q", e.Task, e.Date)
	}
}

// Outcomes without a verdict from a verification command: edits alone are
// partial; a session that used no tool at all is abandoned.
func TestDraftFrom_OutcomeWithoutVerification(t *testing.T) {
	edits := &transcript.Session{ID: "s", CWD: "/r", Start: time.Date(2026, 3, 4, 23, 0, 0, 0, time.UTC), Messages: []transcript.Message{
		{Role: "user", Text: "rename the flag"},
		{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Edit", ID: "1", Summary: "file_path: /r/main.go"}}},
		{Role: "user", Tools: []transcript.ToolCall{{Name: "result", ID: "1", Summary: "The file /r/main.go has been updated."}}},
		{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Edit", ID: "2", Summary: "file_path: /r/gone.go"}}},
		{Role: "user", Tools: []transcript.ToolCall{{Name: "result", ID: "2", Summary: "File does not exist.", IsError: true}}},
	}}
	e := DraftFrom(edits, DraftOptions{})
	if e.Outcome != OutcomePartial || e.Date != "2026-03-04" || !cmp.Equal(section(e, FilesTitle), []string{"main.go"}) {
		t.Fatalf("edits without a check: outcome %q date %q files %q; want partial, the start's date, main.go only", e.Outcome, e.Date, section(e, FilesTitle))
	}
	idle := &transcript.Session{ID: "s", Messages: []transcript.Message{{Role: "user", Text: "hello"}, {Role: "assistant", Text: "Hi."}}}
	if e := DraftFrom(idle, DraftOptions{Date: "2026-03-04"}); e.Outcome != OutcomeAbandoned || len(e.Sections) != 0 {
		t.Fatalf("no tool use: outcome %q, %d sections; want abandoned, none", e.Outcome, len(e.Sections))
	}
	if e := DraftFrom(nil, DraftOptions{}); len(e.Sections) != 0 {
		t.Fatal("a nil session drafted something")
	}
}

// A check that passes at once is what worked; a command the user
// interrupted is not a failure; output piped through tail that shows a
// failed test is one though the shell exited 0.
func TestDraftFrom_Verdicts(t *testing.T) {
	call := func(id, cmd string) transcript.Message {
		return transcript.Message{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Bash", ID: id, Summary: "command: " + cmd}}}
	}
	result := func(id string, tc transcript.ToolCall) transcript.Message {
		tc.Name, tc.ID = "result", id
		return transcript.Message{Role: "user", Tools: []transcript.ToolCall{tc}}
	}
	s := &transcript.Session{ID: "s", Messages: []transcript.Message{
		{Role: "user", Text: "check it"},
		call("1", "cargo test"), result("1", transcript.ToolCall{Summary: "[Request interrupted by user for tool use]", IsError: true}),
		call("2", "cargo test"), result("2", transcript.ToolCall{Summary: "running 3 tests (9 lines)"}),
	}}
	e := DraftFrom(s, DraftOptions{Date: "2026-01-02"})
	if e.Outcome != OutcomeSuccess || !cmp.Equal(e.Items(Worked), []string{"`cargo test` passed"}) || len(e.Items(Attempted)) != 0 {
		t.Fatalf("outcome %q:\n%s", e.Outcome, Format(e))
	}
	s.Messages = append(s.Messages, call("3", "go test ./... 2>&1 | tail -3"),
		result("3", transcript.ToolCall{Summary: "--- FAIL: TestX (0.00s) (3 lines)", Detail: "--- FAIL: TestX (0.00s)\n    x_test.go:9: got 2, want 3\nFAIL"}))
	e = DraftFrom(s, DraftOptions{Date: "2026-01-02"})
	want := []string{"`go test ./... 2>&1 | tail -3` — failed: --- FAIL: TestX (0.00s)"}
	if e.Outcome != OutcomeFailed || !cmp.Equal(e.Items(Attempted), want) {
		t.Fatalf("a failure shown through tail: outcome %q, attempted %q; want failed, %q", e.Outcome, e.Items(Attempted), want)
	}
}

// resultTexts returns the text of every tool result in a Claude Code
// transcript, as the tool returned it.
func resultTexts(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		var blocks []struct {
			Type    string `json:"type"`
			Content string `json:"content"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out = append(out, b.Content)
			}
		}
	}
	return out
}

// No line of a draft is longer than 300 bytes, and no tool output over
// 300 bytes is copied whole, nor any single line of it over 300 bytes.
func TestDraftFrom_NoLongCopy(t *testing.T) {
	long := "error: " + strings.Repeat("the linker could not resolve symbol zz_", 40) + "END"
	dir := t.TempDir()
	jsonl := `{"type":"user","uuid":"u1","sessionId":"L","cwd":"/r","message":{"role":"user","content":"link it"}}
{"type":"assistant","uuid":"u2","sessionId":"L","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make build"}}]}}
{"type":"user","uuid":"u3","sessionId":"L","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 2\n` + long + `"}]}}
`
	if err := os.WriteFile(filepath.Join(dir, "long.jsonl"), []byte(jsonl), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "long.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := transcript.ParseClaude(f, transcript.Options{})
	f.Close()
	e := DraftFrom(s, DraftOptions{Date: "2026-01-02"})
	if len(e.Items(Errors)) != 1 || !strings.HasPrefix(e.Items(Errors)[0], "error: the linker") {
		t.Fatalf("the long error is not drafted:\n%s", Format(e))
	}
	checkNoLongCopy(t, e, []string{long})

	for _, name := range []string{"go-nil-map.jsonl", "py-still-failing.jsonl"} {
		e := DraftFrom(parseFixture(t, name), DraftOptions{})
		var big []string
		for _, r := range resultTexts(t, name) {
			if len(r) > maxCopied {
				big = append(big, r)
			}
		}
		if len(big) == 0 {
			t.Fatalf("%s: no tool output over %d bytes to check against", name, maxCopied)
		}
		checkNoLongCopy(t, e, big)
	}
}

func checkNoLongCopy(t *testing.T, e Entry, outputs []string) {
	t.Helper()
	for _, sec := range e.Sections {
		for _, it := range sec.Items {
			if len(it) > maxCopied {
				t.Errorf("a line of %d bytes (over %d): %q", len(it), maxCopied, it)
			}
			for _, o := range outputs {
				if strings.Contains(it, strings.TrimSpace(o)) {
					t.Errorf("a tool output of %d bytes copied whole into %q", len(o), it)
				}
				for l := range strings.SplitSeq(o, "\n") {
					if len(l) > maxCopied && strings.Contains(it, l) {
						t.Errorf("a %d-byte line of output copied whole into %q", len(l), it)
					}
				}
			}
		}
	}
}

// A transcript with a torn line, a malformed record and invalid UTF-8
// still drafts what its readable records show.
func TestDraftFrom_GarbledTranscript(t *testing.T) {
	s := parseFixture(t, "garbled.jsonl")
	if len(s.Skipped) < 3 {
		t.Fatalf("the fixture should have 3 unusable lines, the parser skipped %+v", s.Skipped)
	}
	got := DraftFrom(s, DraftOptions{Date: "2026-11-24"})
	want := DraftFrom(parseFixture(t, "go-nil-map.jsonl"), DraftOptions{Date: "2026-11-24"})
	if err := Validate(got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the garbled transcript drafts differently (-clean +garbled):\n%s", diff)
	}
}

func TestClipLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"a  b\nc", 10, "a b c"},
		{"abcdef", 5, "ab…"},
		{"ééé", 5, "é…"},
		{"ééé", 6, "ééé"},
	} {
		if got := clipLine(c.in, c.n); got != c.want || len(got) > c.n {
			t.Errorf("clipLine(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestDraftFrom_FixedByACommand: a check that fails, a command that fixes
// it (not an edit), the check passing: the draft names the command as
// what worked.
func TestDraftFrom_FixedByACommand(t *testing.T) {
	call := func(id, cmd string) transcript.Message {
		return transcript.Message{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Bash", ID: id, Summary: "command: " + cmd}}}
	}
	result := func(id, text string, failed bool) transcript.Message {
		return transcript.Message{Role: "user", Tools: []transcript.ToolCall{{Name: "result", ID: id, Summary: text, Detail: text, IsError: failed}}}
	}
	s := &transcript.Session{ID: "s1", Messages: []transcript.Message{
		{Role: "user", Text: "Add the revoke test."},
		call("1", "go test ./internal/store/..."), result("1", `ERROR: relation "api_keys" does not exist (SQLSTATE 42P01)`, true),
		call("2", "git status"), result("2", "nothing to commit", false),
		call("3", "make migrate"), result("3", "migrated 12", false),
		call("4", "go test ./internal/store/..."), result("4", "ok", false),
	}}
	e := DraftFrom(s, DraftOptions{Date: "2026-03-01"})
	if got := e.Items(Worked); len(got) != 1 || got[0] != "`go test ./internal/store/...` passed after running `make migrate`" {
		t.Errorf("worked = %q", got)
	}
	if got := e.Items(Mistakes); len(got) != 1 || !strings.HasSuffix(got[0], "— gone after running `make migrate`") {
		t.Errorf("mistakes = %q", got)
	}
	if e.Outcome != OutcomeSuccess {
		t.Errorf("outcome = %q", e.Outcome)
	}
}

func TestMakeCheck(t *testing.T) {
	for cmd, want := range map[string]bool{
		"make": true, "make test": true, "make -j4 build": true, "make test-integration": true, "cd x && make check": true,
		"make migrate": false, "make deploy ENV=prod": false, "go test ./...": false, "make test migrate": false,
		"make -C backend test": true, "make -j 4 test": true, "make -f ci.mk check": true, "make migrate && make test": true,
		"make -C backend migrate": false,
	} {
		if got := makeCheck(cmd); got != want {
			t.Errorf("makeCheck(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// Results without tool IDs settle the oldest call without one still
// waiting, whatever its tool: a Read's "no such file" after a passing
// `go test` is the Read's, not a failure of the tests. In order or with
// both calls before both results.
func TestDraftFrom_PairsResultsWithoutIDs(t *testing.T) {
	goTest := transcript.Message{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Bash", Summary: "command: go test ./..."}}}
	read := transcript.Message{Role: "assistant", Tools: []transcript.ToolCall{{Name: "Read", Summary: "file_path: /r/missing.go"}}}
	passed := transcript.Message{Role: "user", Tools: []transcript.ToolCall{{Name: "result", Summary: "ok  example.com/r 0.01s"}}}
	noFile := transcript.Message{Role: "user", Tools: []transcript.ToolCall{{Name: "result", Summary: "Error: no such file or directory", IsError: true}}}
	user := transcript.Message{Role: "user", Text: "run the tests"}
	for name, msgs := range map[string][]transcript.Message{
		"in turn":     {user, goTest, passed, read, noFile},
		"interleaved": {user, goTest, read, passed, noFile},
	} {
		e := DraftFrom(&transcript.Session{ID: "s", Messages: msgs}, DraftOptions{Date: "2026-01-02"})
		if e.Outcome != OutcomeSuccess || len(e.Items(Attempted)) != 0 || len(e.Items(Errors)) != 0 {
			t.Errorf("%s: outcome %q, want success and no failed attempt:\n%s", name, e.Outcome, Format(e))
		}
	}
}
