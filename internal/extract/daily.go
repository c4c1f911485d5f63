package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/learning"
)

// Commit is one commit of a project's git log.
type Commit struct {
	Hash    string // abbreviated
	Subject string
	Time    string // RFC 3339, as git prints %cI
}

// DaySession is one session's part of a day, for the daily summary.
type DaySession struct {
	Project  string // the project's name (the one in the projects index)
	Session  string // session id
	Messages []Message
}

// DayInput is everything the heuristic engine reads for one day.
type DayInput struct {
	Date     string // YYYY-MM-DD (local)
	Projects []string
	Sessions []DaySession
	// Commits are each project's commits of the day, newest first.
	Commits map[string][]Commit
	// Known are the learnings already in long-term memory and recent
	// daily summaries: the summary does not repeat them.
	Known []learning.Learning
}

// Caps of the heuristic summary: with them the rendered file stays under
// learning.DailyMax however big the day, and trim brings an ordinary day
// under learning.DailyTarget.
const (
	maxTopics         = 6
	maxKeyPoints      = 8
	maxLearnings      = 8
	maxCommitsPerProj = 3
	maxCommits        = 9
	maxTopicBytes     = 100
	maxPointBytes     = 160
	maxTextBytes      = 150 // a learning's description or lesson
	maxTitleWords     = 6
)

// DailySummary writes the day's summary without a model: an extractive,
// compact account (topics from the prompts, decisions and memories the
// heuristic extraction finds, the day's final commits) and learnings from
// what extraction classified, dated the day. Never a transcript dump: the
// rendered file stays under learning.DailyTarget on an ordinary day and
// under learning.DailyMax always.
//
// It reads only what the user typed: assistant text and tool output are
// never copied, pasted logs and code are left out, and no sentence in which
// the redactor or ProseSecret finds a secret is written. The same input
// gives the same output.
//
// The learnings' types follow what extraction classified:
//
//   - feedback (a rule or a correction): error when it corrects a mistake
//     ("no, …", "that's wrong"), when its reason names a failure ("…,
//     otherwise records leak", "we got burned when…") or when it forbids
//     something ("don't", "never", "avoid") that breaks; best-practice
//     otherwise;
//   - project (a decision, a deadline, a freeze): decision;
//   - reference: command when it points at something to open or run (a
//     URL, a command in backquotes, a dashboard, a runbook, a query);
//     best-practice when it says where work goes (a tracker, a channel);
//   - user (who the user is): a global decision titled "About me: …".
//
// The scope is the session's project, except for user facts and rules
// phrased as general (across projects, everywhere, in general, or an
// "always"/"never" rule about a general tool such as git or bash), which
// are global. A rule from a session without a project is not kept as a
// learning (its scope would be a guess). Extraction has no class for
// data that misbehaves, so the engine reads the user's statements for it
// ("the dates in the export are in UTC", "Dataiku tables have no
// indexes"): data-quirk learnings of the session's project.
//
// Description and lesson: when the user gave a reason, the description is
// the reason and the lesson the rule; otherwise the description is the
// statement and there is no lesson line (it would only repeat it).
//
// The projects tagged are in.Projects and the projects of the day's
// sessions and commits: every learning's scope is global or one of them.
func DailySummary(in DayInput) learning.Daily {
	day := readDay(in)
	d := learning.Daily{Date: in.Date, Projects: day.tagged}
	d.Topics = day.topics()
	learnings, points := day.learnings(in)
	d.Learnings = learnings
	commits, committed := dayCommits(in.Commits, day.multi)
	d.KeyPoints = append(points, committed...)
	d.KeyPoints = capList(d.KeyPoints, maxKeyPoints)
	d.Commits = commits
	d.Summary = day.summary(d.Topics, in.Commits)
	trim(&d)
	printable(&d)
	return d
}

// printable takes control characters (a NUL typed or pasted into a
// prompt) out of every text of d, and drops a learning that still would
// not be written: the summary is checked before it is written, and one bad
// learning must not cost the day.
func printable(d *learning.Daily) {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r == '\t':
				return ' '
			case r < 0x20 || r == 0x7f:
				return -1
			}
			return r
		}, s)
	}
	for _, list := range [][]string{d.Topics, d.KeyPoints, d.Commits, d.FilesCreated} {
		for i := range list {
			list[i] = clean(list[i])
		}
	}
	d.Summary = clean(d.Summary)
	kept := d.Learnings[:0]
	for _, l := range d.Learnings {
		l.Title, l.Description, l.Lesson = clean(l.Title), clean(l.Description), clean(l.Lesson)
		if l.Validate() == nil {
			kept = append(kept, l)
		}
	}
	d.Learnings = kept
}

// sortedSet returns the non-empty names of s, sorted, without repeats.
func sortedSet(s []string) []string {
	var out []string
	for _, p := range s {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func capList(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// summary is the Sessions Summary: the day's figures and its main topics,
// facts only.
func (day *dayRead) summary(topics []string, commits map[string][]Commit) string {
	ncommits := 0
	for _, c := range commits {
		ncommits += len(c)
	}
	where := ""
	if len(day.projects) > 0 {
		where = " in " + joinNames(day.projects)
	}
	sessions := plural(len(day.sessions), "session")
	if day.prompts == 0 {
		s := "No conversation with content"
		if len(day.sessions) > 0 {
			s += ": " + sessions + where + " without a prompt from the user"
		}
		s += "."
		if ncommits > 0 {
			s += " " + capitalize(plural(ncommits, "commit")) + "."
		}
		return s
	}
	figures := plural(day.prompts, "prompt")
	if ncommits > 0 {
		figures += ", " + plural(ncommits, "commit")
	}
	s := fmt.Sprintf("%s%s (%s).", capitalize(sessions), where, figures)
	if len(topics) > 0 {
		main := topics[:min(2, len(topics))]
		label := "Main topic: "
		if len(main) > 1 {
			label = "Main topics: "
		}
		s += " " + label + strings.Join(main, "; ") + "."
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// joinNames reads a list of project names: "a", "a and b", "a, b and c",
// and "5 projects" past four.
func joinNames(names []string) string {
	switch n := len(names); {
	case n == 1:
		return names[0]
	case n > 4:
		return fmt.Sprintf("%d projects", n)
	default:
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
}
