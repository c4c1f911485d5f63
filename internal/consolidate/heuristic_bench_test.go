package consolidate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// synthetic is a folder of n memories: sentences of words drawn from a
// vocabulary of 3,000 (a few common ones in every memory), one in ten a
// rephrased copy of another, one in twenty with a relative date.
func synthetic(n int) Input {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx%s", i, strings.Repeat("q", i%3))
	}
	common := []string{"use", "the", "repo", "build", "test", "deploy"}
	types := []string{"user", "feedback", "project", "reference"}
	in := Input{Now: now}
	for i := range n {
		var b strings.Builder
		for s := range 3 {
			b.WriteString(common[(i+s)%len(common)])
			for range 8 {
				b.WriteString(" " + vocab[r.IntN(len(vocab))])
			}
			b.WriteString(". ")
		}
		if i%20 == 0 {
			b.WriteString("Review it next Friday.")
		}
		body := b.String()
		if i%10 == 1 {
			body = in.Items[i-1].Body + " Also " + vocab[r.IntN(len(vocab))] + "."
		}
		in.Items = append(in.Items, Item{File: fmt.Sprintf("m%04d.md", i), Name: fmt.Sprintf("memory %d", i),
			Type: types[i%len(types)], Body: body, Created: date("2026-01-05").AddDate(0, 0, i%300)})
	}
	return in
}

func BenchmarkHeuristic_1000(b *testing.B) {
	in := synthetic(1000)
	var p Plan
	for b.Loop() {
		p = Heuristic(in)
	}
	if err := Validate(in, p); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(p.Ops)), "ops")
}
