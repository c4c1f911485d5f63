package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/synthesis"
)

// DreamLog is the synthesis folder's log of automatic consolidations: one
// JSON line per run, also for a run that found nothing to do or failed.
const DreamLog = "logs/dream.jsonl"

// DreamGate is whether an automatic consolidation is due, and why.
type DreamGate struct {
	Due      bool      `json:"due"`
	Why      string    `json:"why"`
	Last     time.Time `json:"last_consolidated,omitzero"` // zero: never
	Sessions int       `json:"sessions_since"`
}

// DreamDue checks the gates Claude Code puts on its own consolidation, in
// its order: automatic runs on, at least dream.minHours since the last
// consolidation (the mtime of the folder's .consolidate-lock, which Claude
// Code's own runs set too), and at least dream.minSessions sessions of the
// project (transcripts written since then) other than current.
func (w *Workspace) DreamDue(now time.Time, current string) (DreamGate, error) {
	if w.Layout.Disabled {
		return DreamGate{Why: "automatic memory is off (" + w.Layout.DisabledWhy + ")"}, nil
	}
	s, err := w.synthesisFolder().Settings()
	if err != nil {
		return DreamGate{Why: "settings: " + err.Error()}, err
	}
	if !s.DreamAuto() {
		return DreamGate{Why: "automatic consolidation is off (dream.auto in settings.json)"}, nil
	}
	last, err := w.Store.LastConsolidated()
	if err != nil {
		return DreamGate{Why: err.Error()}, err
	}
	g := DreamGate{Last: last}
	if since := now.Sub(last); !last.IsZero() && since < time.Duration(s.Dream.MinHours)*time.Hour {
		g.Why = fmt.Sprintf("last consolidation %s ago, under dream.minHours (%d)", since.Round(time.Minute), s.Dream.MinHours)
		return g, nil
	}
	g.Sessions = w.sessionsSince(last, current)
	if g.Sessions < s.Dream.MinSessions {
		g.Why = fmt.Sprintf("%d sessions since the last consolidation, under dream.minSessions (%d)", g.Sessions, s.Dream.MinSessions)
		return g, nil
	}
	g.Due, g.Why = true, fmt.Sprintf("%d sessions since the last consolidation", g.Sessions)
	return g, nil
}

// sessionsSince counts the project's Claude Code transcripts written after
// t, the session current aside.
func (w *Workspace) sessionsSince(t time.Time, current string) int {
	dir := filepath.Join(w.Layout.Home, "projects", w.Layout.ProjectKey)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".jsonl") || (current != "" && name == current+".jsonl") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().After(t) {
			n++
		}
	}
	return n
}

// DreamAutoResult is one automatic run, as DreamLog records it.
type DreamAutoResult struct {
	Time    time.Time `json:"time"`
	Project string    `json:"project"`
	Gate    DreamGate `json:"gate"`
	Ran     bool      `json:"ran"`
	Planned int       `json:"planned,omitempty"`
	Applied []string  `json:"applied,omitempty"`
	Held    int       `json:"held,omitempty"` // operations left for a person
	Batch   string    `json:"batch,omitempty"`
	Error   string    `json:"error,omitempty"`
}

// DreamAuto is the automatic consolidation a session's end starts: when
// DreamDue says so and no other consolidation (memdir's or Claude Code's)
// holds .consolidate-lock, it applies the heuristic plan's lossless
// operations (merge, date, supersede with history, expire to the archive);
// prune and lossy shortening wait for a person. One line goes to DreamLog
// whenever the gate let it run.
func (w *Workspace) DreamAuto(ctx context.Context, now time.Time, current string) (DreamAutoResult, error) {
	res := DreamAutoResult{Time: now.UTC(), Project: w.Layout.ProjectRoot}
	g, err := w.DreamDue(now, current)
	res.Gate = g
	if err != nil || !g.Due {
		return res, err
	}
	release, err := w.Store.AcquireConsolidation(now)
	if errors.Is(err, memdir.ErrConsolidating) {
		res.Gate.Due, res.Gate.Why = false, "another consolidation holds .consolidate-lock"
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Ran = true
	rep, err := w.Dream(ctx, DreamOptions{Apply: true, Lossless: true, Now: now, locked: true})
	res.Planned, res.Applied, res.Held = len(rep.Plan.Ops), rep.Applied, len(rep.Held)
	if rep.Batch != nil {
		res.Batch = rep.Batch.ID
	}
	if err != nil {
		res.Error = err.Error()
	}
	if rerr := release(err == nil); rerr != nil && err == nil {
		err = rerr
	}
	if b, jerr := json.Marshal(res); jerr == nil {
		_ = w.synthesisFolder().AppendLine(DreamLog, b)
	}
	return res, err
}

// synthesisFolder is the agent home's synthesis folder.
func (w *Workspace) synthesisFolder() *synthesis.Folder {
	timeout, _ := w.Env.LockTimeout()
	return synthesis.Open(w.Layout.SynthesisDir, lockfile.Options{Timeout: timeout, Holder: w.Env.Holder})
}
