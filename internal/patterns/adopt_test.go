package patterns

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/diary"
)

// docsOf makes one diary a line, dated in order.
func docsOf(kind diary.Kind, texts ...string) []Doc {
	var out []Doc
	for i, l := range texts {
		e := diary.Entry{Task: "t", Date: fmt.Sprintf("2026-01-%02d", i+1)}
		e.Add(kind, l)
		out = append(out, Doc{ID: fmt.Sprintf("2026-01-%02d-t", i+1), Entry: e})
	}
	return out
}

func keysOf(docs []Doc) []string {
	var keys []string
	for _, l := range Lines(docs) {
		keys = append(keys, LineKey(l))
	}
	return keys
}

// TestSplitRecordKeepsEachRule: a recorded pattern the model now splits in
// two; each half is worded with its own group's rule.
func TestSplitRecordKeepsEachRule(t *testing.T) {
	docs := docsOf(diary.Mistakes,
		"Forgot to run `make migrate` before the integration tests, they failed with a missing table",
		"The integration tests failed again because I did not run `make migrate` first",
		"Run `make migrate` before running the integration tests or the tables are missing",
		"Set TZ=UTC in CI or the date tests shift by the runner's time zone",
		"Date assertions broke in CI since the runner is not on UTC; set TZ=UTC",
		"CI date tests need TZ=UTC, the runner's zone shifted them",
	)
	g := []Group{{Lines: []int{0, 1, 2}, Rule: "Run make migrate before the integration tests", Opposes: -1},
		{Lines: []int{3, 4, 5}, Rule: "Set TZ=UTC in CI for date tests", Opposes: -1}}
	res := FromGroups(docs, g, Options{Known: []Known{{ID: "pabc123", Lines: keysOf(docs)}}})
	if len(res.Patterns) != 2 || res.Patterns[0].ID == res.Patterns[1].ID {
		t.Fatalf("patterns: %+v", res.Patterns)
	}
	for _, p := range res.Patterns {
		rule := p.Proposals[0].Title
		if strings.Contains(p.Title, "migrate") != strings.Contains(rule, "migrate") {
			t.Errorf("%s %q is worded %q", p.ID, p.Title, rule)
		}
	}
}

// TestOpposingGroupsOfOneRecord: a recorded pattern the model splits into
// a lesson and its opposite: both are in the conflict, neither proposed.
func TestOpposingGroupsOfOneRecord(t *testing.T) {
	docs := docsOf(diary.Patterns,
		"Mock the payment API in unit tests so they run offline",
		"Unit tests should mock the payment API, the sandbox is slow",
		"Mock the payment provider in the unit tests",
		"Never mock the payment API: test against the provider sandbox",
		"Don't mock the payment API, the mocks hid a real contract change",
		"Avoid mocking the payment provider; use its sandbox in tests",
	)
	g := []Group{{Lines: []int{0, 1, 2}, Rule: "Mock the payment API in unit tests", Opposes: -1},
		{Lines: []int{3, 4, 5}, Rule: "Never mock the payment API", Opposes: 0}}
	res := FromGroups(docs, g, Options{Known: []Known{{ID: "pabc123", Lines: keysOf(docs)}}})
	if len(res.Patterns) != 2 || len(res.Conflicts) != 1 || res.Conflicts[0].A == res.Conflicts[0].B {
		t.Fatalf("patterns %+v conflicts %+v", res.Patterns, res.Conflicts)
	}
	for _, p := range res.Patterns {
		if p.Conflict == "" || len(p.Proposals) != 0 {
			t.Errorf("%s: conflict %q, %d proposals", p.ID, p.Conflict, len(p.Proposals))
		}
	}
}
