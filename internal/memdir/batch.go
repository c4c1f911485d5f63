package memdir

import (
	"context"
	"errors"
	"time"
)

// BatchDir holds the journals of multi-file changes (Apply): one folder per
// batch, with the files' contents before and after, so a batch cut short by
// a crash is finished at the next Open and a finished one can be undone.
// Nothing in it ends in .md: no memory scan picks it up.
const BatchDir = ".memdir-batches"

// Batch is a change of several memories that lands whole or not at all.
type Batch struct {
	// Label says what made the batch ("dream"), for Batches and errors.
	Label string
	// Save lists memories to write, as Save writes them (a memory read by
	// the store keeps its unknown fields and its layout; only changed fields
	// are rewritten; secrets are redacted). The index line of each is
	// updated when the memory has one.
	Save []Memory
	// Retire lists memory files that leave the folder: each is kept as a
	// version in ForgottenDir (Restore finds it) and its index line goes.
	Retire []string
	// IfMatch, per file, is the content the caller planned from: the batch
	// fails with ErrConflict, writing nothing, when a file changed since.
	IfMatch map[string][]byte
}

// BatchResult says what Apply did.
type BatchResult struct {
	ID      string   `json:"id"`      // for Undo
	Written []string `json:"written"` // memory files written
	Retired []string `json:"retired"` // memory files kept aside and removed
	KeptIn  []string `json:"kept_in"` // where the retired files' versions went, under ForgottenDir
	Index   bool     `json:"index"`   // MEMORY.md changed
}

// BatchInfo is one journal in BatchDir.
type BatchInfo struct {
	ID     string    `json:"id"`
	Label  string    `json:"label"`
	Time   time.Time `json:"time"`
	Files  []string  `json:"files"` // every file the batch changed, MEMORY.md and versions included
	Undone bool      `json:"undone"`
}

var errBatchTODO = errors.New("batches are not built yet")

// Apply writes a batch under the folder's lock: every file the batch
// changes (memories, MEMORY.md, versions under ForgottenDir) lands, or
// none does — after a crash the next Open finishes a batch that was
// committed and drops one that was not. The files' previous contents stay
// in the batch's journal for Undo.
func (s *Store) Apply(ctx context.Context, b Batch) (BatchResult, error) {
	return BatchResult{}, errBatchTODO
}

// Undo puts back, byte for byte, every file the batch id changed (id ""
// is the newest batch not undone), under the lock; a file changed since
// the batch is ErrConflict, unless force.
func (s *Store) Undo(ctx context.Context, id string, force bool) (BatchInfo, error) {
	return BatchInfo{}, errBatchTODO
}

// Batches lists the journals, newest first.
func (s *Store) Batches() ([]BatchInfo, error) {
	return nil, errBatchTODO
}
