package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memgen"
)

// BenchmarkListCLI runs the built memdir list (text and --json) on a
// memgen folder and reports its peak RSS: list streams, so the figure
// should not grow with the folder. MEMDIR_BENCH_LIST_N sets the size
// (default 10000).
func BenchmarkListCLI(b *testing.B) {
	n := 10000
	if v := os.Getenv("MEMDIR_BENCH_LIST_N"); v != "" {
		fmt.Sscan(v, &n)
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("memdir-mcpbench-%d", n))
	mem := filepath.Join(dir, "memory")
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		os.RemoveAll(dir)
		if err := memgen.Write(mem, 1, n); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "done"), nil, 0o600)
		time.Sleep(2 * time.Second) // past the snapshot's racy window
	}
	exe := filepath.Join(b.TempDir(), "memdir")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for _, mode := range []string{"text", "json"} {
		b.Run(fmt.Sprintf("n=%d/%s", n, mode), func(b *testing.B) {
			args := []string{"list"}
			if mode == "json" {
				args = []string{"--json", "list"}
			}
			var peak int64
			for b.Loop() {
				cmd := exec.Command(exe, args...)
				cmd.Env = append(os.Environ(), "HOME="+dir, "MEMDIR_MEMORY_DIR="+mem)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("memdir list: %v\n%s", err, out[:min(len(out), 2000)])
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss) // KiB on Linux
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
		})
	}
}
