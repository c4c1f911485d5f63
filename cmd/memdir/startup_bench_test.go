package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkHookStartup times what a prompt costs before any recall: 'memdir
// hook UserPromptSubmit' on an empty home (no memories, so nothing but
// start-up, reading the event and the session's bookkeeping), against a Go
// hello-world that reads its stdin and prints a line, started the same way
// and interleaved run by run, so the ratio holds however loaded the machine
// is (issue 13: the hook should cost little more than starting a process).
//
// It reports the two medians of wall time and hook-ratio, their quotient,
// and hook-cpu-ratio, the same of CPU time (user and system). With
// MEMDIR_STARTUP_BASELINE naming another memdir binary (an older build),
// that binary is timed in the same interleaved runs, as base-ms,
// base-ratio and base-cpu-ratio, so before and after come from one run:
//
//	# at the older commit, built as goBuild builds:
//	CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /tmp/memdir.old ./cmd/memdir
//	MEMDIR_STARTUP_BASELINE=/tmp/memdir.old go test -run '^$' -bench HookStartup -count 5 ./cmd/memdir/
func BenchmarkHookStartup(b *testing.B) {
	dir := b.TempDir()
	exe := filepath.Join(dir, "memdir")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	goBuild(b, ".", exe)
	hello := buildHelloWorld(b, dir)
	base := os.Getenv("MEMDIR_STARTUP_BASELINE")

	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{home, filepath.Join(project, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	// Each run's wall time, and its CPU time (user and system), which a
	// busy machine disturbs less.
	type times struct{ wall, cpu []time.Duration }
	timed := func(ts *times, stdin []byte, name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir = env, project
		cmd.Stdin = bytes.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		t := time.Now()
		err := cmd.Run()
		d := time.Since(t)
		if err != nil || (name != hello && out.Len() > 0) {
			// On an empty home the hook has nothing to say: any output
			// is a failure the timing would hide.
			b.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out.Bytes())
		}
		ts.wall = append(ts.wall, d)
		ts.cpu = append(ts.cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
	}
	var hookT, helloT, baseT times
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// A new session each run, as each prompt of a new conversation.
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("startup-%d", i), "hook_event_name": "UserPromptSubmit",
			"cwd": project, "prompt": "what did we decide about the deploy window?"})
		timed(&hookT, in, exe, "--home", home, "hook", "UserPromptSubmit")
		timed(&helloT, in, hello)
		if base != "" {
			timed(&baseT, in, base, "--home", home, "hook", "UserPromptSubmit")
		}
	}
	b.StopTimer()
	h, hc := median(helloT.wall), median(helloT.cpu)
	b.ReportMetric(h, "hello-ms")
	b.ReportMetric(median(hookT.wall), "hook-ms")
	b.ReportMetric(median(hookT.wall)/h, "hook-ratio")
	b.ReportMetric(median(hookT.cpu)/hc, "hook-cpu-ratio")
	if base != "" {
		b.ReportMetric(median(baseT.wall), "base-ms")
		b.ReportMetric(median(baseT.wall)/h, "base-ratio")
		b.ReportMetric(median(baseT.cpu)/hc, "base-cpu-ratio")
	}
}

// median is the middle of ts, in milliseconds.
func median(ts []time.Duration) float64 {
	s := slices.Clone(ts)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// goBuild builds the package in dir as releases are built
// (.goreleaser.yaml): static, without cgo (which would add the dynamic
// loader's work to every start), and stripped.
func goBuild(tb testing.TB, dir, exe string) {
	tb.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", exe, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
}

// buildHelloWorld builds the baseline 'memdir bench latency' uses too: a Go
// program that reads its stdin and prints one line, the least a hook does.
func buildHelloWorld(tb testing.TB, dir string) string {
	tb.Helper()
	src := filepath.Join(dir, "hello")
	if err := os.MkdirAll(src, 0o700); err != nil {
		tb.Fatal(err)
	}
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() {\n\tb, _ := io.ReadAll(os.Stdin)\n\tfmt.Println(len(b))\n}\n"
	for name, text := range map[string]string{"main.go": prog, "go.mod": "module hello\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	exe := filepath.Join(src, "hello")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	goBuild(tb, src, exe)
	return exe
}
