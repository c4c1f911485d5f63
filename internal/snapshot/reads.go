package snapshot

import (
	"sync"
	"time"

	"github.com/memdir/memdir/internal/recall"
)

// Reads keeps, for a caller that recalls again and again in one process
// (the MCP server), the memories its recalls read from their files, each
// with the size, change time and inode it had: a later recall that finds
// the file the same reuses it instead of reading and parsing it again.
// The file is still stat'ed on every recall, so an edit is always seen;
// a file changed within racyWindow of the read is not kept, as on a
// filesystem with coarse times a second write could leave all three the
// same. A Part without Reads (the hook: one recall per process) reads
// every time. Safe for concurrent use; bounded to maxReads files and
// maxReadBytes of text, so a server that holds many folders stays small.
type Reads struct {
	mu     sync.Mutex
	byFile map[string]cachedRead
	bytes  int // of the memories kept
	hits   int // for tests
}

// cachedRead is a memory as read from its file, and the file's stat then.
type cachedRead struct {
	st   fileStat
	m    recall.Memory
	refs []string
}

// maxReads and maxReadBytes bound what Reads keeps: past either, it
// starts again empty. A recall injects a few memories; a thousand of
// them, or 4 MiB of their text, is a long run of prompts' worth, and 16
// folders' (as many as the MCP server holds) stay under 64 MiB.
const (
	maxReads     = 1024
	maxReadBytes = 4 << 20
)

// NewReads returns an empty Reads.
func NewReads() *Reads { return &Reads{byFile: map[string]cachedRead{}} }

// get returns the memory read from file when the file's stat is still st.
func (r *Reads) get(file string, st fileStat) (cachedRead, bool) {
	if r == nil || st.err != nil {
		return cachedRead{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.byFile[file]
	if !ok || c.st.size != st.size || c.st.stamp != st.stamp || c.st.ino != st.ino {
		return cachedRead{}, false
	}
	r.hits++
	return c, true
}

// put keeps a memory read from file after a stat of st, unless the file
// changed within racyWindow of now.
func (r *Reads) put(file string, st fileStat, m recall.Memory, refs []string, now time.Time) {
	if r == nil || st.err != nil || now.UnixNano()-st.stamp < racyWindow {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	size := len(m.Body) + len(m.Description) + len(m.Name) + len(file)
	if len(r.byFile) >= maxReads || r.bytes+size > maxReadBytes {
		clear(r.byFile)
		r.bytes = 0
	}
	if old, ok := r.byFile[file]; ok {
		r.bytes -= len(old.m.Body) + len(old.m.Description) + len(old.m.Name) + len(file)
	}
	r.byFile[file] = cachedRead{st: st, m: m, refs: refs}
	r.bytes += size
}
