package patterns

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/textclf"
)

// DefaultMinTasks is how many distinct tasks a lesson must recur in to be
// a pattern: the seed's "3+ tasks".
const DefaultMinTasks = 3

// DefaultThreshold is the average likeness at which two groups of lines
// are one lesson: of the thresholds `go run ./cmd/memdir-bench patterns
// --cv` tries, leaving one tuning set out at a time, the one with the most
// planted patterns found less twice the coincidences proposed (the issue
// asks for none). docs/benchmarks.md has the held-back sets' scores.
const DefaultThreshold = 0.85

// conflictThreshold is the cosine of two patterns' centroids at which
// one that asks to do and one that asks to avoid are about one thing.
const conflictThreshold = 0.175

// Options tune Find.
type Options struct {
	MinTasks  int     // default DefaultMinTasks
	Threshold float64 // default DefaultThreshold
	// Known are the patterns earlier runs recorded: a group made mostly of
	// the lines one of them was seen with keeps its id, whatever its
	// earliest line is now (--since, an edited diary).
	Known []Known
	// Model is the likeness model lines are linked by; nil, the embedded
	// one.
	Model *textclf.Model
}

// Known is a recorded pattern's id and the keys of its lines (LineKey).
type Known struct {
	ID    string
	Lines []string
}

// prepare fills opt's defaults and reads and weighs docs' lines.
func prepare(docs []Doc, opt Options) (Options, []Line, corpus) {
	if opt.MinTasks <= 0 {
		opt.MinTasks = DefaultMinTasks
	}
	if opt.Threshold <= 0 {
		opt.Threshold = DefaultThreshold
	}
	lines := Lines(docs)
	c := weigh(lines, vecWeights)
	return opt, lines, c
}

// Pattern is a lesson that recurs across tasks, with its evidence.
type Pattern struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"` // the line that says it best
	Tasks      []string `json:"tasks"` // distinct diaries, in order
	Projects   []string `json:"projects"`
	Terms      []string `json:"terms"`                // what its lines share
	Signatures []string `json:"signatures,omitempty"` // errors and commands in 2+ of its tasks, the most common first
	FirstSeen  string   `json:"first_seen"`
	LastSeen   string   `json:"last_seen"`
	Support    []Line   `json:"support"`
	// Lines are the keys of its support lines (LineKey), for records.
	Lines []string `json:"-"`
	spare string   // the id of its lines, for when its own is another pattern's
	// Polarity is "do" or "avoid": what most of its lines ask.
	Polarity string `json:"polarity"`
	// Conflict names the pattern that says the opposite, when there is one.
	Conflict  string     `json:"conflict,omitempty"`
	Proposals []Proposal `json:"proposals"` // none for a pattern in a conflict
}

// Conflict is two patterns that ask opposite things, each with its
// evidence.
type Conflict struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Reason string `json:"reason"`
}

// Result is what Find saw in a set of diaries.
type Result struct {
	Diaries    int        `json:"diaries"`
	Lines      int        `json:"lines"`
	MinTasks   int        `json:"min_tasks"`
	Patterns   []Pattern  `json:"patterns"`   // in MinTasks or more tasks
	Candidates []Pattern  `json:"candidates"` // in 2 to MinTasks-1 tasks: listed, never proposed
	Conflicts  []Conflict `json:"conflicts,omitempty"`
}

// Find groups the lesson lines of docs into patterns. Two mentions in one
// task count once. A pattern in a conflict is listed with it and gets no
// proposal until the conflict is settled.
func Find(docs []Doc, opt Options) Result {
	opt, lines, c := prepare(docs, opt)
	res := Result{Diaries: len(docs), Lines: len(lines), MinTasks: opt.MinTasks}
	m := opt.Model
	if m == nil {
		m = likenessModel()
	}
	for _, g := range joinErrors(lines, cluster(lines, c, m, opt.Threshold)) {
		for _, side := range splitPolarity(lines, g, opt.MinTasks) {
			p := makePattern(lines, side, opt.Known)
			switch n := len(p.Tasks); {
			case n >= opt.MinTasks:
				res.Patterns = append(res.Patterns, p)
			case n >= 2:
				res.Candidates = append(res.Candidates, p)
			}
		}
	}
	finish(&res, opt, nil)
	return res
}

// finish finds the conflicts among res's patterns, words the proposals of
// the others (with rules[id] when a model worded one) and orders both
// lists: most tasks first, then the most recently seen.
func finish(res *Result, opt Options, rules map[string]string) {
	// Two groups may claim one recorded id (a pattern split): the first
	// keeps it, the others take their own.
	taken := map[string]bool{}
	for _, ps := range [][]Pattern{res.Patterns, res.Candidates} {
		for i := range ps {
			if taken[ps[i].ID] {
				ps[i].ID = ps[i].spare
			}
			taken[ps[i].ID] = true
		}
	}
	res.Conflicts = append(res.Conflicts, conflicts(res.Patterns, conflictThreshold)...)
	for i := range res.Patterns {
		res.Patterns[i].Proposals = []Proposal{}
		if res.Patterns[i].Conflict == "" {
			res.Patterns[i].Proposals = ProposeWith(res.Patterns[i], rules[res.Patterns[i].ID])
		}
	}
	for i := range res.Candidates {
		res.Candidates[i].Proposals = []Proposal{}
	}
	order := func(a, b Pattern) int {
		if len(a.Tasks) != len(b.Tasks) {
			return len(b.Tasks) - len(a.Tasks)
		}
		return strings.Compare(b.LastSeen, a.LastSeen)
	}
	slices.SortStableFunc(res.Patterns, order)
	slices.SortStableFunc(res.Candidates, order)
}

// avoidRe finds a line that asks not to do something; "never forget" and
// "don't skip" ask to do it.
var (
	avoidRe  = lazyre.New(`(?i)\b(never|don'?t|do not|avoid|stop|shouldn'?t|must not|no longer|not worth|instead of)\b`)
	doubleRe = lazyre.New(`(?i)\b(never|don'?t|do not|must not|shouldn'?t)\s+(forget|skip|omit|miss|leave out|assume)`)
)

func avoids(text string) bool { return avoidRe.MatchString(text) && !doubleRe.MatchString(text) }

// splitPolarity splits a group whose lines ask opposite things, when each
// side alone recurs in MinTasks tasks; otherwise the group stays whole.
func splitPolarity(lines []Line, g []int, minTasks int) [][]int {
	var do, avoid []int
	for _, i := range g {
		if avoids(lines[i].Text) {
			avoid = append(avoid, i)
		} else {
			do = append(do, i)
		}
	}
	if taskCount(lines, do) >= minTasks && taskCount(lines, avoid) >= minTasks {
		return [][]int{do, avoid}
	}
	return [][]int{g}
}

func taskCount(lines []Line, g []int) int {
	seen := map[string]bool{}
	for _, i := range g {
		seen[taskKey(lines[i])] = true
	}
	return len(seen)
}

// taskKey is what makes a task one: its diary, or, for diaries of one
// session about the same task (a draft made again, an agent writing its
// diary twice), the session and the task.
func taskKey(l Line) string {
	if l.Session != "" {
		return "s\x00" + l.Session + "\x00" + strings.Join(strings.Fields(strings.ToLower(l.Task)), " ")
	}
	return "d\x00" + l.Diary
}

// makePattern describes one group of lines.
func makePattern(lines []Line, g []int, known []Known) Pattern {
	var p Pattern
	seenTask, seenProj := map[string]bool{}, map[string]bool{}
	termTasks := map[string]map[string]bool{}
	sigTasks := map[string]map[string]bool{}
	avoidN := 0
	for _, i := range g {
		l := lines[i]
		p.Support = append(p.Support, l)
		if k := taskKey(l); !seenTask[k] {
			seenTask[k] = true
			p.Tasks = append(p.Tasks, l.Diary)
		}
		if l.Project != "" && !seenProj[l.Project] {
			seenProj[l.Project] = true
			p.Projects = append(p.Projects, l.Project)
		}
		if l.Date != "" && (p.FirstSeen == "" || l.Date < p.FirstSeen) {
			p.FirstSeen = l.Date
		}
		if l.Date > p.LastSeen {
			p.LastSeen = l.Date
		}
		for _, t := range terms(l.Text) {
			if termTasks[t] == nil {
				termTasks[t] = map[string]bool{}
			}
			termTasks[t][taskKey(l)] = true
		}
		for _, s := range l.sigs {
			if sigTasks[s] == nil {
				sigTasks[s] = map[string]bool{}
			}
			sigTasks[s][taskKey(l)] = true
		}
		if avoids(l.Text) {
			avoidN++
		}
	}
	slices.Sort(p.Tasks)
	slices.Sort(p.Projects)
	p.Terms = shared(termTasks, 5)
	for s, ts := range sigTasks {
		if len(ts) >= 2 {
			p.Signatures = append(p.Signatures, s)
		}
	}
	// The signature in the most tasks first: the one the proposals use.
	slices.SortFunc(p.Signatures, func(a, b string) int {
		if d := len(sigTasks[b]) - len(sigTasks[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	p.Polarity = "do"
	if avoidN*2 > len(g) {
		p.Polarity = "avoid"
	}
	p.Title = representative(lines, g)
	p.ID = patternID(lines, g)
	for _, i := range g {
		p.Lines = append(p.Lines, LineKey(lines[i]))
	}
	p.spare = contentID(p.Lines)
	if id, ok := knownID(p.ID, p.Lines, known); ok {
		p.ID = id
	}
	return p
}

// knownID is the recorded pattern this group is: the record that shares
// at least half of the group's lines and half of its own (the one sharing
// most). A looser match would hand a recorded id to another lesson that
// borrowed some of its lines. When the group's own id is a record's that
// it does not match so, the group is another lesson and gets an id of its
// lines instead.
func knownID(own string, keys []string, known []Known) (string, bool) {
	best, n := "", 0
	clash := false
	for _, k := range known {
		c := 0
		for _, key := range keys {
			if slices.Contains(k.Lines, key) {
				c++
			}
		}
		matches := c > 0 && 2*c >= len(k.Lines) && 2*c >= len(keys)
		if k.ID == own && matches {
			return own, true // its own record, before any other that matches as well
		}
		if k.ID == own {
			clash = true
		}
		if matches && c > n {
			best, n = k.ID, c
		}
	}
	switch {
	case best != "":
		return best, true
	case clash:
		return contentID(keys), true
	}
	return "", false
}

// contentID names a group by all its lines: the id a group takes when the
// id of its earliest line is another lesson's.
func contentID(keys []string) string {
	sorted := slices.Sorted(slices.Values(keys))
	sum := sha256.Sum256([]byte(strings.Join(sorted, ",")))
	return "p" + hex.EncodeToString(sum[:])[:6]
}

// LineKey names a line across runs: a hash of its diary and its text.
func LineKey(l Line) string {
	sum := sha256.Sum256([]byte(lineKey(l)))
	return hex.EncodeToString(sum[:6])
}

// shared returns up to n terms found in the most tasks (2 at least).
func shared(termTasks map[string]map[string]bool, n int) []string {
	var ts []string
	for t, m := range termTasks {
		if len(m) >= 2 {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b string) int {
		if d := len(termTasks[b]) - len(termTasks[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	if len(ts) > n {
		ts = ts[:n]
	}
	return ts
}

// representative picks the line closest to the rest of its group,
// preferring the sections where writers generalise (patterns discovered,
// mistakes) and lines of a readable length.
func representative(lines []Line, g []int) string {
	prose := slices.ContainsFunc(g, func(i int) bool { return lines[i].Kind != diary.Errors })
	var members []Line
	for _, i := range g {
		members = append(members, lines[i])
	}
	cent := centroid(members)
	// The lines closest to what the group shares are the candidates: a
	// line off its topic does not word its rule, whatever its section.
	closest := 0.0
	for _, i := range g {
		if !prose || lines[i].Kind != diary.Errors {
			closest = max(closest, cosine(lines[i].vec, cent))
		}
	}
	best, bestScore := g[0], -1.0
	for _, i := range g {
		if prose && lines[i].Kind == diary.Errors {
			continue // an error line is evidence, not a rule
		}
		c := cosine(lines[i].vec, cent)
		if c < 0.6*closest {
			continue
		}
		s := (0.5 + c) * lessonKinds[lines[i].Kind]
		if n := len(lines[i].Text); n > 160 || n < 20 {
			s *= 0.8
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return lines[best].Text
}

// patternID names a group by its earliest line, so the name holds while
// later diaries join it (diary names start with their date).
func patternID(lines []Line, g []int) string {
	k := ""
	for _, i := range g {
		if c := lineKey(lines[i]); k == "" || c < k {
			k = c
		}
	}
	sum := sha256.Sum256([]byte(k))
	return "p" + hex.EncodeToString(sum[:])[:6]
}

func lineKey(l Line) string { return l.Diary + "\x00" + l.Text }

// conflicts pairs patterns that ask opposite things about the same
// subject: similar lines, one side asking to do, the other to avoid.
func conflicts(ps []Pattern, threshold float64) []Conflict {
	cent := make([]map[string]float64, len(ps))
	for i, p := range ps {
		cent[i] = centroid(p.Support)
	}
	var out []Conflict
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if ps[i].Polarity == ps[j].Polarity || ps[i].Conflict != "" || ps[j].Conflict != "" {
				continue
			}
			if s := cosine(cent[i], cent[j]); s >= threshold {
				ps[i].Conflict, ps[j].Conflict = ps[j].ID, ps[i].ID
				do, avoid := ps[i], ps[j]
				if do.Polarity != "do" {
					do, avoid = avoid, do
				}
				out = append(out, Conflict{A: ps[i].ID, B: ps[j].ID, Reason: fmt.Sprintf(
					"%s (%d tasks) asks to do what %s (%d tasks) asks to avoid: settle it, then run patterns again",
					do.ID, len(do.Tasks), avoid.ID, len(avoid.Tasks))})
			}
		}
	}
	return out
}

// centroid is the normalised mean of the lines' vectors.
func centroid(ls []Line) map[string]float64 {
	c := map[string]float64{}
	for _, l := range ls {
		for k, x := range l.vec {
			c[k] += x
		}
	}
	n := 0.0
	for _, k := range slices.Sorted(maps.Keys(c)) {
		n += c[k] * c[k]
	}
	if n == 0 {
		return c
	}
	n = 1 / math.Sqrt(n)
	for k := range c {
		c[k] *= n
	}
	return c
}
