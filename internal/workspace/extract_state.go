package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/sessions"
)

// Files of the extraction pipeline, in the synthesis folder.
const (
	extractDir = "extract" // holds the extraction lock
	// ExtractStateFile holds extraction's cursor in each transcript.
	ExtractStateFile = "extract/state.json"
	extractStaged    = "extract/staged.jsonl" // work that arrived while an extraction ran
	// ExtractLogFile records what each run saved, and the model engines' log.
	ExtractLogFile = "logs/extract.jsonl"
	stagedWait     = 100 * time.Millisecond // how long a run waits for the lock before staging
)

// ExtractState records how far extraction has read each transcript. Its
// cursors are sessions.Mark, the cursor the synthesis pipeline keeps in
// sessions.State (transcripts-state.json) too: the two pipelines move
// through a transcript independently, so each keeps its own file, with
// one cursor type and one reader (sessions.ReadFrom).
type ExtractState struct {
	Version     int                      `json:"version"`
	Transcripts map[string]*ExtractEntry `json:"transcripts"` // by absolute path
}

// ExtractEntry is extraction's state of one transcript.
type ExtractEntry struct {
	Cursor    sessions.Mark `json:"cursor"` // everything before it was extracted from
	SessionID string        `json:"session_id,omitempty"`
}

// loadExtractState reads the cursors; a missing file is empty, and an
// unreadable one starts over with a warning (memories already saved are
// then updated, not duplicated).
func (x *extractor) loadState() *ExtractState {
	st := &ExtractState{Version: 1, Transcripts: map[string]*ExtractEntry{}}
	if _, err := x.t.Folder.ReadJSON(ExtractStateFile, st); err != nil {
		x.warn(fmt.Errorf("%w (starting over: memories already saved are updated, not duplicated)", err))
		st = &ExtractState{Version: 1, Transcripts: map[string]*ExtractEntry{}}
	}
	if st.Transcripts == nil {
		st.Transcripts = map[string]*ExtractEntry{}
	}
	return st
}

// lockDir makes a lock folder under the extraction folder and takes it.
func (x *extractor) lockDir(ctx context.Context, rel string, wait time.Duration, holder string) (func(), error) {
	dir, err := x.t.Folder.Path(rel)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return lockfile.Lock(ctx, dir, lockfile.Options{Timeout: wait, Holder: holder})
}

// lock takes the extraction lock, waiting briefly: a busy lock means the
// work is staged for its holder.
func (x *extractor) lock() (func(), error) {
	return x.lockDir(x.ctx, extractDir, stagedWait, "memdir extract")
}

// stageLock guards the staged-work file: appends and takes never overlap,
// so no staged line is lost between a read and the clearing write.
func (x *extractor) stageLock() (func(), error) {
	return x.lockDir(x.ctx, extractDir+"/stage", 5*time.Second, "memdir extract (staging)")
}

// stage records targets for the extraction that holds the lock.
func (x *extractor) stage(targets []string) error {
	unlock, err := x.stageLock()
	if err != nil {
		return err
	}
	defer unlock()
	for _, t := range targets {
		b, _ := json.Marshal(map[string]string{"transcript": t})
		if err := x.t.Folder.AppendLine(extractStaged, b); err != nil {
			return err
		}
	}
	return nil
}

// stagedWaiting reports whether staged work is waiting.
func (x *extractor) stagedWaiting() bool {
	b, err := x.t.Folder.ReadFile(extractStaged)
	return err == nil && len(strings.TrimSpace(string(b))) > 0
}

// takeStaged reads and clears the staged work (the caller holds the
// extraction lock).
func (x *extractor) takeStaged() []string {
	unlock, err := x.stageLock()
	if err != nil {
		x.warn(err)
		return nil
	}
	defer unlock()
	b, err := x.t.Folder.ReadFile(extractStaged)
	if err != nil || len(b) == 0 {
		return nil
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		var s struct {
			Transcript string `json:"transcript"`
		}
		if json.Unmarshal([]byte(line), &s) == nil && s.Transcript != "" && !slices.Contains(out, s.Transcript) {
			out = append(out, s.Transcript)
		}
	}
	if err := x.t.Folder.WriteFile(extractStaged, nil); err != nil {
		x.warn(err)
	}
	return out
}

// logRun appends a line to the extraction log; the log is a record, so a
// failed append is not the run's failure.
func (x *extractor) logRun(fields map[string]any) {
	fields["time"] = time.Now().UTC()
	b, _ := json.Marshal(fields)
	x.t.Folder.AppendLine(ExtractLogFile, b)
}

// ExtractTimeout names the bound of one extraction run.
const ExtractTimeout = "MEMDIR_EXTRACT_TIMEOUT"

// DefaultExtractTimeout bounds a run when ExtractTimeout does not say:
// long enough for a model engine over a backlog (each call is bounded by
// MEMDIR_LLM_TIMEOUT), short enough that a stuck run frees the lock.
const DefaultExtractTimeout = 10 * time.Minute

// ExtractBound is MEMDIR_EXTRACT_TIMEOUT, or DefaultExtractTimeout.
func ExtractBound(e Env) (time.Duration, error) {
	v := e.getenv(ExtractTimeout)
	if v == "" {
		return DefaultExtractTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, hint.With(fmt.Errorf("%s=%q is not a duration", ExtractTimeout, v), "use a value like 90s or 10m")
	}
	return d, nil
}

// timeoutError is the cause of a run's end at its bound.
type timeoutError struct{ bound time.Duration }

func (e *timeoutError) Error() string {
	return fmt.Sprintf("extraction ran past its %s bound (%s) and stopped; what it did not reach is tried again next run", e.bound, ExtractTimeout)
}

// stopped is the reason the run must stop now (interrupted, or past its
// bound), or nil. Every loop of a run asks it before the next transcript.
func (x *extractor) stopped() error {
	if x.ctx.Err() == nil {
		return nil
	}
	err := context.Cause(x.ctx)
	var te *timeoutError
	if errors.As(err, &te) {
		return hint.With(err, "run 'memdir extract --pending' to go on, or raise %s", ExtractTimeout)
	}
	return err
}

// busy is what a run says when the extraction lock stays busy after its
// work was staged: nil for a holder that looks alive and within its bound
// (it takes the staged work when it finishes). A holder whose line names a
// dead PID is only warned about: with flock a live process holds the lock
// (see lockfile.LockedError.Stale). A holder past the bound is hung: the
// staged work would wait for it forever, so the run fails, naming it, and
// the work stays staged for the first run after it is gone.
func (x *extractor) busy(err error) error {
	var le *lockfile.LockedError
	if !errors.As(err, &le) {
		return nil
	}
	why := le.Stale(x.bound+stagedGrace, time.Now())
	switch {
	case why == "":
		return nil
	case strings.Contains(why, "hung"):
		return hint.With(fmt.Errorf("%w: %s; the work is staged and waits for it", le, why),
			"end that process ('kill %d'), then run 'memdir extract --pending'", le.PID)
	}
	x.warn(fmt.Errorf("%w: %s", le, why))
	return nil
}

// stagedGrace is how long past its bound a holder may take to stop (its
// last write, its lock's release) before it is called hung.
const stagedGrace = time.Minute
