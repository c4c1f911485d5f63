// Package patterns finds what recurs across task diaries (issue 15): it
// normalises each lesson line (stems, error signatures, commands, the
// lexicon's concepts), links two lines of two tasks by a learned likeness
// (likeness.go), groups what is linked, and counts the distinct tasks
// behind each group. A
// group seen in at least MinTasks tasks is a pattern with proposals; fewer
// is a candidate, never proposed. It is pure: diaries in, plans out.
package patterns
