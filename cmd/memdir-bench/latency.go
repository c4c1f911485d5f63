package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/memgen"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// memdirPkg is what the cold runs measure when --memdir is not given: the
// memdir command of this module, built from the working directory's clone.
const memdirPkg = "github.com/memdir/memdir/cmd/memdir"

type latencyJSON struct {
	Memories    int     `json:"memories"`
	Queries     int     `json:"queries"`
	BuildMS     float64 `json:"build_ms"`
	InProcP50MS float64 `json:"in_process_p50_ms"`
	InProcP95MS float64 `json:"in_process_p95_ms"`
	ColdRuns    int     `json:"cold_runs,omitempty"`
	HelloP50MS  float64 `json:"hello_world_p50_ms,omitempty"` // a Go hello-world started the same way, interleaved
	// The process floor: memdir built as a release whose main returns at
	// once (interleaved too); 0 when it could not be built (memdir-bench
	// run outside a clone).
	FloorP50MS    float64 `json:"floor_p50_ms,omitempty"`
	FloorRatio    float64 `json:"floor_p50_over_hello_world,omitempty"`
	InjectedShare float64 `json:"queries_with_injection"`
	MeanTokens    float64 `json:"mean_tokens_when_injected"`
	// Relevant prompts use words of a memory; unrelated ones are about
	// nothing the folder holds. Reported apart, never mixed.
	Relevant  promptLatency `json:"relevant"`
	Unrelated promptLatency `json:"unrelated"`
}

// promptLatency is one kind of prompt's figures.
type promptLatency struct {
	InProcP50MS float64 `json:"in_process_p50_ms"`
	ColdP50MS   float64 `json:"cold_process_p50_ms,omitempty"`
	ColdP95MS   float64 `json:"cold_process_p95_ms,omitempty"`
	HookP50MS   float64 `json:"hook_p50_ms,omitempty"`
	HookP95MS   float64 `json:"hook_p95_ms,omitempty"`
	HookRatio   float64 `json:"hook_p50_over_hello_world,omitempty"`
	// The first hook after one memory was saved through the store: the
	// snapshot's update included.
	ChangedP50MS  float64 `json:"hook_after_change_p50_ms,omitempty"`
	ChangedP95MS  float64 `json:"hook_after_change_p95_ms,omitempty"`
	ChangedRatio  float64 `json:"hook_after_change_over_warm_hook,omitempty"`
	ChangedRounds int     `json:"hook_after_change_runs,omitempty"`
}

func (b *bench) latencyCmd() *cobra.Command {
	var sizes, dir, exe string
	var queries, coldRuns int
	cmd := &cobra.Command{
		Use:   "latency [--memories 1000,10000,100000]",
		Short: "Recall latency on generated memory folders, in process and as a new process",
		Long: `Latency generates a folder of N realistic memories (seeded: the same folder
every run), builds recall's snapshot once, then measures:

  in-process   ranking, selection and rendering for --queries prompts (half
               about the memories, half about nothing they hold), with the
               snapshot loaded, reported for each half: recall's own cost,
               without start-up, freshness check or a protocol (the MCP
               server's figure is BenchmarkRecall in internal/mcpserver);
  cold process a new 'memdir recall' process per prompt, --cold-runs times:
               what an agent's hook pays, start-up and freshness check included;
               then 'memdir hook UserPromptSubmit' as Claude Code runs it;
  after change the first hook after one memory was saved through the
               store (the snapshot's update included), as a ratio to the
               warm hook.

The cold runs execute the memdir binary named by --memdir; without it,
memdir-bench builds ./cmd/memdir of the clone it runs in ('go build' into a
temporary folder), so the figures are this checkout's. It prints p50 and p95
per folder size.`,
		Example: `  go run ./cmd/memdir-bench latency
  go run ./cmd/memdir-bench latency --memories 100000 --cold-runs 0 --json
  go run ./cmd/memdir-bench latency --memdir "$(which memdir)"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ns []int
			for _, s := range strings.Split(sizes, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n <= 0 {
					return hint.With(fmt.Errorf("--memories %q is not a list of positive numbers", sizes), "use e.g. --memories 1000,10000")
				}
				ns = append(ns, n)
			}
			tmp, err := os.MkdirTemp("", "memdir-latency-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			root := cmp.Or(dir, tmp)
			if coldRuns > 0 && exe == "" {
				if exe, err = b.buildMemdir(tmp); err != nil {
					return err
				}
			}
			var results []latencyJSON
			for _, n := range ns {
				r, err := b.latency(root, n, queries, coldRuns, exe)
				if err != nil {
					return err
				}
				results = append(results, r)
				if !b.json {
					b.printf("%7d memories: build %.0f ms; in-process p50 %.3f ms (relevant %.3f, unrelated %.3f), p95 %.3f ms; %.0f%% of prompts got memories, %.0f tokens on average\n",
						n, r.BuildMS, r.InProcP50MS, r.Relevant.InProcP50MS, r.Unrelated.InProcP50MS, r.InProcP95MS, 100*r.InjectedShare, r.MeanTokens)
					if r.ColdRuns > 0 {
						b.printf("         Go hello-world p50 %.1f ms (%s)\n", r.HelloP50MS, sessions.Plural(r.ColdRuns, "run"))
						if r.FloorP50MS > 0 {
							b.printf("         process floor p50 %.1f ms (%.1f× hello-world): memdir built as a release, main returning at once\n", r.FloorP50MS, r.FloorRatio)
						}
						for _, k := range []struct {
							name string
							p    promptLatency
						}{{"relevant", r.Relevant}, {"unrelated", r.Unrelated}} {
							b.printf("         %-9s  recall process p50 %.1f ms, p95 %.1f ms; UserPromptSubmit hook p50 %.1f ms (%.1f× hello-world), p95 %.1f ms\n",
								k.name, k.p.ColdP50MS, k.p.ColdP95MS, k.p.HookP50MS, k.p.HookRatio, k.p.HookP95MS)
						}
						b.printf("         first hook after one memory changed (relevant, %s): p50 %.1f ms (%.2f× the warm hook), p95 %.1f ms\n",
							sessions.Plural(r.Relevant.ChangedRounds, "run"), r.Relevant.ChangedP50MS, r.Relevant.ChangedRatio, r.Relevant.ChangedP95MS)
					}
				}
			}
			if b.json {
				return b.printJSON(results)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&sizes, "memories", "1000,10000,100000", "folder sizes, comma-separated")
	f.IntVar(&queries, "queries", 400, "prompts per folder, in process")
	f.IntVar(&coldRuns, "cold-runs", 40, "new processes per folder (0: skip)")
	f.StringVar(&dir, "dir", "", "where to generate the folders (default: a temporary folder, removed after)")
	f.StringVar(&exe, "memdir", "", "the memdir binary the cold runs execute (default: build ./cmd/memdir of this clone)")
	return cmd
}

// buildMemdir builds memdir into dir with the go command, as 'go install'
// would, and returns the binary's path.
func (b *bench) buildMemdir(dir string) (string, error) {
	exe := filepath.Join(dir, "memdir")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	fmt.Fprintf(b.stderr, "memdir-bench: building %s for the cold runs (--memdir PATH runs another binary)\n", memdirPkg)
	cmd := exec.CommandContext(b.ctx, "go", "build", "-o", exe, memdirPkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", hint.With(fmt.Errorf("go build %s: %v\n%s", memdirPkg, err, out),
			"run memdir-bench in a clone of memdir with Go installed, pass --memdir PATH, or --cold-runs 0")
	}
	return exe, nil
}

func (b *bench) latency(root string, n, queries, coldRuns int, exe string) (latencyJSON, error) {
	r := latencyJSON{Memories: n, Queries: queries}
	home := filepath.Join(root, fmt.Sprintf("home-%d", n))
	project := filepath.Join(root, fmt.Sprintf("project-%d", n))
	if err := os.MkdirAll(project, 0o700); err != nil {
		return r, err
	}
	cwd, _ := os.Getwd()
	l, err := workspace.Env{Getenv: func(string) string { return "" }, Cwd: cwd, HomeFlag: home, ProjectFlag: project}.Layout()
	if err != nil {
		return r, err
	}
	if _, err := os.Stat(l.MemoryDir); err != nil {
		fmt.Fprintf(b.stderr, "memdir-bench: generating %d memories in %s\n", n, l.MemoryDir)
		if err := memgen.Write(l.MemoryDir, 1, n); err != nil {
			return r, err
		}
	}
	st, err := memdir.Open(l.MemoryDir, memdir.Options{})
	if err != nil {
		return r, err
	}
	start := time.Now()
	if _, _, err := snapshot.Fresh(context.Background(), st); err != nil {
		return r, err
	}
	r.BuildMS = ms(time.Since(start))
	// A folder changed within the last two seconds is listed again by
	// every recall (its time may hide a change) until the snapshot is
	// written once the window has passed: measure the steady state an
	// agent's prompts meet, not that window.
	fmt.Fprintf(b.stderr, "memdir-bench: waiting 2 s for the folder's times to settle (recall re-reads files changed within 2 s of its snapshot)\n")
	time.Sleep(2 * time.Second)
	snap, _, err := snapshot.Fresh(context.Background(), st)
	if err != nil {
		return r, err
	}
	var times []time.Duration
	var byKind [2][]time.Duration // [relevant, unrelated]: memgen's odd queries are unrelated
	injected := 0
	for i := range queries {
		query := memgen.Query(1, n, i)
		t := time.Now()
		rec, _ := snapshot.From(st, snap, project, query, recall.DefaultPolicy, time.Now())
		out := rec.Text
		d := time.Since(t)
		times = append(times, d)
		byKind[i%2] = append(byKind[i%2], d)
		if out != "" {
			injected++
			r.MeanTokens += float64(recall.Tokens(out))
		}
	}
	r.InProcP50MS, r.InProcP95MS = percentiles(times)
	r.Relevant.InProcP50MS, _ = percentiles(byKind[0])
	r.Unrelated.InProcP50MS, _ = percentiles(byKind[1])
	r.InjectedShare = float64(injected) / float64(max(queries, 1))
	r.MeanTokens /= float64(max(injected, 1))
	if coldRuns > 0 {
		if err := b.coldRuns(&r, root, home, project, l.MemoryDir, n, coldRuns, exe); err != nil {
			return r, err
		}
	}
	return r, nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// percentiles returns the p50 and p95 of ts, in milliseconds.
func percentiles(ts []time.Duration) (p50, p95 float64) {
	if len(ts) == 0 {
		return 0, 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	return ms(s[len(s)/2]), ms(s[min(len(s)-1, len(s)*95/100)])
}

// coldRuns times new processes, as an agent's hook starts them, for
// relevant and unrelated prompts apart: 'memdir recall', then 'memdir hook
// UserPromptSubmit' with the event on stdin (a new session each time, so
// nothing is deduplicated), each run followed by a Go hello-world started
// the same way, so the ratio holds however loaded the machine is. Then
// the first hook after one memory changed, against the warm hook.
func (b *bench) coldRuns(r *latencyJSON, root, home, project, memDir string, n, runs int, exe string) error {
	hello, err := b.buildHello(root)
	if err != nil {
		return err
	}
	floor, err := b.buildFloor(root)
	if err != nil {
		fmt.Fprintf(b.stderr, "memdir-bench: no process floor: %v\n", err)
	}
	env := []string{"HOME=" + root, "PATH=" + os.Getenv("PATH")}
	timed := func(stdin []byte, name string, args ...string) (time.Duration, error) {
		cmd := exec.CommandContext(b.ctx, name, args...)
		cmd.Env = env
		cmd.Stdin = bytes.NewReader(stdin)
		t := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		return time.Since(t), nil
	}
	var recallT, hookT [2][]time.Duration
	var helloT, floorT []time.Duration
	// A new session for every hook, in this run and across runs on one
	// folder: a session id used before carries the memories it was given,
	// which recall then passes over — a later prompt of a session, not the
	// first one this measures.
	run := time.Now().UnixNano()
	for i := range 2 * runs { // runs of each kind
		kind, query := i%2, memgen.Query(1, n, i)
		d, err := timed(nil, exe, "--home", home, "--project", project, "recall", query)
		if err != nil {
			return err
		}
		recallT[kind] = append(recallT[kind], d)
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("bench-%d-%d-%d", n, run, i), "hook_event_name": "UserPromptSubmit",
			"cwd": project, "prompt": query})
		if d, err = timed(in, exe, "--home", home, "hook", "UserPromptSubmit"); err != nil {
			return err
		}
		hookT[kind] = append(hookT[kind], d)
		if d, err = timed(in, hello); err != nil {
			return err
		}
		helloT = append(helloT, d)
		if floor != "" {
			if d, err = timed(nil, floor); err != nil {
				return err
			}
			floorT = append(floorT, d)
		}
	}
	r.ColdRuns = runs
	r.HelloP50MS, _ = percentiles(helloT)
	if r.FloorP50MS, _ = percentiles(floorT); r.FloorP50MS > 0 && r.HelloP50MS > 0 {
		r.FloorRatio = math.Round(10*r.FloorP50MS/r.HelloP50MS) / 10
	}
	for kind, p := range []*promptLatency{&r.Relevant, &r.Unrelated} {
		p.ColdP50MS, p.ColdP95MS = percentiles(recallT[kind])
		p.HookP50MS, p.HookP95MS = percentiles(hookT[kind])
		if r.HelloP50MS > 0 {
			p.HookRatio = math.Round(10*p.HookP50MS/r.HelloP50MS) / 10
		}
	}
	// The first hook after a change: one memory saved through the store
	// (as 'memdir save' or an extraction does), then one hook on a
	// relevant prompt, which finds the change and updates the snapshot.
	// Its body alternates between two versions and ends as it began.
	st, err := memdir.Open(memDir, memdir.Options{})
	if err != nil {
		return err
	}
	files, err := st.Files()
	if err != nil || len(files) == 0 {
		return err
	}
	orig, err := st.Read(files[0])
	if err != nil {
		return err
	}
	rounds := max(2, runs/2) &^ 1 // even: the memory ends as it began
	var changedT []time.Duration
	for i := range rounds {
		m := memdir.Memory{File: files[0], Name: orig.Name, Body: orig.Body}
		if i%2 == 0 {
			m.Body += fmt.Sprintf("\n\nEdited for the latency benchmark (%d).\n", i)
		}
		if _, err := st.Save(b.ctx, m, memdir.SaveOptions{MustExist: true}); err != nil {
			return err
		}
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("bench-changed-%d-%d-%d", n, time.Now().UnixNano(), i), "hook_event_name": "UserPromptSubmit",
			"cwd": project, "prompt": memgen.Query(1, n, 2*i)})
		d, err := timed(in, exe, "--home", home, "hook", "UserPromptSubmit")
		if err != nil {
			return err
		}
		changedT = append(changedT, d)
	}
	p := &r.Relevant
	p.ChangedRounds = rounds
	p.ChangedP50MS, p.ChangedP95MS = percentiles(changedT)
	if p.HookP50MS > 0 {
		p.ChangedRatio = math.Round(100*p.ChangedP50MS/p.HookP50MS) / 100
	}
	return nil
}

// buildFloor builds the process floor into dir: memdir itself, built as
// releases are, whose main returns before it does anything (every
// package's initialisers run, and the binary is memdir's, code and size).
// It is never written into the clone: the go command reads the changed
// main.go through an overlay.
func (b *bench) buildFloor(dir string) (string, error) {
	exe := filepath.Join(dir, "floor", "memdir-floor")
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	out, err := exec.CommandContext(b.ctx, "go", "list", "-f", "{{.Dir}}", memdirPkg).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w (run from a clone of memdir)", memdirPkg, err)
	}
	main := filepath.Join(strings.TrimSpace(string(out)), "main.go")
	src, err := os.ReadFile(main)
	if err != nil {
		return "", err
	}
	// os.Args is never empty, which the compiler cannot know: main
	// returns at once and memdir's code stays linked.
	const head = "func main() {\n"
	if !bytes.Contains(src, []byte(head)) || !bytes.Contains(src, []byte("\t\"os\"\n")) {
		return "", fmt.Errorf("%s has no %q importing os: the process floor cannot be built", main, strings.TrimSpace(head))
	}
	src = bytes.Replace(src, []byte(head), []byte(head+"\tif len(os.Args) > 0 {\n\t\treturn // memdir-bench latency's process floor\n\t}\n"), 1)
	changed := filepath.Join(dir, "floor", "main.go")
	if err := os.MkdirAll(filepath.Dir(changed), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(changed, src, 0o600); err != nil {
		return "", err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {main: changed}})
	if err != nil {
		return "", err
	}
	ov := filepath.Join(dir, "floor", "overlay.json")
	if err := os.WriteFile(ov, overlay, 0o600); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(b.ctx, "go", "build", "-overlay", ov, "-trimpath", "-ldflags=-s -w", "-o", exe, memdirPkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the process floor: %v\n%s", err, out)
	}
	return exe, nil
}

// buildHello builds the baseline: a Go program that reads its stdin and
// prints one line, the least a hook can do.
func (b *bench) buildHello(dir string) (string, error) {
	src := filepath.Join(dir, "hello")
	exe := filepath.Join(src, "hello")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	if err := os.MkdirAll(src, 0o700); err != nil {
		return "", err
	}
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() {\n\tb, _ := io.ReadAll(os.Stdin)\n\tfmt.Println(len(b))\n}\n"
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(prog), 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o600); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(b.ctx, "go", "build", "-o", exe, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the hello-world baseline: %v\n%s", err, out)
	}
	return exe, nil
}
