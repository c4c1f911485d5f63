package patterns

import (
	"fmt"
	"slices"
	"strings"
)

// Labels is a labelled set's answer key (internal/patterns/testdata/*/
// labels.json): planted patterns (3 to 7 tasks), coincidences (exactly 2),
// one-offs (1), and the conflicting pairs among the planted patterns.
type Labels struct {
	Projects     []string    `json:"projects"`
	Patterns     []Labelled  `json:"patterns"`
	Coincidences []Labelled  `json:"coincidences"`
	OneOffs      []Labelled  `json:"one_offs"`
	Conflicts    [][2]string `json:"conflicts"`
}

// Labelled is one lesson of the key and the lines that say it.
type Labelled struct {
	ID      string  `json:"id"`
	Lesson  string  `json:"lesson"`
	Support []Quote `json:"support"`
}

// Quote is a part of one line of one diary.
type Quote struct {
	Diary string `json:"diary"`
	Quote string `json:"quote"`
}

// Score is how a Result does against a key.
type Score struct {
	Planted            int      `json:"planted"`
	Found              int      `json:"found"`        // a pattern mostly of its lines, tasks F1 >= 0.8
	Exact              int      `json:"exact"`        // ... with exactly its tasks
	Recall             float64  `json:"recall"`       // Found / Planted
	Proposed           int      `json:"proposed"`     // patterns Find reported
	Spurious           int      `json:"spurious"`     // patterns mostly of unlabelled lines
	Coincidences       int      `json:"coincidences"` // coincidences proposed as a pattern
	OneOffs            int      `json:"one_offs"`     // one-offs proposed as a pattern
	Precision          float64  `json:"precision"`    // patterns that are a planted one / Proposed
	ConflictsPlanted   int      `json:"conflicts_planted"`
	ConflictsFound     int      `json:"conflicts_found"`
	Missed             []string `json:"missed,omitempty"`
	ProposedCoincident []string `json:"proposed_coincidences,omitempty"`
	ProposedOneOff     []string `json:"proposed_one_offs,omitempty"`
	Notes              []string `json:"notes,omitempty"`
}

// Evaluate scores res against key. Each pattern of res is given the label
// that owns most of its lines (by distinct task); a planted pattern is
// found when a pattern with its label covers its tasks with an F1 of at
// least 0.8 (Exact counts the identical ones).
func Evaluate(res Result, key Labels) Score {
	owner := map[string]string{} // diary + line → label id
	kinds := map[string]string{}
	for kind, ls := range map[string][]Labelled{"pattern": key.Patterns, "coincidence": key.Coincidences, "one-off": key.OneOffs} {
		for _, l := range ls {
			kinds[l.ID] = kind
		}
	}
	tasksOf := map[string][]string{}
	for _, ls := range [][]Labelled{key.Patterns, key.Coincidences, key.OneOffs} {
		for _, l := range ls {
			for _, q := range l.Support {
				owner[q.Diary+"\x00"+q.Quote] = l.ID
				if !slices.Contains(tasksOf[l.ID], q.Diary) {
					tasksOf[l.ID] = append(tasksOf[l.ID], q.Diary)
				}
			}
		}
	}
	labelOf := func(l Line) string {
		for k, id := range owner {
			d, q, _ := strings.Cut(k, "\x00")
			if d == l.Diary && strings.Contains(l.Text, q) {
				return id
			}
		}
		return ""
	}
	s := Score{Planted: len(key.Patterns), Proposed: len(res.Patterns), ConflictsPlanted: len(key.Conflicts)}
	best := map[string]float64{}
	exact := map[string]bool{}
	byLabel := map[string]string{} // label → pattern id that found it
	for _, p := range res.Patterns {
		votes := map[string]map[string]bool{}
		for _, l := range p.Support {
			id := labelOf(l)
			if votes[id] == nil {
				votes[id] = map[string]bool{}
			}
			votes[id][l.Diary] = true
		}
		// The label behind the most tasks; unlabelled lines (the noise
		// around a lesson) win only with strictly more tasks.
		lab, n := "", 0
		for id, ts := range votes {
			if id != "" && (len(ts) > n || len(ts) == n && (lab == "" || id < lab)) {
				lab, n = id, len(ts)
			}
		}
		if len(votes[""]) > n {
			lab = ""
		}
		switch kinds[lab] {
		case "pattern":
			f := f1(p.Tasks, tasksOf[lab])
			if f > best[lab] {
				best[lab], byLabel[lab] = f, p.ID
			}
			if f == 1 {
				exact[lab] = true
			}
		case "coincidence":
			s.Coincidences++
			s.ProposedCoincident = append(s.ProposedCoincident, lab+" as "+p.ID)
		case "one-off":
			s.OneOffs++
			s.ProposedOneOff = append(s.ProposedOneOff, lab+" as "+p.ID)
		default:
			s.Spurious++
			s.Notes = append(s.Notes, fmt.Sprintf("spurious %s (%d tasks): %s", p.ID, len(p.Tasks), p.Title))
		}
	}
	good := 0
	for _, p := range res.Patterns {
		for _, id := range byLabel {
			if id == p.ID {
				good++
				break
			}
		}
	}
	for _, l := range key.Patterns {
		if best[l.ID] >= 0.8 {
			s.Found++
		} else {
			s.Missed = append(s.Missed, fmt.Sprintf("%s (best F1 %.2f): %s", l.ID, best[l.ID], l.Lesson))
		}
		if exact[l.ID] {
			s.Exact++
		}
	}
	for _, c := range key.Conflicts {
		a, b := byLabel[c[0]], byLabel[c[1]]
		for _, rc := range res.Conflicts {
			if a != "" && b != "" && (rc.A == a && rc.B == b || rc.A == b && rc.B == a) {
				s.ConflictsFound++
			}
		}
	}
	if s.Planted > 0 {
		s.Recall = float64(s.Found) / float64(s.Planted)
	}
	if s.Proposed > 0 {
		s.Precision = float64(good) / float64(s.Proposed)
	}
	return s
}

// f1 compares two task sets.
func f1(got, want []string) float64 {
	if len(got) == 0 || len(want) == 0 {
		return 0
	}
	inter := 0
	for _, g := range got {
		if slices.Contains(want, g) {
			inter++
		}
	}
	return 2 * float64(inter) / float64(len(got)+len(want))
}
