package recall

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// SelectorPrompt is the side query of LLM recall, after Claude Code's own
// memory selector: a manifest, a query, up to five file names.
const SelectorPrompt = `You select memories for a coding agent. You are given a manifest of memory files — each line "[type] file: description" — and the user's query. Pick up to 5 files that will clearly help with the query, judged on their name and description. When unsure, leave a file out: an empty list is a good answer. Be especially conservative with user and project memories: match what the query is about, not shared keywords.

Answer with one JSON object and nothing else: {"selected_memories": ["file.md", ...]}`

// ManifestLine is one memory as the selector sees it.
type ManifestLine struct {
	File, Type, Description string
	Saved                   time.Time // zero: not shown
}

// SelectorQuery is the user message of the side query.
func SelectorQuery(manifest []ManifestLine, query string) string {
	var b strings.Builder
	b.WriteString("Available memories:\n")
	for _, m := range manifest {
		// Claude Code's manifest line: the time tells the selector how
		// old a note is.
		if m.Saved.IsZero() {
			fmt.Fprintf(&b, "- [%s] %s: %s\n", m.Type, m.File, m.Description)
		} else {
			fmt.Fprintf(&b, "- [%s] %s (%s): %s\n", m.Type, m.File, m.Saved.UTC().Format(time.RFC3339), m.Description)
		}
	}
	b.WriteString("\nSelect memories relevant to:\n")
	b.WriteString(query)
	return b.String()
}

// ParseSelection reads the selector's answer: files of the manifest only,
// at most k, in the order given (a leading "[type] " is tolerated, as
// Claude Code tolerates it).
func ParseSelection(text string, manifest []ManifestLine, k int) ([]string, error) {
	text = strings.TrimSpace(text)
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```"), "```"))
	var ans struct {
		Selected []string `json:"selected_memories"`
	}
	if err := json.Unmarshal([]byte(text), &ans); err != nil {
		return nil, fmt.Errorf("the selector's answer is not the expected JSON: %w", err)
	}
	if ans.Selected == nil && !strings.Contains(text, "selected_memories") {
		return nil, errors.New(`the selector's answer has no "selected_memories"`)
	}
	var out []string
	for _, f := range ans.Selected {
		if i := strings.Index(f, "] "); strings.HasPrefix(f, "[") && i > 0 {
			f = f[i+2:]
		}
		if slices.ContainsFunc(manifest, func(m ManifestLine) bool { return m.File == f }) && !slices.Contains(out, f) {
			out = append(out, f)
		}
		if len(out) == k {
			break
		}
	}
	return out, nil
}
