// Package consolidate is memdir's "dream": it reads a memory folder's
// memories and plans how to make them fewer, truer and shorter — merge
// near-duplicates, supersede what a newer memory contradicts, turn relative
// dates into absolute ones, expire project facts whose date has passed,
// prune what nothing uses, shorten what is too long — as a list of
// operations, each with its reason and its evidence. It is pure: no I/O, no
// clock; the workspace applies a plan through the store.
//
// Every engine's plan, the heuristic one here and a model's, passes the same
// Validate before anything is written: no pinned memory retired, no fact
// lost by a merge or a date rewrite, no memory retired twice, no merge
// across types or scopes.
package consolidate

import (
	"errors"
	"time"
)

// Item is one memory as the planner sees it.
type Item struct {
	File         string    `json:"file"`
	Name         string    `json:"name"`
	Description  string    `json:"description,omitempty"`
	Type         string    `json:"type,omitempty"` // user, feedback, project, reference or ""
	Scope        string    `json:"scope,omitempty"`
	Body         string    `json:"body"`
	Created      time.Time `json:"created"` // the anchor of relative dates: created, else updated, else the file's mtime
	Updated      time.Time `json:"updated,omitzero"`
	Pinned       bool      `json:"pinned,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Stale        string    `json:"stale,omitempty"`
	Usage        Usage     `json:"usage"`
	// ReadOnly marks a memory of another folder, read beside this one: the
	// user's global memories in a project's dream, named "global/<file>".
	// A plan may retire a copy of it in this folder (a merge or supersede
	// that keeps it, unchanged), never edit or retire it.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Usage is the evidence of use kept beside a memory folder.
type Usage struct {
	Injected     int       `json:"injected"`               // times recall put the memory in a prompt's context
	LastInjected time.Time `json:"last_injected,omitzero"` // zero: never
	Helpful      int       `json:"helpful,omitempty"`      // marked helpful by a person or an agent
	Wrong        int       `json:"wrong,omitempty"`        // marked wrong
	Since        time.Time `json:"since,omitzero"`         // when evidence began to be kept for the folder; zero: none kept
}

// Index is MEMORY.md as the planner needs it.
type Index struct {
	Lines     int      `json:"lines"`      // lines, as Claude Code counts them
	Chars     int      `json:"chars"`      // characters (UTF-16 units)
	LongLines []string `json:"long_lines"` // files whose index line is over 150 characters
}

// Input is what a plan is made from.
type Input struct {
	Items []Item    `json:"items"`
	Index Index     `json:"index"`
	Now   time.Time `json:"now"`
}

// Kind is an operation's kind.
type Kind string

// Kinds of operation.
const (
	Merge     Kind = "merge"     // near-duplicates become one memory (Keep), the others leave
	Supersede Kind = "supersede" // the newer of two contradicting memories wins; the older gets superseded_by
	Date      Kind = "date"      // relative dates become absolute, anchored on the memory's created time
	Expire    Kind = "expire"    // a project fact whose date has passed is archived
	Prune     Kind = "prune"     // a memory that no longer earns its place is removed (kept as a version)
	Shorten   Kind = "shorten"   // a description over 150 characters, or MEMORY.md over its caps
)

// IndexFile is Keep of a Shorten operation on MEMORY.md itself.
const IndexFile = "MEMORY.md"

// Edit is the new content of the memory an operation keeps or changes.
// Empty fields are left as they are.
type Edit struct {
	Name        string    `json:"name,omitempty"`
	Description string    `json:"description,omitempty"`
	Body        string    `json:"body,omitempty"`
	Created     time.Time `json:"created,omitzero"` // zero: unchanged
}

// Op is one planned operation.
type Op struct {
	ID       string   `json:"id"` // stable for the same folder: kind and files
	Kind     Kind     `json:"kind"`
	Files    []string `json:"files"`            // every memory the operation reads; Keep first when there is one
	Keep     string   `json:"keep,omitempty"`   // the memory that stays and changes (Edit applies to it); "" for expire and prune
	Edit     *Edit    `json:"edit,omitempty"`   // Keep's new content
	Retire   []string `json:"retire,omitempty"` // memories that leave: merged away, superseded (they stay as history), expired, pruned
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence,omitempty"` // quoted lines, dates, usage
	Lossless bool     `json:"lossless"`           // loses no fact, and the engine is sure of it: an automatic run may apply it
}

// Candidate is a group of memories the engine could not decide on alone:
// a model should judge it.
type Candidate struct {
	Kind  Kind     `json:"kind"`
	Files []string `json:"files"`
	Why   string   `json:"why"`
	// odds is the sameness model's log-odds that the files are one
	// memory, when only that left them undecided (scored): a plan lists
	// such candidates most likely first, after those left for a reason of
	// their own, so a model that judges the first MaxJudged reads the
	// likeliest.
	odds   float64
	scored bool
}

// lookalike is a merge candidate only the sameness model left undecided,
// at log-odds same.
func lookalike(files []string, same float64, why string) Candidate {
	return Candidate{Kind: Merge, Files: files, Why: why, odds: same, scored: true}
}

// Plan is a dream's result.
type Plan struct {
	Ops          []Op        `json:"ops"`
	LeftForModel []Candidate `json:"left_for_model,omitempty"`
}

// ErrInvalid wraps every reason Validate refuses a plan.
var ErrInvalid = errors.New("invalid consolidation plan")
