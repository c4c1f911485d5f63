package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// extractHome is an agent home with a project and its transcript folder.
type extractHome struct {
	t                      *testing.T
	root, home, proj, tdir string
}

func newExtractHome(t *testing.T) *extractHome {
	root := t.TempDir()
	h := &extractHome{t: t, root: root, home: filepath.Join(root, ".claude"), proj: filepath.Join(root, "proj")}
	h.tdir = filepath.Join(h.home, "projects", paths.Sanitize(h.proj))
	for _, d := range []string{h.proj, h.tdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// transcript writes a session whose user turns each state one rule.
func (h *extractHome) transcript(session string, rules []string) string {
	var b bytes.Buffer
	for i, r := range rules {
		rec := map[string]any{"type": "user", "uuid": fmt.Sprintf("%s-u%d", session, i), "timestamp": "2026-11-20T10:00:00Z",
			"cwd": h.proj, "sessionId": session, "message": map[string]any{"role": "user", "content": r}}
		line, _ := json.Marshal(rec)
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(h.tdir, session+".jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func (h *extractHome) cmd(args ...string) *exec.Cmd {
	bin, err := exec.LookPath("memdir")
	if err != nil {
		h.t.Fatal(err)
	}
	c := exec.Command(bin, append([]string{"--home", h.home}, args...)...)
	c.Dir = h.proj
	// Under -race every process sleeps a second at exit unless told not
	// to, which would make the hook look as if it waited.
	c.Env = []string{"HOME=" + h.root, "PATH=" + os.Getenv("PATH"), "TZ=UTC", "GORACE=atexit_sleep_ms=0"}
	return c
}

func (h *extractHome) run(args ...string) string {
	h.t.Helper()
	out, err := h.cmd(args...).CombinedOutput()
	if err != nil {
		h.t.Fatalf("memdir %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// memories lists the memory files (and fails on a file listed twice in
// MEMORY.md, or on an index that lists fewer than it can hold: every file
// while they fit memdir's budget, the budget's worth past it).
func (h *extractHome) memories() []string {
	h.t.Helper()
	dir := filepath.Join(h.tdir, "memory")
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	idx, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	var out []string
	listed := 0
	for _, f := range files {
		base := filepath.Base(f)
		if base == "MEMORY.md" {
			continue
		}
		switch n := strings.Count(string(idx), "("+base+")"); {
		case n > 1:
			h.t.Errorf("%s is listed %d times in MEMORY.md", base, n)
		case n == 1:
			listed++
		}
		out = append(out, base)
	}
	// A memory left out is fine only when no line more would fit (an
	// entry line is at most ~300 bytes).
	lines := strings.Count(string(idx), "\n")
	if listed < len(out) && lines < memdir.IndexBudgetLines && len(idx) < memdir.IndexBudgetChars-300 {
		h.t.Errorf("MEMORY.md lists %d of %d memories in %d lines and %d bytes: room was left", listed, len(out), lines, len(idx))
	}
	slices.Sort(out)
	return out
}

// rules makes n distinct rules for a session: each names its own tool and
// its own component, as real rules do.
func rules(session string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("We always use gizmo%s%d for the widget%s%d pipeline in this repo.", session, i, session, i))
	}
	return out
}

// TestExtract_StagedWorkRunsAfterTheHolder: work arriving while another
// extraction holds the lock is staged, and the next run processes it as a
// trailing run; nothing is lost, nothing written twice.
func TestExtract_StagedWorkRunsAfterTheHolder(t *testing.T) {
	h := newExtractHome(t)
	t1 := h.transcript("s1", rules("s1", 3))
	t2 := h.transcript("s2", rules("s2", 3))
	lockDir := filepath.Join(h.home, "memory", "extract")
	os.MkdirAll(lockDir, 0o700)
	unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out := h.run("extract", "--transcript", t2); !strings.Contains(out, "staged 1 transcript") {
		t.Fatalf("with the lock held: %s", out)
	}
	if got := h.memories(); len(got) != 0 {
		t.Fatalf("a staged run wrote %v", got)
	}
	unlock()
	out := h.run("extract", "--transcript", t1)
	if got := h.memories(); len(got) != 6 {
		t.Fatalf("after the next run: %d memories %v\n%s", len(got), got, out)
	}
	h.run("extract", "--pending")
	if got := h.memories(); len(got) != 6 {
		t.Fatalf("a third run changed the memories: %v", got)
	}
}

// TestExtract_Racing: six extractions at once over three transcripts
// save every memory exactly once.
func TestExtract_Racing(t *testing.T) {
	h := newExtractHome(t)
	var paths []string
	for _, s := range []string{"r1", "r2", "r3"} {
		paths = append(paths, h.transcript(s, rules(s, 8)))
	}
	var cmds []*exec.Cmd
	for i := range 6 {
		c := h.cmd("extract", "--transcript", paths[i%3])
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	h.run("extract", "--pending") // whatever a lost race left staged
	if got := h.memories(); len(got) != 24 {
		t.Fatalf("%d memories, want 24: %v", len(got), got)
	}
}

// TestExtract_KillNine: extraction killed at random moments, then run to
// the end, leaves the same memories as an uninterrupted run: none lost,
// none twice.
func TestExtract_KillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	ref, h := newExtractHome(t), newExtractHome(t)
	for _, x := range []*extractHome{ref, h} {
		for _, s := range []string{"k1", "k2", "k3"} {
			x.transcript(s, rules(s, 15))
		}
	}
	ref.run("extract", "--pending")
	want := ref.memories()
	if len(want) != 45 {
		t.Fatalf("the reference run saved %d memories", len(want))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 12 {
		c := h.cmd("extract", "--pending")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+rng.IntN(150)) * time.Millisecond)
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
	}
	h.run("extract", "--pending")
	if got := h.memories(); !slices.Equal(got, want) {
		t.Fatalf("after the kills: %d memories, want %d\nmissing or extra: %v", len(got), len(want), symmetricDiff(got, want))
	}
}

func symmetricDiff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, "+"+x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			out = append(out, "-"+x)
		}
	}
	return out
}

// TestExtract_HookDoesNotWait: the Stop hook returns while the extraction
// it started runs on in the background.
func TestExtract_HookDoesNotWait(t *testing.T) {
	h := newExtractHome(t)
	path := h.transcript("big", rules("big", 150))
	in, _ := json.Marshal(map[string]string{"session_id": "big", "hook_event_name": "Stop", "transcript_path": path, "cwd": h.proj})
	c := h.cmd("hook", "Stop")
	c.Stdin = bytes.NewReader(in)
	start := time.Now()
	if out, err := c.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("hook: %v %q", err, out)
	}
	hookTook := time.Since(start)
	deadline := time.Now().Add(60 * time.Second)
	count := func() int { // files only: the index line follows each file
		m, _ := filepath.Glob(filepath.Join(h.tdir, "memory", "*.md"))
		return len(m) - 1
	}
	for count() < 150 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	extractTook := time.Since(start)
	// The run holds the extraction lock to its end: taking it means done.
	lockDir := filepath.Join(h.home, "memory", "extract")
	for time.Now().Before(deadline) {
		if unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{Timeout: 100 * time.Millisecond}); err == nil {
			unlock()
			break
		}
	}
	if n := len(h.memories()); n != 150 {
		t.Fatalf("the detached extraction saved %d of 150 memories", n)
	}
	t.Logf("hook returned after %v; the extraction it started finished after %v", hookTook.Round(time.Millisecond), extractTook.Round(time.Millisecond))
	if hookTook*3 > extractTook {
		t.Errorf("the hook took %v of the extraction's %v: it waited", hookTook, extractTook)
	}
}

// TestExtract_NoticeAtNextPrompt: what the Stop hook's detached
// extraction saved is told at the session's next prompt, once, with the
// command that undoes it.
func TestExtract_NoticeAtNextPrompt(t *testing.T) {
	h := newExtractHome(t)
	path := h.transcript("told", rules("told", 2))
	hook := func(event string, in map[string]string) string {
		in["session_id"], in["hook_event_name"], in["cwd"] = "told", event, h.proj
		b, _ := json.Marshal(in)
		c := h.cmd("hook", event)
		c.Stdin = bytes.NewReader(b)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("hook %s: %v", event, err)
		}
		return string(out)
	}
	if out := hook("Stop", map[string]string{"transcript_path": path}); out != "" {
		t.Fatalf("Stop answered %q", out)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) { // files only: the index line follows each file
		if m, _ := filepath.Glob(filepath.Join(h.tdir, "memory", "*.md")); len(m) > 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The run holds the extraction lock to its end: taking it means done.
	lockDir := filepath.Join(h.home, "memory", "extract")
	for time.Now().Before(deadline) {
		if unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{Timeout: 100 * time.Millisecond}); err == nil {
			unlock()
			break
		}
	}
	saved := h.memories()
	if len(saved) != 2 {
		t.Fatalf("the detached extraction saved %v", saved)
	}
	first := hook("UserPromptSubmit", map[string]string{"prompt": "what next?"})
	want := "memdir saved memories from this session (new: " + saved[0] + ", " + saved[1] + "); undo with 'memdir forget NAME'"
	if !strings.Contains(first, `"additionalContext":"`+want) {
		t.Errorf("the next prompt's answer does not start with %q:\n%s", want, first)
	}
	if again := hook("UserPromptSubmit", map[string]string{"prompt": "and then?"}); strings.Contains(again, "memdir saved") {
		t.Errorf("the notice was given twice:\n%s", again)
	}
}

// TestHook_TwoHooksOnePrompt: two UserPromptSubmit hooks for one prompt
// (the plugin and an install both wired) give each memory once.
func TestHook_TwoHooksOnePrompt(t *testing.T) {
	h := newExtractHome(t)
	h.run("save", "--type", "project", "--name", "Deploy day", "--description", "Deploys happen on Tuesdays", "--body", "Ask the release manager.")
	for round := range 5 {
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("two-%d", round), "hook_event_name": "UserPromptSubmit",
			"cwd": h.proj, "prompt": "which day do deploys happen?"})
		outs := make([][]byte, 2)
		var wg sync.WaitGroup
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := h.cmd("hook", "UserPromptSubmit")
				c.Stdin = bytes.NewReader(in)
				outs[i], _ = c.Output()
			}()
		}
		wg.Wait()
		if n := bytes.Count(outs[0], []byte("deploy-day.md")) + bytes.Count(outs[1], []byte("deploy-day.md")); n != 1 {
			t.Fatalf("round %d: the memory was given %d times:\n%s\n---\n%s", round, n, outs[0], outs[1])
		}
	}
}

// TestExtract_SweepsWhenAsked: the hooks hand the recall snapshot's sweep
// to the detached extraction ('--sweep DIR'); with no snapshot yet, the
// sweep is due and builds it.
// (The snapshot is derived: removing it loses nothing.)
func TestExtract_SweepsWhenAsked(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runIn(root, project, nil, "", "save", "--type", "project", "--name", "Deploy day", "--description", "deploys on tuesdays"); err != nil {
		t.Fatalf("save: %v\n%s", err, stderr)
	}
	out, _, err := runIn(root, project, nil, "", "where", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var where struct {
		MemoryDir string `json:"memory_dir"`
	}
	if err := json.Unmarshal([]byte(out), &where); err != nil || where.MemoryDir == "" {
		t.Fatalf("where --json: %v %q", err, out)
	}
	idx := filepath.Join(where.MemoryDir, ".memdir-cache", "recall.idx")
	// The save made a snapshot (it looks names up in it): without one, a
	// sweep is due.
	if err := os.RemoveAll(filepath.Dir(idx)); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runIn(root, project, nil, "", "extract", "--sweep", where.MemoryDir); err != nil {
		t.Fatalf("extract --sweep: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(idx); err != nil {
		t.Fatalf("extract --sweep left no snapshot: %v", err)
	}
}
