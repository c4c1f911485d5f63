package workspace

import (
	"cmp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// RecallReport is a recall as 'memdir recall --json' prints it: what was
// injected, and the candidates with their decisions.
type RecallReport struct {
	Query      string            `json:"query"`
	Terms      []string          `json:"terms"`
	Injected   string            `json:"injected"`
	Tokens     int               `json:"tokens"`
	Memories   int               `json:"memories"`
	Candidates []RecallCandidate `json:"candidates"`
	// Considered counts every ranked memory; Candidates lists the kept
	// ones and the best 20 of the rest.
	Considered int `json:"-"`
	// Learnings lists the entries of synthesis recall kept and the best 5
	// of the rest; Candidates lists them too, after the memories (file:
	// the entry's ID), for --explain.
	Learnings []LearningHit `json:"learnings,omitempty"`
}

// RecallCandidate is one ranked memory and what recall decided about it.
type RecallCandidate struct {
	File string `json:"file"`
	// Scope is the memory's folder: "private", or "team" (File is then
	// "team/<file>"); "" for an entry of synthesis.
	Scope    string             `json:"scope,omitempty"`
	Author   string             `json:"author,omitempty"` // who added a team memory, when known
	Type     string             `json:"type,omitempty"`
	Score    float64            `json:"score"`
	Coverage float64            `json:"coverage"`
	Kept     bool               `json:"kept"`
	Why      string             `json:"why"`
	ByField  map[string]float64 `json:"by_field,omitempty"`
	Matched  []string           `json:"matched,omitempty"`
	Stale    []string           `json:"stale_refs,omitempty"`
}

// EmptyReport is the report of a query no memory was ranked for (a
// project with no memory folder yet).
func EmptyReport(query string) RecallReport {
	return RecallReport{Query: query, Terms: recall.Default.Terms(query, nil), Candidates: []RecallCandidate{}}
}

// Report describes r for query; with detail, each listed candidate carries
// its score by field and the terms it matched (--explain, --json).
func (r Recalled) Report(query string, detail bool) RecallReport {
	out := EmptyReport(query)
	out.Injected, out.Tokens, out.Considered = r.Text, r.Tokens(), len(r.Candidates)
	for i, c := range r.Candidates {
		if c.Kept {
			out.Memories++
		}
		if i >= 20 && !c.Kept {
			continue
		}
		j := RecallCandidate{File: c.File, Scope: cmp.Or(c.Scope, memdir.ScopePrivate), Author: c.Author, Type: c.Type, Score: c.Score, Coverage: c.Coverage, Kept: c.Kept, Why: c.Why, Stale: c.MissingRefs}
		ix, doc := r.Index, c.Doc
		if r.Merged != nil {
			part, local := r.Merged.Locate(c.Doc)
			ix, doc = r.Merged.Part(part), local
		}
		if detail && ix != nil {
			by := ix.Explain(doc, out.Terms)
			j.ByField = map[string]float64{}
			for f := range recall.NumFields {
				if by[f] != 0 {
					j.ByField[f.String()] = by[f]
				}
			}
			j.Matched = ix.Matched(doc, out.Terms)
		}
		out.Candidates = append(out.Candidates, j)
	}
	out.addLearnings(r.Learnings)
	return out
}

// addLearnings lists the kept learnings and the best 5 of the rest.
func (out *RecallReport) addLearnings(hits []LearningHit) {
	for i, h := range hits {
		if i >= 5 && !h.Kept {
			continue
		}
		out.Learnings = append(out.Learnings, h)
		out.Candidates = append(out.Candidates, RecallCandidate{File: h.ID, Type: h.Tag, Score: h.Score, Coverage: h.Coverage, Kept: h.Kept, Why: h.Why})
	}
	out.Considered += len(hits)
}
