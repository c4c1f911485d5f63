package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memgen"
	"github.com/memdir/memdir/internal/workspace"
)

// benchFolder is a memgen folder of n memories, made once per machine and
// kept under the temp folder (100k takes a minute to write): the
// benchmarks only read it (the snapshot goes to its cache folder).
func benchFolder(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("memdir-mcpbench-%d", n))
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		os.RemoveAll(dir)
		mem := filepath.Join(dir, "memory")
		if err := memgen.Write(mem, 1, n); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "done"), nil, 0o600)
		// Files changed within 2 s of a snapshot are re-read by every
		// check: measure the steady state, not that window.
		time.Sleep(2 * time.Second)
	}
	return dir
}

// benchEnv is the environment of a server over the folder.
func benchEnv(dir string) workspace.Env {
	project := filepath.Join(dir, "project")
	os.MkdirAll(project, 0o700)
	return workspace.Env{Cwd: project, Getenv: func(k string) string {
		switch k {
		case "HOME":
			return dir
		case "MEMDIR_MEMORY_DIR":
			return filepath.Join(dir, "memory")
		}
		return ""
	}}
}

// benchClient serves the folder in process, through the SDK's in-memory
// transport, and returns a client session on it.
func benchClient(b *testing.B, dir string) *mcp.ClientSession {
	b.Helper()
	srv := New(benchEnv(dir), "bench")
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait(); srv.Close() })
	return cs
}

// warm makes the first call (the server builds or maps the snapshot),
// waits past the racy window (a snapshot just written is checked in full
// by every call until then) and calls again.
func warm(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) {
	benchCall(b, cs, tool, args)
	time.Sleep(2100 * time.Millisecond)
	benchCall(b, cs, tool, args)
}

func benchCall(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		b.Fatal(err)
	}
	if r.IsError {
		b.Fatalf("%s: %+v", tool, r.Content[0])
	}
	return r
}

// BenchmarkRecall is memory_recall, warm (the server has answered once),
// for memgen's relevant and unrelated prompts apart.
func BenchmarkRecall(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		dir := benchFolder(b, n)
		for _, kind := range []string{"relevant", "unrelated"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, kind), func(b *testing.B) {
				cs := benchClient(b, dir)
				var queries []string
				for i := range 200 {
					if (i%2 == 1) == (kind == "unrelated") {
						queries = append(queries, memgen.Query(1, n, i))
					}
				}
				warm(b, cs, "memory_recall", map[string]any{"query": queries[0]})
				b.ReportAllocs()
				b.ResetTimer()
				var times []time.Duration
				for i := 0; b.Loop(); i++ {
					t := time.Now()
					benchCall(b, cs, "memory_recall", map[string]any{"query": queries[i%len(queries)]})
					times = append(times, time.Since(t))
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			})
		}
	}
}

// BenchmarkCallFloor is a memory_recall the server refuses before any
// work (an empty query): what the SDK and its in-memory transport cost a
// call, the floor under every figure above.
func BenchmarkCallFloor(b *testing.B) {
	cs := benchClient(b, benchFolder(b, 1000))
	var times []time.Duration
	for b.Loop() {
		t := time.Now()
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"query": " "}})
		if err != nil || !r.IsError {
			b.Fatalf("an empty query was answered: %v", err)
		}
		times = append(times, time.Since(t))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkList is one memory_list call with its default page, warm.
func BenchmarkList(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		dir := benchFolder(b, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			cs := benchClient(b, dir)
			warm(b, cs, "memory_list", nil)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				benchCall(b, cs, "memory_list", nil)
			}
		})
	}
}
