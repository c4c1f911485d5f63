package extract

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// TestHeuristic_Dump writes what the heuristic engine makes of every user
// text in testdata and of a seeded mix of their words and the engine's own
// keywords, to the file MEMDIR_EXTRACT_DUMP names (skipped without it). A
// dump before and after a change that must not change output (issue 17:
// speed) is compared with cmp.
func TestHeuristic_Dump(t *testing.T) {
	path := os.Getenv("MEMDIR_EXTRACT_DUMP")
	if path == "" {
		t.Skip("MEMDIR_EXTRACT_DUMP names no file")
	}
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	texts := dumpTexts(t, 20000)
	ats := []time.Time{
		time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), // a Friday
		time.Date(2026, 1, 4, 23, 30, 0, 0, time.UTC),  // a Sunday, late
		time.Date(2026, 12, 31, 8, 0, 0, 0, time.UTC),
	}
	type entry struct {
		Text   string
		At     time.Time
		Local  string
		Cands  []Candidate
		Skip   Skipped
		Dates  string
		Dated  bool
		Secret bool
		Scopes [3]string
	}
	var out []entry
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		la = time.FixedZone("m8", -8*3600)
	}
	for i, text := range texts {
		at := ats[i%len(ats)]
		loc := time.UTC
		if i%4 == 3 {
			loc = la
		}
		time.Local = loc
		cands, sk := Heuristic([]Message{{Role: "user", Text: text, Time: at, ID: "m"}}, "s")
		d, dated := AbsoluteDates(text, at)
		out = append(out, entry{Text: text, At: at, Local: loc.String(), Cands: cands, Skip: sk, Dates: d, Dated: dated,
			Secret: ProseSecret(text), Scopes: [3]string{ScopeFor("feedback", text), ScopeFor("reference", text), ScopeFor("user", text)}})
	}
	// Whole conversations too, for dedupe and the next-sentence reasons.
	time.Local = time.UTC
	var msgs []Message
	for i, text := range texts {
		msgs = append(msgs, Message{Role: "user", Text: text, Time: ats[i%len(ats)], ID: ""})
	}
	cands, sk := Heuristic(msgs, "all")
	out = append(out, entry{Text: "<all>", Cands: cands, Skip: sk})
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d texts, %d candidates in all", len(texts), len(cands))
}

// dumpTexts gathers every "text" of testdata's JSON files and every user
// line of its vectors, then adds seeded sentences mixed from their words
// and from the literal words of the engine's patterns.
func dumpTexts(t *testing.T, mixes int) []string {
	var texts []string
	files, _ := filepath.Glob("testdata/*.json")
	more, _ := filepath.Glob("testdata/*/*.json")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		collectTexts(v, &texts)
	}
	vecs, _ := filepath.Glob("testdata/vectors/*.txt")
	for _, f := range vecs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if s, ok := strings.CutPrefix(line, "user: "); ok {
				texts = append(texts, s)
			}
		}
	}
	// Words and phrases to mix: the texts' own, and the patterns' literals.
	var words []string
	for _, s := range texts {
		words = append(words, strings.Fields(s)...)
	}
	lit := regexp.MustCompile(`[A-Za-z][A-Za-z' -]*[A-Za-z]`)
	for _, re := range lazyre.All() {
		for _, w := range lit.FindAllString(re.String(), -1) {
			words = append(words, strings.Fields(w)...)
			words = append(words, w)
		}
	}
	words = append(words, "—", "–", "-", ",", ";", ":", ".", "?", "!", "#ops-alerts", "`x-y`", "'Doc Name'", "\"Sheet\"",
		"https://x.io/a.b", "ABC-12", "s3/acme.b", "2026-11-03", "14th", "3rd", "Dec 3", "5 of may", "in 2 weeks", "\n", "```", "> quoted",
		"password is hunter2x9", "token=abc123def456ghi", "lol", "tbh", "no,", "hmm,", "I'd rather", "let's not", "Friday", "next week")
	rng := rand.New(rand.NewPCG(17, 4))
	for range mixes {
		n := 3 + rng.IntN(22)
		var b strings.Builder
		for j := range n {
			if j > 0 && rng.IntN(6) != 0 {
				b.WriteByte(' ')
			}
			w := words[rng.IntN(len(words))]
			if rng.IntN(9) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
		}
		if rng.IntN(3) == 0 {
			b.WriteString(". ")
			b.WriteString(texts[rng.IntN(len(texts))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

func collectTexts(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v["text"].(string); ok {
			*out = append(*out, s)
		}
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			collectTexts(v[k], out)
		}
	case []any:
		for _, x := range v {
			collectTexts(x, out)
		}
	}
}
