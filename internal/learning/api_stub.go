package learning

// This file is the package's contract, written before its implementation
// so that the engines and the workspace can be built against it. Each stub
// is replaced by its implementation (in daily.go, longterm.go, archive.go,
// route.go, decay.go, …) and this file is then deleted.

// ---- long-term memory files ----

// Kind says which long-term file a File is.
type Kind int

// The long-term files.
const (
	GlobalFile  Kind = iota // global-long-term-memory.md
	ProjectFile             // project-memory/{project}-long-term-memory.md
)

// File is a parsed long-term memory file. It formats back to the bytes it
// was parsed from until a decision changes it.
type File struct {
	Kind    Kind
	Name    string // the file's name relative to the synthesis folder, for errors and Source notes
	Project string // ProjectFile: the project's name
	// unexported: the parsed lines, sections and entries.
	impl any
}

// Section names of the long-term files.
const (
	AboutMe          = "About Me"
	CurrentProjects  = "Current Projects"
	TechEnvironment  = "Technical Environment"
	PatternsPrefs    = "Patterns & Preferences"
	Pinned           = "Pinned"
	KeyLearnings     = "Key Learnings"
	ErrorPatterns    = "Error Patterns to Avoid"
	BestPractices    = "Best Practices"
	DataQuirks       = "Data Quirks"
	KeyDecisions     = "Key Decisions"
	UsefulCommands   = "Useful Commands"
	GlobalFileName   = "global-long-term-memory.md"
	ProjectMemoryDir = "project-memory"
	ArchiveFileName  = ".decay-archive.md"
)

// NewGlobal is an empty global long-term file (the template, with Pinned).
func NewGlobal() *File { panic("unimplemented") }

// NewProject is an empty project long-term file (the skill's template,
// with Pinned after the H1).
func NewProject(project string) *File { panic("unimplemented") }

// ParseFile parses a long-term file's text. A malformed learning (a tagged
// line that does not parse) is a *ParseError with its line: the caller
// reports it and leaves the file untouched.
func ParseFile(kind Kind, name, project, text string) (*File, error) { panic("unimplemented") }

// Format renders f; unchanged files give back their bytes exactly.
func (f *File) Format() string { panic("unimplemented") }

// Learnings returns the learnings of section (all sections when section
// is ""), in file order.
func (f *File) Learnings(section string) []Learning { panic("unimplemented") }

// SectionText returns the raw text of section's body ("" when absent).
func (f *File) SectionText(section string) string { panic("unimplemented") }

// ---- decisions ----

// Op is one change a decision made, with its reason.
type Op struct {
	Kind     string   `json:"op"` // add, skip, update, prune, archive, purge, pin, unpin, migrate
	File     string   `json:"file"`
	Section  string   `json:"section,omitempty"`
	Learning Learning `json:"learning"`
	Reason   string   `json:"reason"`
}

// Memory is every long-term file of the synthesis folder, parsed.
type Memory struct {
	Global   *File
	Projects map[string]*File // by project name
	Archive  *Archive
}

// Archive is the decay archive: "## Archived YYYY-MM-DD" groups, newest
// first, each learning with a "*Source: file*" note.
type Archive struct {
	impl any
}

// ParseArchive parses .decay-archive.md ("" is an empty archive).
func ParseArchive(text string) (*Archive, error) { panic("unimplemented") }

// Format renders the archive.
func (a *Archive) Format() string { panic("unimplemented") }

// SectionFor is where a learning of type t goes in a file of kind k (the
// skill's routing table).
func SectionFor(k Kind, t Type) string { panic("unimplemented") }

// Route adds learnings to m: global ones to m.Global's section for their
// type, project ones to that project's file (created from the template
// when missing). A learning whose concept is already there is skipped; one
// that contradicts or updates an existing entry replaces it. today is
// written as the file's Last synthesized / Last updated date when it
// changes. It returns what it did.
func Route(m *Memory, learnings []Learning, today string) []Op { panic("unimplemented") }

// Prune cuts every file over s's MaxFileTokens (bytes/4): oldest entries
// of decay-eligible sections first, keeping Pinned, auto-pinned sections,
// entries of the last AgeDays and error learnings (high impact) last.
func Prune(m *Memory, s Settings, today string) []Op { panic("unimplemented") }

// Decay moves learnings of decay-eligible sections older than s's AgeDays
// (strictly: age > AgeDays) to the archive under today's group; undated
// learnings, Pinned and the auto-pinned sections are never decayed. Then
// it purges archive groups older than ArchiveRetentionDays (strictly).
func Decay(m *Memory, s Settings, today string) []Op { panic("unimplemented") }

// Pin moves the learnings matching pattern (case-insensitive substring of
// title, description or lesson) to their file's Pinned section; project
// limits it to that project's file ("" is every file). Unpin moves
// matching pinned learnings back to the section of their type.
func Pin(m *Memory, pattern, project, today string) []Op   { panic("unimplemented") }
func Unpin(m *Memory, pattern, project, today string) []Op { panic("unimplemented") }

// Migrate is the skill's Phase 0: a Pinned section where missing, today's
// date on undated learnings, and conservative pinning (identity,
// safety-critical, cross-project learnings). It is idempotent.
func Migrate(m *Memory, today string) []Op { panic("unimplemented") }

// AlwaysLoaded is the part of global long-term memory a session starts
// with: its auto-pinned sections and Pinned, cut to at most tokens
// (bytes/4) at an entry boundary, with a line saying what was left out.
func AlwaysLoaded(g *File, tokens int) string { panic("unimplemented") }
