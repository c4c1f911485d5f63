package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
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

// WriteText writes what 'memdir team init' did, and what to commit next.
func (r TeamInitResult) WriteText(w io.Writer, hookAsked bool) error {
	if r.Created {
		fmt.Fprintf(w, "created %s\n", r.Dir)
	} else {
		fmt.Fprintf(w, "%s exists already\n", r.Dir)
	}
	fmt.Fprintf(w, "link: %s\n", r.Link.Line())
	switch {
	case r.Hook != nil && r.Hook.Changed:
		fmt.Fprintf(w, "pre-commit check: %s\n", r.Hook.Path)
	case r.Hook != nil:
		fmt.Fprintf(w, "pre-commit check: %s (already installed)\n", r.Hook.Path)
	case hookAsked:
		fmt.Fprintf(w, "pre-commit check: none without a git repository\n")
	}
	_, err := fmt.Fprintf(w, "next: git add %s && git commit -m 'team memory'\n", paths.TeamFolder)
	return err
}

// WriteText writes what 'memdir team install-hook' (uninstall: with
// --uninstall) did.
func (s TeamHookState) WriteText(w io.Writer, uninstall bool) error {
	switch {
	case uninstall && s.Changed:
		fmt.Fprintf(w, "removed memdir's check from %s\n", s.Path)
	case uninstall:
		fmt.Fprintf(w, "%s holds no memdir check: nothing to remove\n", s.Path)
	case s.Changed:
		fmt.Fprintf(w, "installed: %s runs %s team check --staged\n", s.Path, s.Binary)
	default:
		fmt.Fprintf(w, "already installed in %s\n", s.Path)
	}
	if s.Chained != "" && !uninstall {
		fmt.Fprintf(w, "the hook that was there runs after the check: %s\n", s.Chained)
	}
	return nil
}

// TeamCheckReport is what 'memdir team check' found.
type TeamCheckReport struct {
	Dir      string        `json:"dir"`
	Exists   bool          `json:"exists"`
	Staged   bool          `json:"staged"`
	Problems []TeamFinding `json:"problems"`
}

// TeamCheckRun checks the team folder as it is (TeamCheckAt) or, with
// staged, the versions staged for the next commit (TeamCheckStaged). A
// project without a team folder has nothing to check.
func TeamCheckRun(ctx context.Context, env Env, l paths.Layout, staged bool) (TeamCheckReport, error) {
	r := TeamCheckReport{Dir: l.TeamDir, Exists: true, Staged: staged}
	var err error
	if staged {
		r.Problems, err = TeamCheckStaged(ctx, env, l)
	} else if r.Problems, err = TeamCheckAt(ctx, env, l); errors.Is(err, ErrNoTeam) {
		r.Exists, err = false, nil
	}
	if r.Problems == nil {
		r.Problems = []TeamFinding{}
	}
	return r, err
}

// what names what the report checked.
func (r TeamCheckReport) what() string {
	if r.Staged {
		return "the staged team memories"
	}
	return "the team memories"
}

// Err is the check's failure, with a hint, when it found anything.
func (r TeamCheckReport) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	h := "fix each as its line says, then run 'memdir team check' again"
	if r.Staged {
		h = "fix each as its line says and 'git add' the result, then commit again"
	}
	return hint.With(fmt.Errorf("%s in %s", sessions.Plural(len(r.Problems), "problem"), r.what()), "%s", h)
}

// WriteText writes one line per finding, or that there is nothing to fix.
func (r TeamCheckReport) WriteText(w io.Writer) error {
	switch {
	case !r.Exists:
		fmt.Fprintf(w, "no team folder (%s): nothing to check\n", r.Dir)
	case len(r.Problems) == 0:
		fmt.Fprintf(w, "%s: nothing to fix\n", r.what())
	default:
		WriteFindings(w, r.Problems)
	}
	return nil
}

// WritePreview writes a memory file as share or unshare will write it,
// between two rules.
func WritePreview(w io.Writer, where, text string) {
	fmt.Fprintf(w, "--- %s\n%s", where, text)
	if !strings.HasSuffix(text, "\n") {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "---\n")
}

// WriteText writes what share (unshare: un) did, and what to commit.
func (r ShareResult) WriteText(w io.Writer, un bool) error {
	if un {
		fmt.Fprintf(w, "unshared: %s is private (%s); the team copy is deleted, with tombstone %s\n", r.File, r.Path, r.Tombstone)
		_, err := fmt.Fprintf(w, "next: git add -A %s && git commit\n", paths.TeamFolder)
		return err
	}
	fmt.Fprintf(w, "shared as %s%s (%s)", TeamPrefix, r.File, r.Path)
	if r.MovedTo != "" {
		fmt.Fprintf(w, "; the private copy is kept in %s", r.MovedTo)
	}
	if r.Revived {
		fmt.Fprintf(w, "\nit had been forgotten from the team folder: its tombstone is removed (commit that too)")
	}
	_, err := fmt.Fprintf(w, "\nnext: git add -A %s && git commit (a teammate reviews it in the pull request)\n", paths.TeamFolder)
	return err
}

// WriteTeamSave writes what a save into the team folder did: where it
// went, who added the memory, and that it travels by a commit.
func WriteTeamSave(w io.Writer, res memdir.SaveResult) error {
	verb := "updated"
	if res.Created {
		verb = "saved"
	}
	by := ""
	switch {
	case res.Memory.Author == "":
	case res.Created:
		by = " (by " + res.Memory.Author + ")"
	default:
		// Whoever updates it, the memory stays the one who added it.
		by = " (added by " + res.Memory.Author + ")"
	}
	fmt.Fprintf(w, "%s %s%s%s — commit %s\n", verb, TeamPrefix, res.File, by, paths.TeamFolder)
	if res.Revived {
		fmt.Fprintf(w, "  (it had been forgotten: its tombstone is removed, commit that too)\n")
	}
	return nil
}
