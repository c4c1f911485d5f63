package main

import (
	"time"

	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// maxManifest bounds the manifest an LLM selector is shown: the lexical
// ranking's best first, then the rest, up to this many.
const maxManifest = 300

// rankFor ranks the snapshot's memories for query with the chosen engine;
// a model or an endpoint that fails falls back to the lexical ranking.
func (a *app) rankFor(st *memdir.Store, snap *recall.Snapshot, query string, p recall.Policy) []recall.Scored {
	ix := snap.DefaultIndex()
	terms, groups := recall.Default.Prompt(query)
	lexical := ix.SearchGroups(terms, groups)
	switch a.engine {
	case "llm":
		ranked, err := a.llmSelect(snap, query, lexical, p.K)
		if err == nil {
			return ranked
		}
		a.warnf("recall engine llm: %v; using the lexical ranking", err)
	case "hybrid":
		ranked, err := a.hybrid(st, snap, query, lexical)
		if err == nil {
			return ranked
		}
		a.warnf("recall engine hybrid: %v; using the lexical ranking", err)
	}
	return lexical
}

// llmSelect is the seed's side query: the manifest and the query go to a
// model, which names up to k files; they are ranked in its order and pass
// the relevance gate (the model judged it).
func (a *app) llmSelect(snap *recall.Snapshot, query string, lexical []recall.Scored, k int) ([]recall.Scored, error) {
	cfg, err := llm.FromEnv(cmpOr(a.getenv("MEMDIR_LLM_PROVIDER"), "anthropic"), a.getenv)
	if err != nil {
		return nil, err
	}
	cfg.Timeout = 20 * time.Second
	client, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	var manifest []recall.ManifestLine
	doc := map[string]int{}
	add := func(d int) {
		m, _, err := snap.Memory(d)
		if err != nil || m.SupersededBy != "" {
			return
		}
		if _, ok := doc[m.File]; ok || len(manifest) >= maxManifest {
			return
		}
		doc[m.File] = d
		manifest = append(manifest, recall.ManifestLine{File: m.File, Type: m.Type, Description: m.Description})
	}
	for _, s := range lexical {
		add(s.Doc)
	}
	for d := range snap.Len() {
		add(d)
	}
	resp, err := client.Complete(a.ctx, llm.Request{System: recall.SelectorPrompt, JSON: true, MaxTokens: 512,
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
func (a *app) hybrid(st *memdir.Store, snap *recall.Snapshot, query string, lexical []recall.Scored) ([]recall.Scored, error) {
	cfg := llm.Config{Provider: "openai", BaseURL: cmpOr(a.getenv("MEMDIR_EMBED_BASE_URL"), a.getenv("MEMDIR_LLM_BASE_URL")),
		Model: a.getenv("MEMDIR_EMBED_MODEL"), APIKey: a.getenv("OPENAI_API_KEY"), Timeout: 20 * time.Second}
	emb := llm.NewEmbedder(cfg)
	model := cmpOr(cfg.Model, "text-embedding-3-small")
	vecs, err := st.Vectors(a.ctx, snap, emb, model)
	if err != nil {
		return nil, err
	}
	q, err := emb.Embed(a.ctx, []string{query})
	if err != nil {
		return nil, err
	}
	cos := make([]float64, snap.Len())
	for d := range cos {
		cos[d] = recall.Cosine(q[0], vecs[snap.File(d)])
	}
	return recall.Fuse(lexical, cos, 0.5), nil
}
