package consolidate

import (
	"strings"
	"testing"
)

func scoreInput() Input {
	return Input{Items: []Item{
		{File: "pnpm.md", Name: "use-pnpm", Type: "feedback", Body: "Use pnpm, not npm."},
		{File: "pnpm-lock.md", Name: "pnpm-lockfile", Type: "feedback", Body: "npm breaks the lockfile."},
		{File: "argo.md", Name: "deploys-argocd", Type: "project", Body: "Deploys go through ArgoCD."},
		{File: "gha.md", Name: "deploys-gha", Type: "project", Body: "Deploys moved to GitHub Actions."},
		{File: "demo.md", Name: "demo", Type: "project", Body: "Demo next Friday."},
		{File: "owner.md", Name: "owner", Type: "user", Body: "Alice owns billing.", Pinned: true},
		{File: "freeze.md", Name: "freeze", Type: "project", Body: "Merge freeze until 2026-04-01."},
	}}
}

func scoreExpected() Expected {
	return Expected{
		Ops: []ExpectedOp{
			{Kind: Merge, Files: []string{"pnpm.md", "pnpm-lock.md"}, KeepOneOf: []string{"pnpm.md"}, Facts: []string{"pnpm", "lockfile"}},
			{Kind: Supersede, Files: []string{"argo.md", "gha.md"}, Keep: "gha.md"},
			{Kind: Date, Files: []string{"demo.md"}, Dates: []string{"2026-03-06"}},
			{Kind: Expire, Files: []string{"freeze.md"}},
		},
		Untouched: []string{"owner.md"},
	}
}

func goodPlan() Plan {
	return Plan{Ops: []Op{
		{Kind: Merge, Files: []string{"pnpm.md", "pnpm-lock.md"}, Keep: "pnpm.md", Retire: []string{"pnpm-lock.md"},
			Edit: &Edit{Body: "Use pnpm, not npm: npm breaks the lockfile."}},
		{Kind: Supersede, Files: []string{"gha.md", "argo.md"}, Keep: "gha.md", Retire: []string{"argo.md"}},
		{Kind: Date, Files: []string{"demo.md"}, Keep: "demo.md", Edit: &Edit{Body: "Demo on 2026-03-06."}},
		{Kind: Expire, Files: []string{"freeze.md"}, Retire: []string{"freeze.md"}},
	}}
}

func row(t *testing.T, r Report, k Kind) KindScore {
	t.Helper()
	for _, ks := range r.Kinds {
		if ks.Kind == k {
			return ks
		}
	}
	t.Fatalf("no row for %s in %+v", k, r.Kinds)
	return KindScore{}
}

func TestScore(t *testing.T) {
	t.Run("Match", func(t *testing.T) {
		r := Score(scoreInput(), goodPlan(), scoreExpected())
		if r.Overall.Matched != 4 || r.Overall.Precision != 1 || r.Overall.Recall != 1 {
			t.Errorf("overall = %+v, want 4 matched, precision and recall 1", r.Overall)
		}
		if len(r.Violations)+len(r.Missed)+len(r.Extra) != 0 {
			t.Errorf("violations %q, missed %q, extra %q; want none", r.Violations, r.Missed, r.Extra)
		}
		if got := row(t, r, Prune); got.Precision != 1 || got.Recall != 1 || got.Produced != 0 {
			t.Errorf("prune row = %+v, want empty with precision and recall 1", got)
		}
	})
	t.Run("WrongKeep", func(t *testing.T) {
		p := goodPlan()
		p.Ops[0].Keep, p.Ops[0].Retire = "pnpm-lock.md", []string{"pnpm.md"}
		p.Ops[1].Keep, p.Ops[1].Retire = "argo.md", []string{"gha.md"}
		r := Score(scoreInput(), p, scoreExpected())
		if m := row(t, r, Merge); m.Matched != 0 || m.Produced != 1 {
			t.Errorf("merge row = %+v, want 0 matched of 1", m)
		}
		if s := row(t, r, Supersede); s.Matched != 0 || s.Recall != 0 {
			t.Errorf("supersede row = %+v, want 0 matched", s)
		}
		if len(r.Missed) != 2 || !strings.Contains(r.Missed[0], `keeps "pnpm-lock.md"`) {
			t.Errorf("missed = %q, want the two wrong keeps explained", r.Missed)
		}
	})
	t.Run("MissingFact", func(t *testing.T) {
		p := goodPlan()
		p.Ops[0].Edit.Body = "Use pnpm, not npm."
		r := Score(scoreInput(), p, scoreExpected())
		if m := row(t, r, Merge); m.Matched != 0 {
			t.Errorf("merge row = %+v, want no match", m)
		}
		if len(r.Violations) != 1 || !strings.Contains(r.Violations[0], "lockfile") {
			t.Errorf("violations = %q, want the lost lockfile fact", r.Violations)
		}
	})
	t.Run("EditLeftEmptyKeepsBody", func(t *testing.T) {
		in := scoreInput()
		in.Items[0].Body = "Use pnpm, not npm: npm breaks the lockfile."
		p := goodPlan()
		p.Ops[0].Edit = nil
		r := Score(in, p, scoreExpected())
		if m := row(t, r, Merge); m.Matched != 1 || len(r.Violations) != 0 {
			t.Errorf("merge row = %+v, violations %q; want a match on the kept body", m, r.Violations)
		}
	})
	t.Run("WrongDate", func(t *testing.T) {
		p := goodPlan()
		p.Ops[2].Edit.Body = "Demo on 2026-03-13."
		r := Score(scoreInput(), p, scoreExpected())
		if d := row(t, r, Date); d.Matched != 0 || len(r.Missed) != 1 || !strings.Contains(r.Missed[0], "2026-03-06") {
			t.Errorf("date row = %+v, missed %q; want the wrong date missed", d, r.Missed)
		}
	})
	t.Run("RetiredPinned", func(t *testing.T) {
		p := goodPlan()
		p.Ops = append(p.Ops, Op{Kind: Prune, Files: []string{"owner.md"}})
		e := scoreExpected()
		e.Untouched = nil
		r := Score(scoreInput(), p, e)
		if len(r.Violations) != 1 || !strings.Contains(r.Violations[0], "pinned owner.md") {
			t.Errorf("violations = %q, want the pinned owner.md retired", r.Violations)
		}
		e.Untouched = []string{"owner.md"}
		r = Score(scoreInput(), p, e)
		if len(r.Violations) != 1 || !strings.Contains(r.Violations[0], "pinned owner.md") {
			t.Errorf("violations = %q, want the pinned owner.md retired (pinned wins over untouched)", r.Violations)
		}
	})
	t.Run("ExtraOpLowersPrecision", func(t *testing.T) {
		p := goodPlan()
		p.Ops = append(p.Ops,
			Op{Kind: Expire, Files: []string{"demo.md"}, Retire: []string{"demo.md"}},
			Op{Kind: Kind("rename"), Files: []string{"argo.md"}, Keep: "argo.md"})
		r := Score(scoreInput(), p, scoreExpected())
		if e := row(t, r, Expire); e.Produced != 2 || e.Precision != 0.5 || e.Recall != 1 {
			t.Errorf("expire row = %+v, want precision 0.5, recall 1", e)
		}
		if o := row(t, r, Kind("rename")); o.Produced != 1 || o.Precision != 0 {
			t.Errorf("unlabelled kind row = %+v, want precision 0", o)
		}
		if r.Overall.Produced != 6 || r.Overall.Precision != 4.0/6 {
			t.Errorf("overall = %+v, want 4 of 6", r.Overall)
		}
		if len(r.Extra) != 2 || len(r.Violations) != 0 {
			t.Errorf("extra %q, violations %q; want 2 extra and no violation", r.Extra, r.Violations)
		}
	})
	t.Run("DuplicateOpMatchesOnce", func(t *testing.T) {
		p := goodPlan()
		p.Ops = append(p.Ops, p.Ops[3])
		r := Score(scoreInput(), p, scoreExpected())
		if e := row(t, r, Expire); e.Matched != 1 || e.Produced != 2 {
			t.Errorf("expire row = %+v, want 1 matched of 2", e)
		}
	})
	t.Run("Table", func(t *testing.T) {
		tab := Score(scoreInput(), goodPlan(), scoreExpected()).Table()
		if !strings.Contains(tab, "overall") || strings.Count(tab, "\n") != 8 {
			t.Errorf("table =\n%s\nwant a header, six kinds and overall", tab)
		}
	})
}

// TestScore_Referred: a missed operation counts as referred when the
// plan's candidates for a model join all its files, and only then.
func TestScore_Referred(t *testing.T) {
	in := Input{Items: []Item{{File: "a.md"}, {File: "b.md"}, {File: "c.md"}, {File: "d.md"}}}
	e := Expected{Ops: []ExpectedOp{{Kind: Merge, Files: []string{"a.md", "b.md", "c.md"}}}}
	for _, tc := range []struct {
		name  string
		cands [][]string
		want  int
	}{
		{"joined by two pairs", [][]string{{"b.md", "a.md"}, {"c.md", "b.md"}}, 1},
		{"one file apart", [][]string{{"a.md", "b.md"}, {"c.md", "d.md"}}, 0},
		{"through a file outside", [][]string{{"a.md", "b.md", "d.md"}, {"d.md", "c.md"}}, 0},
		{"one candidate for all", [][]string{{"c.md", "a.md", "b.md"}}, 1},
		{"none", nil, 0},
	} {
		var p Plan
		for _, c := range tc.cands {
			p.LeftForModel = append(p.LeftForModel, Candidate{Kind: Merge, Files: c})
		}
		r := Score(in, p, e)
		if got := row(t, r, Merge).Referred; got != tc.want || r.Overall.Referred != tc.want {
			t.Errorf("%s: referred %d (overall %d), want %d", tc.name, got, r.Overall.Referred, tc.want)
		}
		if got := row(t, r, Merge).Left; got != len(tc.cands) || r.Overall.Left != len(tc.cands) {
			t.Errorf("%s: %d left to a model (overall %d), want %d", tc.name, got, r.Overall.Left, len(tc.cands))
		}
	}
}
