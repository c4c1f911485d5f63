// Package usage keeps the evidence of how a memory folder's memories are
// used — how often recall injected each one and when last, and what people
// and agents marked helpful or wrong — beside the folder, never in the
// memory files.
package usage

import "time"

// Record is one memory's evidence.
type Record struct {
	Injected      int       `json:"injected"`
	FirstInjected time.Time `json:"first_injected,omitempty"`
	LastInjected  time.Time `json:"last_injected,omitempty"`
	Helpful       int       `json:"helpful,omitempty"`
	Wrong         int       `json:"wrong,omitempty"`
	LastMarked    time.Time `json:"last_marked,omitempty"`
}
