package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The likeness model the patterns engine embeds is what its tuning sets
// give: a set edited without training again, or a model edited by hand,
// fails here.
func TestLikeness_UpToDate(t *testing.T) {
	text, n, err := trainLikeness("../../" + patternsDir)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("../../" + likenessFile)
	if err != nil {
		t.Fatal(err)
	}
	if !sameModel(old, text) {
		t.Fatalf("%s is not what its %d pairs of lines give: run 'go run ./cmd/memdir-bench patterns --train'", likenessFile, n)
	}
}

// No held-back set is learned from, and every set is either.
func TestLikeness_TrainsOnTuningSetsOnly(t *testing.T) {
	for _, h := range patternsHeld {
		if slices.Contains(patternsTune, h) {
			t.Errorf("%s is held back but trained on", h)
		}
	}
	for _, s := range patternsTune {
		if !strings.HasPrefix(s, "tune") {
			t.Errorf("%s is trained on; only tune sets may be", s)
		}
	}
	dirs, err := os.ReadDir("../../" + patternsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !slices.Contains(patternsTune, d.Name()) && !slices.Contains(patternsHeld, d.Name()) {
			t.Errorf("labelled set %s is neither tuned on nor held back", d.Name())
		}
	}
}
