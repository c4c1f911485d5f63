package recall

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/testenv"
)

// TestVectors runs recall's ranking and selection over the folders and
// prompts in testdata/vectors, one t.Run per file, named by the outcome it
// pins. A vector is a txtar archive:
//
//	comment          what the vector shows
//	-- memories --   one memory a line: "file | type | name | description |
//	                 body | days since saved [| superseded_by]"
//	-- query --      the prompt
//	-- tools --      optional: tools in use, comma-separated
//	-- kept --       the files injected, in order, one a line; empty when
//	                 recall must abstain
//	-- why --        optional: "file: reason" lines that must be among the
//	                 decisions
func TestVectors(t *testing.T) {
	testenv.Vectors(t, "testdata/vectors/*.txt", func(t *testing.T, sec map[string]string, _ string) {
		ms, err := parseVectorMemories(sec["memories"])
		if err != nil {
			t.Fatal(err)
		}
		p := DefaultPolicy
		for _, tool := range strings.Split(strings.TrimSpace(sec["tools"]), ",") {
			if tool = strings.TrimSpace(tool); tool != "" {
				p.Tools = append(p.Tools, tool)
			}
		}
		query := strings.TrimSpace(sec["query"])
		cands := Select(Memories(ms), rank(ms, query), p, now)
		got := strings.Join(kept(cands), "\n")
		if want := strings.TrimSpace(sec["kept"]); got != want {
			t.Errorf("query %q kept:\n%s\nwant:\n%s\n%s", query, got, want, explain(cands))
		}
		if (got == "") != (Render(cands) == "") {
			t.Errorf("kept %q but rendered %q", got, Render(cands))
		}
		for _, line := range strings.Split(strings.TrimSpace(sec["why"]), "\n") {
			if line == "" {
				continue
			}
			file, why, _ := strings.Cut(line, ": ")
			found := false
			for _, c := range cands {
				found = found || c.File == file && strings.Contains(c.Why, why)
			}
			if !found {
				t.Errorf("no decision %q for %s\n%s", why, file, explain(cands))
			}
		}
	})
}

func parseVectorMemories(s string) ([]Memory, error) {
	var ms []Memory
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		f := strings.Split(line, "|")
		if len(f) < 6 {
			return nil, fmt.Errorf("memory line %q: want file | type | name | description | body | days [| superseded_by]", line)
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		days, err := strconv.Atoi(f[5])
		if err != nil {
			return nil, fmt.Errorf("memory line %q: days: %v", line, err)
		}
		m := Memory{File: f[0], Type: f[1], Name: f[2], Description: f[3], Body: f[4], Saved: now.Add(-time.Duration(days) * 24 * time.Hour)}
		if len(f) > 6 {
			m.SupersededBy = f[6]
		}
		ms = append(ms, m)
	}
	return ms, nil
}

func explain(cands []Candidate) string {
	var b strings.Builder
	for _, c := range cands {
		fmt.Fprintf(&b, "  %s score %.3f coverage %.2f kept %v: %s\n", c.File, c.Score, c.Coverage, c.Kept, c.Why)
	}
	return b.String()
}
