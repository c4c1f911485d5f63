package workspace

import (
	"fmt"
	"io"
	"strings"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/sessions"
)

// WriteText writes the team folder's status as 'memdir team' prints it.
func (s TeamStatus) WriteText(w io.Writer) error {
	if !s.Exists {
		fmt.Fprintf(w, "team folder: %s (none yet: 'memdir team init' starts one)\n", s.Dir)
	} else {
		fmt.Fprintf(w, "team folder: %s (%s, %s)\n", s.Dir, MemoriesN(s.Memories), sessions.Plural(s.Tombstones, "tombstone"))
	}
	fmt.Fprintf(w, "author:      %s (MEMDIR_AUTHOR, else git's user.name)\n", s.Author)
	fmt.Fprintf(w, "link:        %s\n", s.Link.Line())
	switch {
	case !s.Git:
		fmt.Fprintf(w, "hook:        not a git repository: the team folder is shared with no one until it is committed\n")
	case s.Hook != nil && s.Hook.Missing:
		fmt.Fprintf(w, "hook:        pre-commit check installed (%s), but it calls %s, which is gone ('memdir team install-hook' again)\n", s.Hook.Path, s.Hook.Binary)
	case s.Hook != nil && s.Hook.Installed:
		fmt.Fprintf(w, "hook:        pre-commit check installed (%s)\n", s.Hook.Path)
	default:
		fmt.Fprintf(w, "hook:        no pre-commit check ('memdir team install-hook')\n")
	}
	if !s.Exists {
		return nil
	}
	if len(s.Problems) == 0 {
		fmt.Fprintf(w, "problems:    none\n")
		return nil
	}
	fmt.Fprintf(w, "problems:    %d\n", len(s.Problems))
	WriteFindings(w, s.Problems)
	return nil
}

// WriteFindings writes one line per finding: its kind, then the finding.
func WriteFindings(w io.Writer, fs []TeamFinding) {
	for _, f := range fs {
		fmt.Fprintf(w, "%-10s %s\n", f.Kind, f.Line())
	}
}

// WriteText writes a resolution as 'memdir team resolve' prints it: what
// was settled, or the two sides and the commands that settle them.
func (r TeamResolution) WriteText(w io.Writer) error {
	name := ShellQuote(strings.TrimSuffix(r.File, ".md"))
	if r.Choice != "" {
		fmt.Fprintf(w, "resolved team/%s (--%s)", r.File, r.Choice)
		if r.Staged {
			fmt.Fprintf(w, "; staged: git commit to finish")
		} else {
			fmt.Fprintf(w, "; commit %s when ready", paths.TeamFolder)
		}
		fmt.Fprintf(w, "\n")
		return nil
	}
	if r.Ours != nil {
		fmt.Fprintf(w, "team/%s holds a git merge conflict. The two versions:\n\n", r.File)
		for _, s := range []struct {
			flag string
			side *TeamSide
		}{{"ours", r.Ours}, {"theirs", r.Theirs}} {
			fmt.Fprintf(w, "--%s (%s)", s.flag, s.side.Label)
			if s.side.ChangedBy != "" {
				fmt.Fprintf(w, ", changed by %s", s.side.ChangedBy)
			}
			if s.side.Deleted {
				fmt.Fprintf(w, "\n  deleted the file\n\n")
				continue
			}
			if !s.side.Updated.IsZero() {
				fmt.Fprintf(w, ", updated %s", s.side.Updated.UTC().Format("2006-01-02 15:04"))
			}
			if s.side.Author != "" {
				fmt.Fprintf(w, ", added by %s", s.side.Author)
			}
			fmt.Fprintf(w, "\n")
			if s.side.Error != "" {
				fmt.Fprintf(w, "  does not parse: %s\n", s.side.Error)
			} else {
				fmt.Fprintf(w, "  description: %s\n", s.side.Description)
			}
			for l := range strings.Lines(strings.TrimRight(s.side.Body, "\n") + "\n") {
				fmt.Fprintf(w, "  | %s", l)
			}
			fmt.Fprintf(w, "\n")
		}
		fmt.Fprintf(w, "Settle it with one of:\n")
		for _, c := range []struct {
			flag string
			side *TeamSide
		}{{"ours  ", r.Ours}, {"theirs", r.Theirs}} {
			what := "keep the version of " + c.side.Label
			if c.side.Deleted {
				what = "delete it, as " + c.side.Label + " did"
			}
			fmt.Fprintf(w, "  memdir team resolve %s --%s   %s\n", name, c.flag, what)
		}
		if !r.Ours.Deleted && !r.Theirs.Deleted {
			fmt.Fprintf(w, "  memdir team resolve %s --both     the newer description, the lines of both bodies\n", name)
		}
		return nil
	}
	if t := r.Tombstone; t != nil {
		fmt.Fprintf(w, "team/%s was forgotten", r.File)
		if t.By != "" {
			fmt.Fprintf(w, " by %s", t.By)
		}
		if !t.At.IsZero() {
			fmt.Fprintf(w, " on %s", t.At.UTC().Format("2006-01-02"))
		}
		fmt.Fprintf(w, ", yet it is back (a branch that still had it brought it back).\nSettle it with one of:\n")
		fmt.Fprintf(w, "  memdir team resolve %s --keep   it stays (the tombstone goes)\n", name)
		fmt.Fprintf(w, "  memdir team resolve %s --drop   forget it again\n", name)
	}
	return nil
}
