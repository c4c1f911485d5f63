package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
)

// dreamHome is an agent home whose project has a messy memory folder.
type dreamHome struct {
	*extractHome
	mem string
}

// newDreamHome writes pairs copy-paste duplicates (the same rule saved
// twice under two names), a pinned memory and a Claude Code layout file.
func newDreamHome(t *testing.T, pairs int) dreamHome {
	h := dreamHome{extractHome: newExtractHome(t)}
	h.mem = filepath.Join(h.tdir, "memory")
	if err := os.MkdirAll(h.mem, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(h.mem, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var index strings.Builder
	index.WriteString("# Memory\n\n")
	for i := range pairs {
		svc := fmt.Sprintf("billing-%02d", i)
		body := fmt.Sprintf("The %s service answers health checks on port %d; the load balancer probes /healthz there every 10 seconds.\n", svc, 8100+i)
		for j, name := range []string{svc + " health port", "Health checks of " + svc} {
			file := fmt.Sprintf("%s-%d.md", svc, j)
			write(file, fmt.Sprintf("---\nname: %s\ndescription: Health checks of %s go to port %d\ntype: reference\ncreated: 2026-0%d-1%dT10:00:00Z\n---\n%s",
				name, svc, 8100+i, 1+j, i%10, body))
			fmt.Fprintf(&index, "- [%s](%s) — health checks of %s\n", name, file, svc)
		}
	}
	write("pinned-rule.md", "---\nname: Never push to main\ndescription: All changes go through a pull request\ntype: feedback\npinned: true\ncreated: 2025-01-01T00:00:00Z\n---\nAll changes go through a pull request; never push to main.\n")
	write("claude-layout.md", "---\nname: user-role\ndescription: The user is a data engineer who reads Go but writes Python\nmetadata:\n  type: user\n---\n\nData engineer; reads Go, writes Python.\n")
	index.WriteString("- [Never push to main](pinned-rule.md) — all changes go through a pull request\n- [user-role](claude-layout.md) — data engineer\n")
	write("MEMORY.md", index.String())
	return h
}

func (h dreamHome) run(args ...string) string {
	h.t.Helper()
	c := h.cmd(args...)
	c.Env = append(c.Env, "MEMDIR_NOW=2026-11-25T12:00:00Z")
	out, err := c.CombinedOutput()
	if err != nil {
		h.t.Fatalf("memdir %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// updatedRE is a memory's updated line, which the store stamps with the
// time of the write.
var updatedRE = regexp.MustCompile(`(?m)^updated: .*$`)

// stampRE is the UTC stamp the store adds to a kept version's name.
var stampRE = regexp.MustCompile(`\.md\.[0-9TZ.-]+$`)

// folder is the memory folder as a person sees it: every file but the
// derived ones (cache, batch journals, lock), by path, with the clock's
// marks taken out: a kept version's stamp in its name, the updated lines.
func (h dreamHome) folder() map[string]string {
	h.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(h.mem, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(h.mem, p)
		if d.IsDir() {
			if rel == ".memdir-cache" || rel == ".memdir-batches" {
				return filepath.SkipDir
			}
			return nil
		}
		if rel == ".memdir.lock" || rel == ".consolidate-lock" || rel == ".memdir-usage.json" {
			return nil
		}
		if atomicfile.IsTemp(d.Name()) {
			// A writer killed mid-write leaves its temp file (a dot file
			// no scan reads), swept by the next write: no memory.
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = updatedRE.ReplaceAll(b, []byte("updated: CLOCK")) // the store's clock, not MEMDIR_NOW
		key := stampRE.ReplaceAllString(rel, ".md.STAMP")
		for out[key] != "" {
			key += "'"
		}
		out[key] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func sameFolder(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func diffFolder(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		if b[k] != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	slices.Sort(d)
	return strings.Join(d, ", ")
}

// TestDream_ApplyUndo: --apply merges the duplicates, leaves the pinned
// and the Claude Code file as they were, and --undo puts the folder back
// byte for byte.
func TestDream_ApplyUndo(t *testing.T) {
	h := newDreamHome(t, 4)
	before := h.folder()
	claude, _ := os.ReadFile(filepath.Join(h.mem, "claude-layout.md"))
	pinned, _ := os.ReadFile(filepath.Join(h.mem, "pinned-rule.md"))
	out := h.run("dream", "--apply")
	if !strings.Contains(out, "Applied ") {
		t.Fatalf("dream --apply:\n%s", out)
	}
	after := h.folder()
	if sameFolder(before, after) {
		t.Fatalf("--apply changed nothing:\n%s", out)
	}
	for i := range 4 {
		a, b := fmt.Sprintf("billing-%02d-0.md", i), fmt.Sprintf("billing-%02d-1.md", i)
		if _, okA := after[a]; okA == (after[b] != "") {
			t.Errorf("pair %d: not merged into one memory (%s: %v, %s: %v)", i, a, okA, b, after[b] != "")
		}
	}
	for name, want := range map[string][]byte{"claude-layout.md": claude, "pinned-rule.md": pinned} {
		if got, _ := os.ReadFile(filepath.Join(h.mem, name)); string(got) != string(want) {
			t.Errorf("%s changed though no operation names it:\n%s", name, got)
		}
	}
	h.run("dream", "--undo")
	if got := h.folder(); !sameFolder(before, got) {
		t.Errorf("after --undo the folder differs from before --apply in: %s", diffFolder(before, got))
	}
}

// TestDream_KillNine: an --apply killed at any moment leaves, once memdir
// next opens the folder, either the folder before or the folder after —
// never a mix.
func TestDream_KillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	const pairs = 40
	ref := newDreamHome(t, pairs)
	old := ref.folder()
	start := time.Now()
	ref.run("dream", "--apply")
	took := time.Since(start)
	want := ref.folder()
	if sameFolder(old, want) {
		t.Fatal("the reference --apply changed nothing")
	}
	rng := rand.New(rand.NewPCG(18, 18))
	seen := map[string]int{}
	for i := range 25 {
		h := newDreamHome(t, pairs)
		c := h.cmd("dream", "--apply")
		c.Env = append(c.Env, "MEMDIR_NOW=2026-11-25T12:00:00Z")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(took))))
		c.Process.Signal(syscall.SIGKILL)
		killed := c.Wait() != nil
		h.run("list", "--json") // the next memdir to open the folder finishes or drops the batch
		got := h.folder()
		switch {
		case sameFolder(got, old):
			seen["before"]++
		case sameFolder(got, want):
			seen["after"]++
		default:
			t.Fatalf("run %d (killed: %v): the folder is neither before nor after; differs from after in: %s", i, killed, diffFolder(got, want))
		}
		if killed {
			seen["killed"]++
		}
	}
	t.Logf("an --apply takes %v; of 25 runs, %d killed; folder left before: %d, after: %d", took, seen["killed"], seen["before"], seen["after"])
	if seen["killed"] == 0 {
		t.Fatal("no run was killed before its end: the test tested nothing")
	}
}

// TestDream_LabelledFolders runs 'memdir dream' on each half of the
// labelled messy folders (internal/consolidate/testdata/dream): the plan
// retires no pinned memory; --apply changes only the files the plan names
// — Claude Code's own files among the rest keep every byte — and --undo
// puts the folder back.
func TestDream_LabelledFolders(t *testing.T) {
	for _, half := range []string{"tune", "heldout", "fresh", "fresh2", "fresh3", "fresh4"} {
		t.Run(half, func(t *testing.T) {
			h := dreamHome{extractHome: newExtractHome(t)}
			h.mem = filepath.Join(h.tdir, "memory")
			src := filepath.Join("..", "..", "internal", "consolidate", "testdata", "dream", half, "memories")
			files, _ := filepath.Glob(filepath.Join(src, "*.md"))
			if len(files) < 30 {
				t.Fatalf("%s: %d memories", src, len(files))
			}
			if err := os.MkdirAll(h.mem, 0o700); err != nil {
				t.Fatal(err)
			}
			pinned, claude := map[string]bool{}, map[string]bool{}
			jan := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Base(f)
				pinned[name] = strings.Contains(string(b), "\npinned: true\n")
				claude[name] = strings.Contains(string(b), "\nmetadata:\n")
				dst := filepath.Join(h.mem, name)
				if err := os.WriteFile(dst, b, 0o600); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(dst, jan, jan)
			}
			var rep struct {
				Plan struct {
					Ops []struct {
						ID     string   `json:"id"`
						Files  []string `json:"files"`
						Retire []string `json:"retire"`
					} `json:"ops"`
				} `json:"plan"`
			}
			out := h.run("dream", "--dry-run", "--json")
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			named := map[string]bool{}
			for _, op := range rep.Plan.Ops {
				for _, f := range op.Files {
					named[f] = true
				}
				for _, f := range op.Retire {
					if pinned[f] {
						t.Errorf("%s retires the pinned %s", op.ID, f)
					}
				}
			}
			before := map[string][]byte{}
			for name := range pinned {
				before[name], _ = os.ReadFile(filepath.Join(h.mem, name))
			}
			whole := h.folder()
			h.run("dream", "--apply")
			untouched, cc := 0, 0
			for name, b := range before {
				if named[name] {
					continue
				}
				untouched++
				if claude[name] {
					cc++
				}
				if got, _ := os.ReadFile(filepath.Join(h.mem, name)); string(got) != string(b) {
					t.Errorf("%s changed, though no operation names it", name)
				}
			}
			if cc == 0 {
				t.Errorf("no Claude Code file was left out of the plan: the check of their bytes checked nothing")
			}
			h.run("dream", "--undo")
			if got := h.folder(); !sameFolder(whole, got) {
				t.Errorf("after --undo the folder differs in: %s", diffFolder(whole, got))
			}
			t.Logf("%s: %d operations; %d files no operation names kept their bytes (%d of Claude Code's layout)", half, len(rep.Plan.Ops), untouched, cc)
		})
	}
}
