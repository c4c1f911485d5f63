package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// claudeCLI runs the claude CLI in print mode as the model: no hooks (so
// memdir's own hooks do not run inside it), no session saved, no MCP
// servers, and one tool: Read, allowed inside the memory folder only.
// memdir applies the model's operations itself, through the store
// (validated, locked, redacted, indexed), so the model never writes, and
// text injected into a transcript cannot make it read files elsewhere.
type claudeCLI struct{ cfg Config }

// Args is the command line the claude engine runs (the prompt goes on
// stdin, so its length is not bounded by argv).
func (c *claudeCLI) Args(r Request) []string {
	// At most 5 turns, as Claude Code bounds its own background memory
	// extraction: the model reads, never investigates.
	args := []string{"-p", "--bare", "--no-session-persistence", "--output-format", "json", "--strict-mcp-config",
		"--permission-mode", "dontAsk", "--max-turns", "5"}
	if c.cfg.WriteDir != "" {
		dir := filepath.ToSlash(c.cfg.WriteDir)
		args = append(args, "--tools", "Read", "--add-dir", c.cfg.WriteDir, "--allowedTools", "Read("+dir+"/**)")
	} else {
		args = append(args, "--tools", "")
	}
	if c.cfg.Model != "" {
		args = append(args, "--model", c.cfg.Model)
	}
	if r.System != "" {
		args = append(args, "--system-prompt", r.System)
	}
	return args
}

func (c *claudeCLI) Complete(ctx context.Context, r Request) (Response, error) {
	bin := c.cfg.ClaudeBin
	if bin == "" {
		bin = "claude"
	}
	var prompt strings.Builder
	for _, m := range r.Messages {
		prompt.WriteString(m.Content)
		prompt.WriteString("\n\n")
	}
	return withRetries(ctx, c.cfg, func(ctx context.Context) (Response, error) {
		cmd := exec.CommandContext(ctx, bin, c.Args(r)...)
		cmd.Stdin = strings.NewReader(prompt.String())
		cmd.WaitDelay = 5 * time.Second // a child holding stdout open cannot keep us past the timeout
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var out struct {
			Result  string `json:"result"`
			IsError bool   `json:"is_error"`
			Usage   Usage  `json:"usage"`
		}
		if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr != nil {
			if err == nil {
				err = jerr
			}
			return Response{}, fmt.Errorf("%v: %s%s", err, strings.TrimSpace(stdout.String()), strings.TrimSpace(stderr.String()))
		}
		if out.IsError || err != nil {
			return Response{}, errors.New(strings.TrimSpace(out.Result))
		}
		return Response{Text: out.Result, Usage: out.Usage}, nil
	})
}
