package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func (h *extractHome) save(typ, name, desc string) {
	h.t.Helper()
	h.run("save", "--type", typ, "--name", name, "--description", desc, "--body", desc+".")
}

// TestRecall_LLMEngine: the model's selection is what comes back; a file
// it invents is ignored; a failing endpoint falls back to lexical.
func TestRecall_LLMEngine(t *testing.T) {
	var reply atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		if !strings.Contains(body.Messages[1].Content, "Available memories:") || !strings.Contains(body.Messages[1].Content, "- [project] deploy-freeze.md: No deploys on Fridays") {
			t.Errorf("the manifest is missing: %q", body.Messages[1].Content)
		}
		r2 := reply.Load().(string)
		if r2 == "500" {
			w.WriteHeader(500)
			return
		}
		content, _ := json.Marshal(r2)
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":`+string(content)+`}}],"usage":{"prompt_tokens":50,"completion_tokens":5}}`)
	}))
	defer ts.Close()
	h := newExtractHome(t)
	h.save("project", "Deploy freeze", "No deploys on Fridays")
	h.save("feedback", "Table tests", "Write table-driven tests")
	recallWith := func(r, query string) string {
		reply.Store(r)
		c := h.cmd("recall", "--engine", "llm", query)
		c.Env = append(c.Env, "MEMDIR_LLM_PROVIDER=openai", "MEMDIR_LLM_BASE_URL="+ts.URL+"/v1", "OPENAI_API_KEY=k")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("recall: %v\n%s", err, out)
		}
		return string(out)
	}
	// A query with no word in common: only the model can pick it.
	out := recallWith(`{"selected_memories": ["deploy-freeze.md", "made-up.md"]}`, "can I ship on the last workday of the week?")
	if !strings.Contains(out, "### project · deploy-freeze.md") || strings.Contains(out, "table-tests.md") || strings.Contains(out, "made-up") {
		t.Errorf("llm selection:\n%s", out)
	}
	if out := recallWith(`{"selected_memories": []}`, "write a haiku"); strings.Contains(out, "<memdir-recall>") {
		t.Errorf("an empty selection injected:\n%s", out)
	}
	out = recallWith("500", "should I write table-driven tests?")
	if !strings.Contains(out, "using the lexical ranking") || !strings.Contains(out, "table-tests.md") {
		t.Errorf("fallback:\n%s", out)
	}
}

// TestRecall_HybridEngine: embeddings find what shares no word with the
// query; their vectors are cached and not asked for again.
func TestRecall_HybridEngine(t *testing.T) {
	var memoryTexts atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" {
			t.Errorf("path %s", r.URL.Path)
		}
		var body struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i, s := range body.Input {
			s = strings.ToLower(s)
			v := []float32{0, 0, 1}
			switch {
			case strings.Contains(s, "merge") || strings.Contains(s, "land my pr"):
				v = []float32{1, 0.1, 0}
			case strings.Contains(s, "test"):
				v = []float32{0, 1, 0.1}
			}
			if len(body.Input) > 1 || strings.Contains(s, "\n") {
				memoryTexts.Add(1)
			}
			data = append(data, item{Object: "embedding", Index: i, Embedding: v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body.Model, "usage": map[string]int{"prompt_tokens": 10, "total_tokens": 10}})
	}))
	defer ts.Close()
	h := newExtractHome(t)
	h.save("project", "Merge freeze", "No merges to main until the mobile release ships")
	h.save("feedback", "Table tests", "Write table-driven tests")
	recallHybrid := func(query string) string {
		c := h.cmd("recall", "--engine", "hybrid", query)
		c.Env = append(c.Env, "MEMDIR_EMBED_BASE_URL="+ts.URL+"/v1", "MEMDIR_EMBED_MODEL=test-embed")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("recall: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := h.run("recall", "when can I land my PR?"); out != "" {
		t.Fatalf("lexical recall should find nothing here:\n%s", out)
	}
	out := recallHybrid("when can I land my PR?")
	if !strings.Contains(out, "merge-freeze.md") || strings.Contains(out, "table-tests.md") {
		t.Fatalf("hybrid:\n%s", out)
	}
	first := memoryTexts.Load()
	recallHybrid("when can I land my PR?")
	if memoryTexts.Load() != first || first != 2 {
		t.Errorf("memory texts embedded: %d then %d; want 2 once (cached)", first, memoryTexts.Load())
	}
}
