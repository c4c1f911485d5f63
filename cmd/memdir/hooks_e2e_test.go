package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/testenv"
	"github.com/memdir/memdir/internal/transcript"
)

// TestHooks_RealClaude installs memdir's hooks into a temporary HOME and
// runs the real, pinned claude CLI twice: once with a prompt a saved memory
// answers, once with one nothing answers. Without a login claude fails, but
// it fires the hooks and records in its transcript what they injected.
func TestHooks_RealClaude(t *testing.T) {
	claude := testenv.Claude(t)
	home, repo := testenv.TempRepo(t, "repo")
	agentHome := filepath.Join(home, ".claude")
	run := func(args ...string) string {
		t.Helper()
		cmd := memdirCmd(t, agentHome, args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("memdir %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("save", "--type", "feedback", "--name", "Integration tests hit a real database",
		"--description", "Never mock PostgreSQL in integration tests; use docker compose up db", "--body", "A mocked test once hid a broken migration.")
	run("save", "--type", "project", "--name", "Deploy freeze", "--description", "No deploys on Fridays until the mobile release ships", "--body", "Ask the release manager.")
	run("save", "--type", "user", "--name", "Backend engineer", "--description", "Ten years of Go services, new to React", "--body", "Explain UI code in backend terms.")
	out := run("install", "claude", "--json")
	if !strings.Contains(out, `"changed": true`) {
		t.Fatalf("install: %s", out)
	}

	// install also registered the MCP server: claude sees it connected.
	mcpList := exec.Command(claude, "mcp", "list")
	mcpList.Dir, mcpList.Env = repo, testenv.ClaudeEnv(home)
	if b, err := mcpList.CombinedOutput(); err != nil || !strings.Contains(string(b), "mcp - ✔ Connected") {
		t.Errorf("claude mcp list after install: %v\n%s", err, b)
	}

	const match = "should the integration tests mock PostgreSQL or use a real database?"
	const nothing = "write a haiku about autumn leaves falling"
	testenv.RunClaudeIn(t, claude, home, repo, match)
	testenv.RunClaudeIn(t, claude, home, repo, nothing)

	files := mustGlob(t, filepath.Join(agentHome, "projects", paths.Sanitize(repo), "*.jsonl"))
	if len(files) != 2 {
		t.Fatalf("transcripts: %v", files)
	}
	sessions := map[string]*transcript.Session{}
	for _, f := range files {
		s := parse(t, f)
		for _, m := range s.Messages {
			if m.Role == "user" && !m.Meta {
				sessions[m.Text] = s
			}
		}
		logDurations(t, f)
	}
	hit, miss := sessions[match], sessions[nothing]
	if hit == nil || miss == nil {
		t.Fatalf("the two prompts are not both in the transcripts: %v", slices.Collect(keys(sessions)))
	}
	injected := func(s *transcript.Session, event string) []string {
		var out []string
		for _, in := range s.Injections {
			if in.Event == event {
				out = append(out, in.Text)
			}
		}
		return out
	}
	got := strings.Join(injected(hit, "UserPromptSubmit"), "\n")
	for _, want := range []string{"integration-tests-hit-a-real-database.md", "Never mock PostgreSQL", "verify the files, functions and flags"} {
		if !strings.Contains(got, want) {
			t.Errorf("the matching prompt's UserPromptSubmit context lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "deploy-freeze.md") {
		t.Errorf("an unrelated memory was injected:\n%s", got)
	}
	if got := injected(miss, "UserPromptSubmit"); len(got) != 0 {
		t.Errorf("a prompt matching nothing injected %q", got)
	}
	for _, s := range []*transcript.Session{hit, miss} {
		start := strings.Join(injected(s, "SessionStart"), "\n")
		if !strings.Contains(start, "memdir: 3 memories") || strings.Contains(start, "](integration-tests") {
			t.Errorf("SessionStart injected %q, want the primer and no copy of MEMORY.md", start)
		}
		if !slices.ContainsFunc(s.MemoryFiles, func(p string) bool { return strings.HasSuffix(p, filepath.Join("memory", "MEMORY.md")) }) {
			t.Errorf("Claude Code's own AutoMem attachment does not carry MEMORY.md: %v", s.MemoryFiles)
		}
	}
	queue, err := os.ReadFile(filepath.Join(agentHome, "memory", "extract-queue.jsonl"))
	if err != nil {
		t.Fatalf("no extraction queue: %v", err)
	}
	for _, f := range files {
		if !bytes.Contains(queue, []byte(`"transcript_path":"`+f+`"`)) {
			t.Errorf("%s is not queued for extraction:\n%s", f, queue)
		}
	}
	if b, err := os.ReadFile(filepath.Join(agentHome, "memory", "logs", "hooks.log")); err == nil {
		t.Errorf("hooks logged failures:\n%s", b)
	}
	out = run("uninstall", "claude")
	if !strings.Contains(out, "uninstalled (memdir hooks: SessionStart, UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionEnd)") || !strings.Contains(out, "uninstalled (memdir MCP server)") {
		t.Errorf("uninstall: %s", out)
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func parse(t *testing.T, path string) *transcript.Session {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := transcript.ParseClaude(f, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func keys[M ~map[K]V, K comparable, V any](m M) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// logDurations reports the hooks' run times as Claude Code recorded them.
func logDurations(t *testing.T, path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var rec struct {
			Attachment struct {
				Type       string `json:"type"`
				HookEvent  string `json:"hookEvent"`
				DurationMs *int   `json:"durationMs"`
				ExitCode   *int   `json:"exitCode"`
				Command    string `json:"command"`
			} `json:"attachment"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Attachment.Type == "hook_success" && rec.Attachment.DurationMs != nil {
			t.Logf("%s: %s took %d ms (exit %d)", filepath.Base(path), rec.Attachment.HookEvent, *rec.Attachment.DurationMs, deref(rec.Attachment.ExitCode))
		}
	}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}
