package sessions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/transcript"
)

// markWindow is how many bytes on each side of a mark are hashed.
const markWindow = 4 << 10

// Scan is what one read of one transcript found.
type Scan struct {
	File File
	// Entry is the transcript's state as it applies to this read: a fresh
	// one when the saved cursor no longer fits the file (see Entry.Reset).
	Entry   *Entry
	Session *transcript.Session // the records from the cursor on
	// Reset says why this read dropped the saved cursor, if it did.
	Reset string
	Err   error
}

// ReadOptions tune how files are read.
type ReadOptions struct {
	Workers int // files read at once; 0: one per CPU
	// Progress, when set, is called after each file with its size; it
	// must be safe for concurrent use.
	Progress func(size int64)
}

// ReadPending reads every file from its cursor in st. The state itself is
// not changed: entries that must be reset are returned fresh in
// Scan.Entry. Results are in the order of files.
func ReadPending(ctx context.Context, files []File, st *State, opt ReadOptions) []Scan {
	scans := make([]Scan, len(files))
	parallel(ctx, len(files), opt, files, func(i int) {
		f := files[i]
		e := &Entry{Dialect: f.Dialect, SessionID: f.SessionID, Agent: f.Agent}
		if old := st.Transcripts[f.Path]; old != nil {
			cp := *old
			e = &cp
		}
		sess, reset, err := readFrom(f, e.Cursor)
		if reset != "" {
			fresh := &Entry{Dialect: f.Dialect, SessionID: f.SessionID, Agent: f.Agent, Reset: reset, Summary: e.Summary}
			e = fresh
		}
		e.learn(sess)
		scans[i] = Scan{File: f, Entry: e, Session: sess, Reset: reset, Err: err}
	})
	return scans
}

// ReadFrom reads the transcript f from cursor m — from its start when the
// bytes before m changed, saying why in reset — and returns the cursor at
// the end of what it read. The extraction pipeline reads through it; the
// synthesis pipeline keeps the same cursors (Entry.Cursor).
func ReadFrom(f File, m Mark) (s *transcript.Session, next Mark, reset string, err error) {
	if f.Dialect == "" {
		f.Dialect = DialectOf(f.Path)
	}
	if s, reset, err = readFrom(f, m); err != nil {
		return nil, m, reset, err
	}
	next, err = MarkAt(f.Path, s.NextOffset, s.NextLine)
	return s, next, reset, err
}

// DialectOf tells a transcript's format from its file name: Codex names
// its rollouts rollout-*.jsonl.
func DialectOf(path string) transcript.Dialect {
	if strings.HasPrefix(filepath.Base(path), "rollout-") {
		return transcript.Codex
	}
	return transcript.ClaudeCode
}

// readFrom parses f from m. When m does not fit the file any more it reads
// from the start and says why in reset.
func readFrom(f File, m Mark) (s *transcript.Session, reset string, err error) {
	fh, err := OpenRegular(f.Path)
	if err != nil {
		return nil, "", err
	}
	defer fh.Close()
	if m.Offset > 0 {
		if reset, err = check(fh, m); err != nil {
			return nil, "", err
		}
		if reset != "" {
			m = Mark{}
		}
	}
	if _, err := fh.Seek(m.Offset, io.SeekStart); err != nil {
		return nil, reset, err
	}
	opt := transcript.Options{Offset: m.Offset, Line: m.Line}
	if f.Dialect == transcript.Codex {
		s, err = transcript.ParseCodex(fh, opt)
	} else {
		s, err = transcript.ParseClaude(fh, opt)
	}
	if err != nil {
		err = fmt.Errorf("read %s: %w", f.Path, err)
	}
	return s, reset, err
}

// check tells whether the bytes before m are still those m was taken on.
func check(fh *os.File, m Mark) (reset string, err error) {
	fi, err := fh.Stat()
	if err != nil {
		return "", err
	}
	if fi.Size() < m.Offset {
		return fmt.Sprintf("shrank below the processed %d bytes to %d: read again from the start", m.Offset, fi.Size()), nil
	}
	now, err := markAt(fh, m.Offset, m.Line)
	if err != nil {
		return "", err
	}
	if now.Head != m.Head || now.Tail != m.Tail {
		return "replaced (its processed bytes changed): read again from the start", nil
	}
	return "", nil
}

// MarkAt takes a mark at offset off (just past a newline) of the file at
// path; line is the number of lines before off.
func MarkAt(path string, off int64, line int) (Mark, error) {
	fh, err := OpenRegular(path)
	if err != nil {
		return Mark{}, err
	}
	defer fh.Close()
	return markAt(fh, off, line)
}

func markAt(fh *os.File, off int64, line int) (Mark, error) {
	m := Mark{Offset: off, Line: line}
	if off == 0 {
		return m, nil
	}
	n := min(off, markWindow)
	head := make([]byte, n)
	if _, err := fh.ReadAt(head, 0); err != nil {
		return m, err
	}
	tail := head
	if off > n {
		tail = make([]byte, n)
		if _, err := fh.ReadAt(tail, off-n); err != nil {
			return m, err
		}
	}
	m.Head, m.Tail = digest(head), digest(tail)
	// The last record's uuid, when its whole line fits in the window.
	body := bytes.TrimSuffix(tail, []byte("\n"))
	if i := bytes.LastIndexByte(body, '\n'); i >= 0 || off <= markWindow {
		var rec struct {
			UUID string `json:"uuid"`
		}
		if json.Unmarshal(body[i+1:], &rec) == nil {
			m.LastUUID = rec.UUID
		}
	}
	return m, nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}

// parallel calls fn(0..n-1), opt.Workers at a time, until ctx is done,
// reporting progress in the sizes of files.
func parallel(ctx context.Context, n int, opt ReadOptions, files []File, fn func(i int)) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
				if opt.Progress != nil {
					opt.Progress(files[i].Size)
				}
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
