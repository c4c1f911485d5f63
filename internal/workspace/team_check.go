package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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
	FindingLink       = "link"       // a symbolic link: never a memory, never followed
	FindingSetup      = "setup"      // the folder's .gitignore or .gitattributes is missing
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
//
// committed says whether the memory is in the last commit: only then is
// forgetting it (a tombstone) a fix for a secret; one never committed is
// edited.
func checkTeamMemory(file string, b []byte, tomb *memdir.Tombstone, committed bool) []TeamFinding {
	var out []TeamFinding
	raw := func() {
		if labels := rawSecrets(b); len(labels) > 0 {
			out = append(out, TeamFinding{Kind: FindingSecret, File: file, Labels: labels,
				Detail: "potential secret (" + strings.Join(labels, ", ") + ")",
				Fix:    "remove it from the file by hand, then git add " + shq(path.Join(paths.TeamFolder, file))})
		}
	}
	if !utf8.Valid(b) {
		out = append(out, TeamFinding{Kind: FindingInvalid, File: file,
			Detail: "not valid UTF-8 text: it would be pushed to everyone as it is",
			Fix:    "re-save it as UTF-8 (memdir edit " + shq(teamName(file)) + "), or remove it"})
		raw()
		return out
	}
	if memdir.HasConflictMarkers(b) {
		out = append(out, TeamFinding{Kind: FindingConflict, File: file,
			Detail: "unresolved git merge conflict (<<<<<<< … >>>>>>> lines)",
			Fix:    conflictFix(file, true, true)})
		raw()
		return out
	}
	m, err := memdir.Parse(file, b)
	if err != nil {
		out = append(out, TeamFinding{Kind: FindingInvalid, File: file, Detail: "does not parse: " + err.Error(),
			Fix: "memdir edit " + shq(teamName(file))})
		raw()
		return out
	}
	if labels := teamSecrets(m, b); len(labels) > 0 {
		fix := "memdir edit " + shq(teamName(file)) + " (take the secret out; say where it lives instead)"
		if committed {
			fix += ", or memdir forget " + shq(teamName(file)) + "; it is in git's history already: rotate the secret"
		}
		out = append(out, TeamFinding{Kind: FindingSecret, File: file, Labels: labels,
			Detail: "potential secret (" + strings.Join(labels, ", ") + "): it would reach every collaborator",
			Fix:    fix})
	}
	if m.Type == memdir.TypeUser {
		out = append(out, TeamFinding{Kind: FindingUser, File: file,
			Detail: "a user memory is about one person and always stays private",
			Fix:    "memdir unshare " + shq(teamName(file))})
	}
	if tomb != nil {
		out = append(out, TeamFinding{Kind: FindingTombstoned, File: file,
			Detail: "forgotten" + tomb.Who() + ", yet back (a branch that still had it brought it back)",
			Fix:    "memdir team resolve " + shq(stem(file)) + " --keep (or --drop)"})
	}
	return out
}

// conflictFix is the fix of a conflicted memory: the choices 'memdir team
// resolve' takes for it. ours and theirs say whether each side has the
// file; --both joins two versions, so it is offered only when both do.
func conflictFix(file string, ours, theirs bool) string {
	cmd := "memdir team resolve " + shq(stem(file))
	switch {
	case ours && theirs:
		return cmd + " --ours, --theirs or --both (" + cmd + " alone shows the two sides)"
	case ours:
		return cmd + " --ours or --theirs (--theirs deletes it; " + cmd + " alone shows the two sides)"
	default:
		return cmd + " --ours or --theirs (--ours deletes it; " + cmd + " alone shows the two sides)"
	}
}

// unmergedFinding is the finding for a memory git holds unmerged: changed
// on both sides, or changed on one and deleted on the other (modify/delete,
// which leaves no conflict lines in the file). stages are git's index
// stages of it: "2" ours, "3" theirs. onDisk says whether the working file
// is there: 'memdir team resolve' reads it.
func unmergedFinding(file string, stages map[string]bool, onDisk bool) TeamFinding {
	ours, theirs := stages["2"], stages["3"]
	f := TeamFinding{Kind: FindingConflict, File: file, Fix: conflictFix(file, ours, theirs)}
	switch {
	case ours && theirs:
		f.Detail = "unresolved git merge conflict"
	case ours:
		f.Detail = "unresolved git merge conflict: changed here (HEAD), deleted by the side merged in"
	case theirs:
		f.Detail = "unresolved git merge conflict: deleted here (HEAD), changed by the side merged in"
	default:
		f.Detail = "unresolved git merge conflict: deleted on both sides"
	}
	if !onDisk {
		p := shq(path.Join(paths.TeamFolder, file))
		f.Detail += "; the file is gone from the working tree"
		f.Fix = "git rm --cached " + p + " (it stays deleted), or put back the version to keep and git add " + p
	}
	return f
}

// unmergedFiles lists the paths git holds unmerged in the team folder
// (relative to it) with their index stages; nil outside git or a merge.
func unmergedFiles(ctx context.Context, env Env, l paths.Layout) map[string]map[string]bool {
	prefix, err := teamPrefix(ctx, env, l)
	if err != nil {
		return nil
	}
	out, err := gitIn(ctx, env, l.WorkTree, "ls-files", "-u", "-z", "--", ":(top,literal)"+prefix)
	if err != nil || len(out) == 0 {
		return nil
	}
	set := map[string]map[string]bool{}
	for _, e := range splitZ(out) {
		meta, p, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		rel := strings.TrimPrefix(p, prefix)
		if set[rel] == nil {
			set[rel] = map[string]bool{}
		}
		set[rel][f[2]] = true
	}
	return set
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
		Fix:    "move it out of " + paths.TeamFolder + " (or git rm --cached " + shq(path.Join(paths.TeamFolder, rel)) + ")"}
}

// derivedFinding is the finding for a derived or local file (the index,
// the recall cache, …) staged for a commit: it stays on disk, out of git.
func derivedFinding(rel string) TeamFinding {
	top, _, _ := strings.Cut(rel, "/")
	return TeamFinding{Kind: FindingStray, File: rel,
		Detail: "derived or local to this machine (the team folder's .gitignore keeps it out of git): it would be committed with the team memories",
		Fix:    "git rm --cached -r " + shq(path.Join(paths.TeamFolder, top)) + ", then memdir team init (it writes a missing .gitignore)"}
}

// linkFinding is the finding for a symbolic link in a team folder: a
// committed link is never a memory, and what it leads to is not read.
func linkFinding(rel string) TeamFinding {
	return TeamFinding{Kind: FindingLink, File: rel,
		Detail: "a symbolic link: a team folder holds plain files, and a committed link could lead anywhere on a collaborator's machine",
		Fix:    "git rm --cached " + shq(path.Join(paths.TeamFolder, rel)) + " and remove the link"}
}

// setupFindings reports a team folder without its .gitignore (the index
// and the recall cache would be committed) or .gitattributes (two
// forgets of one memory on two branches would conflict).
func setupFindings(dir string) []TeamFinding {
	var out []TeamFinding
	for _, f := range []struct{ name, why string }{
		{memdir.TeamIgnore, "missing: the index, the recall cache (.memdir-cache/) and other local files would be committed"},
		{memdir.TeamAttributes, "missing: tombstones would not merge by union, so two forgets on two branches would conflict"},
	} {
		if _, err := os.Lstat(filepath.Join(dir, f.name)); errors.Is(err, fs.ErrNotExist) {
			out = append(out, TeamFinding{Kind: FindingSetup, File: f.name, Detail: f.why,
				Fix: "memdir team init (it writes what is missing, never over a file that is there)"})
		}
	}
	return out
}

// shq quotes s for a shell when it needs it, so a hint naming it can be
// copied as it is.
func shq(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TeamCheck scans the team folder's files as they are on disk: potential
// secrets, conflict markers, files that do not parse, user memories,
// memories back despite their tombstone, and stray files. Nothing found
// is an empty list.
func (w *Workspace) TeamCheck() ([]TeamFinding, error) {
	if err := TeamDirProblem(w.Layout); err != nil {
		return nil, err
	}
	t, err := w.Team(false)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return checkTeamDir(ctx, w.Env, w.Layout, t.Store)
}

// TeamCheckAt is TeamCheck on the project's team folder (ErrNoTeam when
// it has none). A symbolic link where memdir writes (.tombstones, the
// cache, …) keeps the store from opening: then the links are what is
// reported, found without following any.
func TeamCheckAt(ctx context.Context, env Env, l paths.Layout) ([]TeamFinding, error) {
	if err := TeamDirProblem(l); err != nil {
		return nil, err
	}
	t, err := OpenTeam(env, l, false)
	if errors.Is(err, memdir.ErrSymlinkEscape) {
		return teamLinks(l.TeamDir), nil
	}
	if err != nil {
		return nil, err
	}
	return checkTeamDir(ctx, env, l, t.Store)
}

// teamLinks lists the symbolic links among a team folder's entries and
// its tombstone folder's, with Lstat only.
func teamLinks(dir string) []TeamFinding {
	var out []TeamFinding
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink != 0 {
			out = append(out, linkFinding(e.Name()))
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, memdir.TombstoneDir)); err == nil && fi.IsDir() {
		entries, _ := os.ReadDir(filepath.Join(dir, memdir.TombstoneDir))
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink != 0 {
				out = append(out, linkFinding(memdir.TombstoneDir+"/"+e.Name()))
			}
		}
	}
	return out
}

// TeamDirProblem reports, with a hint, a team folder path that is there
// but no folder (a file named team, say). Nothing there is no problem.
func TeamDirProblem(l paths.Layout) error {
	fi, err := os.Lstat(l.TeamDir)
	if err != nil || fi.IsDir() {
		return nil
	}
	what := "a file"
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err := os.Stat(l.TeamDir); err == nil && fi.IsDir() {
			return nil // a link to a folder: the store decides
		}
		what = "a symbolic link that leads to no folder"
	}
	return hint.With(fmt.Errorf("%s is %s, not the team memory folder", l.TeamDir, what),
		"move it away (mv %s %s.old), then memdir team init", shq(l.TeamDir), shq(l.TeamDir))
}

// committedFiles is the set of files of the team folder (relative to it)
// in the last commit; nil outside git or before the first commit.
func committedFiles(ctx context.Context, env Env, l paths.Layout) map[string]bool {
	prefix, err := teamPrefix(ctx, env, l)
	if err != nil {
		return nil
	}
	out, err := gitIn(ctx, env, l.WorkTree, "ls-tree", "-r", "-z", "--name-only", "--full-tree", "HEAD", "--", prefix)
	if err != nil {
		return nil
	}
	set := map[string]bool{}
	for _, p := range splitZ(out) {
		set[strings.TrimPrefix(p, prefix)] = true
	}
	return set
}

// checkTeamDir is TeamCheck on the store of a team folder.
func checkTeamDir(ctx context.Context, env Env, l paths.Layout, st *memdir.Store) ([]TeamFinding, error) {
	committed := committedFiles(ctx, env, l)
	unmerged := unmergedFiles(ctx, env, l)
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
	out = append(out, setupFindings(st.Dir())...)
	entries, err := os.ReadDir(st.Dir())
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			// Never followed: what it leads to is no memory of the team.
			out = append(out, linkFinding(name))
		case name == memdir.TombstoneDir && e.IsDir():
			out = append(out, strayTombstones(st.Path(memdir.TombstoneDir))...)
		case ignoredTeamFile(name):
		case !e.IsDir() && strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, "."):
			b, err := safefile.ReadFile(st.Path(name), memdir.MaxFileSize)
			if err != nil {
				detail := err.Error()
				if fi, serr := os.Lstat(st.Path(name)); serr == nil && fi.Size() > memdir.MaxFileSize {
					detail = fmt.Sprintf("larger than %d bytes: not a memory file", memdir.MaxFileSize)
				}
				out = append(out, TeamFinding{Kind: FindingInvalid, File: name, Detail: detail, Fix: "shorten it or remove it"})
				continue
			}
			if stages, ok := unmerged[name]; ok {
				// A git conflict, with conflict lines or not (modify/delete
				// leaves none): settled by 'memdir team resolve', which also
				// settles a tombstone; the content's other problems stand.
				out = append(out, unmergedFinding(name, stages, true))
				for _, f := range checkTeamMemory(name, b, nil, committed[name]) {
					if f.Kind != FindingConflict {
						out = append(out, f)
					}
				}
				delete(unmerged, name)
				continue
			}
			out = append(out, checkTeamMemory(name, b, byFile[name], committed[name])...)
		default:
			out = append(out, strayFinding(name))
		}
	}
	// What else git holds unmerged: a memory gone from the folder, or a
	// file that is no memory (a tombstone, the .gitignore).
	var rest []string
	for rel := range unmerged {
		rest = append(rest, rel)
	}
	slices.Sort(rest)
	for _, rel := range rest {
		p := filepath.Join(st.Dir(), filepath.FromSlash(rel))
		if !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".md") && !exists(p) {
			out = append(out, unmergedFinding(rel, unmerged[rel], false))
			continue
		}
		out = append(out, TeamFinding{Kind: FindingConflict, File: rel, Detail: "unresolved git merge conflict",
			Fix: "settle it by hand, then git add " + shq(path.Join(paths.TeamFolder, rel))})
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
		if e.Type()&fs.ModeSymlink != 0 {
			out = append(out, linkFinding(rel))
			continue
		}
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
	// Root-relative, literal paths: ':(top,literal)' keeps git from
	// reading them from the current folder, or a '[' or '*' in a folder's
	// name as a pattern.
	out, err := gitIn(ctx, env, l.WorkTree, "diff", "--cached", "--raw", "-z", "--no-renames", "--diff-filter=ACMRT", "--", ":(top,literal)"+prefix)
	if err != nil {
		return nil, err
	}
	changed, modes := parseRaw(out)
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
	committed := committedFiles(ctx, env, l)
	var findings []TeamFinding
	for _, p := range changed {
		rel := strings.TrimPrefix(p, prefix)
		name := path.Base(rel)
		top, _, _ := strings.Cut(rel, "/")
		switch {
		case modes[p] == "120000":
			findings = append(findings, linkFinding(rel))
		case modes[p] == "160000":
			findings = append(findings, strayFinding(rel))
		case strings.HasPrefix(rel, memdir.TombstoneDir+"/"):
			if !memdir.IsTeamFile(rel) {
				findings = append(findings, strayFinding(rel))
			}
		case ignoredTeamFile(top) && top != memdir.TeamIgnore && top != memdir.TeamAttributes:
			// Derived files (MEMORY.md, the cache, …) staged anyway.
			findings = append(findings, derivedFinding(rel))
		case strings.Contains(rel, "/"):
			// Anything in a subfolder: not a memory.
			findings = append(findings, strayFinding(rel))
		case name == memdir.TeamIgnore, name == memdir.TeamAttributes:
		case strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, "."):
			b, err := gitIn(ctx, env, l.WorkTree, "show", ":"+p)
			if err != nil {
				return nil, err
			}
			if len(b) > memdir.MaxFileSize {
				findings = append(findings, TeamFinding{Kind: FindingInvalid, File: rel,
					Detail: fmt.Sprintf("larger than %d bytes: not a memory file", memdir.MaxFileSize), Fix: "shorten it or remove it"})
				continue
			}
			findings = append(findings, checkTeamMemory(rel, b, tombs[rel], committed[rel])...)
		default:
			findings = append(findings, strayFinding(rel))
		}
	}
	return findings, nil
}

// parseRaw reads 'git diff --raw -z' output: the paths, and the mode
// each has in the index (120000 a symbolic link, 160000 a submodule).
func parseRaw(b []byte) (files []string, modes map[string]string) {
	modes = map[string]string{}
	parts := strings.Split(string(b), "\x00")
	for i := 0; i+1 < len(parts); i += 2 {
		f := strings.Fields(strings.TrimPrefix(parts[i], ":"))
		if len(f) < 2 {
			break
		}
		files = append(files, parts[i+1])
		modes[parts[i+1]] = f[1]
	}
	return files, modes
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
	prefix, err := teamPrefix(ctx, env, l)
	if err != nil {
		return err
	}
	for _, r := range rels {
		p := filepath.Join(l.TeamDir, filepath.FromSlash(r))
		spec := ":(top,literal)" + prefix + r
		args := []string{"add", "--", spec}
		if !exists(p) {
			// Gone: drop it from the index, if it was ever there.
			args = []string{"rm", "--cached", "--ignore-unmatch", "-q", "--", spec}
		}
		if _, err := gitIn(ctx, env, l.WorkTree, args...); err != nil {
			return err
		}
	}
	return nil
}

// ShellQuote quotes s for a shell when it needs it: how a command's hint
// names a memory so it can be copied as it is.
func ShellQuote(s string) string { return shq(s) }
