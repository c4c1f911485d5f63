package extract

import (
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/redact"
)

// reNoiseCommit is a commit that is no change of its own: work in
// progress, a fixup or squash, a merge.
var reNoiseCommit = lazyre.New(`(?i)^(?:wip\b|fixup!|squash!|amend!|merge (?:branch|pull request|remote-tracking|tag|commit|of)\b|merge\b.*\binto\b|tmp\b|temp\b)`)

// dayCommits keeps each project's final commit per logical change (newest
// first; wip, fixups and merges out; an older commit whose subject says
// mostly what a newer one says out), at most three a project and nine in
// all, as `abc1234 - "subject"` lines (with " (project)" on a day of
// several projects), and a key point naming each project's last change.
func dayCommits(byProject map[string][]Commit, multi bool) (lines, points []string) {
	var projects []string
	for p := range byProject {
		projects = append(projects, p)
	}
	projects = sortedSet(projects)
	kept := map[string][]Commit{}
	for _, p := range projects {
		var terms []map[string]bool
		for _, c := range byProject[p] {
			subj := commitSubject(c.Subject)
			hash := strings.TrimSpace(c.Hash)
			if len(hash) > 7 {
				hash = hash[:7]
			}
			if hash == "" || strings.ContainsAny(hash, " \"\n") || len(strings.Fields(subj)) < 2 || reNoiseCommit.MatchString(subj) {
				continue
			}
			if _, found := redact.String(subj); len(found) > 0 || ProseSecret(subj) {
				continue
			}
			ts := termSet(subj)
			same := false
			for _, k := range terms {
				if overlap(k, ts) >= 0.5 || contained(ts, k) >= 0.6 {
					same = true
					break
				}
			}
			if same {
				continue
			}
			terms = append(terms, ts)
			kept[p] = append(kept[p], Commit{Hash: hash, Subject: subj, Time: c.Time})
			if len(kept[p]) == maxCommitsPerProj {
				break
			}
		}
	}
	// Take them in turns across projects, so that a busy project does not
	// crowd out the others, then list them by project.
	take := map[string]int{}
	for total, i := 0, 0; i < maxCommitsPerProj; i++ {
		for _, p := range projects {
			if i < len(kept[p]) && total < maxCommits {
				take[p]++
				total++
			}
		}
	}
	for _, p := range projects {
		for i, c := range kept[p][:take[p]] {
			line := c.Hash + ` - "` + c.Subject + `"` // not %q: a backslash stays one
			if multi {
				line += " (" + p + ")"
			}
			lines = append(lines, line)
			if i == 0 {
				where := ""
				if multi {
					where = " in " + p
				}
				points = append(points, oneLine(fmt.Sprintf("Last change committed%s: %s (%s)", where, c.Subject, c.Hash), maxPointBytes))
			}
		}
	}
	return lines, points
}

// commitSubject is a subject's first line, on one line, at most 100 bytes,
// with double quotes made single (the line quotes it).
func commitSubject(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return oneLine(strings.ReplaceAll(s, `"`, "'"), 100)
}

// contained is the share of a's terms that b has.
func contained(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// estimateSize is the rendered size of d, counted generously: the
// sections in the skill's layout, a blank line between learnings.
func estimateSize(d learning.Daily) int {
	n := len("# \n\n<!-- projects:  -->\n\n## Sessions Summary\n\n\n") + len(d.Date) + len(d.Summary)
	for _, p := range d.Projects {
		n += len(p) + 2
	}
	list := func(heading string, items []string) {
		n += len("## \n\n") + len(heading)
		for _, s := range items {
			n += len(s) + 3
		}
	}
	list("Topics", d.Topics)
	list("Key Points", d.KeyPoints)
	list("Commits", d.Commits)
	list("Files Created", d.FilesCreated)
	n += len("## Learnings\n\n")
	for _, l := range d.Learnings {
		n += len("- **** [/] (): \n\n") + len(l.Title) + len(l.Scope) + len(l.Type) + len(l.Date) + len(l.Description)
		if l.Lesson != "" {
			n += len("  - Lesson: \n") + len(l.Lesson)
		}
		for _, note := range l.Notes {
			n += len(note) + 5
		}
	}
	return n
}

// trim brings d under learning.DailyTarget when caps alone did not: fewer
// topics, key points and commits first, then shorter and fewer learnings
// (keeping four); and always under learning.DailyMax.
func trim(d *learning.Daily) {
	const target = learning.DailyTarget - 256 // room for the renderer's own blank lines
	steps := []func(){
		func() { d.Topics = capList(d.Topics, 4) },
		func() { d.KeyPoints = capList(d.KeyPoints, 5) },
		func() { d.Commits = capList(d.Commits, 5) },
		func() {
			for i := range d.Learnings {
				d.Learnings[i].Description = oneLine(d.Learnings[i].Description, 100)
				d.Learnings[i].Lesson = oneLine(d.Learnings[i].Lesson, 100)
			}
		},
	}
	for _, step := range steps {
		if estimateSize(*d) <= target {
			return
		}
		step()
	}
	for len(d.Learnings) > 4 && estimateSize(*d) > target {
		d.Learnings = d.Learnings[:len(d.Learnings)-1]
	}
	for len(d.Learnings) > 0 && estimateSize(*d) > learning.DailyMax-1024 {
		d.Learnings = d.Learnings[:len(d.Learnings)-1]
	}
}
