package extract

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGate_SameAnswers holds every gated regexp to its regexp (issue 17):
// MatchString answers alike, and a text the gate turns away holds no
// match. The texts are testdata's, seeded mixes of their words and the
// patterns' own, in every case, cut anywhere, with the runes that fold to
// ASCII letters (the long s, the Kelvin sign) and invalid UTF-8.
func TestGate_SameAnswers(t *testing.T) {
	texts := dumpTexts(t, 1000)
	rng := rand.New(rand.NewPCG(1, 17))
	odd := []string{"ſ", "\u212a", "\xff", "\xe2\x80", "—", "–", "İ", "é", "\t", "\n", " ", "_", "9", "#", "'"}
	var more []string
	for _, s := range texts {
		if len(s) == 0 {
			continue
		}
		i := rng.IntN(len(s))
		r := []rune(s)
		k := rng.IntN(len(r))
		more = append(more, strings.ToUpper(s), s[i:], s[:i], string(r[:k])+odd[rng.IntN(len(odd))]+string(r[k:]),
			strings.NewReplacer("s", "ſ", "k", "\u212a").Replace(s))
	}
	texts = append(texts, more...)
	// Dates and runs of digits and spaces, spaced every way.
	parts := []string{"on", "ON", "by", "until", "the", "The", "1", "14", "123", "3rd", "14th", "14TH", "1st", "22nd", "end", "of",
		"this", "quarter", "month", "next", "week", "weeks", "in", "2", "two", "days", "lol", "tbh", ",", ".", "!", "```", ">", "x"}
	spaces := []string{" ", "  ", "\t", " \n ", "", ",", "_", "-"}
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(parts[rng.IntN(len(parts))])
			b.WriteString(spaces[rng.IntN(len(spaces))])
		}
		texts = append(texts, b.String())
	}
	if raceBuild || testing.Short() {
		// 2,800 texts spread over the set: the race detector makes the
		// whole set take longer than a test may, and the set grows with
		// every labelled set (go test -race runs the sample in CI; the
		// whole set runs in every plain go test).
		var sample []string
		for i := 0; i < len(texts); i += max(1, len(texts)/2800) {
			sample = append(sample, texts[i])
		}
		texts = sample
	}
	bracket := func(m string) string { return "[" + m + "]" }
	// One subtest a gate, run in parallel: the whole set takes minutes on
	// one core, and the README's go test has ten.
	for gi, g := range allGates() {
		t.Run(strconv.Itoa(gi), func(t *testing.T) {
			t.Parallel()
			sameAnswers(t, g, texts, bracket)
		})
	}
}

// sameAnswers holds one gated regexp to its regexp on texts.
func sameAnswers(t *testing.T, g *gatedRe, texts []string, bracket func(string) string) {
	re := g.Re()
	bad := 0
	for _, s := range texts {
		want := re.MatchString(s)
		if got := g.MatchString(s); got != want {
			t.Errorf("%.60q on %q: MatchString %v, its regexp %v", g.String(), s, got, want)
			bad++
		}
		if got, want := g.FindAllStringIndex(s, -1), re.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%.60q on %q: FindAllStringIndex %v, its regexp %v", g.String(), s, got, want)
			bad++
		}
		if got, want := g.ReplaceAllString(s, "<>"), re.ReplaceAllString(s, "<>"); got != want {
			t.Errorf("%.60q on %q: ReplaceAllString %q, its regexp %q", g.String(), s, got, want)
			bad++
		}
		if got, want := g.ReplaceAllStringFunc(s, bracket), re.ReplaceAllStringFunc(s, bracket); got != want {
			t.Errorf("%.60q on %q: ReplaceAllStringFunc %q, its regexp %q", g.String(), s, got, want)
			bad++
		}
		if want && !g.may(s) {
			t.Errorf("%.60q on %q: the gate turns away a text that matches", g.String(), s)
			bad++
		}
		if bad > 5 {
			break
		}
	}
}

// TestGate_Literals: the literals read off a pattern, and the split of its
// branches into strings and a regexp.
func TestGate_Literals(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		hints   []string
	}{
		{`(?i)\b(?:deadline|due (?:on|by))\b`, []string{"due on", "due by", "deadline"}},
		{`(?i)\bin\s+(\d+|one)\s+(day|week)s?\b`, []string{"day", "week"}},
		{`https?://[^\s]+`, []string{"http://", "https://"}},
		{`(?i)^(?:hi|hello)?\s*x`, []string{"x"}},
		{`a*|b`, nil},
		{`[A-Z]+`, nil},
	} {
		if got := requiredLiterals(tc.pattern); !slices.Equal(got, tc.hints) {
			t.Errorf("%q: hints %q, want %q", tc.pattern, got, tc.hints)
		}
	}
	for _, tc := range []struct {
		pattern string
		starts  []string
	}{
		{`(?i)^(?:no|nope|hmm+)\b`, []string{"no", "hm"}},
		{`(?i)^(?:(?:hi|hey)[,!.]?\s+)?(?:i'?m|my)\b|^i (?:work|do)`, []string{"h", "im", "my", "i ", "i'm"}},
		{`(?i)\b(?:no|nope)\b`, nil},
		{`^\S+ is|^no`, nil},
	} {
		if got := anchoredPrefixes(tc.pattern); !slices.Equal(got, tc.starts) {
			t.Errorf("%q: starts %q, want %q", tc.pattern, got, tc.starts)
		}
	}
	split := `(?i)\b(?:deadline|due (?:on|by)|file (?:\w+ ){1,2}in)\b`
	m := newSplitMatcher(split, func() *regexp.Regexp { return regexp.MustCompile(split) })
	if m == nil || len(m.marked) != 3 || m.rest == nil {
		t.Fatalf("split: %+v", m)
	}
	for s, want := range map[string]bool{"The DEADLINE is": true, "deadlines": false, "due  on": false, "file it in": true, "a_due on": false} {
		if got := m.matchString(s); got != want {
			t.Errorf("split on %q: %v, want %v", s, got, want)
		}
	}
}

// TestLocVerbEnds holds the hand-read location verbs to reLocVerb.
func TestLocVerbEnds(t *testing.T) {
	texts := dumpTexts(t, 2500)
	rng := rand.New(rand.NewPCG(2, 17))
	words := []string{"lives", "live", "is", "Is", "ARE", "sits", "goes", "go", "tracking", "island", "iss", "it", "IT", "them",
		"in", "at", "on", "to", "under", "into", "onto", "from", "through", "shows", "up", "Up", "turn", "routed", "generated", "sent", "fed", "x", "_", "2", "#", "—", "ſ", "\u212a", "\xff", "é", "iſ", "\u212aept", "liveſ", "ſits"}
	seps := []string{" ", "  ", "\t", "\n", "\f", "\r", "\v", "", ",", "-", "\u00a0"}
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		var want []int
		for _, m := range reLocVerb.Re().FindAllStringIndex(s, -1) {
			want = append(want, m[1])
		}
		if got := locVerbEnds(s); !slices.Equal(got, want) {
			t.Errorf("%q: ends %v, its regexp %v", s, got, want)
		}
	}
}

// TestTopBranches: a pattern splits at its top-level bars only, and a
// text this reader does not know to split stays whole.
func TestTopBranches(t *testing.T) {
	for _, tc := range []struct {
		pattern, flags string
		parts          []string
	}{
		{`(?i)\bno\b|^nope|(?:a|b)c`, "(?i)", []string{`\bno\b`, `^nope`, `(?:a|b)c`}},
		{`[|]x|\|y|[^]|]z|[[:alpha:]|]w`, "", []string{`[|]x`, `\|y`, `[^]|]z`, `[[:alpha:]|]w`}},
		{`(?-i:IT|Ops) won't|no`, "", []string{`(?-i:IT|Ops) won't`, `no`}},
		{`one`, "", []string{`one`}},
		{`a(?i)b|c`, "", nil},   // the flag changes the branches after it
		{`\Qa|b\E|c`, "", nil},  // a quote
		{`(a|b`, "", nil},       // unbalanced
		{`(?P<x>a)|b`, "", nil}, // a named group reads as a flag group: left whole
		{`[a|b`, "", nil},       // an open class
		{`(?is)x|y`, "(?is)", []string{"x", "y"}},
	} {
		flags, parts := topBranches(tc.pattern)
		if flags != tc.flags || !slices.Equal(parts, tc.parts) {
			t.Errorf("%q: %q %q, want %q %q", tc.pattern, flags, parts, tc.flags, tc.parts)
		}
		// Where it splits, each branch compiles and the branches answer
		// as the whole does.
		if len(parts) < 2 {
			continue
		}
		whole := regexp.MustCompile(tc.pattern)
		bs := branchGates(tc.pattern)
		for _, s := range []string{"no", "NOPE", "ac", "bc", "|x", "|y", "]z", "|w", "IT won't", "it won't", "x", "Y", ""} {
			got := slices.ContainsFunc(bs, func(b *branchGate) bool { return b.match(s) })
			if want := whole.MatchString(s); got != want {
				t.Errorf("%q on %q: branches %v, whole %v", tc.pattern, s, got, want)
			}
		}
	}
}

// TestTextPairs: the byte-pair filter never rules out a string the text
// holds, and rules out most it does not.
func TestTextPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	alphabet := "abcdeé —'_9\xff"
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	ruledOut, absent := 0, 0
	for range 20000 {
		s, sub := word(5+rng.IntN(60)), word(1+rng.IntN(6))
		if rng.IntN(3) == 0 && len(s) > 4 {
			i := rng.IntN(len(s) - 3)
			sub = s[i : i+1+rng.IntN(3)]
		}
		tx := textOf(s)
		holds := strings.Contains(lowerASCII(s), sub)
		if tx.contains(sub) != holds {
			t.Fatalf("%q in %q: contains %v, strings.Contains %v", sub, s, tx.contains(sub), holds)
		}
		if !holds && len(sub) > 2 {
			absent++
			if !tx.mayContain(sub) {
				ruledOut++
			}
		}
	}
	if ruledOut*2 < absent {
		t.Errorf("the filter ruled out %d of %d absent strings", ruledOut, absent)
	}
	if !textOf("a ſ b").hazard || !textOf("\u212aelvin").hazard || textOf("plain").hazard {
		t.Error("hazard: the long s and the Kelvin sign")
	}
}
