package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/memgen"
	"github.com/memdir/memdir/internal/paths"
)

// BenchmarkHookTeam times what a team folder adds to a prompt: 'memdir
// hook UserPromptSubmit' in two projects holding the same private
// memories (MEMDIR_BENCH_PRIVATE, default 2,000), one of them also with a
// team folder (MEMDIR_BENCH_TEAM, default 200 memories), for a relevant
// and an unrelated prompt, interleaved run by run with a Go hello-world
// started the same way. It reports each median as a ratio to the
// hello-world's, relevant and unrelated apart (issue 16):
//
//	go test -run '^$' -bench HookTeam -benchtime 60x -count 3 ./cmd/memdir/
func BenchmarkHookTeam(b *testing.B) {
	dir := b.TempDir()
	exe := filepath.Join(dir, "memdir")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	goBuild(b, ".", exe)
	hello := buildHelloWorld(b, dir)
	nPriv, nTeam := envInt("MEMDIR_BENCH_PRIVATE", 2000), envInt("MEMDIR_BENCH_TEAM", 200)
	home := filepath.Join(dir, "home")
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "MEMDIR_EXTRACT=off"}
	const seed = 16
	projects := map[bool]string{}
	for _, team := range []bool{false, true} {
		p := filepath.Join(dir, fmt.Sprintf("proj-team-%v", team))
		if err := os.MkdirAll(filepath.Join(p, ".git"), 0o700); err != nil {
			b.Fatal(err)
		}
		if err := memgen.Write(filepath.Join(home, "projects", paths.Sanitize(p), "memory"), seed, nPriv); err != nil {
			b.Fatal(err)
		}
		if team {
			tdir := filepath.Join(p, ".memdir", "team")
			if err := memgen.Write(tdir, seed+1, nTeam); err != nil {
				b.Fatal(err)
			}
			st, err := memdir.Open(tdir, memdir.Options{Team: true})
			if err != nil {
				b.Fatal(err)
			}
			if err := st.WriteTeamIgnore(); err != nil {
				b.Fatal(err)
			}
		}
		projects[team] = p
	}
	type times []time.Duration
	run := func(ts *times, name, cwd string, in []byte, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env, cmd.Dir, cmd.Stdin = env, cwd, bytes.NewReader(in)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		t := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out.Bytes())
		}
		*ts = append(*ts, time.Since(t))
	}
	prompts := map[bool]func(i int) string{
		true:  func(i int) string { return memgen.Query(seed, nPriv, 2*i) },              // words of a private memory
		false: func(i int) string { return "write a haiku about autumn leaves falling" }, // nothing matches
	}
	hook := map[[2]bool]*times{}
	for _, team := range []bool{false, true} {
		for _, rel := range []bool{false, true} {
			hook[[2]bool{team, rel}] = &times{}
		}
	}
	var helloT times
	event := func(i int, p, prompt string) []byte {
		in, _ := json.Marshal(map[string]string{"session_id": fmt.Sprintf("team-%d", i), "hook_event_name": "UserPromptSubmit", "cwd": p, "prompt": prompt})
		return in
	}
	// Warm: each project's snapshots are built once, as after a first prompt.
	for _, team := range []bool{false, true} {
		var warm times
		run(&warm, exe, projects[team], event(-1, projects[team], prompts[true](0)), "--home", home, "hook", "UserPromptSubmit")
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for _, rel := range []bool{true, false} {
			for _, team := range []bool{false, true} {
				p := projects[team]
				run(hook[[2]bool{team, rel}], exe, p, event(i, p, prompts[rel](i)), "--home", home, "hook", "UserPromptSubmit")
			}
		}
		run(&helloT, hello, dir, nil)
	}
	b.StopTimer()
	h := median(helloT)
	b.ReportMetric(h, "hello-ms")
	for _, rel := range []bool{true, false} {
		kind := map[bool]string{true: "relevant", false: "unrelated"}[rel]
		for _, team := range []bool{false, true} {
			name := map[bool]string{false: "private", true: "team"}[team]
			b.ReportMetric(median(*hook[[2]bool{team, rel}])/h, name+"-"+kind+"-ratio")
		}
	}
}

func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err != nil || n <= 0 {
		return def
	}
	return n
}
