package consolidate

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// validInput is a folder every case of TestValidate plans on.
func validInput() Input {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) // a Monday
	return Input{Now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), Items: []Item{
		{File: "a.md", Name: "pnpm", Type: "feedback", Body: "Use pnpm for installs.", Created: at},
		{File: "b.md", Name: "pnpm in CI", Type: "feedback", Body: "Use pnpm for installs. CI runs pnpm install --frozen-lockfile.", Created: at.AddDate(0, 0, 1)},
		{File: "c.md", Name: "freeze", Type: "project", Body: "Merge freeze until next Friday.", Created: at},
		{File: "pin.md", Name: "pinned", Type: "project", Body: "Release train every two weeks.", Created: at, Pinned: true},
		{File: "team.md", Name: "pnpm team", Type: "feedback", Scope: "team", Body: "Use pnpm for installs.", Created: at},
		{File: "long.md", Name: "long", Type: "reference", Description: strings.Repeat("word ", 40), Body: "Dashboards.", Created: at},
	}}
}

// validPlan is a plan of every kind that passes Validate.
func validPlan() Plan {
	return Plan{Ops: []Op{
		{ID: "merge:a.md+b.md", Kind: Merge, Files: []string{"a.md", "b.md"}, Keep: "a.md", Retire: []string{"b.md"},
			Edit: &Edit{Body: "Use pnpm for installs.\n\nCI runs pnpm install --frozen-lockfile.\n"}},
		{ID: "date:c.md", Kind: Date, Files: []string{"c.md"}, Keep: "c.md", Edit: &Edit{Body: "Merge freeze until Friday 2026-03-06."}},
		{ID: "prune:long.md", Kind: Prune, Files: []string{"long.md"}, Retire: []string{"long.md"}},
		{ID: "shorten:MEMORY.md", Kind: Shorten, Files: []string{IndexFile}, Keep: IndexFile},
	}}
}

func TestValidate(t *testing.T) {
	if err := Validate(validInput(), validPlan()); err != nil {
		t.Fatalf("the valid plan: %v", err)
	}
	// A copy merged into a read-only memory (the user's global one) that
	// already holds every fact of it: kept unchanged, by any number of ops.
	in, p := validInput(), validPlan()
	in.Items[1].ReadOnly = true
	p.Ops[0] = Op{ID: "merge:a.md+b.md", Kind: Merge, Files: []string{"b.md", "a.md"}, Keep: "b.md", Retire: []string{"a.md"}}
	in.Items = append(in.Items, Item{File: "d.md", Name: "npm", Type: "feedback", Body: "Use npm for installs.", Created: in.Items[0].Created})
	p.Ops = append(p.Ops, Op{ID: "supersede:b.md+d.md", Kind: Supersede, Files: []string{"b.md", "d.md"}, Keep: "b.md", Retire: []string{"d.md"}})
	if err := Validate(in, p); err != nil {
		t.Fatalf("a merge and a supersede into a read-only memory: %v", err)
	}
	// A newer memory that supersedes two older ones: kept, unchanged, by both.
	in, p = validInput(), validPlan()
	in.Items = append(in.Items, Item{File: "d.md", Name: "npm", Type: "feedback", Body: "Use npm for installs.", Created: in.Items[0].Created})
	p.Ops[0] = Op{ID: "supersede:a.md+b.md", Kind: Supersede, Files: []string{"b.md", "a.md"}, Keep: "b.md", Retire: []string{"a.md"}}
	p.Ops = append(p.Ops, Op{ID: "supersede:b.md+d.md", Kind: Supersede, Files: []string{"b.md", "d.md"}, Keep: "b.md", Retire: []string{"d.md"}})
	if err := Validate(in, p); err != nil {
		t.Fatalf("one memory superseding two: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(in *Input, p *Plan)
		want string // in the error
	}{
		{"UnknownFile", func(_ *Input, p *Plan) { p.Ops[2].Files[0], p.Ops[2].Retire[0] = "gone.md", "gone.md" }, "gone.md, which is not in the folder"},
		{"UnknownKind", func(_ *Input, p *Plan) { p.Ops[2].Kind = "delete" }, `unknown kind "delete"`},
		{"PinnedRetired", func(in *Input, _ *Plan) { in.Items[5].Pinned = true }, "long.md, which is pinned"},
		{"RetiredTwice", func(_ *Input, p *Plan) {
			p.Ops = append(p.Ops, Op{ID: "expire:long.md", Kind: Expire, Files: []string{"long.md"}, Retire: []string{"long.md"}})
		}, "long.md is retired twice"},
		{"KeptAndRetired", func(_ *Input, p *Plan) {
			p.Ops = append(p.Ops, Op{ID: "shorten:long.md", Kind: Shorten, Files: []string{"long.md"}, Keep: "long.md", Edit: &Edit{Description: "Dashboards."}})
		}, "long.md is kept here and retired"},
		{"KeepNotInFiles", func(_ *Input, p *Plan) { p.Ops[1].Keep = "a.md" }, "keeps a.md, which is not among its files"},
		{"RetireNotInFiles", func(_ *Input, p *Plan) { p.Ops[2].Retire = []string{"a.md"} }, "retires a.md, which is not among its files"},
		{"MergeOfOne", func(_ *Input, p *Plan) { p.Ops[0].Files, p.Ops[0].Retire = []string{"a.md"}, nil }, "two memories or more"},
		{"MergeAcrossScopes", func(_ *Input, p *Plan) {
			p.Ops[0].Files, p.Ops[0].Retire = []string{"a.md", "team.md"}, []string{"team.md"}
		}, "never across types or scopes"},
		{"MergeAcrossTypes", func(in *Input, _ *Plan) { in.Items[1].Type = "project" }, "never across types or scopes"},
		{"MergeWithoutBody", func(_ *Input, p *Plan) { p.Ops[0].Edit = &Edit{} }, "no merged body"},
		{"MergeLosesAFact", func(_ *Input, p *Plan) { p.Ops[0].Edit.Body = "Use pnpm for installs." }, "loses a fact of b.md"},
		{"MergeBadName", func(_ *Input, p *Plan) { p.Ops[0].Edit.Name = "two\nlines" }, "not one line"},
		{"MergeKeepsNone", func(_ *Input, p *Plan) { p.Ops[0].Retire = nil }, "retires every memory but the one it keeps"},
		{"SupersedeOfThree", func(_ *Input, p *Plan) {
			p.Ops[0] = Op{ID: "supersede:a.md+b.md+team.md", Kind: Supersede, Files: []string{"b.md", "a.md", "team.md"}, Keep: "b.md", Retire: []string{"a.md"}}
		}, "exactly two memories"},
		{"DateRetires", func(_ *Input, p *Plan) { p.Ops[1].Files = []string{"c.md", "a.md"}; p.Ops[1].Retire = []string{"a.md"} }, "names one memory"},
		{"DateChangesAWord", func(_ *Input, p *Plan) { p.Ops[1].Edit.Body = "Merge thaw until Friday 2026-03-06." }, `drops "freeze"`},
		{"DateAddsAWord", func(_ *Input, p *Plan) { p.Ops[1].Edit.Body = "Merge freeze until next Friday, maybe." }, `adds "maybe"`},
		{"PruneKeeps", func(_ *Input, p *Plan) { p.Ops[2].Keep = "long.md" }, "both keeps and retires"},
		{"ExpireRetiresNothing", func(_ *Input, p *Plan) {
			p.Ops[2] = Op{ID: "expire:long.md", Kind: Expire, Files: []string{"long.md"}}
		}, "retires every memory it names"},
		{"ShortenStillLong", func(_ *Input, p *Plan) {
			p.Ops[2] = Op{ID: "shorten:long.md", Kind: Shorten, Files: []string{"long.md"}, Keep: "long.md", Edit: &Edit{Description: strings.Repeat("x", 151)}}
		}, "151 characters, over 150"},
		{"SupersedeEdits", func(_ *Input, p *Plan) {
			p.Ops[0] = Op{ID: "supersede:b.md+a.md", Kind: Supersede, Files: []string{"b.md", "a.md"}, Keep: "b.md", Retire: []string{"a.md"}, Edit: &Edit{Body: "Anything goes."}}
		}, "a supersede edits nothing"},
		{"KeptTwice", func(_ *Input, p *Plan) {
			p.Ops = append(p.Ops, Op{ID: "date:a.md", Kind: Date, Files: []string{"a.md"}, Keep: "a.md", Edit: &Edit{Body: "Use pnpm for installs."}})
		}, "a.md is changed here and by merge:a.md+b.md"},
		{"DateChangesANumber", func(in *Input, p *Plan) {
			in.Items[2].Body = "Staging Postgres on port 5433 from next Monday."
			p.Ops[1].Edit.Body = "Staging Postgres on port 8080 from Monday 2026-03-09."
		}, `drops "5433"`},
		{"MergeDropsANegation", func(in *Input, p *Plan) {
			in.Items[0].Body = "Never push directly to the main branch of the billing repository."
			in.Items[1].Body = "Never push directly to the main branch of the billing repository. CI runs on every pull request."
			p.Ops[0].Edit.Body = "Push directly to the main branch of the billing repository.\n\nCI runs on every pull request.\n"
		}, "turns a fact of a.md around"},
		{"ReadOnlyRetired", func(in *Input, _ *Plan) { in.Items[5].ReadOnly = true }, "long.md, which belongs to another folder"},
		{"ReadOnlyEdited", func(in *Input, _ *Plan) { in.Items[2].ReadOnly = true }, "changes c.md, which belongs to another folder"},
		{"ReadOnlyMergeLosesAFact", func(in *Input, p *Plan) {
			in.Items[0].ReadOnly = true // a.md says less than b.md, which would go
			p.Ops[0].Edit = nil
		}, "loses a fact of b.md"},
		{"ShortenIndexUnknownFile", func(_ *Input, p *Plan) { p.Ops[3].Files = []string{"INDEX.md"}; p.Ops[3].Keep = "INDEX.md" }, "INDEX.md, which is not in the folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, p := validInput(), validPlan()
			tc.edit(&in, &p)
			err := Validate(in, p)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an ErrInvalid saying %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "op ") {
				t.Errorf("%v does not name the operation", err)
			}
		})
	}
}
