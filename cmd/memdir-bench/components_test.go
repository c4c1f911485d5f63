package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScoreDates: a right rewrite counts, a date where the label wants
// none or another date does not, and every miss is listed.
func TestScoreDates(t *testing.T) {
	wed := time.Date(2026, 5, 27, 10, 0, 0, 0, time.UTC)
	s := scoreDates("tune", []dateItem{
		{ID: "a", Anchor: wed, Text: "the freeze starts next friday", Dates: []string{"2026-05-29"}},
		{ID: "b", Anchor: wed, Text: "the freeze starts next friday", Dates: []string{"2026-06-05"}},
		{ID: "c", Anchor: wed, Text: "we deploy every friday"},
		{ID: "d", Anchor: wed, Text: "the audit starts tomorrow"},
	})
	if s.Dated.N != 1 || s.Dated.Of != 2 || s.Plain.N != 1 || s.Plain.Of != 2 {
		t.Errorf("dated %v, plain %v; want 1/2 and 1/2", s.Dated, s.Plain)
	}
	if len(s.Misses) != 2 || !strings.HasPrefix(s.Misses[0], "b ") || !strings.HasPrefix(s.Misses[1], "d ") {
		t.Errorf("misses %q", s.Misses)
	}
}

// TestScoreRules: a rule with its reason, a rule whose reason the label
// puts elsewhere, and a one-off instruction, each counted where it goes.
func TestScoreRules(t *testing.T) {
	why, other := "it makes them flaky", "the linter"
	s := scoreRules("tune", []ruleItem{
		{ID: "a", Date: "2026-04-14", Text: "never use sleep in tests, it makes them flaky", Rule: []string{"sleep in tests"}, Why: &why},
		{ID: "b", Date: "2026-04-14", Text: "never use sleep in tests, it makes them flaky", Rule: []string{"sleep in tests"}, Why: &other},
		{ID: "c", Date: "2026-04-14", Text: "never use sleep in tests, it makes them flaky", Rule: []string{"sleep in tests"}},
		{ID: "d", Date: "2026-04-14", Text: "make this button pink"},
	})
	if s.Feedback.N != 3 || s.Feedback.Of != 3 || s.Why.N != 2 || s.WhyRight.N != 1 || s.WhyRight.Of != 2 {
		t.Errorf("feedback %v, why %v, why right %v", s.Feedback, s.Why, s.WhyRight)
	}
	if s.WhyFalse.N != 1 || s.WhyFalse.Of != 1 || s.NotRules.N != 0 || s.NotRules.Of != 1 {
		t.Errorf("why false %v, not rules %v", s.WhyFalse, s.NotRules)
	}
}

// TestComponentsCmd runs both commands on a folder of tiny sets, in JSON.
func TestComponentsCmd(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("feedback2.json", `[]`)
	write("facts2.json", `[{"id":"r001","date":"2026-05-27","assistant":"","text":"thanks","expect":[],"forbidden":[],"note":""},
		{"id":"r002","date":"2026-05-27","assistant":"","text":"fwiw I mostly do infra","expect":[],"forbidden":[],"note":""},
		{"id":"r004","date":"2026-05-27","assistant":"","text":"ok","expect":[],"forbidden":[],"note":""}]`)
	write("facts3.json", `[{"id":"u001","date":"2026-05-27","assistant":"","text":"backend person here, mostly go","expect":[{"type":"user","must":["backend person"]}],"forbidden":[],"note":""},
		{"id":"u002","date":"2026-05-27","assistant":"","text":"thanks","expect":[],"forbidden":[],"note":""}]`)
	for _, h := range factHalves {
		if n := laterSet(h); n > "3" {
			write("facts"+n+".json", `[]`) // later labellers' sets, empty here
		}
	}
	for _, h := range dateHalves {
		write("dates."+h+".json", `[{"id":"d1","anchor":"2026-05-27T10:00:00Z","text":"due tomorrow","dates":["2026-05-28"],"note":""}]`)
		write("feedback."+h+".json", `[{"id":"f1","date":"2026-05-27","assistant":"","text":"thanks, looks good","rule":[],"why":null,"note":""}]`)
		write("facts."+h+".json", `[{"id":"p1","date":"2026-05-27","assistant":"","text":"thanks, looks good","expect":[],"forbidden":[],"note":""}]`)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"dates", "--dir", dir, "--json"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var ds []datesScore
	if err := json.Unmarshal(out.Bytes(), &ds); err != nil || len(ds) != 2 || ds[0].Dated.Value != 1 {
		t.Fatalf("dates: %v %s", err, out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"rules", "--dir", dir, "--json", "--half", "heldout"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var rs []rulesScore
	if err := json.Unmarshal(out.Bytes(), &rs); err != nil || len(rs) != 1 || rs[0].Half != "heldout" || rs[0].NotSilent.Of != 1 {
		t.Fatalf("rules: %v %s", err, out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"facts", "--dir", dir, "--json"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var fs []factsScore
	if err := json.Unmarshal(out.Bytes(), &fs); err != nil || len(fs) != len(factHalves) || fs[1].Silent.Value != 1 || fs[2].Half != "tune2" || fs[2].Silent.Of != 1 ||
		fs[3].Silent.Of != 2 || fs[3].Silent.N != 1 || fs[4].Half != "tune3" || fs[4].Recall.Of != 1 || fs[5].Half != "heldout3" || fs[5].Silent.Of != 1 {
		t.Fatalf("facts: %v %s", err, out.String())
	}
	write("dates.tune.json", `[{"id":"d1","when":"x"}]`)
	if err := run(context.Background(), []string{"dates", "--dir", dir}, &out, &out); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("an unknown field: %v", err)
	}
}

// TestScoreFacts: an expected memory matched with its type, one missed,
// a message with nothing to save, and a forbidden phrase found saved.
func TestScoreFacts(t *testing.T) {
	var items []factItem
	if err := json.Unmarshal([]byte(`[
		{"id":"a","date":"2026-04-14","text":"fwiw I mostly do infra","expect":[{"type":"user","must":["infra"]}]},
		{"id":"b","date":"2026-04-14","text":"fwiw I mostly do infra","expect":[{"type":"project","must":["infra"]},{"type":"user","must":["kotlin"]}]},
		{"id":"c","date":"2026-04-14","text":"can you look at the failing test?","expect":[]},
		{"id":"d","date":"2026-04-14","text":"fwiw I mostly do infra","expect":[],"forbidden":["infra"]}
	]`), &items); err != nil {
		t.Fatal(err)
	}
	s := scoreFacts("tune", items)
	if s.Recall.N != 2 || s.Recall.Of != 3 || s.Types["user"].N != 1 || s.Types["user"].Of != 2 || s.Types["project"].N != 0 {
		t.Errorf("recall %v, types %v", s.Recall, s.Types)
	}
	if s.Precision.N != 2 || s.Precision.Of != 3 || s.Silent.N != 1 || s.Silent.Of != 2 || s.Forbidden != 1 {
		t.Errorf("precision %v, silent %v, forbidden %d", s.Precision, s.Silent, s.Forbidden)
	}
}
