// Package snapshot keeps a memory folder's recall snapshot: every memory's
// metadata and the BM25F index over them, derived from the files, cached in
// the folder's .memdir-cache/ (written through the store) and mapped on
// read, so a hook ranks 10,000 memories without reading them. It checks the
// files' sizes and change stamps against the snapshot and rebuilds what
// moved. The files stay the source of truth.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// File is the snapshot, in the memory folder's cache folder: not markdown,
// so neither memdir nor an agent takes it for a memory, and in a folder of
// its own, so replacing it does not touch the memory folder's mtime (which
// tells recall whether files came or went). It is derived from the memory
// files and rebuilt from them whenever it is missing, corrupt or out of
// date.
const File = memdir.CacheDir + "/recall.idx"

// racyWindow is how close to the snapshot's writing a file time must be
// for the file to be read again rather than trusted (some file systems
// keep times to the second, or two).
const racyWindow = int64(2 * time.Second)

// Memory is what recall needs of a memory.
func Memory(m memdir.Memory) recall.Memory {
	saved := m.Updated
	if saved.IsZero() {
		saved = m.Created
	}
	if saved.IsZero() {
		saved = m.ModTime
	}
	return recall.Memory{File: m.File, Name: m.Title(), Description: m.Summary(), Type: string(m.Type),
		Body: m.Body, Saved: saved, SupersededBy: m.SupersededBy}
}

// Fresh returns the folder's recall snapshot, up to date with the
// files. It reads the snapshot file, checks every file's size and change
// stamp against it (listing the folder only when its mtime moved), re-reads the
// files that changed, and replaces the snapshot file atomically when
// anything did. Files that cannot be parsed are left out and reported in
// problems; while there are any, the folder is listed on every call, so a
// file fixed in place (its folder's mtime unmoved) is seen. A folder that
// cannot be written still gets its snapshot, in memory.
func Fresh(ctx context.Context, s *memdir.Store) (snap *recall.Snapshot, problems []error, err error) {
	// The snapshot is dated when its look at the folder began, not when it
	// was written: a change in the same clock tick as that look must stay
	// racy however long the build takes.
	start := time.Now()
	// The cache folder first: making it moves the folder's mtime.
	// A folder that cannot be written (read-only mount, EROFS) still
	// gets its snapshot, in memory: the write below fails and is ignored.
	s.MakeCacheDir()
	dirInfo, err := os.Stat(s.Dir())
	if err != nil {
		return nil, nil, err
	}
	dirMtime := dirInfo.ModTime().UnixNano()
	snap = readSnapshot(s.Path(File))
	var builtAt int64
	if snap != nil {
		builtAt = snap.Built()
	}
	// A time within racyWindow of the snapshot's own may hide a change made
	// in the same timestamp tick (coarse file systems): such a folder or
	// file is not trusted, as git treats its racily clean index entries.
	racy := func(t int64) bool { d := t - builtAt; return d > -racyWindow && d < racyWindow }
	// The files, as the snapshot knows them or as the folder lists them.
	var files []string
	listed := false
	if snap != nil && snap.DirMtime() == dirMtime && !racy(dirMtime) {
		files = make([]string, snap.Len())
		for i := range files {
			files[i] = snap.File(i)
		}
	} else if files, err = s.Files(); err != nil {
		return nil, nil, err
	} else {
		listed = true
	}
	stats := statAll(s.Dir(), files)
	// When the folder's mtime has not moved, files are the snapshot's, in
	// its order: compare record by record.
	if snap != nil && snap.DirMtime() == dirMtime && len(files) == snap.Len() {
		same := true
		for i := range files {
			size, stamp := snap.Stat(i)
			if stats[i].err != nil || size != stats[i].size || stamp != stats[i].stamp || racy(stamp) {
				same = false
				break
			}
		}
		// A folder listed only because its time was racy is written again
		// once that time is safely past, so later calls trust it without
		// listing; until then every call lists it.
		settled := listed && time.Now().UnixNano()-dirMtime >= racyWindow
		if same && !settled {
			return snap, nil, nil
		}
	}
	known := map[string]int{}
	if snap != nil {
		for i := range snap.Len() {
			known[snap.File(i)] = i
		}
	}
	entries := make([]recall.Entry, 0, len(files))
	// unchanged: every entry so far is the snapshot's own, in its order.
	unchanged := snap != nil
	for i, f := range files {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if stats[i].err != nil {
			if !errors.Is(stats[i].err, fs.ErrNotExist) {
				problems = append(problems, stats[i].err)
			}
			continue
		}
		if j, ok := known[f]; ok {
			if size, stamp := snap.Stat(j); size == stats[i].size && stamp == stats[i].stamp && !racy(stamp) {
				if e, err := snap.Entry(j); err == nil {
					unchanged = unchanged && j == len(entries)
					entries = append(entries, e)
					continue
				}
			}
		}
		m, err := s.Read(f)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		unchanged = false
		// The stat from before the read: a change after it shows next time.
		entries = append(entries, recall.NewEntry(Memory(m), m.Refs, stats[i].size, stats[i].stamp))
	}
	snapDir := dirMtime
	if len(problems) > 0 {
		// Files left out are not in the snapshot's list: never trust the
		// list, so a file fixed in place is read again.
		snapDir = 0
	}
	if len(problems) > 0 && unchanged && len(entries) == snap.Len() && snap.DirMtime() == snapDir {
		// Only files that still do not parse were read again: the
		// snapshot on disk is right as it is.
		return snap, problems, nil
	}
	data := recall.Encode(entries, snapDir, start.UnixNano())
	// A snapshot that fails to write is still used; the next call retries.
	if testOnlyBeforeWrite != nil {
		testOnlyBeforeWrite(File)
	}
	_ = s.WriteCache(File, data)
	snap, err = recall.Open(data)
	return snap, problems, err
}

// fileStat is what tells a file changed: its size and its stamp, the
// later of its modification and change times where the system keeps both
// (a copy that keeps the mtime — cp -p, rsync -a, touch -r — still moves
// the change time).
type fileStat struct {
	size, stamp int64
	err         error
}

var errNotRegular = errors.New("not a regular file")

// testOnlyBeforeWrite, when set by a test, runs just before a snapshot is
// written.
var testOnlyBeforeWrite func(file string)

// Recalled is what Recall chose for a query.
type Recalled struct {
	Candidates []recall.Candidate // every ranked memory, with its decision
	Text       string             // the rendering to inject, "" when none was kept
	Index      *recall.Index      // for explaining scores
	Snapshot   *recall.Snapshot
}

// Recall ranks the folder's memories for query and selects what to inject
// under p, lexically (workspace.Recall adds the engines; front ends call
// that).
// projectRoot is where the memories' refs are looked up for staleness.
// Files that cannot be parsed are reported in problems and left out.
func Recall(ctx context.Context, s *memdir.Store, projectRoot, query string, p recall.Policy, now time.Time) (rec Recalled, problems []error, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			rec, err = Recalled{}, faultError(r)
		}
	}()
	snap, problems, err := Fresh(ctx, s)
	if err != nil {
		return Recalled{}, problems, err
	}
	rec, more := From(s, snap, projectRoot, query, p, now)
	return rec, append(problems, more...), nil
}

// faultError is the error for a fault while reading the mapped snapshot:
// a file cut short in place (cp over it, rsync --inplace, a restore) makes
// the pages past its new end fault, which without SetPanicOnFault would
// kill the process — and a hook that dies exits 2, which blocks the agent.
// Any other panic goes on.
func faultError(r any) error {
	if re, ok := r.(runtime.Error); ok {
		if _, ok := re.(interface{ Addr() uintptr }); ok {
			return fmt.Errorf("%s changed while it was read (cut short in place?): %v", File, re)
		}
	}
	panic(r)
}

// From is Recall on a snapshot the caller already holds (a server
// that checks freshness on its own schedule, a benchmark).
func From(s *memdir.Store, snap *recall.Snapshot, projectRoot, query string, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			rec, problems = Recalled{}, append(problems, faultError(r))
		}
	}()
	ix := snap.DefaultIndex()
	terms, groups := recall.Default.Prompt(query)
	return Ranked(s, snap, projectRoot, ix.SearchGroups(terms, groups), p, now)
}

// Ranked selects and renders from a ranking made elsewhere (an LLM's
// selection, a fusion with embeddings): the same policy, the same
// rendering.
func Ranked(s *memdir.Store, snap *recall.Snapshot, projectRoot string, ranked []recall.Scored, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			rec, problems = Recalled{}, append(problems, faultError(r))
		}
	}()
	ix := snap.DefaultIndex()
	src := recallSource{st: s, snap: snap, root: projectRoot}
	cands := recall.Select(&src, ranked, p, now)
	problems = append(problems, src.problems...)
	for i := range cands {
		if cands[i].File == "" {
			cands[i].File = snap.File(cands[i].Doc) // decided without reading it
		}
	}
	return Recalled{Candidates: cands, Text: recall.Render(cands), Index: ix, Snapshot: snap}, problems
}

// recallSource reads what selection needs: metadata from the snapshot,
// the body and the refs' existence from disk for the few that may be
// rendered.
type recallSource struct {
	st       *memdir.Store
	snap     *recall.Snapshot
	root     string
	problems []error
}

func (r *recallSource) Memory(doc int, full bool) recall.Memory {
	m, refs, err := r.snap.Memory(doc)
	if err != nil || !full {
		return m
	}
	if got, err := r.st.Read(m.File); err == nil {
		m.Body = got.Body
	} else {
		r.problems = append(r.problems, err)
	}
	for _, ref := range refs {
		if p, ok := RefPath(ref); ok {
			if _, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(p))); errors.Is(err, os.ErrNotExist) {
				m.MissingRefs = append(m.MissingRefs, ref)
			}
		}
	}
	return m
}

// RefPath tells a file reference from a symbol and returns the file's
// path without a ":12", ":12:3" or "#L12-L20" position. A path has a known
// file extension, or a separator and no dot in its last element
// ("internal/recall", "scripts/deploy"); "recall.Select", "os.Getenv" and
// "internal/recall.Select" are symbols, left to the agent to verify.
func RefPath(ref string) (string, bool) {
	if ref == "" || strings.ContainsAny(ref, " \t()") || filepath.IsAbs(ref) {
		return "", false
	}
	if i := strings.Index(ref, "#L"); i > 0 {
		ref = ref[:i]
	}
	for {
		i := strings.LastIndexByte(ref, ':')
		if i <= 0 || i == len(ref)-1 || strings.Trim(ref[i+1:], "0123456789") != "" {
			break
		}
		ref = ref[:i]
	}
	base := ref[strings.LastIndexByte(ref, '/')+1:]
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(base), "."))
	switch {
	case fileExts[ext]:
		return ref, true
	case strings.Contains(ref, "/") && !strings.Contains(base, "."):
		return ref, true
	}
	return "", false
}

// fileExts are the extensions that make a reference a file.
var fileExts = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range strings.Fields(`go mod sum py pyi ipynb js mjs cjs jsx ts tsx vue svelte rs java kt kts scala groovy gradle
		c h cc cpp cxx hpp hh m mm swift rb php cs fs ex exs erl hrl hs ml mli clj cljs dart r jl lua pl pm sh bash zsh fish
		ps1 bat sql graphql proto thrift avsc tf hcl nix md mdx rst txt adoc json jsonl yaml yml toml ini cfg conf env
		lock xml html htm css scss sass less svg png jpg jpeg gif csv tsv parquet zig nim cue star bzl dockerfile makefile`) {
		m[e] = true
	}
	return m
}()

// Names lists every memory's file and name from the snapshot: what a store
// opened by a workspace uses to find a memory by name (memdir.Options.Names).
func Names(ctx context.Context, s *memdir.Store) ([]memdir.NamedFile, error) {
	snap, _, err := Fresh(ctx, s)
	if err != nil {
		return nil, err
	}
	out := make([]memdir.NamedFile, 0, snap.Len())
	for i := range snap.Len() {
		if m, _, err := snap.Memory(i); err == nil {
			out = append(out, memdir.NamedFile{File: snap.File(i), Name: m.Name})
		}
	}
	return out, nil
}
