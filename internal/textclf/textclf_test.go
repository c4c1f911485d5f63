package textclf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// examples is a set a linear model can learn: positives hold "good",
// negatives "bad"; every example also holds noise words both classes
// share, and positives are rarer.
func examples() []Example {
	var ex []Example
	for i := range 60 {
		noise := []string{fmt.Sprintf("n%d", i%7), fmt.Sprintf("m%d", i%5)}
		if i%3 == 0 {
			ex = append(ex, Example{Features: append([]string{"good"}, noise...), Positive: true})
		} else {
			ex = append(ex, Example{Features: append([]string{"bad"}, noise...)})
		}
	}
	return ex
}

func TestTrain_Separates(t *testing.T) {
	m := Train(examples(), Options{Seed: 1})
	if got := m.Score([]string{"good", "n1"}); got <= 0 {
		t.Errorf("Score(good) = %.3f, want > 0", got)
	}
	if got := m.Score([]string{"bad", "n1"}); got >= 0 {
		t.Errorf("Score(bad) = %.3f, want < 0", got)
	}
	if m.Weights["good"] <= m.Weights["bad"] {
		t.Errorf("weight of good %.3f <= weight of bad %.3f", m.Weights["good"], m.Weights["bad"])
	}
	// A feature the model never saw counts nothing.
	if a, b := m.Score([]string{"good"}), m.Score([]string{"good", "never-seen"}); a != b {
		t.Errorf("an unknown feature moved the score: %.3f → %.3f", a, b)
	}
}

func TestTrain_Deterministic(t *testing.T) {
	a, _ := Train(examples(), Options{Seed: 5}).MarshalText()
	b, _ := Train(examples(), Options{Seed: 5}).MarshalText()
	if !bytes.Equal(a, b) {
		t.Fatal("two trainings on the same examples and seed differ")
	}
}

func TestTrain_Prune(t *testing.T) {
	all := Train(examples(), Options{Seed: 1, Prune: 1e-9})
	few := Train(examples(), Options{Seed: 1, Prune: 0.5})
	if len(few.Weights) >= len(all.Weights) {
		t.Fatalf("pruning at 0.5 kept %d weights of %d", len(few.Weights), len(all.Weights))
	}
	for f, w := range few.Weights {
		if w > -0.5 && w < 0.5 {
			t.Errorf("weight %s = %.3f kept below the pruning line", f, w)
		}
	}
}

func TestMarshalParse_RoundTrip(t *testing.T) {
	m := Train(examples(), Options{Seed: 3})
	text, err := m.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Weights) != len(m.Weights) {
		t.Fatalf("parsed %d weights, wrote %d", len(got.Weights), len(m.Weights))
	}
	for f, w := range m.Weights {
		if d := got.Weights[f] - w; d > 1e-4 || d < -1e-4 {
			t.Errorf("weight %s: wrote %.6f, read %.6f", f, w, got.Weights[f])
		}
	}
	if d := got.Bias - m.Bias; d > 1e-4 || d < -1e-4 {
		t.Errorf("bias: wrote %.6f, read %.6f", m.Bias, got.Bias)
	}
}

func TestMarshal_RefusesTab(t *testing.T) {
	m := &Model{Weights: map[string]float64{"a\tb": 1}}
	if _, err := m.MarshalText(); err == nil {
		t.Fatal("a feature with a tab was written")
	}
}

func TestParse_Errors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "not a model file"},
		{"other file", "hello\n", "not a model file"},
		{"no bias", header + "\n", "no bias line"},
		{"bias not first", header + "\nu:a\t1.0\n", "want the bias"},
		{"no tab", header + "\nbias\t0.1\nu:a 1.0\n", "no tab"},
		{"not a number", header + "\nbias\t0.1\nu:a\tlots\n", "not a number"},
		{"NaN", header + "\nbias\t0.1\nu:a\tNaN\n", "not a number"},
		{"Inf", header + "\nbias\tInf\n", "not a number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want an error with %q", tc.text, err, tc.want)
			}
		})
	}
}

// An embedded model parses on first use; a broken one finds nothing
// rather than failing the process that reads it.
func TestEmbedded(t *testing.T) {
	good := Embedded([]byte(header + "\nbias\t-1.5000\nword\t2.0000\n"))
	if m := good(); m.Bias != -1.5 || m.Weights["word"] != 2 {
		t.Errorf("Embedded = %+v, want bias -1.5 and word 2", m)
	}
	bad := Embedded([]byte("not a model"))
	if m := bad(); m.Bias != -100 || len(m.Weights) != 0 {
		t.Errorf("broken Embedded = %+v, want bias -100 and no weights", m)
	}
}
