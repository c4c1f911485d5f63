package patterns

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// StaleDays is how long a recorded pattern may go unseen before it is
// flagged for review: a lesson that stopped recurring may be learnt, or
// its rule may be out of date.
const StaleDays = 90

// RecurAfterApply is how many tasks dated after a pattern was applied make
// it flagged: the rule did not help.
const RecurAfterApply = 2

// Record is what memdir keeps of a pattern across runs (the synthesis
// folder's patterns.json): its support, when it was seen, and what was
// applied from it.
type Record struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Tasks     []string  `json:"tasks"`   // every diary it was seen in, over all runs
	Support   int       `json:"support"` // len(Tasks)
	FirstSeen string    `json:"first_seen"`
	LastSeen  string    `json:"last_seen"`
	Applied   []Applied `json:"applied,omitempty"`
	// Projects are the projects its diaries came from; Lines the keys of
	// the lines it was last seen with (LineKey), which let a later run
	// recognise it though its earliest line changed.
	Projects []string `json:"projects,omitempty"`
	Lines    []string `json:"lines,omitempty"`
}

// maxRecordLines bounds the line keys a record keeps.
const maxRecordLines = 64

// KnownOf returns what Options.Known needs of records.
func KnownOf(records []Record) []Known {
	out := make([]Known, 0, len(records))
	for _, r := range records {
		if len(r.Lines) > 0 {
			out = append(out, Known{ID: r.ID, Lines: r.Lines})
		}
	}
	return out
}

// Scope is what a run read: the projects (nil: every project) and
// whether it read only part of their diaries (--since). A record outside
// it is not flagged for being absent.
type Scope struct {
	Projects []string
	Partial  bool
}

func (sc Scope) covers(r Record) bool {
	if sc.Partial {
		return false
	}
	if sc.Projects == nil {
		return true
	}
	for _, p := range r.Projects {
		if slices.Contains(sc.Projects, p) {
			return true
		}
	}
	return false
}

// Applied is one proposal written to the project.
type Applied struct {
	Kind      string `json:"kind"`           // rule, command or memory
	Path      string `json:"path,omitempty"` // the file written (absolute); a memory's name for a memory
	At        string `json:"at"`             // RFC 3339
	SupportAt int    `json:"support_at"`     // the pattern's task count when applied
	// Created: the file did not exist before (revert removes it).
	Created bool `json:"created,omitempty"`
	// Hash is the sha256 of what memdir wrote (a command file): revert
	// removes the file only while it still holds it.
	Hash string `json:"hash,omitempty"`
	// Backup is the copy of the file taken before (synthesis-relative).
	Backup     string `json:"backup,omitempty"`
	RevertedAt string `json:"reverted_at,omitempty"`
}

// Active reports whether a is applied and not reverted.
func (a Applied) Active() bool { return a.RevertedAt == "" }

// ActiveApplied returns r's applied proposals not reverted.
func (r Record) ActiveApplied() []Applied {
	var out []Applied
	for _, a := range r.Applied {
		if a.Active() {
			out = append(out, a)
		}
	}
	return out
}

// Flag kinds.
const (
	FlagStale     = "stale"     // not seen for StaleDays, or not seen now
	FlagRecurring = "recurring" // applied, and seen again in RecurAfterApply+ tasks after
)

// Flag is a pattern to review, and why.
type Flag struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// Reconcile updates records with what a run found (its patterns; the
// candidates too, for a recorded pattern that shrank) and flags what needs
// a person: a recorded pattern not seen in this run or not seen for
// StaleDays, and an applied one seen in RecurAfterApply or more tasks dated
// after it was applied. A record is never dropped; a new pattern gets one.
// today is the caller's date (YYYY-MM-DD).
func Reconcile(records []Record, res Result, today string, scope Scope) ([]Record, []Flag) {
	out := slices.Clone(records)
	idx := map[string]int{}
	for i, r := range out {
		idx[r.ID] = i
	}
	seen := map[string]bool{}
	for _, p := range res.Patterns {
		seen[p.ID] = true
		i, ok := idx[p.ID]
		if !ok {
			out = append(out, Record{ID: p.ID})
			i = len(out) - 1
			idx[p.ID] = i
		}
		out[i] = observe(out[i], p)
	}
	var flags []Flag
	for _, r := range out {
		applied := len(r.ActiveApplied()) > 0
		if !seen[r.ID] && (!scope.covers(r) || !applied) {
			// A run over other projects or part of the diaries says
			// nothing of it; and a pattern nothing was applied from that
			// the grouping no longer finds is no rule to review.
			continue
		}
		if !seen[r.ID] {
			why := fmt.Sprintf("not found in this run (last seen %s, in %d tasks)", r.LastSeen, r.Support)
			if c, ok := find(res.Candidates, r.ID); ok {
				why = fmt.Sprintf("now in %d tasks only, under the threshold (last seen %s)", len(c.Tasks), r.LastSeen)
			}
			flags = append(flags, Flag{ID: r.ID, Kind: FlagStale, Reason: why + ": review what was applied from it, and revert it if it no longer holds"})
		} else if d := daysBetween(r.LastSeen, today); d >= StaleDays {
			flags = append(flags, Flag{ID: r.ID, Kind: FlagStale, Reason: fmt.Sprintf("not seen for %d days (last %s): review it", d, r.LastSeen)})
		}
		if p, ok := find(res.Patterns, r.ID); ok {
			if f, ok := recurring(r, p); ok {
				flags = append(flags, f)
			}
		}
	}
	return out, flags
}

// observe folds a pattern seen now into its record: tasks by union, so a
// run over fewer diaries (--since, --project) never shrinks it.
func observe(r Record, p Pattern) Record {
	r.Title = p.Title
	tasks := slices.Clone(r.Tasks)
	for _, t := range p.Tasks {
		if !slices.Contains(tasks, t) {
			tasks = append(tasks, t)
		}
	}
	slices.Sort(tasks)
	r.Tasks, r.Support = tasks, len(tasks)
	if p.FirstSeen != "" && (r.FirstSeen == "" || p.FirstSeen < r.FirstSeen) {
		r.FirstSeen = p.FirstSeen
	}
	if p.LastSeen > r.LastSeen {
		r.LastSeen = p.LastSeen
	}
	for _, pr := range p.Projects {
		if !slices.Contains(r.Projects, pr) {
			r.Projects = append(r.Projects, pr)
		}
	}
	slices.Sort(r.Projects)
	r.Lines = slices.Clone(p.Lines)
	if len(r.Lines) > maxRecordLines {
		r.Lines = r.Lines[:maxRecordLines]
	}
	return r
}

// recurring flags an applied pattern seen in RecurAfterApply or more
// tasks dated after the day it was first applied.
func recurring(r Record, p Pattern) (Flag, bool) {
	since := ""
	for _, a := range r.ActiveApplied() {
		if d := datePart(a.At); since == "" || d < since {
			since = d
		}
	}
	if since == "" {
		return Flag{}, false
	}
	after := TasksAfter(p, since)
	if len(after) < RecurAfterApply {
		return Flag{}, false
	}
	return Flag{ID: r.ID, Kind: FlagRecurring, Reason: fmt.Sprintf(
		"applied on %s, and seen again since in %d tasks (%s): the rule did not help; reword it, or make it a command or a test",
		since, len(after), strings.Join(after, ", "))}, true
}

// TasksAfter returns p's diaries dated after day (YYYY-MM-DD), one per
// task (taskKey).
func TasksAfter(p Pattern, day string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range p.Support {
		if k := taskKey(l); l.Date > day && !seen[k] {
			seen[k] = true
			out = append(out, l.Diary)
		}
	}
	slices.Sort(out)
	return out
}

func find(ps []Pattern, id string) (Pattern, bool) {
	for _, p := range ps {
		if p.ID == id {
			return p, true
		}
	}
	return Pattern{}, false
}

func datePart(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return ts
}

// daysBetween counts days from a to b (both YYYY-MM-DD); 0 when either
// does not parse.
func daysBetween(a, b string) int {
	ta, err1 := time.Parse(time.DateOnly, datePart(a))
	tb, err2 := time.Parse(time.DateOnly, datePart(b))
	if err1 != nil || err2 != nil {
		return 0
	}
	return int(tb.Sub(ta).Hours() / 24)
}
