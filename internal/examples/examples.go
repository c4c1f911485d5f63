// Package examples holds the realistic memories, transcripts and task
// diaries (diaries.go) that 'memdir quickstart' writes into its throwaway
// folder (a Sandbox), bundled in the binary. It writes example transcripts
// only into a sandbox, never into a real agent's home.
package examples

import (
	"embed"
	"fmt"
	"strings"
	"time"
)

// Memories holds one memory file per example, all four types, under memories/.
//
//go:embed memories/*.md
var Memories embed.FS

//go:embed transcripts/claude-code.jsonl
var claudeTranscript string

//go:embed transcripts/codex.jsonl
var codexTranscript string

// Transcript is an example session log, as its agent writes it.
type Transcript struct {
	Agent   string // "claude-code" or "codex"
	Session string
	Data    []byte
}

// Transcripts returns a Claude Code session in cwd starting at claudeAt,
// and a Codex session in cwd starting at codexAt: a few minutes of work
// each, with a hook's injected context, split assistant responses, tool
// calls and bookkeeping records.
func Transcripts(cwd string, claudeAt, codexAt time.Time) []Transcript {
	return []Transcript{
		{Agent: "claude-code", Session: "5f0c4a52-9d1e-4f7a-b3c8-2e6d1a9b7c40", Data: fill(claudeTranscript, cwd, "5f0c4a52-9d1e-4f7a-b3c8-2e6d1a9b7c40", claudeAt)},
		{Agent: "codex", Session: "0199c0de-7a11-7b22-8c33-d44e55f66a77", Data: fill(codexTranscript, cwd, "0199c0de-7a11-7b22-8c33-d44e55f66a77", codexAt)},
	}
}

// fill replaces {{CWD}}, {{SESSION}} and {{Tn}} (n minutes after at).
func fill(tmpl, cwd, session string, at time.Time) []byte {
	r := []string{"{{CWD}}", jsonString(cwd), "{{SESSION}}", session}
	for n := range 10 {
		r = append(r, fmt.Sprintf("{{T%d}}", n), at.Add(time.Duration(n)*time.Minute).UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	return []byte(strings.NewReplacer(r...).Replace(tmpl))
}

// jsonString escapes s for use inside a JSON string.
func jsonString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
