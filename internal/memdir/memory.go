package memdir

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v4"
)

// Type is a memory's kind. Claude Code knows exactly four.
type Type string

const (
	TypeUser      Type = "user"      // who the user is: role, expertise, preferences
	TypeFeedback  Type = "feedback"  // corrections and confirmations of how to work
	TypeProject   Type = "project"   // decisions, deadlines, context not in the code
	TypeReference Type = "reference" // pointers to external systems
)

// Types lists the valid types in their canonical order.
var Types = []Type{TypeUser, TypeFeedback, TypeProject, TypeReference}

// ParseType returns the Type named by s, or an error listing the valid ones.
func ParseType(s string) (Type, error) {
	for _, t := range Types {
		if string(t) == s {
			return t, nil
		}
	}
	msg := fmt.Sprintf("invalid type %q: want user, feedback, project or reference", s)
	for _, t := range Types {
		if closeTo(strings.ToLower(strings.TrimSpace(s)), string(t)) {
			msg += fmt.Sprintf("; did you mean %s?", t)
			break
		}
	}
	return "", errors.New(msg)
}

// closeTo reports whether a is a likely misspelling of b: the same
// letters but for at most two edits (insertions, deletions or
// substitutions), or a prefix of at least three letters.
func closeTo(a, b string) bool {
	if a == b || len(a) >= 3 && strings.HasPrefix(b, a) {
		return true
	}
	// Levenshtein distance over one row.
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)] <= 2 && len(a) > 2
}

// Values of the trust field.
const (
	TrustUser       = "user"        // the user said it
	TrustAgent      = "agent"       // the agent inferred it
	TrustToolOutput = "tool-output" // it came from a web page, a file or command output
)

// Values of the scope field.
const (
	ScopePrivate = "private"
	ScopeTeam    = "team"
)

// Errors returned by the store. Test with errors.Is.
var (
	ErrNotFound      = errors.New("memory not found")
	ErrInvalid       = errors.New("invalid memory")
	ErrConflict      = errors.New("memory file changed since it was read")
	ErrSymlinkEscape = errors.New("symlink leads out of the memory folder")
	ErrAmbiguous     = errors.New("more than one memory has that name")
	ErrNameTaken     = errors.New("another memory has that name")
)

// Memory is one memory file: its frontmatter fields and its body.
//
// Fields memdir does not know are kept in the parsed frontmatter and written
// back unchanged, so a file written by Claude Code or by hand survives a
// rewrite by memdir.
type Memory struct {
	File        string // base name in the memory folder, e.g. "prefer-tabs.md"
	Name        string
	Description string // one line; what recall matches against first
	Type        Type   // "" when the file has no type (listed as untyped)

	// Fields memdir owns. All optional.
	Scope        string    // private or team
	Author       string    // who added a team memory (git's user.name, or MEMDIR_AUTHOR)
	Created      time.Time // zero when unknown
	Updated      time.Time // zero when unknown
	Source       string    // "manual", or a session id and transcript line
	Trust        string    // user, agent or tool-output
	Refs         []string  // paths and symbols the memory names
	SupersededBy string    // file name of the memory that replaced this one
	Pinned       bool
	Stale        string // why the memory may no longer hold, and when that was found: "src/x.go no longer exists (2026-11-25)"

	Body string // markdown after the frontmatter, byte for byte

	// Set by the store when the memory is read from disk.
	ModTime time.Time
	Size    int64

	front      *yaml.Node // the frontmatter mapping as parsed; nil for a new memory
	typeInMeta bool       // the type came from a metadata: block (Claude Code 2.1 layout)
	orig       *Memory    // the fields as parsed, to rewrite only what changed
	rawHead    []byte     // the file's bytes before the body, reused when no field changed
	refsSet    bool       // Refs replace the stored ones even when empty (SaveOptions.Refs)
}

// Title is the text used for the memory's index line: its name, or its file
// name without .md when it has none.
func (m Memory) Title() string {
	if m.Name != "" {
		return m.Name
	}
	return strings.TrimSuffix(m.File, ".md")
}

// Summary is the memory's description, or when it has none the first
// non-empty body line without its leading '#'s, cut to 120 characters, as
// Claude Code does when it builds its manifest.
func (m Memory) Summary() string {
	if m.Description != "" {
		return m.Description
	}
	for line := range strings.Lines(m.Body) {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		if line != "" {
			return truncateRunes(line, 120)
		}
	}
	return ""
}

// Stamp is when the memory was last written: its updated date, else its
// created date, else its file modification time.
func (m Memory) Stamp() time.Time {
	switch {
	case !m.Updated.IsZero():
		return m.Updated
	case !m.Created.IsZero():
		return m.Created
	}
	return m.ModTime
}

// Age returns how old the memory is at now, or 0 when its Stamp is unknown.
func (m Memory) Age(now time.Time) time.Duration {
	if t := m.Stamp(); !t.IsZero() {
		return now.Sub(t)
	}
	return 0
}

// FrontmatterError reports a problem in a memory file's frontmatter, with the
// 1-based line in the file where it was found (0 when unknown).
type FrontmatterError struct {
	File string
	Line int
	Err  error
}

func (e *FrontmatterError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *FrontmatterError) Unwrap() []error { return []error{ErrInvalid, e.Err} }

// Slug turns a memory name into a file name stem: lower case ASCII letters
// and digits, with runs of anything else turned into one '-', at most 80
// characters. A name with no ASCII letters or digits gets "memory-" and a
// hash of the name, so distinct names get distinct files.
func Slug(name string) string {
	s := fullSlug(name)
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	if s == "" {
		s = fmt.Sprintf("memory-%08x", fnv32(name))
	}
	if windowsReserved[s] {
		s += "-note" // con.md, nul.md… cannot exist on Windows
	}
	return s
}

// fullSlug is Slug's lower-case ASCII words joined by '-', uncut.
func fullSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// windowsReserved are the device names Windows refuses as file names,
// with any extension.
var windowsReserved = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func truncateRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// oneLine collapses all whitespace runs, newlines and control characters
// included, to single spaces.
func oneLine(s string) string {
	// Control characters (NUL, ESC…) become spaces too: a description is
	// printed on terminals and loaded into the agent's context.
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
