// Package learning holds the synthesize skill's formats and decisions, pure:
// learning lines (`- **Title** [scope/type] (YYYY-MM-DD): description` and
// `  - Lesson: …`), daily summaries (daily/YYYY-MM-DD.md), long-term memory
// files (global-long-term-memory.md and project-memory/{project}-long-term-memory.md),
// the decay archive (.decay-archive.md), and what synthesis decides on them:
// routing, dedupe, contradiction updates, pruning, decay, archive purge, pin
// and unpin, migration. No I/O and no clock: today is passed in, and every
// decision comes back as operations with reasons.
//
// Files parse losslessly: what a person wrote and memdir does not change is
// formatted back byte for byte, so a second synthesis changes nothing.
//
// # Decisions
//
// The skill leaves some choices open; this package makes them so:
//
//   - Dedupe (Route) compares stemmed content words of title, description
//     and lesson (stopwords out, a small suffix stripper in words.go): the
//     same concept is a Jaccard similarity of 0.6 or more, or an identical
//     title in the same scope, against any entry of the target file.
//   - A contradiction is a new learning whose polarity flips an entry's
//     (broken/fixed, use/don't use, needed/no longer needed) on the same
//     subject: the same title (case and punctuation aside), or titles
//     equal but for polarity words, or 0.8 of the smaller subject's words
//     shared (two at least) — and then the objects of the statements (the
//     words after the verb) overlapping too: "use vim for Go code" and
//     "don't use vim for markdown" are not the same subject. The entry is
//     replaced in place, and its old lines go to the archive with
//     "*Replaced by: <new title> (date)*": nothing is lost. Entries of
//     Pinned (the user's) and of the global file's auto-pinned sections
//     (About Me, Current Projects, Technical Environment, Patterns &
//     Preferences) are never replaced: the learning is added, and the
//     add's reason says which entry it may contradict (so does a looser
//     match: 0.6 of the smaller subject shared).
//   - A learning line is a bold title and a [scope/type] tag. In the global
//     file's profile sections (About Me, Current Projects, Technical
//     Environment, Patterns & Preferences) a line is a learning only when
//     its tag's type is one of the five types: "- **Stack** [Go/Python]:
//     Go and Python daily" is a person's text, kept as it is. Everywhere
//     else (the learning sections, Pinned, other sections, the archive, a
//     daily summary's Learnings) a tagged line with another type is a
//     malformed learning, so a typo ("[global/eror]") is reported, not
//     silently left out of decay and routing. Under a daily summary's
//     "## Learnings", CheckDaily refuses any top-level bullet that is not a
//     learning line ("* **T** …", "- T [g/error] …").
//   - Archiving is idempotent: a learning (same scope, title and date)
//     already in the archive is not added again, so a crash between the
//     archive's write and the long-term file's does not duplicate it.
//   - A re-summarised day is merged into the day's file (MergeDaily), not
//     rewritten: every byte of the old file stays, new items are added.
//   - New entries go to the top of their section (the skill prunes from the
//     bottom, the oldest); undated new learnings are dated the day routed.
//   - Pruned entries go to the archive like decayed ones: nothing is lost.
//   - Pin notes "*Pinned: by the user (date)*"; Unpin drops the note and
//     keeps the date. Migration pins into a file's own Pinned (identity,
//     safety-critical) or, for a learning in two project files, into the
//     global Pinned, rescoped global.
package learning

import (
	"fmt"
)

// Type is a learning's kind, as the skill tags it.
type Type string

// The learning types.
const (
	Error        Type = "error"
	BestPractice Type = "best-practice"
	DataQuirk    Type = "data-quirk"
	Decision     Type = "decision"
	Command      Type = "command"
)

// Types lists the learning types in the skill's order.
var Types = []Type{Error, BestPractice, DataQuirk, Decision, Command}

// Global is the scope of a project-agnostic learning.
const Global = "global"

// Learning is one learning entry:
//
//   - **Title** [scope/type] (YYYY-MM-DD): Description
//   - Lesson: Lesson
//   - *Source: …*            (Notes: other sub-bullets, kept verbatim)
type Learning struct {
	Title       string   `json:"title"`
	Scope       string   `json:"scope"` // Global or a project's name
	Type        Type     `json:"type"`
	Date        string   `json:"date,omitempty"` // YYYY-MM-DD; "" when undated (never decayed)
	Description string   `json:"description"`
	Lesson      string   `json:"lesson,omitempty"`
	Notes       []string `json:"notes,omitempty"` // other sub-bullets' text, without "  - "
	Line        int      `json:"line,omitempty"`  // 1-based line it was parsed from; 0 when new
}

// Settings are memdir's settings of <home>/memory/settings.json: the
// synthesis's, the projects kept out of extraction and synthesis, the
// automatic dream's gates, the session-end diary draft and where user
// memories go.
type Settings struct {
	// Exclude lists projects whose sessions are never extracted into
	// memories nor summarised: a folder (absolute, or ~/…) and everything
	// under it, or a glob matched against a project's path and its folder
	// name ("*/clients/*", "scratch-*").
	Exclude []string `json:"exclude,omitempty"`
	Decay   struct {
		AgeDays              int `json:"ageDays"`              // 30
		ArchiveRetentionDays int `json:"archiveRetentionDays"` // 365
	} `json:"decay"`
	Synthesis struct {
		IntervalHours int `json:"intervalHours"` // 24: due after this long since .last-synthesis
		ContextDays   int `json:"contextDays"`   // 7: recent daily summaries context and recall read
		// MaxFileTokens bounds a long-term file (bytes/4); past it, pruning.
		MaxFileTokens int `json:"maxFileTokens"` // 10000
		// AlwaysLoadedTokens bounds the part of global long-term memory a
		// session starts with.
		AlwaysLoadedTokens int `json:"alwaysLoadedTokens"` // 1500
	} `json:"synthesis"`
	// Dream gates the automatic consolidation of a project's memories, as
	// Claude Code gates its own: at most once in MinHours, and only after
	// MinSessions sessions of the project since the last one.
	Dream struct {
		Auto        *bool `json:"auto,omitempty"` // nil: on
		MinHours    int   `json:"minHours"`       // 24
		MinSessions int   `json:"minSessions"`    // 5
	} `json:"dream"`
	// Diary is the task diaries' (issue 15). AutoDraft (default false):
	// at a session's end, the hook drafts a diary entry from the session's
	// transcript when the session did tool work worth learning from (a
	// failure, a retry, a fix) and no diary of it exists yet; a draft is
	// read by 'memdir patterns' only once accepted.
	Diary struct {
		AutoDraft bool `json:"autoDraft"` // false
	} `json:"diary"`
	// Global is the user's global memory folder's (<home>/memory/user).
	// UserMemories (default on): extraction saves the user memories it
	// finds — who the person is, what they know, how they like to work —
	// there, recalled in every project, rather than in the project's
	// folder.
	Global struct {
		UserMemories *bool `json:"userMemories,omitempty"` // nil: on
	} `json:"global"`
}

// GlobalUserMemories reports whether extraction saves user memories in
// the global folder.
func (s Settings) GlobalUserMemories() bool {
	return s.Global.UserMemories == nil || *s.Global.UserMemories
}

// DreamAuto reports whether automatic consolidation is on.
func (s Settings) DreamAuto() bool { return s.Dream.Auto == nil || *s.Dream.Auto }

// DefaultSettings are the skill's defaults.
func DefaultSettings() Settings {
	var s Settings
	s.Decay.AgeDays = 30
	s.Decay.ArchiveRetentionDays = 365
	s.Synthesis.IntervalHours = 24
	s.Synthesis.ContextDays = 7
	s.Synthesis.MaxFileTokens = 10000
	s.Synthesis.AlwaysLoadedTokens = 1500
	s.Dream.MinHours = 24
	s.Dream.MinSessions = 5
	return s
}

// ParseError is a file memdir will not rewrite: what is wrong, and where.
type ParseError struct {
	File string // the file's name, as the caller gave it
	Line int    // 1-based
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }
