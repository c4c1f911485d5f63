package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/safefile"
)

// Kinds of TeamFinding.
const (
	FindingSecret     = "secret"     // a potential secret in a memory
	FindingConflict   = "conflict"   // git conflict markers in a memory
	FindingInvalid    = "invalid"    // a memory or tombstone that does not parse
	FindingUser       = "user"       // a user memory, which is always private
	FindingTombstoned = "tombstoned" // a memory back despite its tombstone
	FindingStray      = "stray"      // a file that is neither memory, tombstone nor .gitignore
)

// TeamFinding is one problem of a team folder: what 'memdir team check',
// its pre-commit hook and doctor report.
type TeamFinding struct {
	Kind   string   `json:"kind"`
	File   string   `json:"file"` // relative to the team folder, slash-separated
	Detail string   `json:"detail"`
	Labels []string `json:"labels,omitempty"` // the kinds of secret found
	Fix    string   `json:"fix"`              // the command (or step) that fixes it
}

// Line is the finding as one line: file, what, and the fix.
func (f TeamFinding) Line() string {
	return fmt.Sprintf("%s: %s; fix: %s", f.File, f.Detail, f.Fix)
}

// teamName is how a team memory's file is named next to private ones.
func teamName(file string) string { return "team/" + file }

// stem is a file name without .md, as commands take it.
func stem(file string) string { return strings.TrimSuffix(file, ".md") }

// checkTeamMemory checks one memory file's content: conflict markers, a
// content that does not parse, potential secrets (in the raw text when it
// does not parse, so none is missed), a user memory, and a tombstone.
func checkTeamMemory(file string, b []byte, tomb *memdir.Tombstone) []TeamFinding {
	var out []TeamFinding
	raw := func() {
		if labels := rawSecrets(b); len(labels) > 0 {
			out = append(out, TeamFinding{Kind: FindingSecret, File: file, Labels: labels,
				Detail: "potential secret (" + strings.Join(labels, ", ") + ")",
				Fix:    "remove it from the file by hand, then 'git add " + path.Join(paths.TeamFolder, file) + "'"})
		}
	}
	if memdir.HasConflictMarkers(b) {
		out = append(out, TeamFinding{Kind: FindingConflict, File: file,
			Detail: "unresolved git merge conflict (<<<<<<< … >>>>>>> lines)",
			Fix:    "memdir team resolve " + stem(file)})
		raw()
		return out
	}
	m, err := memdir.Parse(file, b)
	if err != nil {
		out = append(out, TeamFinding{Kind: FindingInvalid, File: file, Detail: "does not parse: " + err.Error(),
			Fix: "memdir edit " + teamName(file)})
		raw()
		return out
	}
	if labels := teamSecrets(m, b); len(labels) > 0 {
		out = append(out, TeamFinding{Kind: FindingSecret, File: file, Labels: labels,
			Detail: "potential secret (" + strings.Join(labels, ", ") + "): it would reach every collaborator",
			Fix:    "memdir edit " + teamName(file) + " (say where the secret lives instead), or 'memdir unshare " + stem(file) + "'"})
	}
	if m.Type == memdir.TypeUser {
		out = append(out, TeamFinding{Kind: FindingUser, File: file,
			Detail: "a user memory is about one person and always stays private",
			Fix:    "memdir unshare " + stem(file)})
	}
	if tomb != nil {
		out = append(out, TeamFinding{Kind: FindingTombstoned, File: file,
			Detail: "forgotten" + tombstoneWho(*tomb) + ", yet back (a branch that still had it brought it back)",
			Fix:    "memdir team resolve " + stem(file) + " --keep (or --drop)"})
	}
	return out
}

// tombstoneWho is " by X on D" for a tombstone, as much as it knows.
func tombstoneWho(t memdir.Tombstone) string {
	s := ""
	if t.By != "" {
		s += " by " + t.By
	}
	if !t.At.IsZero() {
		s += " on " + t.At.UTC().Format(time.DateOnly)
	}
	return s
}

// rawSecrets lists the kinds of potential secret in text that is not a
// memory (it does not parse): the same finder the store uses.
func rawSecrets(b []byte) []string {
	_, found := redact.String(string(b))
	var labels []string
	for _, f := range found {
		if !slices.Contains(labels, f.Kind) {
			labels = append(labels, f.Kind)
		}
	}
	return labels
}

// teamSecrets lists the kinds of potential secret in a memory parsed from
// raw: what the store finds in its fields and body, and what the finder
// finds in the raw text (a secret in a frontmatter field memdir does not
// know, "db_password: x", is a key and a value the store scans apart).
func teamSecrets(m memdir.Memory, raw []byte) []string {
	labels := memdir.SecretsIn(m)
	for _, l := range rawSecrets(raw) {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	return labels
}

// ignoredTeamFile reports whether rel (a top-level entry of a team folder)
// is one of the derived and local files its .gitignore keeps out of git.
func ignoredTeamFile(name string) bool {
	switch name {
	case memdir.IndexFile, memdir.CacheDir, memdir.BatchDir, memdir.LockFile, memdir.UsageFile,
		memdir.ConsolidateLock, memdir.ForgottenDir, memdir.TeamIgnore, memdir.TeamAttributes:
		return true
	}
	return atomicfile.IsTemp(name) || strings.Contains(name, ".tmp-")
}

// strayFinding is the finding for a file that has no place in a team folder.
func strayFinding(rel string) TeamFinding {
	return TeamFinding{Kind: FindingStray, File: rel,
		Detail: "neither a memory, a tombstone nor the .gitignore: it would be committed with the team memories",
		Fix:    "move it out of " + paths.TeamFolder + " (or 'git rm --cached " + path.Join(paths.TeamFolder, rel) + "')"}
}

// TeamCheck scans the team folder's files as they are on disk: potential
// secrets, conflict markers, files that do not parse, user memories,
// memories back despite their tombstone, and stray files. Nothing found
// is an empty list.
func (w *Workspace) TeamCheck() ([]TeamFinding, error) {
	t, err := w.Team(false)
	if err != nil {
		return nil, err
	}
	return checkTeamDir(t.Store)
}

// checkTeamDir is TeamCheck on the store of a team folder.
func checkTeamDir(st *memdir.Store) ([]TeamFinding, error) {
	tombs, problems, err := st.Tombstones()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", st.Path(memdir.TombstoneDir), err)
	}
	var out []TeamFinding
	for _, p := range problems {
		out = append(out, TeamFinding{Kind: FindingInvalid, File: memdir.TombstoneDir, Detail: p.Error(),
			Fix: "fix or remove the tombstone by hand"})
	}
	byFile := map[string]*memdir.Tombstone{}
	for i := range tombs {
		byFile[tombs[i].File] = &tombs[i]
	}
	entries, err := os.ReadDir(st.Dir())
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == memdir.TombstoneDir && e.IsDir():
			out = append(out, strayTombstones(st.Path(memdir.TombstoneDir))...)
		case ignoredTeamFile(name):
		case !e.IsDir() && strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, "."):
			b, err := safefile.ReadFile(st.Path(name), memdir.MaxFileSize+1)
			if err != nil {
				out = append(out, TeamFinding{Kind: FindingInvalid, File: name, Detail: err.Error(), Fix: "fix or remove the file"})
				continue
			}
			out = append(out, checkTeamMemory(name, b, byFile[name])...)
		default:
			out = append(out, strayFinding(name))
		}
	}
	return out, nil
}

// strayTombstones reports what in the tombstone folder is no tombstone.
func strayTombstones(dir string) []TeamFinding {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []TeamFinding
	for _, e := range entries {
		rel := memdir.TombstoneDir + "/" + e.Name()
		if e.IsDir() || !memdir.IsTeamFile(rel) {
			if !atomicfile.IsTemp(e.Name()) {
				out = append(out, strayFinding(rel))
			}
		}
	}
	return out
}

// ErrNotGit says the project is not a git repository (or git is missing).
var ErrNotGit = errors.New("not a git repository")

// gitIn runs git in dir with env's environment and returns its stdout.
func gitIn(ctx context.Context, env Env, dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "-c", "core.quotepath=off"}, args...)...)
	cmd.Env = gitEnv(env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// teamPrefix is the team folder's path in the git repository holding the
// project (slash-separated, relative to its top level, with a final /),
// or ErrNotGit.
func teamPrefix(ctx context.Context, env Env, l paths.Layout) (string, error) {
	out, err := gitIn(ctx, env, l.WorkTree, "rev-parse", "--show-prefix")
	if err != nil {
		return "", fmt.Errorf("%s: %w", l.WorkTree, ErrNotGit)
	}
	return strings.TrimSpace(string(out)) + paths.TeamFolder + "/", nil
}

// TeamCheckStaged checks the staged versions of the team folder's files
// (what 'git commit' would record, whatever the working files hold now):
// what TeamCheck checks, on the files the commit adds or changes, with the
// tombstones as staged. It is what the pre-commit hook runs.
func TeamCheckStaged(ctx context.Context, env Env, l paths.Layout) ([]TeamFinding, error) {
	prefix, err := teamPrefix(ctx, env, l)
	if err != nil {
		return nil, hint.With(err, "run 'memdir team check' without --staged, or 'git init' first")
	}
	// Root-relative paths: ':(top)' keeps git from reading them from the
	// current folder.
	out, err := gitIn(ctx, env, l.WorkTree, "diff", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=ACMRT", "--", ":(top)"+prefix)
	if err != nil {
		return nil, err
	}
	changed := splitZ(out)
	if len(changed) == 0 {
		return nil, nil
	}
	// The staged tombstones of the memories this commit changes: one
	// read each, whatever the number of tombstones in the repository.
	tombs := map[string]*memdir.Tombstone{}
	for _, p := range changed {
		rel := strings.TrimPrefix(p, prefix)
		if strings.Contains(rel, "/") || !strings.HasSuffix(rel, ".md") {
			continue
		}
		if b, err := gitIn(ctx, env, l.WorkTree, "show", ":"+prefix+memdir.TombstoneFile(rel)); err == nil {
			t, _ := memdir.ParseTombstone(rel, b)
			tombs[rel] = &t
		}
	}
	var findings []TeamFinding
	for _, p := range changed {
		rel := strings.TrimPrefix(p, prefix)
		name := path.Base(rel)
		switch {
		case strings.HasPrefix(rel, memdir.TombstoneDir+"/"):
			if !memdir.IsTeamFile(rel) {
				findings = append(findings, strayFinding(rel))
			}
		case strings.Contains(rel, "/") || ignoredTeamFile(name) && name != memdir.TeamIgnore && name != memdir.TeamAttributes:
			// Derived files (MEMORY.md, the cache, …) staged anyway, or
			// anything in a subfolder: not memories, not to be committed.
			findings = append(findings, strayFinding(rel))
		case name == memdir.TeamIgnore, name == memdir.TeamAttributes:
		case strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, "."):
			b, err := gitIn(ctx, env, l.WorkTree, "show", ":"+p)
			if err != nil {
				return nil, err
			}
			findings = append(findings, checkTeamMemory(rel, b, tombs[rel])...)
		default:
			findings = append(findings, strayFinding(rel))
		}
	}
	return findings, nil
}

// splitZ splits git's -z output into its paths.
func splitZ(b []byte) []string {
	var out []string
	for p := range strings.SplitSeq(string(b), "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// inGit reports whether the project is inside a git working tree.
func inGit(ctx context.Context, env Env, root string) bool {
	out, err := gitIn(ctx, env, root, "rev-parse", "--is-inside-work-tree")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// gitAdd stages rels (relative to the team folder) in the project's git
// repository, deletions included.
func gitAdd(ctx context.Context, env Env, l paths.Layout, rels ...string) error {
	for _, r := range rels {
		p := filepath.Join(l.TeamDir, filepath.FromSlash(r))
		args := []string{"add", "--", p}
		if !exists(p) {
			// Gone: drop it from the index, if it was ever there.
			args = []string{"rm", "--cached", "--ignore-unmatch", "-q", "--", p}
		}
		if _, err := gitIn(ctx, env, l.WorkTree, args...); err != nil {
			return err
		}
	}
	return nil
}
