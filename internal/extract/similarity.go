package extract

import (
	"strings"

	"github.com/memdir/memdir/internal/recall"
)

// Jaccard compares the content words of two statements, negations aside
// (polarity is Contradiction's business): stems and identifier parts, as
// recall reads them, make "in other words" count.
func Jaccard(a, b string) float64 {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		neg, aff := Polarity(s)
		for w := range neg {
			m[w] = true
		}
		for w := range aff {
			m[w] = true
		}
		return m
	}
	return overlap(words(a), words(b))
}

// Contradicts reports whether two statements about the same thing
// disagree.
func Contradicts(old, new string) bool { return Contradiction(old, new) != "" }

// Contradiction says how two statements about the same thing disagree, or
// "": one reverses a choice the other made ("pnpm over npm", then "npm
// over pnpm"), what one negates ("never spaces") the other affirms ("use
// spaces"), or only one of them negates at all.
func Contradiction(old, new string) string {
	for np := range preferences(new) {
		for op := range preferences(old) {
			if np[0] == op[1] || np[1] == op[0] {
				return "it reverses the choice of " + op[0] + " over " + op[1]
			}
		}
	}
	on, op := Polarity(old)
	nn, np := Polarity(new)
	for w := range on {
		if np[w] {
			return "it affirms " + w + ", which the old one negates"
		}
	}
	for w := range nn {
		if op[w] {
			return "it negates " + w + ", which the old one affirms"
		}
	}
	if (len(on) == 0) != (len(nn) == 0) {
		return "only one of them is a negation"
	}
	return ""
}

// preferences lists the choices a statement makes between two things, as
// stemmed (chosen, rejected) pairs: "X over Y", "X instead of Y", "X
// rather than Y".
func preferences(s string) map[[2]string]bool {
	words := recall.Tokenize(s)
	out := map[[2]string]bool{}
	stem := func(w string) string {
		if t := recall.Default.Terms(w, nil); len(t) > 0 {
			return t[0]
		}
		return w
	}
	for i := 1; i < len(words)-1; i++ {
		j := i + 1 // the word after the connective
		switch {
		case words[i] == "over":
		case words[i] == "instead" && words[j] == "of", words[i] == "rather" && words[j] == "than":
			j++
		default:
			continue
		}
		if j < len(words) {
			out[[2]string{stem(words[i-1]), stem(words[j])}] = true
		}
	}
	return out
}

// Polarity splits a statement's stemmed words into those a negation
// governs (the two words after not, never, don't, no, avoid, stop,
// without) and the rest. "without" after a negation negates the negation:
// "Ines doesn't review infra changes without the terraform plan" requires
// the plan.
func Polarity(s string) (negated, affirmed map[string]bool) {
	negated, affirmed = map[string]bool{}, map[string]bool{}
	// Clause by clause: "don't use mocks, run the tests without docker"
	// negates the mocks, and "without docker" on its own.
	for _, clause := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(",;.!?—–()", r) }) {
		left, since := 0, 0
		var last []string // what the last negation governed: "without" just after lifts it
		for _, w := range recall.Tokenize(clause) {
			switch w {
			case "without":
				if last != nil && since <= 2 {
					// "don't review infra changes without the plan": a
					// condition, not a prohibition; neither side is negated.
					for _, t := range last {
						delete(negated, t)
						affirmed[t] = true
					}
					last, left = nil, 0
					continue
				}
				left, last = 2, nil
				continue
			case "not", "never", "don", "no", "stop", "avoid", "t":
				left, last, since = 2, []string{}, 0
				continue
			}
			stem := recall.Default.Terms(w, nil)
			if len(stem) == 0 {
				continue
			}
			switch {
			case left > 0:
				negated[stem[0]] = true
				if last != nil {
					last = append(last, stem[0])
				}
				left--
			default:
				affirmed[stem[0]] = true
				since++
			}
		}
	}
	return negated, affirmed
}

// overlap is the Jaccard index of two term sets.
func overlap(a, b map[string]bool) float64 {
	inter := 0
	for t := range a {
		if b[t] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
