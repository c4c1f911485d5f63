// Package textclf is a linear classifier over sparse binary features:
// logistic regression trained with AdaGrad, written to and read from a
// small text file. It holds no features of its own; a caller turns a text
// into feature names and keeps the trained weights beside its code.
//
// Training is deterministic: the same examples and options give the same
// weights on one platform, so a model kept in the repository can be
// checked against its training data.
package textclf

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Example is one labelled text, as the names of its features.
type Example struct {
	Features []string
	Positive bool
}

// Options are training's settings; the zero value takes the defaults.
type Options struct {
	Epochs int     // passes over the examples (default 8)
	Rate   float64 // AdaGrad's step (default 0.05)
	L2     float64 // weight decay per step (default 1e-4)
	Seed   uint64  // the order examples are seen in
	// Prune drops weights smaller than this from the model (default 0.01).
	Prune float64
}

// Model is a trained classifier: a weight per feature and a bias.
type Model struct {
	Bias    float64
	Weights map[string]float64
}

// Score is the model's log-odds that a text with these features is
// positive; a feature the model has no weight for counts nothing.
func (m *Model) Score(features []string) float64 {
	z := m.Bias
	for _, f := range features {
		z += m.Weights[f]
	}
	return z
}

// Train fits a model to examples. Positives are weighted by the square
// root of how much rarer they are than negatives, so a rare class is not
// simply ignored.
func Train(examples []Example, opt Options) *Model {
	if opt.Epochs == 0 {
		opt.Epochs = 8
	}
	if opt.Rate == 0 {
		opt.Rate = 0.05
	}
	if opt.L2 == 0 {
		opt.L2 = 1e-4
	}
	if opt.Prune == 0 {
		opt.Prune = 0.01
	}
	pos := 0
	for _, e := range examples {
		if e.Positive {
			pos++
		}
	}
	posWeight := 1.0
	if pos > 0 && pos < len(examples) {
		posWeight = math.Sqrt(float64(len(examples)-pos) / float64(pos))
	}
	// Each example's features once, bias last, as indexes.
	index := map[string]int{}
	var names []string
	rows := make([][]int, len(examples))
	for i, e := range examples {
		seen := map[int]bool{}
		for _, f := range e.Features {
			k, ok := index[f]
			if !ok {
				k = len(names)
				index[f] = k
				names = append(names, f)
			}
			if !seen[k] {
				seen[k] = true
				rows[i] = append(rows[i], k)
			}
		}
	}
	bias := len(names)
	w := make([]float64, bias+1)
	g2 := make([]float64, bias+1)
	order := make([]int, len(examples))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6d656d646972))
	for range opt.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			z := w[bias]
			for _, k := range rows[i] {
				z += w[k]
			}
			p := 1 / (1 + math.Exp(-max(-30, min(30, z))))
			y, scale := 0.0, 1.0
			if examples[i].Positive {
				y, scale = 1, posWeight
			}
			g := (p - y) * scale
			step := func(k int) {
				gk := g + opt.L2*w[k]
				g2[k] += gk * gk
				w[k] -= opt.Rate * gk / math.Sqrt(g2[k]+1e-8)
			}
			for _, k := range rows[i] {
				step(k)
			}
			step(bias)
		}
	}
	m := &Model{Bias: w[bias], Weights: map[string]float64{}}
	for k, name := range names {
		if math.Abs(w[k]) >= opt.Prune {
			m.Weights[name] = w[k]
		}
	}
	return m
}

// header opens a model file; what follows is "bias\t<w>" and one
// "<feature>\t<w>" line per weight, features sorted.
const header = "# textclf model v1"

// MarshalText writes the model, four decimals a weight.
func (m *Model) MarshalText() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header + "\n")
	fmt.Fprintf(&b, "bias\t%.4f\n", m.Bias)
	names := make([]string, 0, len(m.Weights))
	for f := range m.Weights {
		if strings.ContainsAny(f, "\t\n") {
			return nil, fmt.Errorf("textclf: feature %q holds a tab or a newline", f)
		}
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		fmt.Fprintf(&b, "%s\t%.4f\n", f, m.Weights[f])
	}
	return b.Bytes(), nil
}

// Embedded returns the model a package embeds as text, parsed on first
// use (a process that never asks parses nothing). A text that does not
// parse, a broken build each embedding package tests for, gives a model
// that finds nothing: its bias is -100 and it has no weights.
func Embedded(text []byte) func() *Model {
	return sync.OnceValue(func() *Model {
		m, err := Parse(text)
		if err != nil {
			return &Model{Bias: -100}
		}
		return m
	})
}

// Parse reads a model MarshalText wrote.
func Parse(text []byte) (*Model, error) {
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || sc.Text() != header {
		return nil, fmt.Errorf("textclf: not a model file (want first line %q)", header)
	}
	m := &Model{Weights: map[string]float64{}}
	sawBias := false
	for n := 2; sc.Scan(); n++ {
		name, val, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			return nil, fmt.Errorf("textclf: line %d: no tab between feature and weight", n)
		}
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("textclf: line %d: weight %q is not a number", n, val)
		}
		if n == 2 {
			if name != "bias" {
				return nil, fmt.Errorf("textclf: line 2: want the bias, got %q", name)
			}
			m.Bias, sawBias = w, true
			continue
		}
		m.Weights[name] = w
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("textclf: %w", err)
	}
	if !sawBias {
		return nil, fmt.Errorf("textclf: no bias line after the header")
	}
	return m, nil
}
