// Package search finds text in the conversation of agents' transcripts,
// fast on gigabytes: files are searched in parallel and streamed in large
// chunks; a literal pattern is first looked for in the raw bytes (as it
// appears JSON-encoded), and only the lines that contain it are decoded and
// matched against their message text.
package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

// Options say what to look for and where.
type Options struct {
	Pattern    string
	Regex      bool // Pattern is a Go regular expression (RE2 syntax; ^ and $ match at line ends)
	IgnoreCase bool
	// Project keeps only messages whose working directory is this path or
	// inside it (absolute, cleaned).
	Project string
	Since   time.Time // keep messages at or after this time
	Role    string    // "user", "assistant" or "" for both
	Context int       // lines of the message's text shown around a match
	Workers int       // files searched at once; 0: one per CPU
	Limit   int       // stop after this many results; 0: no limit
	MaxLine int       // longest line read; default transcript.DefaultMaxLine
}

// Result is one matching line of one message's text.
type Result struct {
	Path      string             `json:"path"`
	Dialect   transcript.Dialect `json:"dialect"`
	SessionID string             `json:"session_id"`
	Project   string             `json:"project,omitempty"`
	Role      string             `json:"role"`
	Time      time.Time          `json:"time,omitzero"`
	Line      int                `json:"line"`      // line of the transcript file (1-based)
	TextLine  int                `json:"text_line"` // line within the message's text (1-based)
	Text      string             `json:"text"`      // the matching line
	Before    []string           `json:"before,omitempty"`
	After     []string           `json:"after,omitempty"`
	Sidechain bool               `json:"sidechain,omitempty"`
}

// Stats count the work done.
type Stats struct {
	Files   int   `json:"files"`
	Bytes   int64 `json:"bytes"`
	Decoded int   `json:"lines_decoded"` // candidate lines decoded as JSON
	Results int   `json:"results"`
}

// Matcher finds the pattern of Options in text.
type Matcher struct{ m *matcher }

// NewMatcher compiles o's pattern (Pattern, Regex, IgnoreCase).
func NewMatcher(o Options) (*Matcher, error) {
	m, err := newMatcher(o)
	if err != nil {
		return nil, err
	}
	return &Matcher{m}, nil
}

// Match reports whether text holds the pattern.
func (m *Matcher) Match(text string) bool { return m.m.match(text) }

// matcher finds the pattern in decoded text, and says what raw bytes a
// line must contain to be worth decoding.
type matcher struct {
	re     *regexp.Regexp
	lit    string  // the literal, when not a regexp and case-sensitive
	lower  string  // the lower-cased ASCII literal, for case-insensitive search
	needle *finder // raw prefilter; nil: decode every conversation line
}

func newMatcher(o Options) (*matcher, error) {
	if o.Pattern == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	m := &matcher{}
	expr := ""
	switch {
	case o.Regex:
		// Results are lines of a message's text: ^ and $ match at each
		// line's start and end, in the whole text as in one line.
		expr = "(?m)" + o.Pattern
	case o.IgnoreCase && isASCII(o.Pattern):
		// ASCII letters match either case; the raw bytes are searched
		// the same way, so the prefilter never misses.
		m.lower = string(lowerASCII(nil, []byte(o.Pattern)))
		if rawSafe(m.lower) {
			m.needle = newFinder([]byte(m.lower), true)
		}
		return m, nil
	case o.IgnoreCase:
		expr = regexp.QuoteMeta(o.Pattern)
	default:
		m.lit = o.Pattern
		if rawSafe(m.lit) {
			m.needle = newFinder([]byte(m.lit), false)
		}
		return m, nil
	}
	if o.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad regular expression: %w", err)
	}
	m.re = re
	// A literal every match contains is looked for in the raw bytes first.
	// Unicode folding matches k and s to non-ASCII letters (K, ſ), which
	// an ASCII prefilter would miss: such literals are not used.
	if parsed, err := syntax.Parse(expr, syntax.Perl); err == nil {
		lit, fold := requiredLiteral(parsed.Simplify())
		if lit != nil && rawSafe(string(lit)) && !(fold && bytes.ContainsAny(lit, "kKsS")) {
			m.needle = newFinder(lit, fold)
		}
	}
	return m, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rawSafe reports whether s appears in a JSON line spelled as it is: JSON
// writers escape none of its characters.
func rawSafe(s string) bool {
	b, err := json.Marshal(s)
	return err == nil && string(b[1:len(b)-1]) == s
}

// match reports whether text holds the pattern.
func (m *matcher) match(text string) bool {
	switch {
	case m.re != nil:
		return m.re.MatchString(text)
	case m.lower != "":
		return strings.Contains(string(lowerASCII(nil, []byte(text))), m.lower)
	}
	return strings.Contains(text, m.lit)
}

// Run searches files and calls emit with each result, in the order of
// files and, within a file, of lines. It stops early when emit fails, at
// opt.Limit results, or when ctx is done.
func Run(ctx context.Context, files []sessions.File, opt Options, emit func(Result) error) (Stats, error) {
	m, err := newMatcher(opt)
	if err != nil {
		return Stats{}, err
	}
	if opt.MaxLine <= 0 {
		opt.MaxLine = transcript.DefaultMaxLine
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type fileResult struct {
		res   []Result
		bytes int64
		dec   int
		err   error
	}
	outs := make([]chan fileResult, len(files))
	for i := range outs {
		outs[i] = make(chan fileResult, 1)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var fr fileResult
				fr.res, fr.bytes, fr.dec, fr.err = searchFile(ctx, files[i], m, opt)
				outs[i] <- fr
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range files {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var st Stats
	var firstErr error
	for i := range files {
		var fr fileResult
		select {
		case fr = <-outs[i]:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		st.Files++
		st.Bytes += fr.bytes
		st.Decoded += fr.dec
		if fr.err != nil && firstErr == nil {
			firstErr = fr.err
		}
		for _, r := range fr.res {
			if err := emit(r); err != nil {
				cancel()
				wg.Wait()
				return st, err
			}
			st.Results++
			if opt.Limit > 0 && st.Results >= opt.Limit {
				cancel()
				wg.Wait()
				return st, firstErr
			}
		}
	}
	cancel()
	wg.Wait()
	if err := context.Cause(ctx); err != nil && firstErr == nil && st.Files < len(files) {
		firstErr = err
	}
	return st, firstErr
}

// chunkSize is how much of a file is read at a time.
const chunkSize = 256 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// searchFile streams one file. Lines are found around prefilter hits, so
// most of the file is only ever scanned by bytes.Index.
func searchFile(ctx context.Context, f sessions.File, m *matcher, opt Options) (res []Result, n int64, decoded int, err error) {
	if !opt.Since.IsZero() && f.ModTime.Before(opt.Since) {
		return nil, 0, 0, nil // nothing in it was written since
	}
	fh, err := sessions.OpenRegular(f.Path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer fh.Close()
	info := fileInfo{File: f}
	if f.Dialect == transcript.Codex {
		info.readCodexMeta(fh, opt.MaxLine)
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return nil, 0, 0, err
		}
	}
	bp := bufPool.Get().(*[]byte)
	buf := *bp
	defer func() { *bp = buf[:chunkSize:chunkSize]; bufPool.Put(bp) }()
	start, end := 0, 0 // unprocessed data is buf[start:end]
	off := int64(0)    // file offset of buf[start]
	// Lines are counted only from a file's first hit on: a file without
	// one is never counted, and at the first hit the lines before it are
	// counted once from the file (which is in the page cache by then).
	line := 0 // lines before the region's counted position, once counting
	counting := false
	skipping := false // inside a line over the cap
	eof := false
	fnd := m.needle
	for !eof || start < end {
		if ctx.Err() != nil {
			return res, n, decoded, nil
		}
		// Refill: move the tail to the front, grow for long lines.
		if !eof {
			if start > 0 {
				copy(buf, buf[start:end])
				end -= start
				start = 0
			}
			if end == len(buf) {
				if len(buf) >= opt.MaxLine+1 {
					// One line fills the whole buffer: skip it.
					off += int64(end)
					skipping, start, end = true, 0, 0
				} else {
					nb := make([]byte, min(2*len(buf), opt.MaxLine+1))
					copy(nb, buf[:end])
					buf = nb
				}
			}
			k, rerr := io.ReadFull(fh, buf[end:])
			if n == 0 && fnd != nil {
				fnd = fnd.adapt(buf[:min(k, 64<<10)])
			}
			end += k
			n += int64(k)
			if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
				eof = true
			} else if rerr != nil {
				return res, n, decoded, rerr
			}
		}
		data := buf[start:end]
		last := bytes.LastIndexByte(data, '\n')
		if last < 0 {
			if eof {
				break // a torn last line: not searched
			}
			continue
		}
		region := data[:last+1]
		if skipping {
			i := bytes.IndexByte(region, '\n')
			region, skipping = region[i+1:], false
			if counting {
				line++
			}
			start += i + 1
			off += int64(i + 1)
		}
		pos, counted := 0, 0
		for pos < len(region) {
			var ls, le int
			if fnd != nil {
				i := fnd.index(region[pos:])
				if i < 0 {
					break
				}
				i += pos
				ls = bytes.LastIndexByte(region[:i], '\n') + 1
				le = i + bytes.IndexByte(region[i:], '\n')
			} else {
				ls = pos
				le = pos + bytes.IndexByte(region[pos:], '\n')
			}
			if !counting {
				if line, err = countLines(fh, off); err != nil {
					return res, n, decoded, err
				}
				counting = true
			}
			line += bytes.Count(region[counted:ls], []byte{'\n'})
			counted = ls
			if r, ok := info.lineResults(region[ls:le], line+1, fnd, m, opt, &decoded); ok {
				res = append(res, r...)
				if opt.Limit > 0 && len(res) >= opt.Limit {
					return res, n, decoded, nil // Run stops here anyway
				}
			}
			pos = le + 1
		}
		if counting {
			line += bytes.Count(region[counted:], []byte{'\n'})
		}
		start += len(region)
		off += int64(len(region))
	}
	return res, n, decoded, nil
}

// countLines counts the newlines in the first n bytes of f.
func countLines(f *os.File, n int64) (int, error) {
	buf := make([]byte, min(n, 256<<10))
	lines := 0
	for at := int64(0); at < n; {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), n-at)], at)
		lines += bytes.Count(buf[:k], []byte{'\n'})
		at += int64(k)
		if err != nil && at < n {
			return lines, err
		}
	}
	return lines, nil
}

func lowerASCII(dst, src []byte) []byte {
	dst = append(dst, src...)
	for i, c := range dst {
		if 'A' <= c && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}

// fileInfo is what a file says of itself.
type fileInfo struct {
	sessions.File
	cwd string // Codex: from session_meta
}

// readCodexMeta takes the session's id and working directory from a
// rollout's first line (session_meta), read whole up to maxLine bytes: it
// holds the instructions, often far over any fixed prefix.
func (fi *fileInfo) readCodexMeta(r io.Reader, maxLine int) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine+1 {
			return
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			ID  string `json:"id"`
			CWD string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) == nil && meta.Type == "session_meta" {
		fi.SessionID, fi.cwd = meta.Payload.ID, meta.Payload.CWD
	}
}

// lineResults decodes one candidate line and returns a result per matching
// line of its message text.
func (fi *fileInfo) lineResults(raw []byte, lineNo int, fnd *finder, m *matcher, opt Options, decoded *int) ([]Result, bool) {
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	if len(raw) == 0 || len(raw) > opt.MaxLine {
		return nil, false
	}
	if fnd != nil {
		// Decode only when a hit lies in conversation text, not in tool
		// output, thinking or bookkeeping.
		var offs []int
		for i := 0; i < len(raw); {
			j := fnd.index(raw[i:])
			if j < 0 {
				break
			}
			offs = append(offs, i+j)
			i += j + 1
		}
		if !transcript.TextHit(raw, offs) {
			return nil, false
		}
	}
	if !utf8.Valid(raw) {
		return nil, false
	}
	*decoded++
	msg, ok := transcript.LineMessage(fi.Dialect, raw)
	if !ok || (opt.Role != "" && msg.Role != opt.Role) || (!opt.Since.IsZero() && msg.Timestamp.Before(opt.Since)) {
		return nil, false
	}
	cwd := msg.CWD
	if cwd == "" {
		cwd = fi.cwd
	}
	if opt.Project != "" && !within(cwd, opt.Project) {
		return nil, false
	}
	if !m.match(msg.Text) {
		return nil, false
	}
	lines := strings.Split(msg.Text, "\n")
	var out []Result
	for i, l := range lines {
		if !m.match(l) {
			continue
		}
		r := Result{Path: fi.Path, Dialect: fi.Dialect, SessionID: fi.SessionID, Project: cwd, Role: msg.Role,
			Time: msg.Timestamp, Line: lineNo, TextLine: i + 1, Text: l, Sidechain: msg.Sidechain}
		if opt.Context > 0 {
			r.Before = lines[max(0, i-opt.Context):i]
			r.After = lines[i+1 : min(len(lines), i+1+opt.Context)]
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		// The pattern spans lines of the text (a regexp with \n): report
		// the message's first line.
		out = append(out, Result{Path: fi.Path, Dialect: fi.Dialect, SessionID: fi.SessionID, Project: cwd,
			Role: msg.Role, Time: msg.Timestamp, Line: lineNo, TextLine: 1, Text: lines[0], Sidechain: msg.Sidechain})
	}
	return out, true
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	return strings.HasPrefix(path, strings.TrimSuffix(dir, string(os.PathSeparator))+string(os.PathSeparator))
}
