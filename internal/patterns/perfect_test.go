package patterns

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFromGroups_PerfectGrouping: given the answer key as a model's
// grouping (every labelled lesson one group, the second side of each
// conflict opposing the first), what memdir does after the model (count
// distinct tasks, split what asks opposite things, name, propose) finds
// every planted pattern of every labelled set, proposes no coincidence
// and no one-off, and reports every planted conflict and no other. A model or an agent that groups right
// loses nothing on memdir's side.
func TestFromGroups_PerfectGrouping(t *testing.T) {
	sets, err := filepath.Glob("testdata/*/labels.json")
	if err != nil || len(sets) < 20 {
		t.Fatalf("%d labelled sets: %v", len(sets), err)
	}
	for _, f := range sets {
		dir := filepath.Dir(f)
		docs, key := loadSet(t, dir)
		lines := Lines(docs)
		var groups []Group
		index := map[string]int{} // label id → group
		for _, ls := range [][]Labelled{key.Patterns, key.Coincidences, key.OneOffs} {
			for _, l := range ls {
				g := Group{Rule: l.Lesson, Opposes: -1}
				for i, line := range lines {
					for _, q := range l.Support {
						if q.Diary == line.Diary && strings.Contains(line.Text, q.Quote) && !slices.Contains(g.Lines, i) {
							g.Lines = append(g.Lines, i)
						}
					}
				}
				slices.Sort(g.Lines)
				if len(g.Rule) > 200 {
					g.Rule = g.Rule[:200]
				}
				index[l.ID] = len(groups)
				groups = append(groups, g)
			}
		}
		// A line two labels claim goes to the first only, as a model
		// must answer (one group per line).
		seen := map[int]bool{}
		for gi := range groups {
			groups[gi].Lines = slices.DeleteFunc(groups[gi].Lines, func(i int) bool { was := seen[i]; seen[i] = true; return was })
		}
		for _, c := range key.Conflicts {
			groups[index[c[1]]].Opposes = index[c[0]]
		}
		res := FromGroups(docs, groups, Options{})
		s := Evaluate(res, key)
		if s.Found != s.Planted || s.Coincidences != 0 || s.OneOffs != 0 {
			t.Errorf("%s: found %d of %d, %d coincidences and %d one-offs proposed", filepath.Base(dir), s.Found, s.Planted, s.Coincidences, s.OneOffs)
		}
		// Every conflict the model marks is reported, and no other: the
		// offline check by words finds none among right groups.
		if s.ConflictsFound != s.ConflictsPlanted || len(res.Conflicts) != s.ConflictsPlanted {
			t.Errorf("%s: %d conflicts reported, %d of the %d planted", filepath.Base(dir), len(res.Conflicts), s.ConflictsFound, s.ConflictsPlanted)
		}
	}
}
