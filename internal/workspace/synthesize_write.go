package workspace

import (
	"fmt"
	"io"

	"github.com/memdir/memdir/internal/learning"
)

// WriteText prints r for a person: each day, what was decided (every
// operation in a dry run, the archived and updated ones otherwise), then
// the skill's one-line result.
func (r SynthesisResult) WriteText(w io.Writer) error {
	switch {
	case r.Migrated && r.DryRun:
		fmt.Fprintf(w, "Would migrate long-term memory (Pinned sections, dates on undated learnings, pins).\n")
	case r.Migrated:
		fmt.Fprintf(w, "Migrated long-term memory (Pinned sections, dates on undated learnings, pins).\n")
	}
	for _, d := range r.Days {
		if d.Error != "" {
			fmt.Fprintf(w, "%s: not summarised: %s\n", d.Date, d.Error)
			continue
		}
		fmt.Fprintf(w, "%s: %s (%.1f KB, %d learnings)\n", d.Date, d.File, float64(d.Bytes)/1024, d.Learnings)
		for _, x := range d.Warnings {
			fmt.Fprintf(w, "  warning: %s\n", x)
		}
	}
	writePlan(w, r.Plan, r.DryRun)
	for _, d := range r.Later {
		fmt.Fprintf(w, "%s is today: left for a later run ('memdir synthesize --date %s' summarises it now).\n", d, d)
	}
	_, err := fmt.Fprintln(w, r.Line())
	return err
}

// WriteText prints c for a person: each operation and its reason.
func (c LongTermChange) WriteText(w io.Writer, none string) error {
	if len(c.Plan) == 0 {
		_, err := fmt.Fprintln(w, none)
		return err
	}
	writePlan(w, c.Plan, true)
	if c.DryRun {
		_, err := fmt.Fprintln(w, "(dry run: nothing written)")
		return err
	}
	return nil
}

// writePlan prints ops, all of them when all is set, else those a person
// should hear of without asking: updates, prunes, archives, pins.
func writePlan(w io.Writer, ops []learning.Op, all bool) {
	for _, op := range ops {
		switch op.Kind {
		case "add", "skip", "migrate":
			if !all {
				continue
			}
		}
		fmt.Fprintf(w, "%-7s %s %q in %s", op.Kind, op.Learning.Scope+"/"+string(op.Learning.Type), op.Learning.Title, op.File)
		if op.Section != "" {
			fmt.Fprintf(w, " (%s)", op.Section)
		}
		fmt.Fprintf(w, ": %s\n", op.Reason)
	}
}
