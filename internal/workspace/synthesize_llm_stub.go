package workspace

// Stub of helper "llm"'s synthesize_llm.go, deleted when it merges.

import (
	"context"

	"github.com/memdir/memdir/internal/llm"
)

// SynthesisRules are the format rules a summary follows.
const SynthesisRules = "(rules)"

func modelSummary(ctx context.Context, c llm.Client, w DayWork) (string, llm.Usage, error) {
	panic("unimplemented")
}
