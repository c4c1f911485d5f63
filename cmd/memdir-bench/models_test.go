package main

import (
	"os"
	"strings"
	"testing"
)

// The models the engine embeds are what their training sets give: a set
// edited without retraining, or a model edited by hand, fails here.
func TestModels_UpToDate(t *testing.T) {
	for _, m := range textModels {
		text, n, err := trainModel(m, "../../"+extractionDir, "../../"+componentsDir)
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile("../../" + m.file)
		if err != nil {
			t.Fatal(err)
		}
		if !sameModel(old, text) {
			t.Fatalf("%s is not what its %d training sentences give: run 'go run ./cmd/memdir-bench models'", m.file, n)
		}
		// And the comparison can fail: one weight moved, one added.
		lines := strings.Split(string(text), "\n")
		name, _, _ := strings.Cut(lines[len(lines)/2], "\t")
		lines[len(lines)/2] = name + "\t9.0000"
		if sameModel(old, []byte(strings.Join(lines, "\n"))) {
			t.Fatal("sameModel missed a weight moved to 9")
		}
		lines = strings.Split(string(text), "\n")
		if sameModel(old, []byte(strings.Join(append(lines[:len(lines)-1], "u:zzz-new\t1.0000", ""), "\n"))) {
			t.Fatal("sameModel missed a weight only one model has")
		}
	}
}

// No held-out set is learned from.
func TestModels_TrainOnTuningSetsOnly(t *testing.T) {
	for _, held := range []string{"fresh2", "fresh4", "fresh9", "fresh11", "fresh13", "fresh15", "fresh17", "fresh18"} {
		for _, s := range selfTrainConversations {
			if s == held {
				t.Errorf("extraction set %s is held out but trained on", held)
			}
		}
	}
	for _, h := range selfTrainFacts {
		if !strings.HasPrefix(h, "tune") {
			t.Errorf("facts half %s is trained on; only tune halves may be", h)
		}
	}
}
