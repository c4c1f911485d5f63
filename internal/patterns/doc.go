// Package patterns finds what recurs across task diaries (issue 15): it
// normalises each lesson line (stems, error signatures, commands, entities),
// groups similar lines, and counts the distinct tasks behind each group. A
// group seen in at least MinTasks tasks is a pattern with proposals; fewer
// is a candidate, never proposed. It is pure: diaries in, plans out.
package patterns
