package workspace

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
)

// Recall engines.
const (
	EngineLexical = "lexical" // BM25F, offline (the default)
	EngineLLM     = "llm"     // a model picks from the manifest
	EngineHybrid  = "hybrid"  // lexical fused with embeddings
)

// Query is one recall: the prompt, the policy (k, budget, threshold, the
// tools in use, files already given this session) and the engine.
type Query struct {
	Text   string
	Policy recall.Policy
	Engine string    // "" is lexical
	Now    time.Time // zero: the clock
	// KeptOnly: the caller reads only Text and the kept candidates (a
	// hook, the MCP server), so the lexical engine ranks just enough
	// memories to select them (recall.SearchSelect); Candidates then holds
	// those it looked at, not every memory that matched.
	KeptOnly bool
	// NoLearnings: rank the memories only, not what synthesis wrote (see
	// RecallLearnings), for a caller that compares memories with memories.
	NoLearnings bool
	// NoTeam: rank the private memories only, not the team folder's (a
	// caller that may change what it finds, as extraction's dedupe does).
	NoTeam bool
	// NoGlobal: leave the user's global folder out (same reason).
	NoGlobal bool
}

// Recalled is what Recall chose.
type Recalled struct {
	Terms      []string           // the query's terms, as the ranker reads them
	Candidates []recall.Candidate // every ranked memory, with its decision
	Text       string             // the rendering to inject, "" when none was kept
	Index      *recall.Index      // for explaining scores
	// Warnings: files that could not be read, an engine that fell back.
	Warnings []string
	// Learnings are the entries of synthesis (long-term learnings, recent
	// daily summaries) ranked for the query, with their decisions; the
	// kept ones are rendered in Text after the memories.
	Learnings []LearningHit
	// Parts are the folders ranked, Merged their ranking as one (a
	// candidate's Doc is its number there), for explaining scores.
	Parts  []snapshot.Part
	Merged *recall.Merged
}

// Kept lists the files of the kept memories.
func (r Recalled) Kept() []string {
	var out []string
	for _, c := range r.Candidates {
		if c.Kept {
			out = append(out, c.File)
		}
	}
	return out
}

// Tokens is the rendering's size in tokens.
func (r Recalled) Tokens() int { return recall.Tokens(r.Text) }

// CheckEngine refuses an engine Recall does not know.
func CheckEngine(engine string) error {
	switch engine {
	case "", EngineLexical, EngineLLM, EngineHybrid:
		return nil
	}
	return hint.With(fmt.Errorf("unknown engine %q", engine), "use --engine lexical, llm or hybrid")
}

// Recall ranks the project's memories for q and selects what to inject:
// the one recall of the CLI, the hooks and the MCP server. It ranks the
// private folder and, when the project has one, the team folder as one
// (see recallParts). A model engine that fails falls back to the lexical
// ranking, with a warning.
func (w *Workspace) Recall(ctx context.Context, q Query) (Recalled, error) {
	if err := CheckEngine(q.Engine); err != nil {
		return Recalled{}, err
	}
	parts, problems, err := w.recallParts(ctx, nil, q)
	if err != nil {
		out := Recalled{Terms: recall.Default.Terms(q.Text, nil)}
		for _, p := range problems {
			out.Warnings = append(out.Warnings, p.Error())
		}
		return out, err
	}
	out, err := w.RecallParts(ctx, parts, q)
	var warnings []string
	for _, p := range problems {
		warnings = append(warnings, p.Error())
	}
	out.Warnings = append(warnings, out.Warnings...)
	return out, err
}

// maxManifest bounds the manifest an LLM selector is shown: the lexical
// ranking's best first, then the rest, up to this many.
const maxManifest = 300

// rank ranks the parts' memories for q with its engine, in mx's merged
// numbers; a model or an endpoint that fails falls back to the lexical
// ranking, and says so. Every engine ranks every part: the lexical one
// with pooled statistics (recall.Merged), the LLM from one manifest that
// names team memories with their prefix, hybrid fusing the merged lexical
// ranking with each folder's embeddings.
func (w *Workspace) rank(ctx context.Context, parts []snapshot.Part, mx *recall.Merged, q Query) ([]recall.Scored, string) {
	terms, groups := recall.Default.Prompt(q.Text)
	lexical := mx.SearchGroups(terms, groups)
	switch q.Engine {
	case EngineLLM:
		ranked, err := w.llmSelect(ctx, parts, mx, q.Text, lexical, q.Policy.K)
		if err == nil {
			return ranked, ""
		}
		return lexical, fmt.Sprintf("recall engine llm: %v; using the lexical ranking", err)
	case EngineHybrid:
		ranked, err := w.hybrid(ctx, parts, mx, q.Text, lexical)
		if err == nil {
			return ranked, ""
		}
		return lexical, fmt.Sprintf("recall engine hybrid: %v; using the lexical ranking", err)
	}
	return lexical, ""
}

// llmSelect is the seed's side query: the manifest and the query go to a
// model, which names up to k files; they are ranked in its order and pass
// the relevance gate (the model judged it).
func (w *Workspace) llmSelect(ctx context.Context, parts []snapshot.Part, mx *recall.Merged, query string, lexical []recall.Scored, k int) ([]recall.Scored, error) {
	client, err := w.Models.chat(w.Env, cmp.Or(w.Env.getenv("MEMDIR_LLM_PROVIDER"), "anthropic"), 20*time.Second)
	if err != nil {
		return nil, err
	}
	var manifest []recall.ManifestLine
	doc := map[string]int{}
	add := func(d int) {
		i, local := mx.Locate(d)
		m, _, err := parts[i].Snap.Memory(local)
		if err != nil || m.SupersededBy != "" || parts[i].Forgotten[m.File] {
			return
		}
		file := parts[i].Prefix + m.File
		if _, ok := doc[file]; ok || len(manifest) >= maxManifest {
			return
		}
		doc[file] = d
		manifest = append(manifest, recall.ManifestLine{File: file, Type: m.Type, Description: m.Description, Saved: m.Saved})
	}
	for _, s := range lexical {
		add(s.Doc)
	}
	for d := range mx.Len() {
		add(d)
	}
	resp, err := client.Complete(ctx, llm.Request{System: recall.SelectorPrompt, JSON: true, MaxTokens: 512,
		Messages: []llm.Message{{Role: "user", Content: recall.SelectorQuery(manifest, query)}}})
	if err != nil {
		return nil, err
	}
	files, err := recall.ParseSelection(resp.Text, manifest, k)
	if err != nil {
		return nil, err
	}
	out := make([]recall.Scored, 0, len(files))
	for i, f := range files {
		out = append(out, recall.Scored{Doc: doc[f], Score: float64(len(files) - i), Coverage: 1, Matched: 2, Of: 2})
	}
	return out, nil
}

// hybrid fuses the lexical ranking with embedding similarity.
func (w *Workspace) hybrid(ctx context.Context, parts []snapshot.Part, mx *recall.Merged, query string, lexical []recall.Scored) ([]recall.Scored, error) {
	emb, model := w.Models.embedder(w.Env)
	q, err := emb.Embed(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	cos := make([]float64, mx.Len())
	for i, pt := range parts {
		vecs, err := snapshot.Vectors(ctx, pt.Store, pt.Snap, emb, model)
		if err != nil {
			return nil, err
		}
		for d := range pt.Snap.Len() {
			cos[mx.Offset(i)+d] = recall.Cosine(q[0], vecs[pt.Snap.File(d)])
		}
	}
	return recall.Fuse(lexical, cos, 0.5), nil
}

// Models makes the clients of the model engines. A nil field reads the
// environment (MEMDIR_LLM_*, keys, MEMDIR_EMBED_*); tests set fakes.
type Models struct {
	// Chat returns a client of provider (anthropic, openai, claude) whose
	// calls give up after timeout.
	Chat func(provider string, timeout time.Duration) (llm.Client, error)
	// Embed returns the embedder and its model's name.
	Embed func() (llm.Embedder, string)
}

func (m Models) chat(env Env, provider string, timeout time.Duration) (llm.Client, error) {
	if m.Chat != nil {
		return m.Chat(provider, timeout)
	}
	cfg, err := llm.FromEnv(provider, env.getenv)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = timeout
	return llm.New(cfg)
}

func (m Models) embedder(env Env) (llm.Embedder, string) {
	if m.Embed != nil {
		return m.Embed()
	}
	cfg := llm.Config{Provider: "openai", BaseURL: cmp.Or(env.getenv("MEMDIR_EMBED_BASE_URL"), env.getenv("MEMDIR_LLM_BASE_URL")),
		Model: env.getenv("MEMDIR_EMBED_MODEL"), APIKey: env.getenv("OPENAI_API_KEY"), Timeout: 20 * time.Second}
	return llm.NewEmbedder(cfg), cmp.Or(cfg.Model, "text-embedding-3-small")
}
