// Package corpus generates realistic, seeded Claude Code transcripts for
// benchmarks: sessions of several projects over many days, with the record
// mix of a real 2.1 transcript (hook attachments, prompts, assistant
// responses split per content block, thinking, tool calls and their often
// large results, file-history snapshots, request bookkeeping). The same
// seed and size give the same bytes.
package corpus

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/paths"
)

// Needle is a phrase planted in about one user prompt in 500 (and in some
// tool output, where search must not report it): a rare pattern.
const Needle = "connection pool exhausted"

// Options size a corpus.
type Options struct {
	Seed     uint64
	Bytes    int64 // about this many bytes in all
	Projects int   // default 12
	Start    time.Time
	// SessionBytes, when set, makes every session about this size
	// (default: 0.2–4 MB each).
	SessionBytes int64
	// Prompts, when set, are what the user types, in turn, in place of
	// generated prose: a benchmark's memorable talk among the tool output.
	Prompts []string
}

// Stats describe what Generate wrote.
type Stats struct {
	Files    int
	Bytes    int64
	Messages int
	Needles  int // prompts holding Needle (each one search result)
}

// Generate writes the corpus under home/projects/ and returns what it wrote.
func Generate(home string, opt Options) (Stats, error) {
	if opt.Projects <= 0 {
		opt.Projects = 12
	}
	if opt.Start.IsZero() {
		opt.Start = time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	g := &gen{rng: rng, zipf: rand.NewZipf(rng, 1.1, 2, uint64(len(vocabulary)-1))}
	var st Stats
	projects := make([]string, opt.Projects)
	for i := range projects {
		projects[i] = fmt.Sprintf("/home/dev/src/%s-%d", vocabulary[rng.IntN(200)], i)
	}
	at := opt.Start
	for st.Bytes < opt.Bytes {
		project := projects[rng.IntN(len(projects))]
		dir := filepath.Join(home, "projects", paths.Sanitize(project))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return st, err
		}
		id := g.uuid()
		f, err := os.Create(filepath.Join(dir, id+".jsonl"))
		if err != nil {
			return st, err
		}
		cw := &countWriter{w: f}
		size := min(opt.Bytes-st.Bytes, int64(200<<10+rng.IntN(4<<20))) // sessions of 0.2–4 MB
		if opt.SessionBytes > 0 {
			size = opt.SessionBytes
		}
		s := session{gen: g, w: cw, id: id, cwd: project, at: at, branch: []string{"main", "feature/" + g.word(), "fix/" + g.word()}[rng.IntN(3)],
			prompts: opt.Prompts}
		s.write(size)
		if err := f.Close(); err != nil {
			return st, err
		}
		if s.err != nil {
			return st, s.err
		}
		st.Files++
		st.Bytes += cw.n
		st.Messages += s.messages
		st.Needles += s.needles
		at = s.at.Add(time.Duration(20+rng.IntN(600)) * time.Minute)
	}
	return st, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type gen struct {
	rng  *rand.Rand
	zipf *rand.Zipf
}

func (g *gen) word() string { return vocabulary[g.zipf.Uint64()] }

func (g *gen) sentence(min, max int) string {
	n := min + g.rng.IntN(max-min+1)
	words := make([]string, n)
	for i := range words {
		words[i] = g.word()
	}
	s := strings.Join(words, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) paragraph(sentences int) string {
	var b strings.Builder
	for i := range sentences {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.sentence(5, 18))
	}
	return b.String()
}

// code is tool output: source-like lines.
func (g *gen) code(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "%5d\t", i+1)
		switch g.rng.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "func (s *%s) %s(ctx context.Context, %s string) error {", title(g.word()), title(g.word()), g.word())
		case 1:
			fmt.Fprintf(&b, "\tif err := %s.%s(%q); err != nil {", g.word(), title(g.word()), g.word())
		case 2:
			fmt.Fprintf(&b, "\t// %s", g.sentence(4, 10))
		case 3:
			fmt.Fprintf(&b, "\treturn fmt.Errorf(\"%s %s: %%w\", err)", g.word(), g.word())
		default:
			fmt.Fprintf(&b, "\t%s := %s[%d]", g.word(), g.word(), g.rng.IntN(64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func (g *gen) uuid() string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", g.rng.Uint32(), g.rng.Uint32()&0xffff, g.rng.Uint32()&0xfff,
		0x8000|g.rng.Uint32()&0x3fff, g.rng.Uint64()&0xffffffffffff)
}

// session writes one transcript.
type session struct {
	*gen
	w        io.Writer
	id, cwd  string
	branch   string
	at       time.Time
	parent   string
	messages int
	needles  int
	prompts  []string // Options.Prompts
	asked    int      // how many of them were typed
	err      error
}

func (s *session) emit(rec map[string]any) {
	if s.err != nil {
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		s.err = err
		return
	}
	_, s.err = s.w.Write(append(b, '\n'))
}

func (s *session) base(typ string) map[string]any {
	s.at = s.at.Add(time.Duration(200+s.rng.IntN(20000)) * time.Millisecond)
	u := s.uuid()
	rec := map[string]any{
		"parentUuid": nilIfEmpty(s.parent), "isSidechain": false, "type": typ, "uuid": u,
		"timestamp": s.at.Format("2006-01-02T15:04:05.000Z"), "userType": "external", "entrypoint": "cli",
		"cwd": s.cwd, "sessionId": s.id, "version": "2.1.328", "gitBranch": s.branch,
	}
	s.parent = u
	return rec
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (s *session) write(size int64) {
	cw := s.w.(*countWriter)
	s.emit(map[string]any{"type": "queue-operation", "operation": "enqueue", "timestamp": s.at.Format(time.RFC3339Nano), "sessionId": s.id})
	for _, a := range []string{"hook_success", "environment", "instructions", "skill_listing", "date"} {
		rec := s.base("attachment")
		rec["attachment"] = map[string]any{"type": a, "content": s.paragraph(2 + s.rng.IntN(30))}
		s.emit(rec)
	}
	for cw.n < size && s.err == nil {
		s.turn()
	}
}

// turn is a prompt and the assistant's work on it.
func (s *session) turn() {
	prompt := s.paragraph(1 + s.rng.IntN(4))
	if len(s.prompts) > 0 {
		prompt = s.prompts[s.asked%len(s.prompts)]
		s.asked++
	}
	if s.rng.IntN(500) == 0 {
		prompt += " The worker logs say " + Needle + " under load."
		s.needles++
	}
	rec := s.base("user")
	rec["message"] = map[string]any{"role": "user", "content": prompt}
	s.emit(rec)
	s.messages++
	for range 1 + s.rng.IntN(6) {
		msgID := "msg_01" + s.uuid()[:20]
		if s.rng.IntN(2) == 0 {
			rec := s.base("assistant")
			rec["message"] = map[string]any{"id": msgID, "role": "assistant", "model": "claude-opus-4-5", "type": "message",
				"content": []any{map[string]any{"type": "thinking", "thinking": s.paragraph(2 + s.rng.IntN(6)), "signature": strings.Repeat("Eq", 80)}}}
			s.emit(rec)
		}
		rec := s.base("assistant")
		rec["message"] = map[string]any{"id": msgID, "role": "assistant", "model": "claude-opus-4-5", "type": "message",
			"content": []any{map[string]any{"type": "text", "text": s.paragraph(1 + s.rng.IntN(5))}}}
		s.emit(rec)
		s.messages++
		tool := s.uuid()
		name := []string{"Read", "Bash", "Grep", "Edit"}[s.rng.IntN(4)]
		rec = s.base("assistant")
		rec["message"] = map[string]any{"id": msgID, "role": "assistant", "model": "claude-opus-4-5", "type": "message",
			"content": []any{map[string]any{"type": "tool_use", "id": tool, "name": name,
				"input": map[string]any{"file_path": s.cwd + "/" + s.word() + ".go", "command": "go test ./" + s.word() + "/..."}}}}
		s.emit(rec)
		out := s.code(20 + s.rng.IntN(400))
		if s.rng.IntN(300) == 0 {
			out += "panic: " + Needle + "\n" // in tool output only: not a search result
		}
		rec = s.base("user")
		rec["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": tool, "content": out}}}
		rec["toolUseResult"] = map[string]any{"stdout": out[:min(len(out), 2000)], "stderr": "", "interrupted": false}
		s.emit(rec)
	}
	s.emit(map[string]any{"type": "file-history-snapshot", "messageId": s.uuid(), "isSnapshotUpdate": false,
		"snapshot": map[string]any{"messageId": s.uuid(), "trackedFileBackups": map[string]any{}, "timestamp": s.at.Format(time.RFC3339Nano)}})
	if s.rng.IntN(3) == 0 {
		s.emit(map[string]any{"type": "api-request-blob", "sessionId": s.id, "blob": s.paragraph(20 + s.rng.IntN(60))})
	}
}

// Cached returns the home of a corpus of mb megabytes made with seed 1,
// generating it the first time into the user's cache folder
// (memdir-bench/). Benchmarks share it across runs.
func Cached(mb int) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	home := filepath.Join(cache, "memdir-bench", fmt.Sprintf("corpus-seed1-%dMB", mb))
	stamp := filepath.Join(home, ".complete")
	if _, err := os.Stat(stamp); err == nil {
		return home, nil
	}
	os.RemoveAll(home)
	if _, err := Generate(home, Options{Seed: 1, Bytes: int64(mb) * 1e6}); err != nil {
		return "", err
	}
	return home, os.WriteFile(stamp, nil, 0o600)
}

// BenchHome returns the home of the corpus benchmarks use, generating it
// on first use: MEMDIR_BENCH_CORPUS_MB megabytes (default 64), seed 1.
func BenchHome() (string, error) {
	mb := 64
	if v := os.Getenv("MEMDIR_BENCH_CORPUS_MB"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return "", fmt.Errorf("MEMDIR_BENCH_CORPUS_MB=%q is not a positive number", v)
		}
		mb = n
	}
	return Cached(mb)
}
