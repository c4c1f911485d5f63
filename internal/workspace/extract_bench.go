package workspace

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/synthesis"
)

// ModelExtractor runs a model extraction engine on a list of messages as
// ExtractMemories runs it on a transcript's new turns: the same client
// (llm.FromEnv, the claude CLI confined to a memory folder), the same
// request (extract.SystemPrompt, extract.UserPrompt), the same strict
// reading (extract.ParseOps) and the one retry of a refused answer. It
// has no memory folder: the manifest is empty and nothing is written.
// memdir-bench scores it on the labelled extraction set (issue 17).
type ModelExtractor struct {
	x      extractor
	layout paths.Layout
}

// NewModelExtractor makes engine's client (anthropic, openai or claude)
// from env before any work: a missing key, a bad setting or a claude CLI
// that is not there is returned here, with a hint. scratch is a folder
// the engine may write in (its log; the empty memory folder the claude
// CLI may read); the caller removes it.
func NewModelExtractor(env Env, engine, scratch string) (*ModelExtractor, error) {
	switch engine {
	case ExtractAnthropic, ExtractOpenAI, ExtractClaude:
	default:
		return nil, hint.With(fmt.Errorf("%q is not a model engine", engine), "use --engine anthropic, openai or claude")
	}
	if engine == ExtractClaude {
		if _, err := exec.LookPath(cmp.Or(env.getenv("MEMDIR_CLAUDE_BIN"), "claude")); err != nil {
			return nil, hint.With(fmt.Errorf("the claude engine runs the claude CLI: %w", err),
				"install Claude Code, or set MEMDIR_CLAUDE_BIN to the claude binary")
		}
	}
	l := paths.Layout{MemoryDir: filepath.Join(scratch, "memory")}
	if err := os.MkdirAll(l.MemoryDir, 0o700); err != nil {
		return nil, err
	}
	e := &ModelExtractor{layout: l, x: extractor{
		t:   Transcripts{Folder: synthesis.Open(filepath.Join(scratch, "synthesis"), lockfile.Options{})},
		env: env,
		o:   ExtractOptions{Engine: engine},
	}}
	client, err := e.x.client(l, func(format string, args ...any) {
		e.x.logRun(map[string]any{"engine": engine, "message": fmt.Sprintf(format, args...)})
	})
	if err != nil {
		return nil, err
	}
	// ask makes its client through Models.Chat: the one made here.
	e.x.o.Models.Chat = func(string, time.Duration) (llm.Client, error) { return client, nil }
	return e, nil
}

// Propose returns the memories the engine proposes for msgs, as
// ExtractMemories would plan them before comparing them with a folder's
// (extract.FromOps; session is their source). refused is the reason the
// engine's answer was refused twice: the product then saves nothing. err
// is the engine failing (a bad key, an endpoint down, a reply that is not
// the provider's JSON).
func (e *ModelExtractor) Propose(ctx context.Context, msgs []extract.Message, session string) (cands []extract.Candidate, refused, err error) {
	x := e.x
	x.ctx = ctx
	ops, refused, err := x.ask(nil, e.layout, msgs)
	if err != nil || refused != nil {
		return nil, refused, err
	}
	for _, a := range extract.FromOps(ops, session, x.o.Engine) {
		cands = append(cands, a.Memory)
	}
	return cands, nil, nil
}
