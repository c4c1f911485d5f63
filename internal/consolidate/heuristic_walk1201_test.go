package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// TestHeuristic_SmallFolderMergesOnlyWhatItShares: in a folder too small
// for the words' weights to mean much, two memories that share little
// (a first user's "offsite next week" and "planning next month") are left
// for a model, not merged; a plain duplicate still is.
func TestHeuristic_SmallFolderMergesOnlyWhatItShares(t *testing.T) {
	mk := func(file, name, desc, body string) Item {
		return Item{File: file, Name: name, Description: desc, Body: body, Type: "project", Created: date("2026-11-20")}
	}
	items := []Item{
		mk("planning.md", "Planning", "Planning is next month", "Quarterly planning is next month."),
		mk("offsite.md", "Offsite", "Offsite next week", "The team offsite is next week."),
		mk("deadline.md", "Deadline", "Deadline in 3 days", "The API deadline is in 3 days."),
		mk("demo.md", "Demo", "Demo on Monday", "The demo is on Monday."),
		mk("tabs.md", "Prefer tabs", "Indent Go code with tabs", "Always indent Go code with tabs, never spaces."),
		mk("tabs2.md", "Use tabs for indentation", "Indent Go code with tabs", "Always indent Go code with tabs, never spaces. gofmt does this."),
	}
	p := Heuristic(Input{Now: now, Items: items})
	var merges []string
	for _, op := range p.Ops {
		if op.Kind == Merge {
			merges = append(merges, strings.Join(op.Files, "+"))
		}
	}
	if len(merges) != 1 || !strings.Contains(merges[0], "tabs.md") || !strings.Contains(merges[0], "tabs2.md") {
		t.Errorf("merges %v, want only the two tabs memories", merges)
	}
	left := slices.ContainsFunc(p.LeftForModel, func(c Candidate) bool {
		return slices.Contains(c.Files, "offsite.md") && slices.Contains(c.Files, "planning.md") && strings.Contains(c.Why, "words' weights say little")
	})
	if !left {
		t.Errorf("offsite.md and planning.md are not left for a model: %+v", p.LeftForModel)
	}
}

// TestHeuristic_DatesMonthsQuartersYears: "next month", "next quarter",
// "next year" and "in two months" become the month, quarter or year they
// name, as a date operation that passes the plan's checks; and a merge
// dates the description it keeps.
func TestHeuristic_DatesMonthsQuartersYears(t *testing.T) {
	at := date("2026-11-20")
	items := []Item{
		{File: "planning.md", Name: "Quarterly planning", Description: "Quarterly planning next month", Body: "Quarterly planning is next month.", Type: "project", Created: at},
		{File: "audit.md", Name: "SOC 2 audit", Description: "The SOC 2 audit is next quarter", Body: "The SOC 2 audit starts next quarter.", Type: "project", Created: at},
		{File: "rewrite.md", Name: "Billing rewrite", Description: "Billing rewrite ships next year", Body: "The billing rewrite ships next year.", Type: "project", Created: at},
		{File: "lease.md", Name: "Office lease", Description: "Office lease renewal in two months", Body: "The office lease is up for renewal in two months.", Type: "project", Created: at},
	}
	p := Heuristic(Input{Now: now, Items: items})
	want := map[string]string{"planning.md": "December 2026", "audit.md": "Q1 2027", "rewrite.md": "2027", "lease.md": "January 2027"}
	for _, op := range p.Ops {
		if op.Kind == Date && op.Edit != nil && strings.Contains(op.Edit.Body, want[op.Keep]) && strings.Contains(op.Edit.Description, want[op.Keep]) {
			delete(want, op.Keep)
		}
	}
	if len(want) > 0 {
		t.Errorf("not dated: %v; plan %v", want, reasons(p))
	}
	if err := Validate(Input{Now: now, Items: items}, p); err != nil {
		t.Errorf("the plan does not pass its checks: %v", err)
	}
}

// TestHeuristic_MergeDatesWhatItKeeps: a merge writes the kept memory's
// description and the others' words with their relative dates made
// absolute, as a date operation would have.
func TestHeuristic_MergeDatesWhatItKeeps(t *testing.T) {
	at := date("2026-11-20")
	items := []Item{
		{File: "offsite.md", Name: "Offsite", Description: "Team offsite next week", Body: "The team offsite is next week in Lisbon.", Type: "project", Created: at},
		{File: "offsite2.md", Name: "Offsite in Lisbon", Description: "Offsite in Lisbon next week, all hands", Body: "Next week the whole team goes to the Lisbon offsite.", Type: "project", Created: at},
	}
	p := Heuristic(Input{Now: now, Items: items})
	for _, op := range p.Ops {
		if op.Kind != Merge {
			continue
		}
		if op.Edit == nil || strings.Contains(strings.ToLower(op.Edit.Description+op.Edit.Body), "next week") || !strings.Contains(op.Edit.Description, "2026-11-23") {
			t.Errorf("merge %s writes relative dates: %+v", op.ID, op.Edit)
		}
		return
	}
	t.Fatalf("no merge: %v", reasons(p))
}
