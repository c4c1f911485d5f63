package workspace

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
)

// This file holds the text the CLI prints for the transcripts, extract,
// recall, search and context use cases: the front end only picks the
// writer.

// Days reads each of args as Day does, in order; nil for none.
func (t Transcripts) Days(args []string) ([]string, error) {
	var days []string
	for _, a := range args {
		d, err := t.Day(a)
		if err != nil {
			return nil, err
		}
		days = append(days, d)
	}
	return days, nil
}

// WriteDone writes results as 'memdir transcripts done' prints them: a
// line per day, and where its transcripts were archived (under archive);
// a day with messages still pending is passed to warn.
func WriteDone(w io.Writer, results []DoneResult, archive string, warn func(format string, args ...any)) error {
	for _, r := range results {
		var err error
		if r.Marked == 0 && r.Left == 0 {
			_, err = fmt.Fprintf(w, "Nothing pending on %s.\n", r.Date)
		} else {
			_, err = fmt.Fprintf(w, "Marked %s done: %s.\n", r.Date, sessions.Plural(r.Marked, "message"))
		}
		if err != nil {
			return err
		}
		if len(r.Archived) > 0 {
			if _, err := fmt.Fprintf(w, "Archived %s to %s.\n", sessions.Plural(len(r.Archived), "transcript"), filepath.Join(archive, r.Date)); err != nil {
				return err
			}
		}
		if r.Left > 0 {
			verb := "stay"
			if r.Left == 1 {
				verb = "stays"
			}
			warn("%s of %s arrived after the last extract and %s pending; run 'memdir transcripts extract %s'", sessions.Plural(r.Left, "message"), r.Date, verb, r.Date)
		}
	}
	return nil
}

// WriteProjectsIndex writes what 'memdir transcripts build-index' built:
// the file it wrote, then each project's work days.
func WriteProjectsIndex(w io.Writer, file string, ix sessions.ProjectsIndex) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Built project index: %s\nProjects found: %d\n", file, len(ix.Projects))
	for _, p := range ix.Sorted() {
		fmt.Fprintf(bw, "  %s: %s (%s)\n", p.Name, sessions.Plural(len(p.WorkDays), "work day"), p.OriginalPath)
	}
	return bw.Flush()
}

// WriteKnownProjects writes projects as 'memdir context --list' prints
// them, in Markdown.
func WriteKnownProjects(w io.Writer, projects []KnownProject) error {
	if len(projects) == 0 {
		_, err := io.WriteString(w, "No projects known yet: no transcript under the agent home.\n")
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("## Known Projects\n\n")
	for _, k := range projects {
		fmt.Fprintf(bw, "- **%s** (%s, latest: %s) `%s`\n", k.Name, sessions.Plural(k.WorkDays, "work day"), k.Latest, k.Path)
	}
	return bw.Flush()
}

// PlanLine is a dry run's action: what would be written, and why.
func PlanLine(x extract.Action) string {
	what := fmt.Sprintf("[%s] %s (%s)", x.Memory.Type, x.Memory.Description, x.Reason)
	switch x.Op {
	case extract.Create:
		return "would save " + what
	case extract.Update:
		return "would update " + x.Target + " with " + what
	}
	return "would supersede " + x.Target + " with " + what
}

// WriteText writes r as 'memdir extract' prints it: that the work was
// staged, or (after each planned action, in a dry run) the memories
// saved, updated and superseded.
func (r ExtractResult) WriteText(w io.Writer, dryRun bool) error {
	if r.Staged {
		_, err := fmt.Fprintf(w, "Another extraction is running: staged %d transcript(s) for it.\n", len(r.Targets))
		return err
	}
	bw := bufio.NewWriter(w)
	var saved, updated, superseded []string
	planned := 0
	for _, rep := range r.Reports {
		saved, updated, superseded = append(saved, rep.Saved...), append(updated, rep.Updated...), append(superseded, rep.Superseded...)
		if dryRun {
			for _, x := range rep.Plan {
				fmt.Fprintf(bw, "%s\n", PlanLine(x))
				planned++
			}
		}
	}
	switch {
	case len(saved)+len(updated)+len(superseded)+planned == 0:
		bw.WriteString("Saved no memories.\n")
	case len(saved) == 1:
		fmt.Fprintf(bw, "Saved 1 memory: %s\n", saved[0])
	case len(saved) > 1:
		fmt.Fprintf(bw, "Saved %d memories: %s\n", len(saved), strings.Join(saved, ", "))
	}
	if len(updated) > 0 {
		fmt.Fprintf(bw, "Updated %s\n", strings.Join(updated, ", "))
	}
	if len(superseded) > 0 {
		fmt.Fprintf(bw, "Superseded %s\n", strings.Join(superseded, ", "))
	}
	secrets, kinds := 0, []string(nil)
	for _, rep := range r.Reports {
		for _, x := range rep.Refused {
			fmt.Fprintf(bw, "Refused for the team folder (not saved): %q: %s\n", x.Name, x.Why)
		}
		secrets += rep.Secrets
		for _, k := range rep.SecretKinds {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	if secrets > 0 {
		fmt.Fprintf(bw, "Left out %s holding a potential secret", sessions.Plural(secrets, "sentence"))
		if len(kinds) > 0 {
			fmt.Fprintf(bw, " (%s)", strings.Join(kinds, ", "))
		}
		bw.WriteString(": never saved, not even redacted\n")
	}
	return bw.Flush()
}

// WriteExplain writes r's candidates as 'memdir recall --explain' shows
// them: the query terms, then a table of each candidate's score by field
// and decision, then what was kept.
func (r RecallReport) WriteExplain(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "query terms: %s\n", strings.Join(r.Terms, " "))
	if len(r.Candidates) == 0 {
		bw.WriteString("no memory holds any of them\n")
		return bw.Flush()
	}
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "file\tscore\tname\tdescription\tbody\tcoverage\tdecision\n")
	for _, c := range r.Candidates {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t%s\n", c.File, c.Score,
			c.ByField["name"], c.ByField["description"], c.ByField["body"], c.Coverage, c.Why)
	}
	tw.Flush()
	fmt.Fprintf(bw, "%d of %d candidates kept, %d tokens\n", r.Memories, r.Considered, r.Tokens)
	return bw.Flush()
}

// WriteSearchSummary writes what 'memdir search --transcripts' says on
// stderr after its results: that nothing matched, or, on a terminal
// (verbose), how many results it found in how much, in how long.
func WriteSearchSummary(w io.Writer, s search.Stats, took time.Duration, verbose bool) error {
	mb := fmt.Sprintf("%.1f MB", float64(s.Bytes)/1e6)
	var err error
	switch {
	case s.Results == 0:
		_, err = fmt.Fprintf(w, "No matches in %s (%s).\n", sessions.Plural(s.Files, "transcript"), mb)
	case verbose:
		_, err = fmt.Fprintf(w, "%s in %s (%s) in %s\n", sessions.Plural(s.Results, "result"),
			sessions.Plural(s.Files, "transcript"), mb, took.Round(time.Millisecond))
	}
	return err
}

// WriteMemoryHits writes hits as 'memdir search' prints them, file:line:
// text; when there are none, it says so on errw, with how many of the
// memory files were searched.
func WriteMemoryHits(w, errw io.Writer, hits []MemoryHit, files int) error {
	if len(hits) == 0 {
		_, err := fmt.Fprintf(errw, "No matches in %s.\n", sessions.Plural(files, "memory file"))
		return err
	}
	bw := bufio.NewWriter(w)
	for _, h := range hits {
		fmt.Fprintf(bw, "%s:%d: %s\n", h.File, h.Line, h.Text)
	}
	return bw.Flush()
}
