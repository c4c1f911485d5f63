package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/corpus"
)

// BenchmarkParseClaude parses the real 2.1.328 transcript and the scrubbed
// record fixture repeated to about 9 MB. The corpus generator and the
// gigabyte-scale run belong with transcript search (issue #3).
func BenchmarkParseClaude(b *testing.B) {
	one := append(open(b, "claude-code-2.1.328-sample.jsonl"), open(b, "claude-records.jsonl")...)
	data := bytes.Repeat(one, 100)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseClaude(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseCorpus parses the generated corpus (corpus.Cached, sized
// by MEMDIR_BENCH_CORPUS_MB, default 64) file by file on one goroutine:
// MB/s is per core.
func BenchmarkParseCorpus(b *testing.B) {
	home, err := corpus.BenchHome()
	if err != nil {
		b.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(home, "projects", "*", "*.jsonl"))
	var total int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		total += fi.Size()
	}
	b.SetBytes(total)
	for b.Loop() {
		for _, p := range paths {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ParseClaude(f, Options{}); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	}
}
