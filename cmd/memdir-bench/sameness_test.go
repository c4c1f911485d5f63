package main

import (
	"context"
	"os"
	"slices"
	"testing"
)

// The sameness model the dream engine embeds is what its learning folders
// give: a folder edited without training again, or a model edited by
// hand, fails here.
func TestSameness_UpToDate(t *testing.T) {
	text, n, err := trainSameness(context.Background(), "../../"+dreamDir, "../../"+mergesDir)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile("../../" + samenessFile)
	if err != nil {
		t.Fatal(err)
	}
	if !sameModel(old, text) {
		t.Fatalf("%s is not what its %d pairs of memories give: run 'go run ./cmd/memdir-bench dream --train'", samenessFile, n)
	}
}

// No folder only scored is learned from; every merge folder is either
// learned from or only scored, and every dream half the model names is
// one the bench scores.
func TestSameness_LearnsFromLearningFoldersOnly(t *testing.T) {
	for _, h := range samenessHeldDream {
		if slices.Contains(samenessDream, h) {
			t.Errorf("dream half %s is held back but learned from", h)
		}
	}
	for _, h := range samenessHeldMerge {
		if slices.Contains(samenessMerges, h) {
			t.Errorf("merge folder %s is held back but learned from", h)
		}
	}
	for _, h := range append(slices.Clone(samenessDream), samenessHeldDream...) {
		if !slices.Contains(dreamHalves, h) {
			t.Errorf("%s is not a dream half the bench scores", h)
		}
	}
	for _, h := range dreamHalves {
		if !slices.Contains(samenessDream, h) && !slices.Contains(samenessHeldDream, h) && !slices.Contains(samenessReadOnly, h) {
			t.Errorf("dream half %s is neither learned from, read nor held back", h)
		}
	}
	dirs, err := os.ReadDir("../../" + mergesDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		if !slices.Contains(samenessMerges, d.Name()) && !slices.Contains(samenessHeldMerge, d.Name()) {
			t.Errorf("merge folder %s is neither learned from nor held back", d.Name())
		}
		if !slices.Contains(mergeSets, d.Name()) {
			t.Errorf("merge folder %s is not scored by the bench", d.Name())
		}
	}
}
