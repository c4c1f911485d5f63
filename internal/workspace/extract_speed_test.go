package workspace_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/corpus"
	"github.com/memdir/memdir/internal/workspace"
)

// BenchmarkExtract_Transcript4MB is issue 17's "a 4 MB transcript in ≤ 1 s
// on one core" as a transcript is: a 4 MB Claude Code session with the
// record mix of a real one (tool calls and their large results, thinking,
// assistant text, hook attachments), in which every prompt is a turn of
// the labelled extraction set — talk worth remembering, not filler. It runs
// 'memdir extract --transcript F --dry-run' in-process: parse, read, plan.
// BenchmarkHeuristic_4MB (internal/extract) is the worst case beside it:
// 4 MB of nothing but such prompts.
func BenchmarkExtract_Transcript4MB(b *testing.B) {
	var prompts []string
	for _, set := range []string{"tune", "heldout"} {
		data, err := os.ReadFile(filepath.Join("..", "extract", "testdata", "extraction", set+".json"))
		if err != nil {
			b.Fatal(err)
		}
		var convs []struct {
			Messages []struct {
				Role, Text string
				Meta       bool
			}
		}
		if err := json.Unmarshal(data, &convs); err != nil {
			b.Fatal(err)
		}
		for _, c := range convs {
			for _, m := range c.Messages {
				if m.Role == "user" && !m.Meta {
					prompts = append(prompts, m.Text)
				}
			}
		}
	}
	root := b.TempDir()
	claude := filepath.Join(root, ".claude")
	st, err := corpus.Generate(claude, corpus.Options{Seed: 17, Bytes: 4 << 20, SessionBytes: 4 << 20, Projects: 1, Prompts: prompts})
	if err != nil || st.Files != 1 {
		b.Fatalf("generate: %+v, %v", st, err)
	}
	files, _ := filepath.Glob(filepath.Join(claude, "projects", "*", "*.jsonl"))
	env := workspace.Env{Getenv: func(k string) string { return map[string]string{"HOME": root, "TZ": "UTC"}[k] },
		Cwd: root, HomeFlag: claude, Holder: "bench"}
	tr, err := env.Transcripts()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Bytes)
	for b.Loop() {
		res, err := tr.ExtractMemories(b.Context(), env, workspace.ExtractOptions{Transcripts: files, DryRun: true})
		if err != nil || len(res.Reports) != 1 || len(res.Reports[0].Plan) == 0 {
			b.Fatalf("extract: %+v, %v", res, err)
		}
	}
	b.ReportMetric(float64(len(prompts)), "prompts")
}
