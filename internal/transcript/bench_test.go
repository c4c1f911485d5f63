package transcript

import (
	"bytes"
	"testing"
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
