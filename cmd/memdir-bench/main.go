// Command memdir-bench measures what memdir's recall promises: quality on
// the LoCoMo benchmark and latency on generated memory folders. It is a
// separate command so that its helpers (internal/locomo, internal/memgen)
// stay out of the memdir binary users install:
//
//	go run ./cmd/memdir-bench locomo --data ../shared/bench/locomo/locomo10.json
//	go run ./cmd/memdir-bench latency --memories 1000,10000
//	go run ./cmd/memdir-bench extraction --set all
//
// Results go to stdout, progress to stderr. Exit status is 0, 1, or 130 on
// interrupt, as memdir's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/memdir/memdir/internal/hint"
	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	code := 0
	switch {
	case err == nil:
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "memdir-bench: interrupted")
		code = 130
	default:
		fmt.Fprintf(os.Stderr, "memdir-bench: error: %v\n", err)
		if h := hint.Of(err); h != "" {
			fmt.Fprintf(os.Stderr, "memdir-bench: hint: %s\n", h)
		}
		code = 1
	}
	stop()
	os.Exit(code)
}

// bench is one invocation: its streams and the --json flag.
type bench struct {
	ctx            context.Context
	stdout, stderr io.Writer
	json           bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := &bench{ctx: ctx, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "memdir-bench",
		Short: "Measure recall quality (LoCoMo), latency and extraction quality",
		Long: `memdir-bench measures what recall promises: quality on the LoCoMo benchmark,
and latency on generated memory folders. Results go to stdout; record them in
docs/benchmarks.md with the command and the machine.`,
		Example: `  go run ./cmd/memdir-bench locomo --data ../shared/bench/locomo/locomo10.json
  go run ./cmd/memdir-bench latency --memories 1000,10000`,
		Args:              cobra.NoArgs,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		RunE:              func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.PersistentFlags().BoolVar(&b.json, "json", false, "print JSON on stdout")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return hint.With(err, "see '%s --help'", cmd.CommandPath())
	})
	root.AddCommand(b.locomoCmd(), b.latencyCmd(), b.extractionCmd(), b.datesCmd(), b.rulesCmd(), b.factsCmd(), b.dreamCmd(), b.patternsCmd(), b.modelsCmd())
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

func (b *bench) printf(format string, args ...any) { fmt.Fprintf(b.stdout, format, args...) }

// printJSON writes v as indented JSON on stdout.
func (b *bench) printJSON(v any) error {
	enc := json.NewEncoder(b.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// isolatedEnv is the environment a bench's throwaway workspace sees: HOME
// is root, so nothing of the user's own memory is read or written, and of
// the rest only what a model engine needs — its keys, endpoint, model and
// the claude binary (PATH) — passes through.
func isolatedEnv(root string) func(string) string {
	return func(k string) string {
		switch {
		case k == "HOME":
			return root
		case k == "ANTHROPIC_API_KEY", k == "OPENAI_API_KEY", k == "PATH", k == "TZ", k == "MEMDIR_CLAUDE_BIN",
			strings.HasPrefix(k, "MEMDIR_LLM_"), strings.HasPrefix(k, "MEMDIR_EMBED_"):
			return os.Getenv(k)
		}
		return ""
	}
}
