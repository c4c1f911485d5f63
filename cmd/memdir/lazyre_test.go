package main

import (
	"regexp"
	"testing"

	"github.com/memdir/memdir/internal/lazyre"
)

// TestLazyRegexpsCompile compiles every package-level lazy regexp of every
// package memdir links: they are compiled on first use, not at start-up, so
// a bad pattern would otherwise wait for the first input that reaches it.
func TestLazyRegexpsCompile(t *testing.T) {
	all := lazyre.All()
	if len(all) < 100 {
		t.Fatalf("only %d lazy regexps registered; the packages that declare them are not linked?", len(all))
	}
	for _, r := range all {
		if _, err := regexp.Compile(r.String()); err != nil {
			t.Errorf("%q: %v", r.String(), err)
		}
	}
}
