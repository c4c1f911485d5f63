package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/workspace"
)

// The server keeps each project's recall snapshot in memory between
// calls, so a call does not stat every memory file as a hook must. What
// it guarantees, for a change finished before a call arrives:
//
//   - A memory created, deleted or renamed (which is every write through
//     the store: it replaces files by rename) is seen: every call stats the
//     folder, and a folder whose change time moved is checked in full
//     (snapshot.Fresh) before the call is answered. While the newest time
//     the snapshot read is within the racy window of its look (a second
//     change could share its clock tick and leave the time unmoved), every
//     call checks in full, as a hook does. The window is snapshot's 2 s,
//     or watchedWindow on a watched folder whose times are finer than a
//     millisecond: there a change in the same tick (a few milliseconds on
//     Linux) also raises an event.
//   - A memory changed in place by another writer (an editor, a sync tool)
//     is seen once its fsnotify event arrives (microseconds to
//     milliseconds after the write); the memories a call returns (the ones
//     recall renders, a page of memory_list) are stat'ed at the call, and
//     any that changed make the call check in full and answer again. So no
//     call returns what a memory said before a change that finished before
//     the call; only the choice of which memories recall ranks first may
//     rest on the old text until the event arrives.
//   - When the folder cannot be watched (the inotify limit, an unsupported
//     file system), a poller checks in full every pollEvery instead; the
//     two checks above still hold.
const (
	// debounce: a burst of events (a save writes a temp file, renames it,
	// rewrites MEMORY.md) is checked once, this long after the last.
	debounce = 200 * time.Millisecond
	// racyWindow is snapshot's: a file time this close to the look that
	// read it may hide a later change in the same clock tick.
	racyWindow = int64(2 * time.Second)
	// watchedWindow replaces it on a watched folder with fine times.
	watchedWindow = int64(100 * time.Millisecond)
	// maxLive bounds the projects whose snapshots a server keeps (an HTTP
	// server may serve many); the least recently used goes first.
	maxLive = 16
)

// pollEvery is how often a folder that cannot be watched is checked.
var pollEvery = 2 * time.Second

// testOnlyNoWatch makes servers poll, as when watching fails.
var testOnlyNoWatch bool

// testOnlyChecks counts full checks, for tests.
var testOnlyChecks atomic.Int64

// lives are the projects' held snapshots, by memory folder, and the one
// watcher that watches their folders.
type lives struct {
	mu      sync.Mutex
	byDir   map[string]*live
	watcher *fsnotify.Watcher // nil when watching failed: every live polls
	closed  bool
	wg      sync.WaitGroup
}

// live is one project's snapshot and what tells it is still fresh.
type live struct {
	st  *memdir.Store
	dir string

	watched bool // set once, before any call: fsnotify watches the folder

	dirty atomic.Bool  // an event came since the last check
	used  atomic.Int64 // when a call last asked, in nanoseconds

	// tmu guards the background check's timer and stop, apart from mu,
	// so an event never waits for a check in progress.
	tmu   sync.Mutex
	timer *time.Timer   // the debounced check after events
	stop  chan struct{} // closes the poller, or ends the debounce
	// running counts the timer's checks in progress, which Close waits for.
	running sync.WaitGroup

	reads *snapshot.Reads // the memories recalls read, for the next recall

	mu       sync.Mutex
	snap     *recall.Snapshot
	problems []error
	listing  *workspace.Listing // made on the first list after a check
	dirMtime int64              // the folder's mtime when the check began
	settled  bool               // the check began a racy window past every time it read
}

func newLives() *lives {
	ls := &lives{byDir: map[string]*live{}}
	if testOnlyNoWatch {
		return ls
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return ls // every folder is polled
	}
	ls.watcher = w
	ls.wg.Add(1)
	go ls.watch()
	return ls
}

// get returns the live snapshot of st's folder, watching the folder (or
// polling it) from the first call on.
func (ls *lives) get(st *memdir.Store) (*live, error) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.closed {
		return nil, errors.New("server closed")
	}
	dir := st.Dir()
	if l := ls.byDir[dir]; l != nil {
		return l, nil
	}
	if len(ls.byDir) >= maxLive {
		var old *live
		for _, l := range ls.byDir {
			if old == nil || l.used.Load() < old.used.Load() {
				old = l
			}
		}
		ls.dropLocked(old)
	}
	l := &live{st: st, dir: dir, stop: make(chan struct{}), reads: snapshot.NewReads()}
	l.used.Store(time.Now().UnixNano())
	l.dirty.Store(true)
	ls.byDir[dir] = l
	l.watched = ls.watcher != nil && ls.watcher.Add(dir) == nil
	if !l.watched {
		ls.wg.Add(1)
		go func() {
			defer ls.wg.Done()
			l.poll()
		}()
	}
	return l, nil
}

// dropLocked forgets l: its watch, its timer, its poller.
func (ls *lives) dropLocked(l *live) {
	if ls.byDir[l.dir] != l {
		return
	}
	delete(ls.byDir, l.dir)
	if ls.watcher != nil {
		_ = ls.watcher.Remove(l.dir)
	}
	l.tmu.Lock()
	close(l.stop)
	if l.timer != nil {
		l.timer.Stop()
	}
	l.tmu.Unlock()
	l.dirty.Store(true)
}

// close stops the watcher and every poller and timer, and waits for their
// goroutines.
func (ls *lives) close() error {
	ls.mu.Lock()
	if ls.closed {
		ls.mu.Unlock()
		return nil
	}
	ls.closed = true
	var dropped []*live
	for _, l := range ls.byDir {
		ls.dropLocked(l)
		dropped = append(dropped, l)
	}
	var err error
	if ls.watcher != nil {
		err = ls.watcher.Close()
	}
	ls.mu.Unlock()
	ls.wg.Wait()
	for _, l := range dropped {
		l.running.Wait()
	}
	return err
}

// watch marks the folders events name dirty.
func (ls *lives) watch() {
	defer ls.wg.Done()
	for {
		select {
		case ev, ok := <-ls.watcher.Events:
			if !ok {
				return
			}
			ls.event(ev)
		case err, ok := <-ls.watcher.Errors:
			if !ok {
				return
			}
			// An overflow lost events: every folder may have changed.
			_ = err
			ls.mu.Lock()
			for _, l := range ls.byDir {
				l.touch()
			}
			ls.mu.Unlock()
		}
	}
}

func (ls *lives) event(ev fsnotify.Event) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if l := ls.byDir[filepath.Clean(ev.Name)]; l != nil {
		// The folder itself was removed or moved: its watch is gone.
		// The next call starts again from whatever is there.
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			ls.dropLocked(l)
		}
		return
	}
	if ignored(filepath.Base(ev.Name)) {
		return
	}
	if l := ls.byDir[filepath.Dir(ev.Name)]; l != nil {
		l.touch()
	}
}

// ignored are the names in a memory folder that are no memory, as
// memdir.Store.Files skips them: dot files (the cache folder, whose own
// writes raise no event here, the lock, temp files of atomic writes, the
// forgotten folder), MEMORY.md, and anything not markdown.
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || memdir.IsIndexName(name) || !strings.HasSuffix(name, ".md")
}

// touch marks l dirty at once (a call from now on checks first) and
// checks in the background once events stop for debounce, so the next
// call finds it fresh.
func (l *live) touch() {
	l.dirty.Store(true)
	l.schedule(debounce)
}

// schedule checks l in the background after the given time (again from
// now if one was already due).
func (l *live) schedule(after time.Duration) {
	l.tmu.Lock()
	defer l.tmu.Unlock()
	select {
	case <-l.stop:
		return
	default:
	}
	if l.timer != nil {
		l.timer.Reset(after)
		return
	}
	l.timer = time.AfterFunc(after, func() {
		l.tmu.Lock()
		select {
		case <-l.stop:
			l.tmu.Unlock()
			return
		default:
		}
		l.running.Add(1)
		l.tmu.Unlock()
		defer l.running.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.dirty.Load() || !l.settled {
			_ = l.checkLocked(context.Background(), l.dirty.Load())
		}
	})
}

// poll checks the folder every pollEvery: the fallback when it cannot be
// watched. Most checks are snapshot.Fresh (one stat of the folder while
// nothing moved); a full one, which stats every file to see edits in
// place, runs once snapshot.SweepEvery has passed since the last — so an
// idle server with many memories does not stat and rewrite them all
// every few seconds.
func (l *live) poll() {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	var swept time.Time
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			full := now.Sub(swept) >= snapshot.SweepEvery
			l.mu.Lock()
			if l.checkLocked(context.Background(), full) == nil && full {
				swept = now
			}
			l.mu.Unlock()
		}
	}
}

// fresh returns the snapshot, checked first if an event came, the
// folder's time moved, or the last check was too close to a change to be
// trusted.
func (l *live) fresh(ctx context.Context) (*recall.Snapshot, []error, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.used.Store(time.Now().UnixNano())
	if l.snap != nil && l.settled && !l.dirty.Load() {
		if fi, err := os.Stat(l.dir); err == nil && fi.ModTime().UnixNano() == l.dirMtime {
			return l.snap, l.problems, nil
		}
	}
	if err := l.checkLocked(ctx, l.dirty.Load()); err != nil {
		return nil, nil, err
	}
	return l.snap, l.problems, nil
}

// checkLocked brings the snapshot up to date: with snapshot.Fresh, which
// sees files added, removed and renamed, or, when full (an event or a
// call's stat saw a file change, or the poller's turn), with
// snapshot.Swept, which stats every file and so also sees edits in place.
func (l *live) checkLocked(ctx context.Context, full bool) error {
	testOnlyChecks.Add(1)
	// Clear first: an event during the check marks it dirty again.
	l.dirty.Store(false)
	look := time.Now().UnixNano()
	// Fresh makes the cache folder, which moves the folder's time: make
	// it before reading that time.
	l.st.MakeCacheDir()
	fi, err := os.Stat(l.dir)
	if err != nil {
		l.snap, l.listing = nil, nil
		l.dirty.Store(true)
		return err
	}
	check := snapshot.Fresh
	if full {
		check = snapshot.Swept
	}
	snap, problems, err := check(ctx, l.st)
	if err != nil {
		l.snap, l.listing = nil, nil
		l.dirty.Store(true)
		return err
	}
	newest := fi.ModTime().UnixNano()
	for i := range snap.Len() {
		_, stamp := snap.Stat(i)
		newest = max(newest, stamp)
	}
	l.snap, l.problems, l.listing = snap, problems, nil
	l.dirMtime = fi.ModTime().UnixNano()
	window := racyWindow
	if l.watched && l.dirMtime%int64(time.Millisecond) != 0 {
		window = watchedWindow
	}
	l.settled = look-newest >= window
	if !l.settled {
		// Check again once the window has passed, so calls after it are
		// answered from memory.
		l.schedule(time.Duration(newest + window - look + int64(10*time.Millisecond)))
	}
	return nil
}

// listing is the snapshot in list order, made on the first list after a
// check.
func (l *live) listingOf(ctx context.Context) (*workspace.Listing, []error, error) {
	snap, problems, err := l.fresh(ctx)
	if err != nil {
		return nil, nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.listing != nil && l.listing.Snapshot() == snap {
		return l.listing, problems, nil
	}
	ls, err := workspace.NewListing(snap)
	if err != nil {
		return nil, nil, err
	}
	if l.snap == snap {
		l.listing = ls
	}
	return ls, problems, nil
}

// changed reports whether any of files differs on disk from what snap
// recorded of it (size and change stamp): a write in place whose event
// has not arrived yet. docs are the files' places in snap.
func (l *live) changed(snap *recall.Snapshot, docs []int) bool {
	if snapshot.Changed(l.dir, snap, docs) {
		l.dirty.Store(true)
		return true
	}
	return false
}

// recallHeld recalls from the project's held snapshots: the private
// folder's, the user's global folder's when there is one and, when the
// project keeps team memories, the team folder's, each watched on its own
// (a global or team folder is one more live folder). A
// memory it would render that changed on disk since its snapshot (a write
// in place whose event is still on its way) makes it check that folder
// and recall again.
func (h *handlers) recallHeld(ctx context.Context, ws *workspace.Workspace, q workspace.Query) (workspace.Recalled, error) {
	held := []*workspace.Workspace{ws}
	// The user's global folder, when it can be used: one that cannot
	// (a link out of the home folders, unreadable) is left out, and the
	// project's memories are still recalled.
	global, err := ws.Global(false)
	if err == nil && global != nil && global != ws {
		held = append(held, global)
	}
	team, err := ws.TeamReader()
	if err != nil {
		return workspace.Recalled{}, err
	}
	if team != nil && team != ws {
		held = append(held, team)
	}
	rec, err := h.recallFolders(ctx, ws, held, q)
	var ge *globalError
	if errors.As(err, &ge) {
		held = slices.DeleteFunc(held, func(w *workspace.Workspace) bool { return w == ge.ws })
		return h.recallFolders(ctx, ws, held, q)
	}
	return rec, err
}

// globalError is the user's global folder failing in recallFolders: the
// recall is made again without it.
type globalError struct {
	ws  *workspace.Workspace
	err error
}

func (e *globalError) Error() string { return "global memories: " + e.err.Error() }

// recallFolders is recallHeld on the folders held, ws's own first.
func (h *handlers) recallFolders(ctx context.Context, ws *workspace.Workspace, held []*workspace.Workspace, q workspace.Query) (workspace.Recalled, error) {
	ls := make([]*live, len(held))
	for i, w := range held {
		var err error
		if ls[i], err = h.lives.get(w.Store); err != nil {
			if i > 0 && w.IsGlobal() {
				return workspace.Recalled{}, &globalError{w, err}
			}
			return workspace.Recalled{}, err
		}
	}
	for try := 0; ; try++ {
		parts := make([]snapshot.Part, len(held))
		for i, w := range held {
			snap, _, err := ls[i].fresh(ctx)
			if err != nil && i > 0 && w.IsGlobal() {
				return workspace.Recalled{}, &globalError{w, err}
			}
			if err != nil {
				return workspace.Recalled{}, err
			}
			parts[i] = w.Part(snap)
			parts[i].Reads = ls[i].reads
		}
		rec, err := ws.RecallParts(ctx, parts, q)
		if err != nil {
			return rec, err
		}
		kept := make([][]int, len(held))
		for _, c := range rec.Candidates {
			if c.Kept && rec.Merged != nil {
				part, local := rec.Merged.Locate(c.Doc)
				kept[part] = append(kept[part], local)
			}
		}
		changed := false
		for i := range held {
			// Every folder's check, not the first that changed: each
			// marks its live dirty for the next try.
			changed = ls[i].changed(parts[i].Snap, kept[i]) || changed
		}
		if try == 1 || !changed {
			return rec, nil
		}
	}
}

// recalledMemories are the memories rec kept, with their scope and author.
func recalledMemories(rec workspace.Recalled) []RecalledMemory {
	out := []RecalledMemory{}
	for _, c := range rec.Candidates {
		if c.Kept {
			out = append(out, RecalledMemory{File: c.File, Scope: cmp.Or(c.Scope, memdir.ScopePrivate), Author: c.Author})
		}
	}
	return out
}
