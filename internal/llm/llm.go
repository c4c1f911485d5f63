// Package llm talks to language models for memdir's optional engines
// (extraction now, synthesis later): the Anthropic Messages API, any
// OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio), and
// the claude CLI in print mode with its tools restricted. Keys come only
// from the environment. Calls time out, retry on 429 and 5xx with
// backoff (honouring Retry-After), and report their token usage.
package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Message is one turn sent to the model.
type Message struct {
	Role    string `json:"role"` // "user" or "assistant"
	Content string `json:"content"`
}

// Request is one completion.
type Request struct {
	System    string
	Messages  []Message
	MaxTokens int
	JSON      bool // the answer must be a JSON object
}

// Usage counts tokens as the provider reports them.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Response is the model's answer.
type Response struct {
	Text  string
	Usage Usage
}

// Client completes requests. It is what consumers declare they need.
type Client interface {
	Complete(ctx context.Context, r Request) (Response, error)
}

// Config selects and tunes a provider.
type Config struct {
	Provider   string        // "anthropic", "openai" or "claude"
	Model      string        // provider default when empty
	BaseURL    string        // API root; provider default when empty
	APIKey     string        // from the environment, never from a file
	Timeout    time.Duration // per attempt (default 60s)
	MaxRetries int           // on 429, 5xx and timeouts (default 3)
	HTTP       *http.Client
	// Claude CLI engine: the binary, and the one folder it may write in.
	ClaudeBin string
	WriteDir  string
	// Log receives one line per call with its token usage.
	Log func(format string, args ...any)
}

// FromEnv builds the configuration of provider from the environment:
// ANTHROPIC_API_KEY, OPENAI_API_KEY, MEMDIR_LLM_MODEL, MEMDIR_LLM_BASE_URL,
// MEMDIR_LLM_TIMEOUT, MEMDIR_CLAUDE_BIN.
func FromEnv(provider string, getenv func(string) string) (Config, error) {
	c := Config{Provider: provider, Model: getenv("MEMDIR_LLM_MODEL"), BaseURL: getenv("MEMDIR_LLM_BASE_URL"), ClaudeBin: getenv("MEMDIR_CLAUDE_BIN")}
	if v := getenv("MEMDIR_LLM_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return c, fmt.Errorf("MEMDIR_LLM_TIMEOUT=%q is not a duration", v)
		}
		c.Timeout = d
	}
	switch provider {
	case "anthropic":
		c.APIKey = getenv("ANTHROPIC_API_KEY")
		if c.APIKey == "" {
			return c, errors.New("the anthropic engine needs ANTHROPIC_API_KEY in the environment")
		}
	case "openai":
		c.APIKey = getenv("OPENAI_API_KEY") // local servers (Ollama) need none
		if c.APIKey == "" && c.BaseURL == "" {
			return c, errors.New("the openai engine needs OPENAI_API_KEY, or MEMDIR_LLM_BASE_URL for a local server")
		}
	case "claude":
	default:
		return c, fmt.Errorf("unknown engine %q: use anthropic, openai or claude", provider)
	}
	return c, nil
}

// New returns the client of cfg.Provider. Credentials are redacted from
// every request before it is sent.
func New(cfg Config) (Client, error) {
	cfg = cfg.withDefaults(60*time.Second, 3)
	switch cfg.Provider {
	case "anthropic":
		return redacting{&anthropic{cfg}}, nil
	case "openai":
		return redacting{&openAI{cfg}}, nil
	case "claude":
		return redacting{&claudeCLI{cfg}}, nil
	}
	return nil, fmt.Errorf("unknown provider %q", cfg.Provider)
}

// withDefaults fills what cfg leaves unset: the per-attempt timeout and
// retries given, an HTTP client that never carries the key to another
// host, and a silent log.
func (cfg Config) withDefaults(timeout time.Duration, retries int) Config {
	if cfg.Timeout <= 0 {
		cfg.Timeout = timeout
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = retries
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{CheckRedirect: sameHost}
	}
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	return cfg
}

// sameHost follows a redirect only on the API's own host: the key travels
// in headers (x-api-key) that net/http forwards to any host.
func sameHost(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if req.URL.Host != via[0].URL.Host || req.URL.Scheme != via[0].URL.Scheme && req.URL.Scheme != "https" {
		return http.ErrUseLastResponse // reported as the redirect's status
	}
	return nil
}

// StatusError is an HTTP reply that is not a success.
type StatusError struct {
	Code       int
	Body       string
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.Code, e.Body)
}

func retryable(err error) (bool, time.Duration) {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Code == http.StatusTooManyRequests || se.Code >= 500, se.RetryAfter
	}
	return errors.Is(err, context.DeadlineExceeded), 0
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now))
	}
	return 0
}

// withRetries runs call with a per-attempt timeout, retrying what is
// worth retrying with exponential backoff and jitter, or Retry-After when
// the server gives one (capped at a minute).
func withRetries(ctx context.Context, cfg Config, call func(ctx context.Context) (Response, error)) (Response, error) {
	var last error
	for attempt := 0; attempt <= cfg.MaxRetries; attempt++ {
		actx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		resp, err := call(actx)
		cancel()
		if err == nil {
			cfg.Log("llm %s %s: %d input and %d output tokens", cfg.Provider, cfg.Model, resp.Usage.InputTokens, resp.Usage.OutputTokens)
			return resp, nil
		}
		last = err
		again, wait := retryable(err)
		if !again || attempt == cfg.MaxRetries || ctx.Err() != nil {
			break
		}
		if wait == 0 {
			wait = time.Duration(250<<attempt)*time.Millisecond + time.Duration(rand.IntN(100))*time.Millisecond
		}
		wait = min(wait, time.Minute)
		cfg.Log("llm %s: %v; retrying in %v", cfg.Provider, err, wait)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return Response{}, ctx.Err()
		}
	}
	return Response{}, fmt.Errorf("%s: %w", cfg.Provider, last)
}
