package llm

import (
	"context"

	"github.com/memdir/memdir/internal/redact"
)

// redacting removes credentials from everything a request carries before
// it leaves the machine: the system prompt, every message and every text
// to embed. Transcripts hold keys pasted into a session; the provider must
// never see them.
type redacting struct{ Client }

func (r redacting) Complete(ctx context.Context, req Request) (Response, error) {
	req.System = clean(req.System)
	msgs := make([]Message, len(req.Messages))
	for i, m := range req.Messages {
		m.Content = clean(m.Content)
		msgs[i] = m
	}
	req.Messages = msgs
	return r.Client.Complete(ctx, req)
}

type redactingEmbedder struct{ Embedder }

func (r redactingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = clean(t)
	}
	return r.Embedder.Embed(ctx, out)
}

func clean(s string) string {
	s, _ = redact.String(s)
	return s
}
