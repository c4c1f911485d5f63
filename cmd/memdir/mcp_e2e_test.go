package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/testenv"
)

// TestMCP_TypeScriptClient runs the official TypeScript SDK client (npm,
// pinned) against 'memdir mcp' over stdio and over streamable HTTP:
// initialize, list tools and resources, save three memories, recall,
// update, mark (memory_feedback, memory_list with stats), forget, search a
// transcript, write a task diary (diary_write) — every result checked by
// testdata/mcp-client.mjs.
func TestMCP_TypeScriptClient(t *testing.T) {
	modules := testenv.NodeModules(t, "@modelcontextprotocol/sdk@"+testenv.MCPSDKVersion)
	// ESM resolves packages from the script's folder: put it beside them.
	script := filepath.Join(filepath.Dir(modules), "mcp-client.mjs")
	src, err := os.ReadFile("testdata/mcp-client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, src, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := exec.LookPath("memdir")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	project := filepath.Join(home, "proj")
	os.MkdirAll(project, 0o700)
	// A transcript for transcript_search.
	tdir := filepath.Join(home, ".claude", "projects", "-proj")
	os.MkdirAll(tdir, 0o700)
	os.WriteFile(filepath.Join(tdir, "s1.jsonl"), []byte(`{"type":"user","uuid":"u1","timestamp":"2026-11-20T10:00:00Z","cwd":"`+project+`","sessionId":"s1","message":{"role":"user","content":"the worker logs say connection pool exhausted under load"}}`+"\n"), 0o600)

	node := func(t *testing.T, mode string, env ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", script, mode)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "ok" {
			t.Fatalf("TypeScript client over %s: %v\n%s", mode, err, out)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		node(t, "stdio", "MEMDIR_BIN="+bin, "MEMDIR_PROJECT="+project, "MEMDIR_HOME="+home)
	})
	t.Run("http", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		// A project of its own: recall must find this run's memories only.
		project2 := filepath.Join(home, "proj2")
		os.MkdirAll(project2, 0o700)
		srv := exec.CommandContext(ctx, bin, "mcp", "--http", "127.0.0.1:0")
		srv.Dir = project2
		srv.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "MEMDIR_MCP_TOKEN=conformance-token-of-forty-characters-0001"}
		stderr, _ := srv.StderrPipe()
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		defer srv.Wait()
		defer cancel()
		sc := bufio.NewScanner(stderr)
		url := ""
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "memdir mcp: serving "); ok {
				url = u
				break
			}
		}
		if url == "" {
			t.Fatal("the server did not say where it serves")
		}
		go io.Copy(io.Discard, stderr)
		node(t, "http", "MEMDIR_URL="+url, "MEMDIR_TOKEN=conformance-token-of-forty-characters-0001")
	})
}

// TestMCP_ClaudeSeesItConnected: the real claude CLI, after 'claude mcp
// add memdir -- memdir mcp', reports the server connected.
func TestMCP_ClaudeSeesItConnected(t *testing.T) {
	claude := testenv.Claude(t)
	home, repo := testenv.TempRepo(t, "repo")
	bin, err := exec.LookPath("memdir")
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, claude, args...)
		cmd.Dir = repo
		cmd.Env = testenv.ClaudeEnv(home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("mcp", "add", "memdir", "--", bin, "mcp")
	out := run("mcp", "list")
	if !strings.Contains(out, "memdir: "+bin+" mcp - ✔ Connected") {
		t.Fatalf("claude mcp list:\n%s", out)
	}
}
