package snapshot

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
)

// TestReads_Bounded: what Reads keeps stays under maxReads files and
// maxReadBytes of text, however many memories a server reads.
func TestReads_Bounded(t *testing.T) {
	r := NewReads()
	old := time.Now().Add(-time.Hour).UnixNano()
	body := strings.Repeat("x", 64<<10)
	for i := range 2 * maxReads {
		st := fileStat{size: int64(len(body)), stamp: old, ino: uint64(i + 1)}
		r.put(fmt.Sprintf("m%d.md", i), st, recall.Memory{Body: body}, nil, time.Now())
		if len(r.byFile) > maxReads || r.bytes > maxReadBytes {
			t.Fatalf("after %d reads: %d files, %d bytes kept", i+1, len(r.byFile), r.bytes)
		}
	}
	if len(r.byFile) == 0 {
		t.Fatal("nothing kept")
	}
}
