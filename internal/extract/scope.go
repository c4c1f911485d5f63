package extract

import "github.com/memdir/memdir/internal/lazyre"

// Scopes of a memory, as the store writes them (memdir.ScopePrivate and
// memdir.ScopeTeam: this package knows no store).
const (
	ScopePrivate = "private"
	ScopeTeam    = "team"
)

var (
	// reConvention: a rule about how the project works, not about how one
	// person likes to be answered — the seeds' "project-wide convention".
	reConvention = gate(lazyre.New(`(?i)\b(?:we|we're|we've|we'll|our|ours|us|everyone|the team|this (?:repo|repository|project|codebase|service|app|team|org)|in (?:the|this) (?:repo|codebase|project|monorepo)|these tests|tests?|ci|pull requests?|prs?|commits?|branch(?:es)?|migrations?|deploy(?:s|ments?|ing)?|releases?|code review|reviews?|the build|lint(?:er|ing)?|style guide|schema|endpoints?|api)\b`))
	// reOwnPlace: where one person keeps their own things.
	reOwnPlace = gate(lazyre.New(`(?i)\b(?:my|mine|i keep|i use|for me|personal)\b`))
)

// ScopeFor is a memory's scope by the seeds' rules: a user memory is
// always private; feedback defaults to private and is team only when it
// states a project-wide convention; project memories are strongly team;
// a reference is usually team, private when it is one person's own place.
func ScopeFor(typ, text string) string {
	switch typ {
	case "project":
		return ScopeTeam
	case "reference":
		if reOwnPlace.MatchString(text) {
			return ScopePrivate
		}
		return ScopeTeam
	case "feedback":
		if reConvention.MatchString(text) {
			return ScopeTeam
		}
	}
	return ScopePrivate
}
