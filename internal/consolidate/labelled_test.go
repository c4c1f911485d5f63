package consolidate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/memdir"
)

// The labelled dream set (issue 18): four messy memory folders with the
// plan a careful person would make for each. The tune half may be tuned on;
// the heldout, fresh and fresh2 halves, written with other projects and
// wording (fresh and fresh2 by labellers who never saw the engine), are
// only reported.
var halves = []string{"tune", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30", "fresh31", "fresh32", "fresh33", "fresh34", "fresh35", "fresh36", "fresh37", "fresh38", "fresh39", "fresh40", "fresh41", "fresh42", "fresh43", "fresh44", "fresh45", "fresh46", "fresh47", "fresh48", "fresh49", "fresh50", "fresh51"}

// readHalves are the halves whose misses have been read (and tuned on);
// the test lists no other half's misses.
var readHalves = []string{"tune", "heldout", "fresh", "fresh3", "fresh8", "fresh9", "fresh12", "fresh13", "fresh16", "fresh18", "fresh19", "fresh22", "fresh23", "fresh24", "fresh25", "fresh28", "fresh29", "fresh32", "fresh33", "fresh36", "fresh37", "fresh40", "fresh42", "fresh44", "fresh46", "fresh48", "fresh50"}

// fallbackCreated anchors a memory that has neither created nor updated
// (a Claude Code file without metadata.modified, a hand-written one). The
// store would use the file's mtime, which a checkout does not keep, so the
// set uses a fixed time before every dated memory in it.
var fallbackCreated = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// labelledUsage is a half's usage.json.
type labelledUsage struct {
	Since    time.Time `json:"since"`
	Memories map[string]struct {
		Injected     int       `json:"injected"`
		LastInjected time.Time `json:"last_injected"`
		Helpful      int       `json:"helpful"`
		Wrong        int       `json:"wrong"`
	} `json:"memories"`
}

// labelledHalf is one half of the set, loaded.
type labelledHalf struct {
	in       consolidate.Input
	expected consolidate.Expected
	ccLayout []string // files in Claude Code's layout: a metadata: block, no memdir fields
}

func loadHalf(t *testing.T, half string) labelledHalf {
	t.Helper()
	return loadFolder(t, filepath.Join("testdata", "dream", half))
}

// loadFolder loads a labelled folder: memories/, usage.json, expected.json.
func loadFolder(t *testing.T, dir string) labelledHalf {
	t.Helper()
	var h labelledHalf
	readJSON(t, filepath.Join(dir, "expected.json"), &h.expected)
	var u labelledUsage
	if _, err := os.Stat(filepath.Join(dir, "usage.json")); err == nil {
		readJSON(t, filepath.Join(dir, "usage.json"), &u)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "memories"))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range entries {
		if !strings.HasSuffix(de.Name(), ".md") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "memories", de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := memdir.Parse(de.Name(), b)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		created := m.Created
		if created.IsZero() {
			created = m.Updated
		}
		if created.IsZero() {
			created = fallbackCreated
		}
		it := consolidate.Item{
			File: m.File, Name: m.Name, Description: m.Description, Type: string(m.Type), Scope: m.Scope,
			Body: m.Body, Created: created, Updated: m.Updated, Pinned: m.Pinned,
			SupersededBy: m.SupersededBy, Stale: m.Stale,
			Usage: consolidate.Usage{Since: u.Since},
		}
		if e, ok := u.Memories[m.File]; ok {
			it.Usage.Injected, it.Usage.LastInjected = e.Injected, e.LastInjected
			it.Usage.Helpful, it.Usage.Wrong = e.Helpful, e.Wrong
		}
		h.in.Items = append(h.in.Items, it)
		if bytes.Contains(b, []byte("\nmetadata:\n")) && m.Created.IsZero() && m.Scope == "" {
			h.ccLayout = append(h.ccLayout, m.File)
		}
	}
	h.in.Now = h.expected.Now
	h.in.Index = h.expected.Index
	return h
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// scoreHalf plans a half with the heuristic engine, validates the plan and
// scores it, logging the per-kind table. A retired pinned memory or a lost
// fact fails the test on every half (no plan may do either); a retired
// "untouched" trap — a wrong merge or supersede, which keeps every fact — fails it on the tune half
// only, and is reported on the halves the engine was not tuned on.
func scoreHalf(t *testing.T, half string) consolidate.Report {
	t.Helper()
	h := loadHalf(t, half)
	p := consolidate.Heuristic(h.in)
	if err := consolidate.Validate(h.in, p); err != nil {
		t.Errorf("%s: Validate: %v", half, err)
	}
	r := consolidate.Score(h.in, p, h.expected)
	t.Logf("%s half, %d memories, heuristic engine:\n%s", half, len(h.in.Items), r.Table())
	if slices.Contains(readHalves, half) { // the others' misses are never shown
		for _, m := range r.Missed {
			t.Logf("missed: %s", m)
		}
		for _, x := range r.Extra {
			t.Logf("extra: %s", x)
		}
	}
	wrong := 0
	for _, v := range r.Violations {
		if half != "tune" && strings.Contains(v, " retires untouched ") {
			wrong++
			if slices.Contains(readHalves, half) {
				t.Logf("%s: wrong (an untouched trap): %s", half, v)
			}
			continue
		}
		t.Errorf("%s: violation: %s", half, v)
	}
	if wrong > 0 && !slices.Contains(readHalves, half) {
		t.Logf("%s: %d untouched traps retired (held back: not listed)", half, wrong)
	}
	return r
}

func TestLabelled(t *testing.T) {
	for _, half := range halves {
		t.Run(half, func(t *testing.T) { scoreHalf(t, half) })
	}
}

// TestLabelledSet_Minimums keeps each half at least as rich as issue 18's
// acceptance asks, and its labels consistent with its memories, so the set
// cannot shrink or drift unnoticed.
func TestLabelledSet_Minimums(t *testing.T) {
	for _, half := range halves {
		t.Run(half, func(t *testing.T) { checkMinimums(t, half, loadHalf(t, half)) })
	}
}

// checkMinimums is TestLabelledSet_Minimums for one labelled folder.
func checkMinimums(t *testing.T, half string, h labelledHalf) {
	e := h.expected
	items := map[string]consolidate.Item{}
	for _, it := range h.in.Items {
		items[it.File] = it
	}
	if want := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC); !e.Now.Equal(want) {
		t.Errorf("now = %v, want %v", e.Now, want)
	}
	if len(items) < 32 {
		t.Errorf("%d memories, want at least 32", len(items))
	}

	count := map[consolidate.Kind]int{}
	inOp := map[string]consolidate.Kind{}
	groupsOf3, pinnedKeeps, ccInOps := 0, 0, 0
	for _, op := range e.Ops {
		count[op.Kind]++
		for _, f := range op.Files {
			if _, ok := items[f]; !ok {
				t.Errorf("%s op names %s, which is not in memories/", op.Kind, f)
			}
			if k, ok := inOp[f]; ok {
				t.Errorf("%s is in a %s and a %s op: keep each memory in one", f, k, op.Kind)
			}
			inOp[f] = op.Kind
			if slices.Contains(h.ccLayout, f) {
				ccInOps++
			}
			if e.Notes[f] == "" {
				t.Errorf("%s (%s) has no note", f, op.Kind)
			}
		}
		switch op.Kind {
		case consolidate.Merge:
			if len(op.Files) >= 3 {
				groupsOf3++
			}
			if len(op.Facts) == 0 {
				t.Errorf("merge %v has no facts", op.Files)
			}
			for _, f := range op.Files {
				if items[f].Type != items[op.Files[0]].Type || items[f].Scope != items[op.Files[0]].Scope {
					t.Errorf("merge %v mixes types or scopes", op.Files)
				}
				if items[f].Pinned {
					if !slices.Equal(op.KeepOneOf, []string{f}) {
						t.Errorf("merge %v: pinned %s must be the only keep, keep_one_of = %v", op.Files, f, op.KeepOneOf)
					}
					pinnedKeeps++
				}
			}
		case consolidate.Supersede:
			if len(op.Files) != 2 || !slices.Contains(op.Files, op.Keep) {
				t.Errorf("supersede %v keep %q: want two files, keep one of them", op.Files, op.Keep)
				continue
			}
			for _, f := range op.Files {
				if f != op.Keep && !items[f].Created.Before(items[op.Keep].Created) {
					t.Errorf("supersede %v: keep %s is not the newer", op.Files, op.Keep)
				}
			}
		case consolidate.Date:
			if len(op.Dates) == 0 {
				t.Errorf("date %v has no dates", op.Files)
			}
		}
		if op.Kind != consolidate.Merge && op.Kind != consolidate.Supersede {
			for _, f := range op.Files {
				if items[f].Pinned {
					t.Errorf("%s op on pinned %s", op.Kind, f)
				}
			}
		}
	}
	for _, f := range e.Untouched {
		if _, ok := items[f]; !ok {
			t.Errorf("untouched %s is not in memories/", f)
		}
		if k, ok := inOp[f]; ok {
			t.Errorf("untouched %s is in a %s op", f, k)
		}
		if e.Notes[f] == "" {
			t.Errorf("untouched %s has no note", f)
		}
	}
	untouchedCC, untouchedPinned := 0, 0
	for _, f := range h.ccLayout {
		if slices.Contains(e.Untouched, f) {
			untouchedCC++
		}
	}
	for _, f := range e.Untouched {
		if items[f].Pinned {
			untouchedPinned++
		}
	}

	for _, c := range []struct {
		what     string
		got, min int
	}{
		{"merge ops", count[consolidate.Merge], 4},
		{"merge groups of 3 or more", groupsOf3, 1},
		{"merges whose pinned member must stay", pinnedKeeps, 1},
		{"supersede ops", count[consolidate.Supersede], 4},
		{"date ops", count[consolidate.Date], 4},
		{"expire ops", count[consolidate.Expire], 3},
		{"prune ops", count[consolidate.Prune], 2},
		{"shorten ops", count[consolidate.Shorten], 1},
		{"untouched traps", len(e.Untouched), 6},
		{"pinned traps", untouchedPinned, 1},
		{"Claude Code layout files", len(h.ccLayout), 3},
		{"Claude Code layout files in expected ops", ccInOps, 1},
		{"Claude Code layout files left untouched", untouchedCC, 1},
	} {
		if c.got < c.min {
			t.Errorf("%s: %d, want at least %d", c.what, c.got, c.min)
		}
	}
	t.Logf("%s: %d memories, %v, %d untouched, %d Claude Code layout files", half, len(items), count, len(e.Untouched), len(h.ccLayout))
}

// TestLabelled_CombinedPlanValidates: the four halves in one folder (as
// 'memdir-bench dream --set combined' puts them) make a plan Validate
// passes. One memory that supersedes two older ones was once planned as
// two supersedes keeping it, which Validate refused: 'memdir dream' would
// have failed on that folder.
//
// Under the race detector a third of the halves, every third one, make the
// folder: all of them take minutes there (plain 'go test' plans them all).
func TestLabelled_CombinedPlanValidates(t *testing.T) {
	var in consolidate.Input
	for i, half := range halves {
		if raceBuild && i%3 != 0 {
			continue
		}
		h := loadHalf(t, half)
		in.Items = append(in.Items, h.in.Items...)
		in.Now = h.in.Now
	}
	if err := consolidate.Validate(in, consolidate.Heuristic(in)); err != nil {
		t.Fatal(err)
	}
}

// mergeFolders are the labelled merge folders (testdata/merges): one
// project each, with memories saved twice in other words and look-alikes
// that are two memories. m5, m6, m17 and m18 are held back from the
// sameness model and from reading.
var mergeFolders = []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16", "m17", "m18"}

// On every merge folder the plan validates, retires no pinned memory and
// loses no fact. (The engine before the sameness model made a plan
// Validate refused on five of the twelve, and 'memdir dream' failed.)
func TestMergeFolders(t *testing.T) {
	for _, name := range mergeFolders {
		t.Run(name, func(t *testing.T) {
			h := loadFolder(t, filepath.Join("testdata", "merges", name))
			p := consolidate.Heuristic(h.in)
			if err := consolidate.Validate(h.in, p); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			r := consolidate.Score(h.in, p, h.expected)
			for _, v := range r.Violations {
				if !strings.Contains(v, " retires untouched ") {
					t.Errorf("violation: %s", v)
				}
			}
			for _, k := range r.Kinds {
				if k.Kind == consolidate.Merge {
					t.Logf("%s: merges %d of %d found, %d planned", name, k.Matched, k.Expected, k.Produced)
				}
			}
		})
	}
}

// Each merge folder holds what its labellers were asked for: merges only,
// at least ten, groups of three among them, look-alikes, a note for every
// memory, and facts its memories hold.
func TestMergeFolders_Minimums(t *testing.T) {
	for _, name := range mergeFolders {
		t.Run(name, func(t *testing.T) {
			h := loadFolder(t, filepath.Join("testdata", "merges", name))
			text := map[string]string{}
			for _, it := range h.in.Items {
				text[it.File] = strings.ToLower(it.Name + "\n" + it.Description + "\n" + it.Body)
				if h.expected.Notes[it.File] == "" {
					t.Errorf("%s has no note", it.File)
				}
			}
			triples := 0
			for _, op := range h.expected.Ops {
				if op.Kind != consolidate.Merge {
					t.Errorf("%s op %v: a merge folder holds merges only", op.Kind, op.Files)
				}
				if len(op.Files) >= 3 {
					triples++
				}
				for _, f := range op.Facts {
					if !slices.ContainsFunc(op.Files, func(file string) bool { return strings.Contains(text[file], strings.ToLower(f)) }) {
						t.Errorf("merge %v: fact %q is in none of its memories", op.Files, f)
					}
				}
			}
			if len(h.expected.Ops) < 10 || triples < 2 || len(h.expected.Untouched) < 10 || len(h.in.Items) < 60 {
				t.Errorf("%d memories, %d merges (%d of three), %d look-alikes: want at least 60, 10 (2), 10",
					len(h.in.Items), len(h.expected.Ops), triples, len(h.expected.Untouched))
			}
		})
	}
}
