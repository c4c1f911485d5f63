package workspace

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
)

// WriteIndexCheck writes r as 'memdir index --check' prints it: how close
// MEMORY.md is to each cap, then a line per problem found.
func WriteIndexCheck(w io.Writer, r memdir.IndexReport) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "MEMORY.md: %d/%d lines (%.0f%%), %d/%d characters (%.0f%%)\n",
		r.Usage.Lines, memdir.MaxIndexLines, 100*r.Usage.LineRatio,
		r.Usage.Chars, memdir.MaxIndexChars, 100*r.Usage.CharRatio)
	if !r.Exists {
		bw.WriteString("  missing: it will be rebuilt from the files on the next save or 'memdir index'\n")
	}
	for _, f := range r.Dangling {
		fmt.Fprintf(bw, "  dangling: a line points at %s, which does not exist\n", f)
	}
	for _, f := range r.Orphans {
		fmt.Fprintf(bw, "  orphan: %s has no index line\n", f)
	}
	for _, f := range r.Duplicates {
		fmt.Fprintf(bw, "  duplicate: %s is listed more than once\n", f)
	}
	if r.LeftOut > 0 {
		fmt.Fprintf(bw, "  full: %d memories have no line (it holds the most useful; 'memdir list' finds the others)\n", r.LeftOut)
	}
	if r.Loaded.Truncated {
		fmt.Fprintf(bw, "  truncated: %s\n", r.Loaded.Warning)
	} else if warn := r.Usage.Warning(); warn != "" {
		fmt.Fprintf(bw, "  near cap: %s\n", warn)
	}
	return bw.Flush()
}

// WriteRebuild writes res as 'memdir index --rebuild' prints it: what
// changed, and how many memories have no line.
func WriteRebuild(w io.Writer, res memdir.RebuildResult) error {
	bw := bufio.NewWriter(w)
	if !res.Changed {
		bw.WriteString("MEMORY.md is up to date\n")
	} else {
		fmt.Fprintf(bw, "rebuilt MEMORY.md: %d added, %d removed\n", len(res.Added), len(res.Removed))
	}
	if res.LeftOut > 0 {
		fmt.Fprintf(bw, "%d of the memories have no line: MEMORY.md holds the most useful (at most %d lines); 'memdir list' and 'memdir recall QUERY' find the others\n",
			res.LeftOut, memdir.IndexBudgetLines)
	}
	return bw.Flush()
}

// RebuildProblem is the error of a rebuild that could not read some memory
// files (their lines were kept), with what to do; nil when it read them
// all.
func RebuildProblem(res memdir.RebuildResult) error {
	if len(res.Skipped) == 0 {
		return nil
	}
	return hint.With(fmt.Errorf("%s could not be read; their index lines were kept: %s", sessions.Plural(len(res.Skipped), "memory file"), strings.Join(res.Skipped, ", ")),
		"'memdir doctor' says why; fix them ('memdir edit NAME'), then run 'memdir index --rebuild' again")
}
