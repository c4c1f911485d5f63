package workspace

import (
	"fmt"
	"io"
	"strings"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/memdir"
)

// WriteDream prints a dream's plan, and what was applied, for a person.
func WriteDream(w io.Writer, r DreamReport) error {
	ew := &errWriter{w: w}
	ops := r.Plan.Ops
	ew.printf("Dream plan for %s: %d memories", r.Folder, r.Memories)
	if r.Global > 0 {
		ew.printf(" (and %d global user %s, read only)", r.Global, map[bool]string{true: "memory", false: "memories"}[r.Global == 1])
	}
	ew.printf(", %d %s (%s engine).\n", len(ops), plural(len(ops), "operation"), r.Engine)
	for _, p := range r.Problems {
		ew.printf("  left out, unreadable: %s\n", p)
	}
	for _, op := range ops {
		ew.printf("\n%s", op.ID)
		switch {
		case op.Lossless:
			ew.printf("  [sure, loses nothing]")
		case losslessKind(op):
			ew.printf("  [to confirm]")
		default:
			ew.printf("  [may lose something: to confirm]")
		}
		ew.printf("\n")
		switch {
		case op.Keep == consolidate.IndexFile:
		case op.Keep != "" && len(op.Retire) > 0:
			verb := "merged into it, kept as versions"
			if op.Kind == consolidate.Supersede {
				verb = "superseded by it, kept as history"
			}
			ew.printf("  keeps %s; %s: %s\n", op.Keep, verb, strings.Join(op.Retire, ", "))
		case op.Keep != "":
			ew.printf("  changes %s\n", op.Keep)
		default:
			ew.printf("  moves to the archive (.forgotten, 'memdir restore' brings it back): %s\n", strings.Join(op.Retire, ", "))
		}
		if e := op.Edit; e != nil {
			if e.Name != "" {
				ew.printf("  name: %s\n", e.Name)
			}
			if e.Description != "" {
				ew.printf("  description: %s\n", e.Description)
			}
			if e.Body != "" {
				ew.printf("  body: %s\n", cutLine(e.Body, 200))
			}
		}
		ew.printf("  why: %s\n", op.Reason)
		for _, ev := range op.Evidence {
			ew.printf("  evidence: %s\n", cutLine(ev, 200))
		}
	}
	if n := len(r.Plan.LeftForModel); n > 0 {
		ew.printf("\nLeft for a model (%d; '--engine anthropic|openai|claude' judges them):\n", n)
		for _, c := range r.Plan.LeftForModel {
			ew.printf("  %s %s: %s\n", c.Kind, strings.Join(c.Files, ", "), c.Why)
		}
	}
	for _, wn := range r.Warnings {
		ew.printf("warning: %s\n", wn)
	}
	ew.printf("\n")
	switch {
	case r.Batch != nil:
		ew.printf("Applied %d %s as batch %s: %d %s written, %d retired (kept in %s).\n",
			len(r.Applied), plural(len(r.Applied), "operation"), r.Batch.ID, len(r.Batch.Written), plural(len(r.Batch.Written), "file"), len(r.Batch.Retired), memdir.ForgottenDir)
		if r.Batch.Index {
			ew.printf("MEMORY.md changed with it")
			if n := r.Batch.LeftOut; n > 0 {
				ew.printf("; %d %s no line in it (the most useful lines are kept; the others stay files that recall and 'memdir list' find)", n, map[bool]string{true: "memory has", false: "memories have"}[n == 1])
			}
			ew.printf(".\n")
		}
		if len(r.Held) > 0 {
			ew.printf("%d %s not applied (see --json \"held\").\n", len(r.Held), plural(len(r.Held), "operation"))
		}
		ew.printf("Undo with '%s --undo' (or --batch %s).\n", r.Command, r.Batch.ID)
	case len(ops) == 0:
		ew.printf("Nothing to consolidate.\n")
	case len(r.Held) == len(ops) && len(ops) > 0:
		ew.printf("Nothing applied: every operation was held back (see --json \"held\").\n")
	default:
		ew.printf("Nothing written. Apply it with '%s --apply', or some of it with '--apply --only ID'.\n", r.Command)
	}
	return ew.err
}

// WriteDreamAuto prints what an automatic run did.
func WriteDreamAuto(w io.Writer, r DreamAutoResult) error {
	ew := &errWriter{w: w}
	switch {
	case !r.Ran:
		ew.printf("Not due: %s.\n", r.Gate.Why)
	case r.Error != "":
		ew.printf("Consolidation failed: %s\n", r.Error)
	default:
		ew.printf("Consolidated (%s): %d of %d operations applied", r.Gate.Why, len(r.Applied), r.Planned)
		if r.Batch != "" {
			ew.printf(" as batch %s", r.Batch)
		}
		ew.printf("; %d wait for a person ('memdir dream').\n", r.Held)
	}
	return ew.err
}

// WriteUndo prints what an undo put back.
func WriteUndo(w io.Writer, b memdir.BatchInfo) error {
	ew := &errWriter{w: w}
	ew.printf("Batch %s (%s, %s) undone: %d %s put back as they were.\n", b.ID, b.Label, b.Time.Format("2006-01-02 15:04"), len(b.Files), plural(len(b.Files), "file"))
	for _, k := range b.Kept {
		ew.printf("Changed since the batch, kept as a version: %s ('memdir restore' brings it back).\n", k)
	}
	if b.IndexKept > 0 {
		ew.printf("MEMORY.md keeps the %d %s written there since the batch.\n", b.IndexKept, plural(b.IndexKept, "line"))
	}
	return ew.err
}

// oneLine joins s's lines and cuts it to n runes.
func cutLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// errWriter prints until the first error, and keeps it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
