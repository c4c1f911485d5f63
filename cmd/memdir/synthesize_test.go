package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// synthHome is an agent home with a transcript a day for synthesis.
type synthHome struct{ *extractHome }

func newSynthHome(t *testing.T, days int) synthHome {
	h := synthHome{newExtractHome(t)}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for d := range days {
		at := start.AddDate(0, 0, d)
		var b bytes.Buffer
		for i, r := range rules(fmt.Sprintf("d%d", d), 12) {
			for _, m := range []struct{ typ, text string }{{"user", r}, {"assistant", "Understood."}} {
				content := any(m.text)
				if m.typ == "assistant" {
					content = []map[string]string{{"type": "text", "text": m.text}}
				}
				rec := map[string]any{"type": m.typ, "uuid": fmt.Sprintf("d%d-%s%d", d, m.typ, i), "timestamp": at.Add(time.Duration(i) * time.Minute).Format(time.RFC3339),
					"cwd": h.proj, "sessionId": fmt.Sprintf("day%d", d), "message": map[string]any{"role": m.typ, "content": content}}
				line, _ := json.Marshal(rec)
				b.Write(append(line, '\n'))
			}
		}
		if err := os.WriteFile(filepath.Join(h.tdir, fmt.Sprintf("day%d.jsonl", d)), b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h synthHome) cmd(args ...string) *exec.Cmd {
	c := h.extractHome.cmd(args...)
	c.Env = append(c.Env, "MEMDIR_NOW=2026-11-25T12:00:00Z")
	return c
}

func (h synthHome) run(args ...string) string {
	h.t.Helper()
	out, err := h.cmd(args...).CombinedOutput()
	if err != nil {
		h.t.Fatalf("memdir %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// files returns the synthesis files that synthesis writes, by path.
func (h synthHome) files() map[string]string {
	out := map[string]string{}
	dir := filepath.Join(h.home, "memory")
	for _, pat := range []string{"daily/*.md", "project-memory/*.md", "*.md", ".decay-archive.md"} {
		paths, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				h.t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(b)
		}
	}
	return out
}

// check holds after any kill: every day that is not pending has its
// summary, and the long-term files parse (decay --dry-run reads them all
// and refuses a file that does not).
func (h synthHome) check(days int) {
	h.t.Helper()
	var list struct{ Days []struct{ Date string } }
	out, err := h.cmd("transcripts", "list-pending", "--json").Output()
	if err != nil {
		h.t.Fatalf("list-pending: %v", err)
	}
	pending := &list.Days
	if err := json.Unmarshal(out, &list); err != nil {
		h.t.Fatalf("list-pending: %v\n%s", err, out)
	}
	for d := range days {
		date := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d).Format(time.DateOnly)
		isPending := slices.ContainsFunc(*pending, func(p struct{ Date string }) bool { return p.Date == date })
		if _, err := os.Stat(filepath.Join(h.home, "memory", "daily", date+".md")); err != nil && !isPending {
			h.t.Fatalf("%s is marked done without its summary: %v", date, err)
		}
	}
	h.run("decay", "--dry-run")
}

// TestSynthesize_KillNine: synthesis killed at random points leaves no
// day done without its summary and no long-term file half written, and a
// run after the kills ends with the files an uninterrupted run writes.
func TestSynthesize_KillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	const days = 20
	ref, h := newSynthHome(t, days), newSynthHome(t, days)
	start := time.Now()
	ref.run("synthesize")
	took := time.Since(start) // the kills land within a run's length
	want := ref.files()
	if len(want) < days+1 {
		t.Fatalf("the reference run wrote %d files", len(want))
	}
	rng := rand.New(rand.NewPCG(14, 15))
	killed := 0
	for range 10 {
		c := h.cmd("synthesize")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took) / 2)))
		c.Process.Signal(syscall.SIGKILL)
		if c.Wait() != nil {
			killed++
		}
		h.check(days)
	}
	t.Logf("a run takes %v; %d of 10 runs were killed before their end", took, killed)
	if killed == 0 {
		t.Fatal("no run was killed before its end: the test tested nothing")
	}
	h.run("synthesize")
	got := h.files()
	for name, text := range want {
		if got[name] != text {
			t.Errorf("%s after the kills differs from an uninterrupted run's:\n--- got\n%s\n--- want\n%s", name, got[name], text)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok && !strings.HasPrefix(name, ".") {
			t.Errorf("%s exists only after the kills", name)
		}
	}
}

// TestSynthesize_Twice: a second run changes no file.
func TestSynthesize_Twice(t *testing.T) {
	h := newSynthHome(t, 3)
	h.run("synthesize")
	first := h.files()
	h.run("synthesize")
	if got := h.files(); !maps.Equal(got, first) {
		t.Fatalf("the second run changed files")
	}
}
