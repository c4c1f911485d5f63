package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
)

// recallWorkspace opens a workspace on a temporary home and project with
// memories saved through it.
func recallWorkspace(t *testing.T, mems ...[3]string) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o700)
	vars := map[string]string{"HOME": root}
	ws, err := workspace.Open(workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: proj, Holder: "test"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mems {
		if _, err := ws.Save(t.Context(), workspace.SaveRequest{Type: m[0], Name: m[1], Description: m[2], Body: m[2] + "."}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func recalled(t *testing.T, ws *workspace.Workspace, engine, query string) workspace.Recalled {
	t.Helper()
	rec, err := ws.Recall(t.Context(), workspace.Query{Text: query, Policy: recall.DefaultPolicy, Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestRecall_LLMEngine: the model's selection is what comes back, from the
// manifest it was shown; a file it invents is ignored; a failing model
// falls back to the lexical ranking and says so.
func TestRecall_LLMEngine(t *testing.T) {
	ws := recallWorkspace(t,
		[3]string{"project", "Deploy freeze", "No deploys on Fridays"},
		[3]string{"feedback", "Table tests", "Write table-driven tests"})
	model := &llmtest.Client{}
	ws.Models.Chat = func(string, time.Duration) (llm.Client, error) { return model, nil }

	model.CompleteFunc = llmtest.Replies(`{"selected_memories": ["deploy-freeze.md", "made-up.md"]}`)
	rec := recalled(t, ws, workspace.EngineLLM, "can I ship on the last workday of the week?")
	if got := strings.Join(rec.Kept(), ","); got != "deploy-freeze.md" || len(rec.Warnings) != 0 {
		t.Errorf("llm selection kept %q, warnings %v", got, rec.Warnings)
	}
	sent := model.Requests()[0].Messages[0].Content
	if !regexp.MustCompile(`- \[project\] deploy-freeze\.md \(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ\): No deploys on Fridays`).MatchString(sent) || !strings.Contains(sent, "last workday") {
		t.Errorf("the model was not shown the manifest and the query:\n%s", sent)
	}

	model.CompleteFunc = llmtest.Replies(`{"selected_memories": []}`)
	if rec := recalled(t, ws, workspace.EngineLLM, "write a haiku"); rec.Text != "" {
		t.Errorf("an empty selection injected:\n%s", rec.Text)
	}

	model.CompleteFunc = func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, errors.New("HTTP 500")
	}
	rec = recalled(t, ws, workspace.EngineLLM, "should I write table-driven tests?")
	if got := strings.Join(rec.Kept(), ","); got != "table-tests.md" || len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "using the lexical ranking") {
		t.Errorf("fallback kept %q, warnings %v", got, rec.Warnings)
	}
}

// TestRecall_HybridEngine: embeddings find what shares no word with the
// query; the memories' vectors are cached and not asked for again; a
// failing endpoint falls back to lexical.
func TestRecall_HybridEngine(t *testing.T) {
	ws := recallWorkspace(t,
		[3]string{"project", "Merge freeze", "No merges to main until the mobile release ships"},
		[3]string{"feedback", "Table tests", "Write table-driven tests"})
	var memoryTexts atomic.Int32
	emb := &llmtest.Embedder{EmbedFunc: func(_ context.Context, texts []string) ([][]float32, error) {
		var out [][]float32
		for _, s := range texts {
			s = strings.ToLower(s)
			v := []float32{0, 0, 1}
			switch {
			case strings.Contains(s, "merge") || strings.Contains(s, "land my pr"):
				v = []float32{1, 0.1, 0}
			case strings.Contains(s, "test"):
				v = []float32{0, 1, 0.1}
			}
			if strings.Contains(s, "\n") {
				memoryTexts.Add(1)
			}
			out = append(out, v)
		}
		return out, nil
	}}
	ws.Models.Embed = func() (llm.Embedder, string) { return emb, "test-embed" }

	if rec := recalled(t, ws, workspace.EngineLexical, "when can I land my PR?"); rec.Text != "" {
		t.Fatalf("lexical recall should find nothing here:\n%s", rec.Text)
	}
	rec := recalled(t, ws, workspace.EngineHybrid, "when can I land my PR?")
	if got := strings.Join(rec.Kept(), ","); got != "merge-freeze.md" {
		t.Fatalf("hybrid kept %q (warnings %v)", got, rec.Warnings)
	}
	first := memoryTexts.Load()
	recalled(t, ws, workspace.EngineHybrid, "when can I land my PR?")
	if memoryTexts.Load() != first || first != 2 {
		t.Errorf("memory texts embedded: %d then %d; want 2 once (cached)", first, memoryTexts.Load())
	}

	emb.EmbedFunc = func(context.Context, []string) ([][]float32, error) { return nil, errors.New("connection refused") }
	rec = recalled(t, ws, workspace.EngineHybrid, "should I write table-driven tests?")
	if got := strings.Join(rec.Kept(), ","); got != "table-tests.md" || len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "recall engine hybrid") {
		t.Errorf("fallback kept %q, warnings %v", got, rec.Warnings)
	}
}

// TestRecall_UnknownEngine: an engine recall does not know is refused
// with a hint, before anything is read.
func TestRecall_UnknownEngine(t *testing.T) {
	ws := recallWorkspace(t)
	if _, err := ws.Recall(t.Context(), workspace.Query{Text: "x", Policy: recall.DefaultPolicy, Engine: "vector"}); err == nil || !strings.Contains(err.Error(), "unknown engine") {
		t.Errorf("err = %v", err)
	}
}

// TestRecall_RedactsFilesItDidNotWrite: a memory file memdir did not write
// (a hand edit, Claude Code's own memory, a teammate's commit) may hold a
// credential; what recall gives the agent never does, for the hook's
// KeptOnly path and the full ranking alike.
func TestRecall_RedactsFilesItDidNotWrite(t *testing.T) {
	ws := recallWorkspace(t, [3]string{"project", "Release train", "the release train leaves every tuesday"})
	const key, pw = "AKIAIOSFODNN7EXAMPLE", "hunter2secret"
	file := filepath.Join(ws.Layout.MemoryDir, "deploy-key.md")
	text := "---\nname: Deploy key\ndescription: the deploy aws key for prod\ntype: reference\n---\nprod deploy key " + key + " and password=" + pw + "\n"
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, keptOnly := range []bool{true, false} {
		rec, err := ws.Recall(t.Context(), workspace.Query{Text: "what is the deploy aws key for prod?", Policy: recall.DefaultPolicy, KeptOnly: keptOnly})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(rec.Text, "deploy-key.md") {
			t.Fatalf("KeptOnly %v: the memory was not recalled:\n%s", keptOnly, rec.Text)
		}
		if strings.Contains(rec.Text, key) || strings.Contains(rec.Text, pw) || !strings.Contains(rec.Text, "[REDACTED:aws-access-key]") {
			t.Errorf("KeptOnly %v: a credential reaches the agent:\n%s", keptOnly, rec.Text)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != text {
		t.Errorf("recall changed the file:\n%s", b)
	}
}
