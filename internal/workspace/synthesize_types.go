package workspace

import (
	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/learning"
)

// DayWork is everything an engine (a model, the heuristic, or an agent
// through 'memdir synthesize prepare') gets to write one day's summary.
type DayWork struct {
	Date     string   `json:"date"`
	Path     string   `json:"daily_file"` // where the summary goes
	Projects []string `json:"projects"`   // the day's projects, as the summary tags them
	// Conversation is the day's pending conversation as 'memdir
	// transcripts extract' prints it, secrets redacted.
	Conversation string `json:"conversation,omitempty"`
	// ConversationFile holds Conversation for an agent ('memdir synthesize
	// prepare'), whose tools cut long output: it reads the file in parts.
	ConversationFile string `json:"conversation_file,omitempty"`
	// Commits are each project's commits of the day, newest first.
	Commits map[string][]extract.Commit `json:"commits,omitempty"`
	// Existing are the learnings already in long-term memory and in the
	// recent daily summaries: the summary must not repeat them.
	Existing []learning.Learning `json:"existing_learnings"`
	// Previous is the day's summary as it is now ("" when none): its user
	// notes are kept.
	Previous string `json:"previous,omitempty"`
	// Rules are the format rules the summary must follow.
	Rules string `json:"rules"`

	input       extract.DayInput // the heuristic engine's view of the same day
	transcripts []string         // the transcripts holding the day's content
}
