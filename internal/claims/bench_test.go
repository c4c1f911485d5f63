package claims

import (
	"strings"
	"testing"
)

// BenchmarkFind: a large memory (1 MiB, the store's cap) of code-heavy text.
func BenchmarkFind(b *testing.B) {
	para := "Run `make test` and `go test -race ./internal/memdir`; edit src/app.go and call `ParseConfig()` or Store.Save. See https://example.com/x.\n"
	text := strings.Repeat(para, (1<<20)/len(para))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Find(text)
	}
}
