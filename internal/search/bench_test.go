package search_test

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memdir/memdir/internal/corpus"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

// BenchmarkSearch searches the corpus for a rare phrase, in process, and
// runs ripgrep on the same files and pattern for comparison (skipped when
// rg is not installed). Compare the ns/op of the two sub-benchmarks.
func BenchmarkSearch(b *testing.B) {
	home, err := corpus.BenchHome()
	if err != nil {
		b.Fatal(err)
	}
	files, errs := sessions.Discover(sessions.Roots{Claude: home})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	var total int64
	for _, f := range files {
		total += f.Size
	}
	for _, pattern := range []string{corpus.Needle, "rollback"} {
		b.Run("memdir/"+pattern, func(b *testing.B) {
			b.SetBytes(total)
			for b.Loop() {
				st, err := search.Run(context.Background(), files, search.Options{Pattern: pattern}, func(search.Result) error { return nil })
				if err != nil || st.Files != len(files) {
					b.Fatal(err, st)
				}
			}
		})
		b.Run("ripgrep/"+pattern, func(b *testing.B) {
			rg, err := exec.LookPath("rg")
			if err != nil {
				b.Skip("ripgrep is not installed (Debian package ripgrep)")
			}
			b.SetBytes(total)
			for b.Loop() {
				// Output goes to a pipe: ripgrep stops at the first match
				// of each file when its output is /dev/null.
				cmd := exec.Command(rg, "-n", "--no-heading", pattern, filepath.Join(home, "projects"))
				cmd.Stdout = io.Discard
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
