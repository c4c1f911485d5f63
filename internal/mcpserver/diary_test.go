package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/workspace"
)

// diaryCall calls diary_write with args and returns the result, its text
// and its structured output.
func diaryCall(t *testing.T, cs *mcp.ClientSession, args map[string]any) (*mcp.CallToolResult, string, DiaryOut) {
	t.Helper()
	r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "diary_write", Arguments: args})
	if err != nil {
		t.Fatalf("diary_write: %v", err)
	}
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	var out DiaryOut
	raw, _ := json.Marshal(r.StructuredContent)
	json.Unmarshal(raw, &out)
	return r, b.String(), out
}

// diaryFiles lists the diaries folder of env's home.
func diaryFiles(t *testing.T, env workspace.Env) []string {
	t.Helper()
	l, err := env.Layout()
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(l.SynthesisDir, "diaries"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDiaryWrite: a valid entry lands as a file in the diaries folder,
// with the project's name, the agent as its source and every section.
func TestDiaryWrite(t *testing.T) {
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	r, text, out := diaryCall(t, cs, map[string]any{
		"task": "Fix the flaky login test", "outcome": "Success", "tags": []string{"tests", "auth"},
		"session": "s-42", "date": "2026-11-20",
		"attempted": []string{"Raised the timeout to 10s: still flaky", "Ran it alone with -count=20"},
		"worked":    []string{"Waiting for the session cookie before asserting"},
		"errors":    []string{"--- FAIL: TestLogin (5.00s)"},
		"patterns":  []string{"Wait for the cookie, not for a fixed time, in browser tests"},
	})
	if r.IsError {
		t.Fatalf("refused: %s", text)
	}
	if out.Stem != "2026-11-20-fix-the-flaky-login-test" || !strings.Contains(text, "wrote diary "+out.Stem) || len(out.Redacted) != 0 {
		t.Errorf("result: %+v %s", out, text)
	}
	b, err := os.ReadFile(out.Path)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(out.Path) != out.Stem+".md" || !slices.Equal(diaryFiles(t, env), []string{out.Stem + ".md"}) {
		t.Errorf("file %s; folder %v", out.Path, diaryFiles(t, env))
	}
	e, err := diary.Parse(out.Stem, b)
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Base(env.Cwd)
	if e.Project != project || e.Session != "s-42" || e.Date != "2026-11-20" || e.Outcome != diary.OutcomeSuccess ||
		e.Source != diary.SourceAgent || e.Draft() || !slices.Equal(e.Tags, []string{"tests", "auth"}) || e.Task != "Fix the flaky login test" {
		t.Errorf("frontmatter:\n%s", b)
	}
	if len(e.Items(diary.Attempted)) != 2 || e.Items(diary.Errors)[0] != "--- FAIL: TestLogin (5.00s)" || len(e.Items(diary.Patterns)) != 1 || len(e.Items(diary.Worked)) != 1 {
		t.Errorf("sections:\n%s", b)
	}
	for _, head := range []string{"## Task: Fix the flaky login test", "### Attempted approaches", "### What worked", "### Patterns discovered"} {
		if !strings.Contains(string(b), head) {
			t.Errorf("no %q in\n%s", head, b)
		}
	}
}

// TestDiaryWrite_Refused: every kind of bad input is one tool error that
// names every problem, and nothing is written.
func TestDiaryWrite_Refused(t *testing.T) {
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	for _, tc := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"everything wrong at once", map[string]any{
			"task": " ", "outcome": "great", "date": "2026-13-45",
			"attempted": []string{"first line\nsecond line"},
			"worked":    []string{""},
			"mistakes":  []string{strings.Repeat("m", 700)},
			"tags":      []string{"ok", "two\nlines", ""},
		}, []string{"task is empty", `outcome "great" is not one of success, partial, failed, abandoned`, `date "2026-13-45" is not a calendar date`,
			"Attempted approaches has a line with a line break", "What worked has an empty line", "Mistakes made has a line of 700 bytes",
			`tags "two\nlines" has a line break`, "tags has an empty tag", "8 problem(s)"}},
		{"the same without tags (checked by the workspace)", map[string]any{
			"task": "two\nlines", "outcome": "great", "date": "yesterday",
			"errors": []string{"a\rb"},
		}, []string{"task must be one line", `outcome "great"`, `date "yesterday" is not a date as YYYY-MM-DD`, "Errors has a line with a line break", "4 problem(s)"}},
		{"tags that would break the frontmatter's list", map[string]any{
			"task": "Tag it", "worked": []string{"x"}, "tags": []string{"go]", "a,b", " db"},
		}, []string{`tags "go]" has one of`, `tags "a,b" has one of`, `tags " db" starts or ends with a space`, "3 problem(s)"}},
		{"no sections", map[string]any{"task": "Rename a variable"}, []string{"sections are empty", "1 problem(s)"}},
		{"over 16 KB", map[string]any{"task": "A long one", "worked": slices.Repeat([]string{strings.Repeat("w", 590)}, 30)},
			[]string{"entry is 17", "over the 16384-byte limit", "1 problem(s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, text, _ := diaryCall(t, cs, tc.args)
			if !r.IsError {
				t.Fatalf("accepted: %s", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("no %q in:\n%s", w, text)
				}
			}
			if !strings.Contains(text, "call diary_write again") {
				t.Errorf("no next step in:\n%s", text)
			}
		})
	}
	if files := diaryFiles(t, env); len(files) != 0 {
		t.Errorf("refused entries were written: %v", files)
	}
}

// TestDiaryWrite_Redacts: a secret in an item is replaced before the file
// is written, and the result says which kind.
func TestDiaryWrite_Redacts(t *testing.T) {
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	key := "sk-ant-api03-" + strings.Repeat("a", 90)
	r, text, out := diaryCall(t, cs, map[string]any{"task": "Call the API", "date": "2026-11-20",
		"errors": []string{"401 Unauthorized with ANTHROPIC_API_KEY=" + key}})
	if r.IsError {
		t.Fatalf("refused: %s", text)
	}
	b, err := os.ReadFile(out.Path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), key) || !strings.Contains(string(b), "[REDACTED:anthropic-key]") {
		t.Errorf("the key was written:\n%s", b)
	}
	if !slices.Equal(out.Redacted, []string{"anthropic-key"}) || !strings.Contains(text, "redacted before writing: 1 anthropic-key") {
		t.Errorf("result: %+v %s", out, text)
	}
}
