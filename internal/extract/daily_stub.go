package extract

import "github.com/memdir/memdir/internal/learning"

// This file is the heuristic daily summary's contract, written before its
// implementation (daily.go); it is deleted when that lands.

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

// DailySummary writes the day's summary without a model: an extractive,
// compact account (topics from the prompts, decisions and memories the
// heuristic extraction finds, the day's final commits) and learnings from
// what extraction classified, dated the day. Never a transcript dump: the
// rendered file stays under learning.DailyTarget on an ordinary day and
// under learning.DailyMax always.
func DailySummary(in DayInput) learning.Daily { panic("unimplemented") }
