package extract

import (
	"cmp"
	"fmt"
	"strings"
)

// The operations of a plan.
const (
	Create    = "create"    // a new memory
	Update    = "update"    // rewrite Target with the new statement
	Supersede = "supersede" // a new memory; Target is marked superseded by it
)

// Action is one step of an extraction plan: the memory to write, how, and
// why. Every engine's output becomes a plan of actions, and one apply step
// writes them; a dry run prints them.
type Action struct {
	Op     string    `json:"op"`               // Create, Update or Supersede
	Target string    `json:"target,omitempty"` // the existing memory file an update or supersede is about
	Memory Candidate `json:"memory"`
	Reason string    `json:"reason"`
}

// String is the action on one line, for plans and vectors:
// "create [type] description", "update FILE [type] description".
func (a Action) String() string {
	if a.Target == "" {
		return fmt.Sprintf("%s [%s] %s", a.Op, a.Memory.Type, a.Memory.Description)
	}
	return fmt.Sprintf("%s %s [%s] %s", a.Op, a.Target, a.Memory.Type, a.Memory.Description)
}

// FromCandidates proposes each of the heuristic engine's candidates as a
// new memory (Reconcile then decides).
func FromCandidates(cands []Candidate) []Action {
	out := make([]Action, 0, len(cands))
	for _, c := range cands {
		out = append(out, Action{Op: Create, Memory: c, Reason: "the user said it"})
	}
	return out
}

// FromOps turns a model's validated operations into actions: the memories
// come from session, trusted as the agent's (the model wrote them). A body
// ends with a newline.
func FromOps(ops []Op, session, engine string) []Action {
	out := make([]Action, 0, len(ops))
	for _, op := range ops {
		body := op.Body
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		out = append(out, Action{Op: op.Op, Target: op.Target, Reason: "the " + engine + " engine proposed it",
			Memory: Candidate{Type: op.Type, Name: op.Name, Description: op.Description, Body: body, Source: session, Trust: "agent",
				Scope: ScopeFor(op.Type, op.Description+"\n"+op.Body)}})
	}
	return out
}

// Existing is a live memory that recall proposed as close to a new one.
type Existing struct {
	File        string
	Type        string
	Description string // its summary, as recall indexed it
}

// SameThreshold is the share of content words (Jaccard, negations left
// out) two statements must have in common to be about the same thing.
const SameThreshold = 0.6

// Reconcile decides what a proposed new memory does to the folder, given
// the live memories recall found closest to it, best first. The first of
// the same type whose content words mostly agree (SameThreshold) is the
// same memory: a restatement updates it, a contradiction supersedes it
// (the history stays). Otherwise the memory is created. Actions other
// than Create were decided by their engine and are returned as they are.
func Reconcile(a Action, similar []Existing) Action {
	if a.Op != Create {
		return a
	}
	for _, e := range similar {
		if e.Type != a.Memory.Type {
			continue
		}
		j := Jaccard(e.Description, a.Memory.Description)
		if j < SameThreshold {
			continue
		}
		if why := Contradiction(e.Description, a.Memory.Description); why != "" {
			a.Op, a.Target, a.Reason = Supersede, e.File, "contradicts "+e.File+": "+why
			return a
		}
		a.Op, a.Target = Update, e.File
		a.Reason = fmt.Sprintf("restates %s: %.0f%% of its content words shared", e.File, j*100)
		return a
	}
	a.Reason = cmp.Or(a.Reason, "new") + "; no live " + a.Memory.Type + " memory says it"
	return a
}
