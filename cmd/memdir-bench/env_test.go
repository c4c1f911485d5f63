package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestIsolatedEnv: a bench's workspace lives under its own HOME and never
// sees the user's memory settings, but a model engine's key and endpoint
// reach it.
func TestIsolatedEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-test")
	t.Setenv("MEMDIR_LLM_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("MEMDIR_MEMORY_DIR", "/home/someone/.claude/memory")
	t.Setenv("CLAUDE_CONFIG_DIR", "/home/someone/.claude")
	env := isolatedEnv("/tmp/root")
	for k, want := range map[string]string{"HOME": "/tmp/root", "ANTHROPIC_API_KEY": "sk-test", "MEMDIR_LLM_BASE_URL": "http://127.0.0.1:1",
		"MEMDIR_MEMORY_DIR": "", "CLAUDE_CONFIG_DIR": ""} {
		if got := env(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

// TestDream_ModelEngineReached: 'memdir-bench dream --engine openai' asks
// the endpoint the environment names (here a server that fails, so the
// plan falls back to the heuristic one).
func TestDream_ModelEngineReached(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MEMDIR_LLM_BASE_URL", srv.URL)
	t.Setenv("MEMDIR_LLM_TIMEOUT", "5s")
	if _, err := runBench(t, "dream", "--dir", filepath.Join("..", "..", "internal", "consolidate", "testdata", "dream"), "--set", "tune", "--engine", "openai"); err != nil {
		t.Fatal(err)
	}
	if hits.Load() == 0 {
		t.Fatal("the model engine never reached the endpoint set in the environment")
	}
}
