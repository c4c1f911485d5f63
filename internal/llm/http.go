package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/redact"
)

// post sends body as JSON and decodes a success reply into out.
func post(ctx context.Context, client *http.Client, url string, headers map[string]string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		// The reply is printed and logged: never with the key in it.
		msg := string(raw)
		for _, v := range headers {
			if v = strings.TrimPrefix(v, "Bearer "); len(v) >= 8 {
				msg = strings.ReplaceAll(msg, v, "[REDACTED]")
			}
		}
		msg, _ = redact.String(strings.TrimSpace(msg))
		if len(msg) > 300 {
			msg = strings.ToValidUTF8(msg[:300], "")
		}
		return &StatusError{Code: resp.StatusCode, Body: msg, RetryAfter: retryAfter(resp.Header, time.Now())}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("the reply is not the expected JSON: %w", err)
	}
	return nil
}

type anthropic struct{ cfg Config }

func (c *anthropic) Complete(ctx context.Context, r Request) (Response, error) {
	model := c.cfg.Model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	c.cfg.Model = model
	base := strings.TrimRight(c.cfg.BaseURL, "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	body := map[string]any{"model": model, "max_tokens": maxTokens(r), "messages": r.Messages}
	if r.System != "" {
		body["system"] = r.System
	}
	headers := map[string]string{"x-api-key": c.cfg.APIKey, "anthropic-version": "2023-06-01"}
	return withRetries(ctx, c.cfg, func(ctx context.Context) (Response, error) {
		var out struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			Usage Usage `json:"usage"`
		}
		if err := post(ctx, c.cfg.HTTP, base+"/v1/messages", headers, body, &out); err != nil {
			return Response{}, err
		}
		var text strings.Builder
		for _, b := range out.Content {
			if b.Type == "text" {
				text.WriteString(b.Text)
			}
		}
		return Response{Text: text.String(), Usage: out.Usage}, nil
	})
}

type openAI struct{ cfg Config }

func (c *openAI) Complete(ctx context.Context, r Request) (Response, error) {
	model := c.cfg.Model
	if model == "" {
		model = "gpt-4o-mini"
	}
	c.cfg.Model = model
	base := strings.TrimRight(c.cfg.BaseURL, "/")
	if base == "" {
		base = "https://api.openai.com/v1"
	}
	msgs := []Message{}
	if r.System != "" {
		msgs = append(msgs, Message{Role: "system", Content: r.System})
	}
	msgs = append(msgs, r.Messages...)
	body := map[string]any{"model": model, "max_tokens": maxTokens(r), "messages": msgs}
	if r.JSON {
		body["response_format"] = map[string]string{"type": "json_object"}
	}
	headers := map[string]string{}
	if c.cfg.APIKey != "" {
		headers["Authorization"] = "Bearer " + c.cfg.APIKey
	}
	return withRetries(ctx, c.cfg, func(ctx context.Context) (Response, error) {
		var out struct {
			Choices []struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
			} `json:"choices"`
			Usage struct {
				Prompt     int `json:"prompt_tokens"`
				Completion int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := post(ctx, c.cfg.HTTP, base+"/chat/completions", headers, body, &out); err != nil {
			return Response{}, err
		}
		if len(out.Choices) == 0 {
			return Response{}, fmt.Errorf("the reply has no choices")
		}
		return Response{Text: out.Choices[0].Message.Content, Usage: Usage{InputTokens: out.Usage.Prompt, OutputTokens: out.Usage.Completion}}, nil
	})
}

func maxTokens(r Request) int {
	if r.MaxTokens > 0 {
		return r.MaxTokens
	}
	return 2048
}

// Embedder turns texts into vectors.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// NewEmbedder returns an OpenAI-compatible embeddings client (OpenAI,
// Ollama's /v1, vLLM, LM Studio): POST {base}/embeddings. Credentials are
// redacted from the texts before they are sent.
func NewEmbedder(cfg Config) Embedder {
	cfg = cfg.withDefaults(30*time.Second, 2)
	if cfg.Model == "" {
		cfg.Model = "text-embedding-3-small"
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://api.openai.com/v1"
	}
	return redactingEmbedder{&embedder{cfg}}
}

type embedder struct{ cfg Config }

func (e *embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	headers := map[string]string{}
	if e.cfg.APIKey != "" {
		headers["Authorization"] = "Bearer " + e.cfg.APIKey
	}
	var vecs [][]float32
	_, err := withRetries(ctx, e.cfg, func(ctx context.Context) (Response, error) {
		var out struct {
			Data []struct {
				Index     int       `json:"index"`
				Embedding []float32 `json:"embedding"`
			} `json:"data"`
			Usage struct {
				Prompt int `json:"prompt_tokens"`
			} `json:"usage"`
		}
		body := map[string]any{"model": e.cfg.Model, "input": texts}
		if err := post(ctx, e.cfg.HTTP, strings.TrimRight(e.cfg.BaseURL, "/")+"/embeddings", headers, body, &out); err != nil {
			return Response{}, err
		}
		if len(out.Data) != len(texts) {
			return Response{}, fmt.Errorf("%d embeddings for %d texts", len(out.Data), len(texts))
		}
		vecs = make([][]float32, len(texts))
		for _, d := range out.Data {
			if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 || vecs[d.Index] != nil {
				return Response{}, fmt.Errorf("embedding index %d out of range, empty or repeated", d.Index)
			}
			vecs[d.Index] = d.Embedding
		}
		return Response{Usage: Usage{InputTokens: out.Usage.Prompt}}, nil
	})
	return vecs, err
}
