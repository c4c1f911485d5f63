package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
)

// testSetDir is the labelled set, seen from this package's folder.
const testSetDir = "../../" + extractionDir

// TestScoreExtraction_KnownCounts scores a fixed engine on a hand-made set
// whose every figure is counted by hand.
func TestScoreExtraction_KnownCounts(t *testing.T) {
	convs := []Conversation{{
		ID: "a", Date: "2026-11-20", Messages: []benchMessage{{Role: "user", Text: "x"}},
		Expect: []Expected{
			{Type: "feedback", Must: []string{"real database"}, Why: true},             // matched, why line: ok
			{Type: "project", Must: []string{"freeze"}, Date: "2026-11-26", Why: true}, // matched, date ok, no why
			{Type: "reference", Must: []string{"linear", "ingest"}},                    // matched as project: type wrong
			{Type: "user", Must: []string{"data scientist"}},                           // missed
		},
		Forbid: []string{"hunter2", "pink"},
	}, {
		ID: "b", Date: "2026-11-21", Messages: []benchMessage{{Role: "user", Text: "y"}},
		Expect: []Expected{{Type: "project", Must: []string{"audit"}, Date: "2026-12-14"}}, // matched, date wrong
		Forbid: []string{"coffee"},
	}}
	fixed := map[string][]extract.Candidate{
		"a": {
			{Type: "feedback", Name: "Real database in tests", Description: "Integration tests hit a REAL DATABASE", Body: "Rule.\n\n**Why:** burned.\n"},
			{Type: "project", Name: "Merge freeze", Description: "Merge freeze from 2026-11-26", Body: "Freeze.\n"},
			{Type: "project", Name: "Pipeline bugs", Description: "Pipeline bugs are in Linear project INGEST", Body: "x\n"},
			{Type: "feedback", Name: "Make the button pink now please ok", Description: "make the button pink", Body: "x\n"}, // forbidden, unmatched, 7 words
		},
		"b": {
			{Type: "project", Name: "Security audit", Description: "The audit starts on the 14th", Body: "x\n"},
			{Type: "user", Name: "Coffee", Description: "buy coffee", Body: "x\n"}, // forbidden, unmatched
		},
	}
	sc := scoreExtraction("tiny", "fixed", convs, []outcome{{cands: fixed["a"]}, {cands: fixed["b"]}})
	r := func(n, of int) ratio { return newRatio(n, of) }
	checks := []struct {
		name      string
		got, want ratio
	}{
		{"precision", sc.All.Precision, r(4, 6)},
		{"recall", sc.All.Recall, r(4, 5)},
		{"type accuracy", sc.All.TypeAcc, r(3, 4)},
		{"dates", sc.All.Dates, r(1, 2)},
		{"why", sc.All.Why, r(1, 2)},
		{"project precision", sc.Types["project"].Precision, r(3, 3)}, // the INGEST one matched, as the wrong type
		{"feedback precision", sc.Types["feedback"].Precision, r(1, 2)},
		{"user recall", sc.Types["user"].Recall, r(0, 1)},
		{"reference recall", sc.Types["reference"].Recall, r(1, 1)},
		{"reference type accuracy", sc.Types["reference"].TypeAcc, r(0, 1)},
		{"project dates", sc.Types["project"].Dates, r(1, 2)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if sc.All.Expected != 5 || sc.All.Saved != 6 || sc.Forbid != 3 || sc.Conversations != 2 {
		t.Errorf("expected %d saved %d forbid %d conversations %d; want 5 6 3 2", sc.All.Expected, sc.All.Saved, sc.Forbid, sc.Conversations)
	}
	if len(sc.ForbiddenHits) != 2 || sc.ForbiddenHits[0].Phrase != "pink" || sc.ForbiddenHits[1].Phrase != "coffee" {
		t.Errorf("forbidden hits %+v; want pink in a, coffee in b", sc.ForbiddenHits)
	}
	if len(sc.LongNames) != 1 || len(sc.Missed) != 1 || len(sc.Extra) != 2 {
		t.Errorf("long names %q, missed %q, unmatched %q; want 1, 1, 2", sc.LongNames, sc.Missed, sc.Extra)
	}
}

// TestScoreExtraction_OneCandidatePerExpected: a candidate holding two
// expected memories' phrases counts for one; the candidate of the expected
// type is preferred.
func TestScoreExtraction_OneCandidatePerExpected(t *testing.T) {
	convs := []Conversation{{ID: "a", Date: "2026-11-20", Messages: []benchMessage{{Role: "user", Text: "x"}},
		Expect: []Expected{{Type: "reference", Must: []string{"grafana"}}, {Type: "reference", Must: []string{"grafana"}}}}}
	sc := scoreExtraction("tiny", "fixed", convs, []outcome{{cands: []extract.Candidate{{Type: "project", Name: "Grafana"}, {Type: "reference", Name: "Grafana board"}}}})
	if sc.All.Recall != newRatio(2, 2) || sc.All.TypeAcc != newRatio(1, 2) || sc.Types["reference"].Precision != newRatio(1, 1) {
		t.Errorf("recall %v type %v reference precision %v; want 2/2, 1/2, 1/1", sc.All.Recall, sc.All.TypeAcc, sc.Types["reference"].Precision)
	}
}

// TestExtractionSet_Size keeps the labelled set from shrinking silently
// (issue 17: ≥ 40 conversations, ≥ 150 expected memories, ≥ 25 of each
// type, ≥ 80 forbidden items), and both halves alike in size.
func TestExtractionSet_Size(t *testing.T) {
	total, forbid := 0, 0
	perType := map[string]int{}
	var convs int
	for _, set := range []string{"tune", "heldout"} {
		cs, err := loadExtractionSet(testSetDir, set)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) < 20 {
			t.Errorf("%s: %d conversations; want ≥ 20 in each half", set, len(cs))
		}
		convs += len(cs)
		ids := map[string]bool{}
		for _, c := range cs {
			if ids[c.ID] {
				t.Errorf("%s: conversation id %s twice", set, c.ID)
			}
			ids[c.ID] = true
			for _, e := range c.Expect {
				perType[e.Type]++
				total++
			}
			forbid += len(c.Forbid)
		}
	}
	if convs < 40 || total < 150 || forbid < 80 {
		t.Errorf("%d conversations, %d expected, %d forbidden; want ≥ 40, ≥ 150, ≥ 80", convs, total, forbid)
	}
	for _, typ := range memoryTypes {
		if perType[typ] < 25 {
			t.Errorf("%d expected %s memories; want ≥ 25", perType[typ], typ)
		}
	}
}

// TestExtraction_Command runs the heuristic engine on the whole set.
func TestExtraction_Command(t *testing.T) {
	out, err := runBench(t, "extraction", "--dir", testSetDir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var scores []extractionScore
	if err := json.Unmarshal([]byte(out), &scores); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(scores) != 3 || scores[0].Set != "tune" || scores[1].Set != "heldout" || scores[2].Set != "all" {
		t.Fatalf("got %d scores: want tune, heldout, all", len(scores))
	}
	if all := scores[2]; all.All.Expected != scores[0].All.Expected+scores[1].All.Expected || all.All.Saved == 0 {
		t.Errorf("all: %+v", all.All)
	}
	text, err := runBench(t, "extraction", "--dir", testSetDir, "--set", "heldout", "--verbose")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"set heldout, engine heuristic", "precision", "forbidden hits", "missed"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

func TestExtraction_Refusals(t *testing.T) {
	for _, args := range [][]string{
		{"extraction", "--dir", testSetDir, "--engine", "nope"},
		{"extraction", "--dir", testSetDir, "--set", "train"},
		{"extraction", "--dir", t.TempDir()},
	} {
		if _, err := runBench(t, args...); err == nil || hint.Of(err) == "" {
			t.Errorf("%q: err %v; want an error with a hint", args, err)
		}
	}
}
