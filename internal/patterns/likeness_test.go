package patterns

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/textclf"
)

// TestLikeness_Embedded: the model the engine embeds parses, and it ranks
// two lines of one lesson said in other words above two lines that only
// share a common word.
func TestLikeness_Embedded(t *testing.T) {
	m, err := textclf.Parse(likenessText)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Weights) < 1000 || m.Bias > 0 {
		t.Fatalf("embedded model: bias %.2f, %d weights", m.Bias, len(m.Weights))
	}
	docs := docsOf(diary.Mistakes,
		"Compared the cart's updated_at (stored in UTC) with local time, so carts expired two hours early",
		"Report grouped days in the server's local time zone instead of UTC, shifting totals by a day",
		"Renamed the login page and forgot to update its test",
		"The invoice test timed out on the slow CI runner")
	_, lines, c := prepare(docs, Options{})
	same := likeness(likenessModel(), c, &lines[0], &lines[1])
	other := likeness(likenessModel(), c, &lines[2], &lines[3])
	if same <= other || other >= DefaultThreshold {
		t.Errorf("likeness of one lesson %.2f, of a shared word %.2f (threshold %.2f)", same, other, DefaultThreshold)
	}
}

// TestPairFeatures names what two lines share: words (with how common
// they are and how strong in each line), concepts shared and across,
// fields, signatures, sections (in one order whichever line comes
// first), the project.
func TestPairFeatures(t *testing.T) {
	a := Doc{ID: "a", Entry: diary.Entry{Project: "shop", Date: "2026-01-01"}}
	a.Entry.Add(diary.Errors, "OOMKilled: the worker pod ran out of memory during the UTC export")
	b := Doc{ID: "b", Entry: diary.Entry{Project: "shop", Date: "2026-01-02"}}
	b.Entry.Add(diary.Mistakes, "Pod OOMKilled again; the time zone of the export was wrong too")
	d := Doc{ID: "d", Entry: diary.Entry{Project: "other", Date: "2026-01-03"}}
	d.Entry.Add(diary.Mistakes, "Nothing alike here at all")
	_, lines, c := prepare([]Doc{a, b, d}, Options{})
	f := pairFeatures(c, &lines[0], &lines[1])
	for _, want := range []string{"k:errors|mistakes", "proj:same", "s:pod", "s:export", "sc:out-of-memory", "sc", "ssig"} {
		if !slices.Contains(f, want) {
			t.Errorf("features of a and b lack %q: %v", want, f)
		}
	}
	if g := pairFeatures(c, &lines[1], &lines[0]); !slices.Equal(sorted(f), sorted(g)) {
		t.Errorf("features depend on the order of the lines:\n%v\n%v", f, g)
	}
	f = pairFeatures(c, &lines[0], &lines[2])
	for _, bad := range []string{"proj:same", "sc", "ssig"} {
		if slices.Contains(f, bad) {
			t.Errorf("features of a and d have %q: %v", bad, f)
		}
	}
	if !slices.Contains(f, "ns:0") {
		t.Errorf("a and d share no word, features %v", f)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestPairExamples: one example per two lines of two diaries, positive
// when the key gives both to one lesson; the sides of a conflict are one
// lesson to the model (Find splits them by what they ask).
func TestPairExamples(t *testing.T) {
	docs := docsOf(diary.Patterns,
		"Always mock the payment API in tests", "Mock the payments client in unit tests",
		"Never mock the payment API: test against its sandbox", "Some other line")
	docs[3].Entry.Add(diary.Mistakes, "A second line in the same diary")
	key := Labels{
		Patterns: []Labelled{
			{ID: "P1", Support: []Quote{{Diary: docs[0].ID, Quote: "Always mock"}, {Diary: docs[1].ID, Quote: "payments client"}}},
			{ID: "P2", Support: []Quote{{Diary: docs[2].ID, Quote: "sandbox"}}},
		},
		Conflicts: [][2]string{{"P1", "P2"}},
	}
	ex := PairExamples(docs, key)
	// 5 lines; the two of diary 4 are never paired: 10 - 1 pairs.
	if len(ex) != 9 {
		t.Fatalf("%d examples, want 9", len(ex))
	}
	pos := 0
	for _, e := range ex {
		if e.Positive {
			pos++
		}
	}
	if pos != 3 { // P1×P1, and each P1 line with P2's
		t.Errorf("%d positives, want 3", pos)
	}
}

// TestFind_LinksByModel: Find groups lines by the model it is given: with
// one that knows only that a shared "utc" means one lesson, the three
// diaries that say it are one pattern and the rest none.
func TestFind_LinksByModel(t *testing.T) {
	docs := docsOf(diary.Mistakes,
		"Stored local time instead of UTC in the orders table",
		"The nightly report read timestamps as local, not UTC",
		"Convert to UTC before bucketing signups by day",
		"Stored the cart in the session instead of the database",
		"The nightly report timed out on the big tenant")
	m := &textclf.Model{Bias: -5, Weights: map[string]float64{"s:utc": 10}}
	res := Find(docs, Options{Model: m})
	if len(res.Patterns) != 1 || len(res.Patterns[0].Tasks) != 3 {
		t.Fatalf("patterns %+v", res.Patterns)
	}
	for _, l := range res.Patterns[0].Support {
		if !slices.Contains([]string{docs[0].ID, docs[1].ID, docs[2].ID}, l.Diary) {
			t.Errorf("line of %s in the pattern: %q", l.Diary, l.Text)
		}
	}
	// And without the word's weight nothing links.
	m.Weights = map[string]float64{}
	if res := Find(docs, Options{Model: m}); len(res.Patterns)+len(res.Candidates) != 0 {
		t.Errorf("a model that links nothing made %d patterns and %d candidates", len(res.Patterns), len(res.Candidates))
	}
}

// TestCluster_SameTaskPairsCountNeither: two lines of one task are never
// linked, and their pair does not pull the average of their groups down:
// a task that says a lesson twice joins the group of the tasks that say it
// once each.
func TestCluster_SameTaskPairsCountNeither(t *testing.T) {
	task := []int{0, 0, 1, 2} // lines 0 and 1 are of one diary
	g := []map[int]float64{
		{2: 0.9, 3: 0.9},
		{2: 0.9, 3: 0.9},
		{0: 0.9, 1: 0.9, 3: 0.9},
		{0: 0.9, 1: 0.9, 2: 0.9},
	}
	groups := agglomerate(g, task, 0.8)
	if len(groups) != 1 {
		t.Errorf("agglomerate: %v, want one group", groups)
	}
	// refine keeps line 1 with the others, though line 0 is its task's.
	if r := refine(g, task, [][]int{{0, 2, 3}, {1}}, 0.8); len(r) != 1 {
		t.Errorf("refine: %v, want one group", r)
	}
}

// TestScorer_SameAsFeatures: the scorer the graph uses gives every pair of
// lines of a labelled set the log-odds the model gives their features.
func TestScorer_SameAsFeatures(t *testing.T) {
	for _, set := range []string{"tune", "tune5"} {
		docs, _ := loadSet(t, filepath.Join("testdata", set))
		_, lines, c := prepare(docs, Options{})
		m := likenessModel()
		sc := newScorer(m, c)
		n := 0
		for i := range lines {
			for j := i + 1; j < len(lines); j += 3 {
				want := m.Score(pairFeatures(c, &lines[i], &lines[j]))
				if got := sc.z(c, &lines[i], &lines[j]); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%s: lines %d and %d: scorer %.6f, features %.6f", set, i, j, got, want)
				}
				n++
			}
		}
		if n < 1000 {
			t.Fatalf("%s: only %d pairs compared", set, n)
		}
	}
}

// TestCluster_Deterministic: a tie between two groups goes the same way
// every run (the lowest group), not by map order.
func TestCluster_Deterministic(t *testing.T) {
	task := []int{0, 1, 2}
	g := []map[int]float64{{1: 0.9, 2: 0.9}, {0: 0.9}, {0: 0.9}}
	for range 200 {
		r := refine(g, task, [][]int{{0}, {1}, {2}}, 0.8)
		if len(r) != 2 || !slices.Equal(r[0], []int{0, 1}) {
			t.Fatalf("refine: %v, want [[0 1] [2]]", r)
		}
	}
	// And a cosine sums in one order whatever the maps' order.
	a := map[string]float64{"x": .01, "y": .03, "z": .06, "w": .1, "v": .2}
	b := map[string]float64{"x": 1, "y": 1, "z": 1, "w": 1, "v": 1}
	want := cosine(a, b)
	for range 500 {
		if got := cosine(b, a); got != want {
			t.Fatalf("cosine %v then %v", want, got)
		}
	}
}

// TestFind_Deterministic: one set of diaries gives one result, run after
// run (sums in map order once made a near-tie go either way).
func TestFind_Deterministic(t *testing.T) {
	docs := docsOf(diary.Mistakes,
		"The nightly report read timestamps as local time, not UTC, in the orders table",
		"Stored local time instead of UTC in the orders table, so the nightly report shifted",
		"Forgot to run make migrate before the integration tests, they failed with a missing table",
		"Convert to UTC before bucketing signups by day",
		"The integration tests failed again because I did not run make migrate first")
	docs[3].Entry.Add(diary.Mistakes, "Forgot to run make migrate before the integration tests again")
	docs[4].Entry.Add(diary.Patterns, "Local time in the orders table shifted the nightly report: store UTC")
	first := fmt.Sprintf("%+v", Find(docs, Options{MinTasks: 2}))
	for range 100 {
		if got := fmt.Sprintf("%+v", Find(docs, Options{MinTasks: 2})); got != first {
			t.Fatalf("two runs differ:\n%s\n%s", first, got)
		}
	}
}

// TestPairFeatures_NoProject: two diaries that name no project are not of
// one project.
func TestPairFeatures_NoProject(t *testing.T) {
	docs := docsOf(diary.Mistakes, "Stored local time instead of UTC", "Report read local time, not UTC")
	_, lines, c := prepare(docs, Options{})
	if f := pairFeatures(c, &lines[0], &lines[1]); slices.Contains(f, "proj:same") {
		t.Errorf("features %v", f)
	}
}
