package memdir

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/safefile"
)

// A team folder is a memory folder committed with a repository
// (Options.Team): every collaborator pulls it, so it differs from a
// private folder in three ways.
//
//   - A memory that holds a potential secret is refused (SecretError),
//     listing the kinds found, instead of saved redacted: a redaction
//     marker in a shared memory still says a secret was typed there, and
//     the refusal lets the person rewrite the memory without it.
//   - Its index (MEMORY.md) and memdir's own files are derived and local:
//     TeamIgnore keeps them out of git, so two branches that add different
//     memories merge with no conflict, and the index is rebuilt from the
//     files.
//   - Forget leaves a tombstone (TombstoneDir/<file>.json: what, who,
//     when) that is committed: a branch that still holds the memory cannot
//     bring it back silently (doctor and 'memdir team check' report a
//     memory with a tombstone).

// TombstoneDir holds a team folder's tombstones. A dot folder, and files
// that do not end in .md: no memory scan reads them.
const TombstoneDir = ".tombstones"

// TeamIgnore is the .gitignore a team folder is created with.
const TeamIgnore = ".gitignore"

// teamIgnoreText lists what of a team folder never leaves the machine.
const teamIgnoreText = `# memdir: derived and local files of the team memory folder, never committed.
# The index is rebuilt from the memory files, so branches that add different
# memories merge with no conflict. See 'memdir team --help'.
MEMORY.md
.memdir-cache/
.memdir-batches/
.memdir.lock
.memdir-usage.json
.consolidate-lock
.forgotten/
*.tmp-*
`

// ErrSecret is what a SecretError wraps.
var ErrSecret = errors.New("potential secret in a team memory")

// SecretError refuses a team memory that holds a potential secret.
type SecretError struct {
	File   string
	Labels []string // the kinds of secret found, e.g. "github-token"
}

func (e *SecretError) Error() string {
	name := e.File
	if name == "" {
		name = "the memory"
	}
	return fmt.Sprintf("%s holds a potential secret (%s): a team memory is shared with every collaborator of the repository, so it is refused, not redacted", name, strings.Join(e.Labels, ", "))
}

func (e *SecretError) Unwrap() error { return ErrSecret }

func secretError(m Memory, red []RedactionCount) *SecretError {
	e := &SecretError{File: m.File}
	if e.File == "" {
		e.File = m.Name
	}
	for _, r := range red {
		if !slices.Contains(e.Labels, r.Kind) {
			e.Labels = append(e.Labels, r.Kind)
		}
	}
	return e
}

// SecretsIn lists the kinds of potential secret in a memory's fields and
// body: what a team folder refuses. Nothing found is nil.
func SecretsIn(m Memory) []string {
	red := redactMemory(&m)
	if len(red) == 0 {
		return nil
	}
	return secretError(m, red).Labels
}

// Tombstone records a memory forgotten from a team folder.
type Tombstone struct {
	File string    `json:"file"`
	Name string    `json:"name,omitempty"`
	By   string    `json:"by,omitempty"`
	At   time.Time `json:"at"`
}

// TombstoneExt ends a tombstone's file name. A tombstone is JSON Lines,
// one line per forget, and TeamAttributes merges it by union: two people
// who forget one memory on two branches merge with no conflict, and the
// tombstone lists both.
const TombstoneExt = ".jsonl"

// TombstoneFile is file's tombstone, relative to the folder.
func TombstoneFile(file string) string {
	return TombstoneDir + "/" + strings.TrimSuffix(file, ".md") + TombstoneExt
}

// ErrTombstoned refuses a save into a team folder of a memory its
// tombstone says was forgotten, unless SaveOptions.Revive says to bring
// it back.
var ErrTombstoned = errors.New("forgotten from the team folder (it has a tombstone)")

// titleOf is the name of the memory in file, or "" when it cannot be read.
func (s *Store) titleOf(file string) string {
	b, _, err := s.readFile(file)
	if err != nil || b == nil {
		return ""
	}
	m, err := Parse(file, b)
	if err != nil {
		return ""
	}
	return m.Name
}

// checkOwned refuses an entry of a team folder that memdir writes
// through (its tombstones, caches, locks, index) when it is anything but
// what memdir makes there: a committed link (a hostile clone's
// ".tombstones -> ~/somewhere") would have memdir write or delete files
// outside the repository.
func (s *Store) checkOwned(rel string, dir bool) error {
	fi, err := os.Lstat(s.Path(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s in the team folder %s is a symbolic link: %w", rel, s.dir, ErrSymlinkEscape)
	case dir != fi.IsDir() || !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("%s in the team folder %s is not a %s: %w", rel, s.dir, map[bool]string{true: "folder", false: "file"}[dir], ErrInvalid)
	}
	return nil
}

// teamOwned are the entries of a team folder memdir writes through, and
// whether each is a folder.
var teamOwned = []struct {
	rel string
	dir bool
}{
	{TombstoneDir, true}, {CacheDir, true}, {ForgottenDir, true}, {BatchDir, true},
	{LockFile, false}, {IndexFile, false}, {UsageFile, false}, {ConsolidateLock, false},
	{TeamIgnore, false}, {TeamAttributes, false},
}

// checkTeamFolder runs checkOwned on every entry memdir writes through.
func (s *Store) checkTeamFolder() error {
	for _, o := range teamOwned {
		if err := s.checkOwned(o.rel, o.dir); err != nil {
			return err
		}
	}
	return nil
}

// tombstoned reports whether file has a tombstone. The caller holds the
// lock.
func (s *Store) tombstoned(file string) bool {
	_, err := os.Lstat(s.Path(TombstoneFile(file)))
	return err == nil
}

// addTombstone adds a line to file's tombstone: the memory named title
// was forgotten by the store's author, now. undo puts the tombstone back
// as it was. The caller holds the lock.
func (s *Store) addTombstone(file, title string) (undo func(), err error) {
	rel := TombstoneFile(file)
	if err := s.checkOwned(TombstoneDir, true); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(s.dir, TombstoneDir), 0o755); err != nil {
		return nil, err
	}
	prev, err := safefile.ReadFile(s.Path(rel), maxTombstone)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	old := slices.Clone(prev)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	b, err := json.Marshal(Tombstone{File: file, Name: title, By: s.opt.Author, At: s.opt.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return nil, err
	}
	// Committed files are read by everyone: the usual 0644, not 0600.
	if err := atomicfile.WriteFile(s.Path(rel), append(append(old, b...), '\n'), 0o644); err != nil {
		return nil, err
	}
	return func() {
		if existed {
			_ = atomicfile.WriteFile(s.Path(rel), prev, 0o644)
		} else {
			_ = os.Remove(s.Path(rel))
		}
	}, nil
}

// removeTombstone removes file's tombstone, if it has one, and reports
// whether it did. The caller holds the lock.
func (s *Store) removeTombstone(file string) (bool, error) {
	if err := s.checkOwned(TombstoneDir, true); err != nil {
		return false, err
	}
	err := os.Remove(s.Path(TombstoneFile(file)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("the tombstone of %s could not be removed: %w", file, err)
	}
	return true, atomicfile.SyncDir(filepath.Join(s.dir, TombstoneDir))
}

// maxTombstone bounds a tombstone file read.
const maxTombstone = 64 << 10

// ParseTombstone reads a tombstone's lines: the latest forget of file
// (the lines a union merge joined are kept in any order), and an error
// when no line can be read.
func ParseTombstone(file string, b []byte) (Tombstone, error) {
	t := Tombstone{File: file}
	var found bool
	var bad error
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var l Tombstone
		if err := json.Unmarshal(line, &l); err != nil {
			bad = err
			continue
		}
		if !found || l.At.After(t.At) {
			t, found = l, true
		}
	}
	t.File = file // the file name rules, whatever the content says
	if !found {
		return t, cmp.Or(bad, errors.New("empty tombstone"))
	}
	return t, nil
}

// Tombstones lists the folder's tombstones, by file. One that cannot be
// read is reported in problems (and still listed, by its file name).
func (s *Store) Tombstones() (out []Tombstone, problems []error, err error) {
	if err := s.checkOwned(TombstoneDir, true); err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, TombstoneDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, TombstoneExt) {
			continue
		}
		file := strings.TrimSuffix(n, TombstoneExt) + ".md"
		b, err := safefile.ReadFile(filepath.Join(s.dir, TombstoneDir, n), maxTombstone)
		t := Tombstone{File: file}
		if err == nil {
			t, err = ParseTombstone(file, b)
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("%s/%s: %w", TombstoneDir, n, err))
		}
		out = append(out, t)
	}
	return out, problems, nil
}

// TeamAttributes is the .gitattributes a team folder is created with.
const TeamAttributes = ".gitattributes"

// teamAttributesText merges tombstones by union (see TombstoneExt).
const teamAttributesText = `# memdir: a tombstone lists every forget of a memory; branches add lines.
.tombstones/*.jsonl merge=union
`

// WriteTeamIgnore writes the team folder's .gitignore and .gitattributes
// where they are missing (never over one a person wrote).
func (s *Store) WriteTeamIgnore() error {
	for _, f := range []struct{ name, text string }{{TeamIgnore, teamIgnoreText}, {TeamAttributes, teamAttributesText}} {
		p := s.Path(f.name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := atomicfile.WriteFile(p, []byte(f.text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ErrConflictMarkers is returned by Parse for a file that holds an
// unresolved git merge conflict.
var ErrConflictMarkers = errors.New("unresolved git merge conflict (<<<<<<< … >>>>>>> lines)")

// HasConflictMarkers reports whether b holds what git writes around a
// merge conflict: a line starting "<<<<<<<", then a line "=======", then
// a line starting ">>>>>>>", outside fenced code (``` or ~~~), so a
// memory that shows a conflict in a code block is still a memory. Two
// edits of one memory always conflict on its updated: line, in the
// frontmatter, so a real conflict is never all in a fence.
func HasConflictMarkers(b []byte) bool {
	state, fenced := 0, false
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case bytes.HasPrefix(line, []byte("```")) || bytes.HasPrefix(line, []byte("~~~")):
			fenced = !fenced
		case fenced:
		case state == 0 && bytes.HasPrefix(line, []byte("<<<<<<<")):
			state = 1
		case state == 1 && string(line) == "=======":
			state = 2
		case state == 2 && bytes.HasPrefix(line, []byte(">>>>>>>")):
			return true
		}
	}
	return false
}

// IsTeamFile reports whether rel (slash-separated, relative to a team
// folder) is a file of it that is committed: a memory, a tombstone, the
// .gitignore or the .gitattributes.
func IsTeamFile(rel string) bool {
	if strings.HasPrefix(rel, TombstoneDir+"/") {
		return strings.HasSuffix(rel, TombstoneExt) && paths.ValidateName(strings.TrimPrefix(rel, TombstoneDir+"/")) == nil
	}
	if rel == TeamIgnore || rel == TeamAttributes {
		return true
	}
	return !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".md") && !IsIndexName(rel)
}

// TeamLinkDir is the folder of a private memory folder that holds team
// folders, as Claude Code lays them out: <memory dir>/team/<mount>.
const TeamLinkDir = "team"

// LinkTeam makes team/<mount> in the folder a symbolic link to target (a
// project's team folder), so that what reads Claude Code's layout finds
// the team memories there, and what writes there writes into the
// project. A link that already leads to target is left as it is; a link
// elsewhere is replaced; a folder or file there is left alone, and
// reported. The link is made beside its place and renamed into it.
func (s *Store) LinkTeam(mount, target string) (created bool, err error) {
	if err := paths.ValidateName(mount); err != nil {
		return false, err
	}
	dir := s.Path(TeamLinkDir)
	p := filepath.Join(dir, mount)
	if fi, err := os.Lstat(p); err == nil {
		if fi.Mode()&fs.ModeSymlink == 0 {
			return false, fmt.Errorf("%s is not memdir's link to %s: left alone (move it away, then run 'memdir team link')", p, target)
		}
		if cur, err := os.Readlink(p); err == nil && cur == target {
			return false, nil
		}
	}
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return false, err
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-link-%d", mount, os.Getpid()))
	_ = os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return false, fmt.Errorf("link %s to %s: %w", p, target, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return false, fmt.Errorf("link %s to %s: %w", p, target, err)
	}
	return true, atomicfile.SyncDir(dir)
}

// TeamLink is where LinkTeam puts mount's link, and where it leads ("" when
// there is no link).
func (s *Store) TeamLink(mount string) (path, target string) {
	path = filepath.Join(s.dir, TeamLinkDir, mount)
	target, _ = os.Readlink(path)
	return path, target
}

// redactionCounts turns the redact package's findings into the store's.
func redactionCounts(found []redact.Finding) []RedactionCount {
	out := make([]RedactionCount, 0, len(found))
	for _, f := range found {
		out = append(out, RedactionCount{Kind: f.Kind, Count: f.Count})
	}
	return out
}

// Who is " by X on D" for the tombstone, as much as it knows ("" when it
// knows neither).
func (t Tombstone) Who() string {
	s := ""
	if t.By != "" {
		s += " by " + t.By
	}
	if !t.At.IsZero() {
		s += " on " + t.At.UTC().Format(time.DateOnly)
	}
	return s
}
