package workspace

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteVerify writes rep as 'memdir verify' prints it: a summary line,
// then a line per memory that is stale or renamed or whose mark changed
// (its status, file, reasons and what was written), the fix plan under a
// renamed memory, files that could not be read, and what to run next.
func WriteVerify(w io.Writer, rep VerifyReport) error {
	bw := bufio.NewWriter(w)
	where := rep.Root
	if rep.Git {
		where += " (git)"
	}
	n := fmt.Sprintf("%d memories", len(rep.Memories))
	if len(rep.Memories) == 1 {
		n = "1 memory"
	}
	fmt.Fprintf(bw, "Verified %s against %s: %d fresh, %d stale, %d renamed, %d with nothing to check.\n",
		n, where,
		rep.Counts[VerifyFresh], rep.Counts[VerifyStale], rep.Counts[VerifyRenamed], rep.Counts[VerifyUnchecked])
	renamed := false
	for _, m := range rep.Memories {
		var why []string
		unchecked := 0
		for _, c := range m.Claims {
			switch c.Status {
			case ClaimMissing, ClaimRenamed:
				why = append(why, c.Reason)
			case ClaimUnchecked:
				unchecked++
			}
		}
		if (m.Status == VerifyFresh || m.Status == VerifyUnchecked) && m.Action == "" && m.Error == "" {
			continue
		}
		line := fmt.Sprintf("%-9s %s", m.Status, m.File)
		if len(why) > 0 {
			line += ": " + strings.Join(why, "; ")
		}
		if unchecked > 0 {
			line += fmt.Sprintf(" (%d not checked)", unchecked)
		}
		if m.Action != "" {
			line += " [" + m.Action + "]"
		}
		fmt.Fprintln(bw, line)
		for _, e := range m.Edits {
			fmt.Fprintf(bw, "          fix %s: %s → %s\n", e.Field, e.Old, e.New)
			renamed = renamed || !rep.Fix
		}
		if m.Error != "" {
			fmt.Fprintf(bw, "          not written: %s\n", m.Error)
		}
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(bw, "unreadable %s\n", p)
	}
	switch {
	case rep.DryRun:
		fmt.Fprintln(bw, "Dry run: nothing was written.")
	case renamed:
		fmt.Fprintln(bw, "Run 'memdir verify --fix' to replace the renamed paths.")
	}
	return bw.Flush()
}
