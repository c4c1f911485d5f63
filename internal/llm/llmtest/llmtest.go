// Package llmtest has fakes of internal/llm's interfaces, built from
// function fields, so code that talks to a model is tested without a
// server or a subprocess. Only tests import it.
package llmtest

import (
	"context"
	"errors"
	"sync"

	"github.com/memdir/memdir/internal/llm"
)

var (
	_ llm.Client   = (*Client)(nil)
	_ llm.Embedder = (*Embedder)(nil)
)

// Client is an llm.Client whose Complete is CompleteFunc. It records every
// request.
type Client struct {
	CompleteFunc func(ctx context.Context, r llm.Request) (llm.Response, error)

	mu       sync.Mutex
	requests []llm.Request
}

// Complete records r and calls CompleteFunc (an error when it is nil).
func (c *Client) Complete(ctx context.Context, r llm.Request) (llm.Response, error) {
	c.mu.Lock()
	c.requests = append(c.requests, r)
	c.mu.Unlock()
	if c.CompleteFunc == nil {
		return llm.Response{}, errors.New("llmtest: no CompleteFunc")
	}
	return c.CompleteFunc(ctx, r)
}

// Requests returns the requests made so far.
func (c *Client) Requests() []llm.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]llm.Request(nil), c.requests...)
}

// Replies is a CompleteFunc that answers with texts in turn, then with the
// last one again.
func Replies(texts ...string) func(context.Context, llm.Request) (llm.Response, error) {
	var mu sync.Mutex
	i := 0
	return func(context.Context, llm.Request) (llm.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		t := texts[min(i, len(texts)-1)]
		i++
		return llm.Response{Text: t}, nil
	}
}

// Embedder is an llm.Embedder whose Embed is EmbedFunc.
type Embedder struct {
	EmbedFunc func(ctx context.Context, texts []string) ([][]float32, error)
}

// Embed calls EmbedFunc (an error when it is nil).
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.EmbedFunc == nil {
		return nil, errors.New("llmtest: no EmbedFunc")
	}
	return e.EmbedFunc(ctx, texts)
}
