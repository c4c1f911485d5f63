package consolidate

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Expected is a labelled folder's expected plan, as its expected.json holds
// it (testdata/dream/<half>/expected.json).
type Expected struct {
	Now       time.Time         `json:"now"`
	Index     Index             `json:"index"`
	Ops       []ExpectedOp      `json:"ops"`
	Untouched []string          `json:"untouched"` // no operation may retire these
	Notes     map[string]string `json:"notes"`     // file: why it is labelled the way it is
}

// ExpectedOp is one operation a good plan holds.
type ExpectedOp struct {
	Kind      Kind     `json:"kind"`
	Files     []string `json:"files"`                 // the whole group, compared as a set
	KeepOneOf []string `json:"keep_one_of,omitempty"` // merge: any of these may stay; empty: any
	Keep      string   `json:"keep,omitempty"`        // supersede: the memory that wins
	Facts     []string `json:"facts,omitempty"`       // merge: phrases the kept memory must hold (case-insensitive)
	Dates     []string `json:"dates,omitempty"`       // date: absolute dates the rewritten memory must hold
}

// KindScore counts one kind's operations, or all of them.
//
// Precision is Matched/Produced and Recall is Matched/Expected; a kind with
// nothing produced has precision 1 (no wrong operation) and one with nothing
// expected has recall 1.
type KindScore struct {
	Kind      Kind    `json:"kind"` // "" for the overall row
	Expected  int     `json:"expected"`
	Produced  int     `json:"produced"`
	Matched   int     `json:"matched"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	// Referred counts the expected operations not matched whose files
	// the plan's LeftForModel candidates join: a model engine is asked to
	// judge them; the heuristic engine alone does not decide them.
	Referred int `json:"referred"`
	// Left counts the plan's LeftForModel candidates of the kind: what a
	// model (or the agent of the dream skill) is asked to read.
	Left int `json:"left_for_model"`
}

// Report is how a plan compares with a labelled expected plan.
type Report struct {
	Kinds      []KindScore `json:"kinds"` // the six kinds in order, then any other kind produced
	Overall    KindScore   `json:"overall"`
	Violations []string    `json:"violations,omitempty"` // a retired untouched or pinned memory, a merge that lost a fact
	Missed     []string    `json:"missed,omitempty"`     // expected operations no produced one matched, with why
	Extra      []string    `json:"extra,omitempty"`      // produced operations that matched none
}

var kinds = []Kind{Merge, Supersede, Date, Expire, Prune, Shorten}

// Score compares plan p, made from in, with the labelled plan e. A produced
// operation matches an expected one when the kinds are equal and the sets of
// files are equal; a merge also needs its Keep in KeepOneOf (when given) and
// every fact in the kept memory's new name, description or body (a field the
// Edit leaves empty counts as the memory's current one), a supersede the same
// Keep, a date every expected date in the new description or body. Each
// produced operation matches at most one expected one.
//
// Violations: an operation retiring a memory listed in e.Untouched or pinned
// in in.Items, and a merge of an expected group that lacks one of its facts.
func Score(in Input, p Plan, e Expected) Report {
	items := make(map[string]Item, len(in.Items))
	for _, it := range in.Items {
		items[it.File] = it
	}
	var r Report
	rows := map[Kind]*KindScore{}
	row := func(k Kind) *KindScore {
		if rows[k] == nil {
			rows[k] = &KindScore{Kind: k}
		}
		return rows[k]
	}
	for _, k := range kinds {
		row(k)
	}
	for _, eo := range e.Ops {
		row(eo.Kind).Expected++
	}
	for _, op := range p.Ops {
		row(op.Kind).Produced++
	}

	used := make([]bool, len(p.Ops))
	for _, eo := range e.Ops {
		var why []string
		found := false
		for i, op := range p.Ops {
			if used[i] || op.Kind != eo.Kind || !sameSet(op.Files, eo.Files) {
				continue
			}
			if w := mismatch(items, op, eo); w != "" {
				why = append(why, w)
				continue
			}
			used[i] = true
			found = true
			row(eo.Kind).Matched++
			break
		}
		if !found {
			if referred(p.LeftForModel, eo.Files) {
				row(eo.Kind).Referred++
			}
			d := describeExpected(eo)
			if len(why) == 0 {
				why = append(why, "no "+string(eo.Kind)+" of these files")
			}
			r.Missed = append(r.Missed, d+": "+strings.Join(why, "; "))
		}
	}
	for i, op := range p.Ops {
		if !used[i] {
			r.Extra = append(r.Extra, describeOp(op))
		}
	}

	r.Violations = violations(items, p, e)
	for _, c := range p.LeftForModel {
		row(c.Kind).Left++
	}

	var all KindScore
	for _, k := range kinds {
		r.Kinds = append(r.Kinds, finish(*rows[k]))
	}
	var other []Kind
	for k := range rows {
		if !slices.Contains(kinds, k) {
			other = append(other, k)
		}
	}
	slices.Sort(other)
	for _, k := range other {
		r.Kinds = append(r.Kinds, finish(*rows[k]))
	}
	for _, ks := range r.Kinds {
		all.Expected += ks.Expected
		all.Produced += ks.Produced
		all.Matched += ks.Matched
		all.Referred += ks.Referred
		all.Left += ks.Left
	}
	r.Overall = finish(all)
	return r
}

// mismatch says why op, of the right kind and files, does not match eo; ""
// when it does.
func mismatch(items map[string]Item, op Op, eo ExpectedOp) string {
	switch eo.Kind {
	case Merge:
		if len(eo.KeepOneOf) > 0 && !slices.Contains(eo.KeepOneOf, op.Keep) {
			return fmt.Sprintf("keeps %q, not one of %v", op.Keep, eo.KeepOneOf)
		}
		if lost := missingFacts(items, op, eo.Facts); len(lost) > 0 {
			return fmt.Sprintf("lost facts %q", lost)
		}
	case Supersede:
		if eo.Keep != "" && op.Keep != eo.Keep {
			return fmt.Sprintf("keeps %q, not %q", op.Keep, eo.Keep)
		}
	case Date:
		text := strings.ToLower(editedDescription(items, op) + "\n" + editedBody(items, op))
		var lost []string
		for _, d := range eo.Dates {
			if !strings.Contains(text, strings.ToLower(d)) {
				lost = append(lost, d)
			}
		}
		if len(lost) > 0 {
			return fmt.Sprintf("lacks dates %q", lost)
		}
	}
	return ""
}

// missingFacts returns the facts the memory op keeps would not hold.
func missingFacts(items map[string]Item, op Op, facts []string) []string {
	text := strings.ToLower(editedName(items, op) + "\n" + editedDescription(items, op) + "\n" + editedBody(items, op))
	var lost []string
	for _, f := range facts {
		if !strings.Contains(text, strings.ToLower(f)) {
			lost = append(lost, f)
		}
	}
	return lost
}

func editedName(items map[string]Item, op Op) string {
	if op.Edit != nil && op.Edit.Name != "" {
		return op.Edit.Name
	}
	return items[op.Keep].Name
}

func editedDescription(items map[string]Item, op Op) string {
	if op.Edit != nil && op.Edit.Description != "" {
		return op.Edit.Description
	}
	return items[op.Keep].Description
}

func editedBody(items map[string]Item, op Op) string {
	if op.Edit != nil && op.Edit.Body != "" {
		return op.Edit.Body
	}
	return items[op.Keep].Body
}

// violations lists what no plan may do whatever it matches.
func violations(items map[string]Item, p Plan, e Expected) []string {
	var out []string
	for _, op := range p.Ops {
		for _, f := range retired(op) {
			if items[f].Pinned {
				out = append(out, fmt.Sprintf("%s retires pinned %s", describeOp(op), f))
			} else if slices.Contains(e.Untouched, f) {
				out = append(out, fmt.Sprintf("%s retires untouched %s", describeOp(op), f))
			}
		}
		if op.Kind != Merge {
			continue
		}
		for _, eo := range e.Ops {
			if eo.Kind == Merge && sameSet(op.Files, eo.Files) {
				if lost := missingFacts(items, op, eo.Facts); len(lost) > 0 {
					out = append(out, fmt.Sprintf("%s loses facts %q", describeOp(op), lost))
				}
			}
		}
	}
	return out
}

// retired is every memory op makes leave: its Retire list, and what its
// kind implies (a merge's or supersede's files but Keep, an expiry's or
// prune's files) in case an engine left Retire short.
func retired(op Op) []string {
	out := slices.Clone(op.Retire)
	switch op.Kind {
	case Merge, Supersede, Expire, Prune:
		for _, f := range op.Files {
			if f != op.Keep && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

func finish(k KindScore) KindScore {
	k.Precision, k.Recall = 1, 1
	if k.Produced > 0 {
		k.Precision = float64(k.Matched) / float64(k.Produced)
	}
	if k.Expected > 0 {
		k.Recall = float64(k.Matched) / float64(k.Expected)
	}
	return k
}

func describeExpected(eo ExpectedOp) string {
	s := fmt.Sprintf("%s %v", eo.Kind, eo.Files)
	switch {
	case eo.Keep != "":
		s += " keep " + eo.Keep
	case len(eo.KeepOneOf) > 0:
		s += fmt.Sprintf(" keep one of %v", eo.KeepOneOf)
	}
	return s
}

func describeOp(op Op) string {
	s := fmt.Sprintf("%s %v", op.Kind, op.Files)
	if op.Keep != "" {
		s += " keep " + op.Keep
	}
	return s
}

// Table renders the report as a fixed-width table, one row per kind and an
// overall row, for test logs and docs/benchmarks.md.
func (r Report) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %8s %8s %8s %9s %7s %16s %14s\n", "kind", "expected", "produced", "matched", "precision", "recall", "missed, to model", "left to model")
	line := func(name string, k KindScore) {
		fmt.Fprintf(&b, "%-10s %8d %8d %8d %9.2f %7.2f %16s %14d\n", name, k.Expected, k.Produced, k.Matched, k.Precision, k.Recall,
			fmt.Sprintf("%d of %d", k.Referred, k.Expected-k.Matched), k.Left)
	}
	for _, k := range r.Kinds {
		line(string(k.Kind), k)
	}
	line("overall", r.Overall)
	return b.String()
}

// referred reports whether the candidates join every file of files: each
// candidate's files count as linked to one another, and files must form
// one group under those links (a single file is never referred).
func referred(cands []Candidate, files []string) bool {
	if len(files) < 2 {
		return false
	}
	parent := map[string]string{}
	for _, f := range files {
		parent[f] = f
	}
	find := func(f string) string {
		for parent[f] != f {
			f = parent[f]
		}
		return f
	}
	for _, c := range cands {
		first := ""
		for _, f := range c.Files {
			if _, ok := parent[f]; !ok {
				continue
			}
			if first == "" {
				first = f
			} else {
				parent[find(f)] = find(first)
			}
		}
	}
	for _, f := range files[1:] {
		if find(f) != find(files[0]) {
			return false
		}
	}
	return true
}
