// Command gencorpus writes a seeded, realistic corpus of Claude Code
// transcripts for benchmarks:
//
//	go run ./cmd/gencorpus -home /tmp/corpus -size 1GB -seed 1
//
// then, for example:
//
//	memdir --home /tmp/corpus search --transcripts "connection pool exhausted"
//	rg "connection pool exhausted" /tmp/corpus/projects
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/corpus"
)

func main() {
	home := flag.String("home", "", "agent home to write <home>/projects/ into (required)")
	size := flag.String("size", "100MB", "total size, e.g. 64MB or 1GB")
	seed := flag.Uint64("seed", 1, "random seed: the same seed and size give the same bytes")
	flag.Parse()
	n, err := parseSize(*size)
	if *home == "" || err != nil {
		fmt.Fprintln(os.Stderr, "usage: gencorpus -home DIR [-size 1GB] [-seed N]")
		os.Exit(1)
	}
	start := time.Now()
	st, err := corpus.Generate(*home, corpus.Options{Seed: *seed, Bytes: n})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	fmt.Printf("%d transcripts, %.1f MB, %d messages, %d prompts holding %q, in %s\n",
		st.Files, float64(st.Bytes)/1e6, st.Messages, st.Needles, corpus.Needle, time.Since(start).Round(time.Millisecond))
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	u := strings.ToUpper(s)
	for suffix, m := range map[string]int64{"GB": 1e9, "MB": 1e6, "KB": 1e3} {
		if strings.HasSuffix(u, suffix) {
			u, mult = strings.TrimSuffix(u, suffix), m
			break
		}
	}
	f, err := strconv.ParseFloat(u, 64)
	return int64(f * float64(mult)), err
}
