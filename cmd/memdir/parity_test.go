package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/mcpserver"
)

// TestRecall_SameForEveryFrontEnd: for the same prompt and folder, 'memdir
// recall', the UserPromptSubmit hook (a new session each time, so nothing is
// excluded) and MCP memory_recall give the same memories and the same text.
func TestRecall_SameForEveryFrontEnd(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	env := map[string]string{"HOME": root}
	memdirRun := func(stdin string, args ...string) string {
		t.Helper()
		out, errs, err := runIn(root, project, env, stdin, args...)
		if err != nil {
			t.Fatalf("memdir %v: %v\n%s", args, err, errs)
		}
		return out
	}
	for _, m := range [][3]string{
		{"project", "Deploy day", "We deploy on Friday afternoons; the release manager signs off"},
		{"feedback", "Table tests", "Write Go tests as tables of cases run with t.Run"},
		{"reference", "Grafana board", "Latency dashboards live on grafana.internal/d/api"},
		{"feedback", "No mocks of the store", "Test against a real store in a temp dir, never a mock"},
		{"user", "Backend engineer", "The user writes Go services and is new to React"},
		{"project", "Merge freeze", "No merges after Thursday for the mobile release cut"},
	} {
		memdirRun("", "save", "--type", m[0], "--name", m[1], "--description", m[2], "--body", m[2]+".")
	}
	a := &app{sys: sys{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, cwd: project, getenv: func(k string) string { return env[k] }}, ctx: context.Background()}
	cs, ctx := inMemoryClient(t, a)

	prompts := []string{
		"when do we deploy, and who signs off the release?",
		"how should I write the tests for this store?",
		"where is the latency dashboard?",
		"explain React hooks to me",
		"write a haiku about autumn leaves",
	}
	answered := 0
	for i, prompt := range prompts {
		var cli recallJSON
		if err := json.Unmarshal([]byte(memdirRun("", "--json", "recall", prompt)), &cli); err != nil {
			t.Fatal(err)
		}
		var cliFiles []string
		for _, c := range cli.Candidates {
			if c.Kept {
				cliFiles = append(cliFiles, c.File)
			}
		}

		hookText := hookPrompt(t, root, project, fmt.Sprintf("parity-%d", i), prompt)
		if hookText != "" {
			var ans struct {
				HookSpecificOutput struct {
					AdditionalContext string `json:"additionalContext"`
				} `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal([]byte(hookText), &ans); err != nil {
				t.Fatalf("hook answer: %v: %s", err, hookText)
			}
			hookText = ans.HookSpecificOutput.AdditionalContext
		}

		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": prompt}})
		if err != nil || res.IsError {
			t.Fatalf("memory_recall: %v %s", err, textOf(res))
		}
		var viaMCP mcpserver.RecallOut
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &viaMCP)

		if !slices.Equal(cliFiles, viaMCP.Files) && !(len(cliFiles) == 0 && len(viaMCP.Files) == 0) {
			t.Errorf("%q: CLI kept %v, MCP %v", prompt, cliFiles, viaMCP.Files)
		}
		if cli.Injected != viaMCP.Text || cli.Injected != hookText {
			t.Errorf("%q: the texts differ\nCLI:\n%s\nMCP:\n%s\nhook:\n%s", prompt, cli.Injected, viaMCP.Text, hookText)
		}
		for _, f := range cliFiles {
			if !strings.Contains(hookText, f) {
				t.Errorf("%q: the hook did not give %s", prompt, f)
			}
		}
		if len(cliFiles) > 0 {
			answered++
		}
	}
	// The comparison means something only if some prompts were answered
	// and some were not.
	if answered < 3 || answered == len(prompts) {
		t.Errorf("%d of %d prompts answered: the set does not exercise both outcomes", answered, len(prompts))
	}
}
