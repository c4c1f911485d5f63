package lexicon

import (
	"slices"
	"testing"
)

// Two ways of saying one thing name one concept, each once, and the
// longest phrase wins at a word.
func TestConcepts(t *testing.T) {
	a, _ := Concepts("The worker was OOMKilled again")
	b, _ := Concepts("worker exited with exit code 137; exit code 137 twice")
	if !slices.Contains(a, "out-of-memory") || !slices.Equal(a, b) {
		t.Errorf("Concepts = %q and %q, want both [out-of-memory]", a, b)
	}
	if c, areas := Concepts("nothing to see here"); len(c) != 0 || len(areas) != 0 {
		t.Errorf("Concepts of plain words = %q, %q; want none", c, areas)
	}
}

// Every line of the lexicon parses to a concept with terms.
func TestLexicon_Parses(t *testing.T) {
	l := lex()
	n := 0
	for _, ps := range l.byFirst {
		n += len(ps)
		for _, p := range ps {
			if p.concept == "" || len(p.words) == 0 {
				t.Fatalf("phrase %+v has no concept or no words", p)
			}
		}
	}
	if n < 10000 {
		t.Errorf("%d phrases, want the whole lexicon (over 10,000)", n)
	}
}
