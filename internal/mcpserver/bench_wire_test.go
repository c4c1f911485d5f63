package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memgen"
)

// wireClient is a JSON-RPC client that writes requests as the bytes a
// client process sends and reads each reply as a line, decoding nothing:
// the server's side of a call (reading, recall, the reply's encoding, the
// transport), without the Go SDK client's decoding of the reply, which a
// real client (Claude Code, in its own process) does on its own time.
type wireClient struct {
	conn net.Conn
	r    *bufio.Reader
	id   int
}

func newWireClient(b *testing.B, dir string) *wireClient {
	b.Helper()
	srv := New(benchEnv(dir), "bench")
	c1, c2 := net.Pipe()
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: c2, Writer: c2}, nil)
	if err != nil {
		b.Fatal(err)
	}
	w := &wireClient{conn: c1, r: bufio.NewReaderSize(c1, 1<<20)}
	b.Cleanup(func() { c1.Close(); ss.Wait(); srv.Close() })
	w.call(b, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench", "version": "1"}})
	if _, err := c1.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}` + "\n")); err != nil {
		b.Fatal(err)
	}
	return w
}

// request is a call's bytes, made before the clock starts.
func (w *wireClient) request(b *testing.B, method string, params any) []byte {
	w.id++
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.id, "method": method, "params": params})
	if err != nil {
		b.Fatal(err)
	}
	return append(data, '\n')
}

// send writes a request and reads its reply line, checking it answers the
// request and is no error.
func (w *wireClient) send(b *testing.B, req []byte) []byte {
	if _, err := w.conn.Write(req); err != nil {
		b.Fatal(err)
	}
	line, err := w.r.ReadSlice('\n')
	if err != nil {
		b.Fatalf("reading the reply: %v", err)
	}
	var id struct {
		ID int `json:"id"`
	}
	json.Unmarshal(req, &id)
	if !bytes.Contains(line, fmt.Appendf(nil, `"id":%d`, id.ID)) || bytes.Contains(line, []byte(`"isError":true`)) || bytes.Contains(line, []byte(`"error":`)) {
		b.Fatalf("reply to %s: %.300s", req, line)
	}
	return line
}

func (w *wireClient) call(b *testing.B, method string, params any) []byte {
	return w.send(b, w.request(b, method, params))
}

// BenchmarkRecallWire is memory_recall warm, as the server serves it to a
// client in another process: request bytes in, reply line out.
func BenchmarkRecallWire(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		dir := benchFolder(b, n)
		for _, kind := range []string{"relevant", "unrelated"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, kind), func(b *testing.B) {
				w := newWireClient(b, dir)
				var reqs [][]byte
				for i := range 200 {
					if (i%2 == 1) == (kind == "unrelated") {
						reqs = append(reqs, w.request(b, "tools/call", map[string]any{"name": "memory_recall",
							"arguments": map[string]any{"query": memgen.Query(1, n, i)}}))
					}
				}
				first := w.send(b, reqs[0])
				if kind == "relevant" && !bytes.Contains(first, []byte(".md")) {
					b.Fatalf("a relevant prompt recalled nothing: %.300s", first)
				}
				time.Sleep(2100 * time.Millisecond) // past the racy window, as warm does
				w.send(b, w.request(b, "tools/call", map[string]any{"name": "memory_recall", "arguments": map[string]any{"query": memgen.Query(1, n, 0)}}))
				b.ReportAllocs()
				b.ResetTimer()
				var times []time.Duration
				for i := 0; b.Loop(); i++ {
					req := reqs[i%len(reqs)]
					// Each request needs a fresh id: the SDK refuses a duplicate
					// in flight only, so reusing them in turn is safe.
					t := time.Now()
					w.send(b, req)
					times = append(times, time.Since(t))
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			})
		}
	}
}
