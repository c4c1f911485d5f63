package extract

import (
	"testing"
	"time"
)

// TestScopeFor: the seeds' scope rules, on the seeds' own examples.
func TestScopeFor(t *testing.T) {
	for _, tc := range []struct{ typ, text, want string }{
		{"user", "I'm a data scientist investigating what logging we have", ScopePrivate},
		{"feedback", "don't mock the database in these tests — we got burned last quarter", ScopeTeam},
		{"feedback", "stop summarizing what you just did at the end of every response", ScopePrivate},
		{"feedback", "in this repo we use tabs, never spaces", ScopeTeam},
		{"feedback", "explain the React parts in terms of what the server sends", ScopePrivate},
		{"project", "we're freezing all non-critical merges after Thursday", ScopeTeam},
		{"reference", "pipeline bugs are tracked in the Linear project INGEST", ScopeTeam},
		{"reference", "my scratch notes are in the Notion page 'Dana scratch'", ScopePrivate},
	} {
		if got := ScopeFor(tc.typ, tc.text); got != tc.want {
			t.Errorf("ScopeFor(%s, %q) = %s, want %s", tc.typ, tc.text, got, tc.want)
		}
	}
}

// TestHeuristic_SetsScope: every memory the heuristic engine proposes has
// a scope, and an LLM engine's operations get one too.
func TestHeuristic_SetsScope(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	msgs := []Message{
		{Role: "user", Time: at, Text: "I'm a backend engineer, mostly Go."},
		{Role: "user", Time: at, Text: "Don't mock the database in integration tests, we got burned last quarter."},
		{Role: "user", Time: at, Text: "We decided to use pgx instead of database/sql for the new services."},
	}
	cands, _ := Heuristic(msgs, "s1")
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	for _, c := range cands {
		if c.Scope == "" || c.Type == "user" && c.Scope != ScopePrivate || c.Type != "user" && c.Scope != ScopeTeam {
			t.Errorf("%s %q: scope %q", c.Type, c.Name, c.Scope)
		}
	}
	acts := FromOps([]Op{{Op: Create, Type: "project", Name: "Freeze", Description: "merge freeze", Body: "No merges after Thursday."}}, "s1", "anthropic")
	if acts[0].Memory.Scope != ScopeTeam {
		t.Errorf("an LLM operation's scope: %q", acts[0].Memory.Scope)
	}
}
