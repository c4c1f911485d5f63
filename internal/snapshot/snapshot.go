// Package snapshot keeps a memory folder's recall snapshot: every memory's
// metadata and the BM25F index over them, derived from the files, cached in
// the folder's .memdir-cache/ (written through the store) and mapped on
// read, so a hook ranks 10,000 memories without reading them. The files
// stay the source of truth.
//
// # Freshness
//
// A prompt's check costs no stat per memory. memdir writes every file by
// a rename in the folder, which moves the folder's mtime; Fresh trusts the
// snapshot while that mtime stays where the snapshot saw it, and otherwise
// lists the folder once, with each name's inode, and reads only the names
// that are new or were replaced (see Fresh). What can be stale, and for
// how long:
//
//   - Files added, removed or renamed, by memdir or anything else: never;
//     the next recall sees them. A name replaced twice between two looks
//     can get its old inode back (ext4 reuses a freed inode at once): the
//     names memdir wrote lately (memdir.WrittenLog) are stat'ed, not
//     trusted by inode; another program's double replace is the sweep's.
//   - A memory about to be injected: never. Recall reads it from the file
//     and uses the file as it is now (its name, description, type,
//     supersession and body); a memory deleted meanwhile is not injected,
//     and a changed one goes into the snapshot.
//   - A memory rewritten in place by another program (an editor that
//     truncates and writes, echo >>, rsync --inplace) that is not
//     injected: its ranking uses its old words until the next Sweep, run by
//     the hooks at SessionStart and between prompts once the last one is
//     older than SweepEvery (one minute), and every minute by an MCP
//     server that cannot watch the folder. A
//     prompt in the meantime may rank it by its old text, never inject its
//     old text.
//   - On systems without getdents64 (not Linux) a listing stats every
//     file: linear, but only when the folder's mtime moved.
//
// # Segments
//
// The snapshot is a base (File) and a delta (DeltaFile) over it, both
// replaced atomically through the store: a change rewrites only the delta,
// which holds the changed memories and tombstones for the base documents
// they replace, and scores exactly as one rebuilt snapshot would. A delta
// grown past mergeAt documents is merged into a new base by the next
// Sweep, or by any refresh once it is four times that. Killed at any
// point, a writer leaves the old files or the new ones; a delta left
// beside a newer base is never read over it, and a corrupt file is
// rebuilt, never trusted.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// File is the snapshot's base, in the memory folder's cache folder: not markdown,
// so neither memdir nor an agent takes it for a memory, and in a folder of
// its own, so replacing it does not touch the memory folder's mtime (which
// tells recall whether files came or went). It is derived from the memory
// files and rebuilt from them whenever it is missing, corrupt or out of
// date.
const File = memdir.CacheDir + "/recall.idx"

// racyWindow is how close to the snapshot's look at the folder the
// folder's time must be for the listing to be done again rather than
// trusted, and how close to its reading a file's time must be for its
// stamp to be recorded as unknown (some file systems keep times to the
// second, or two).
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
		Body: m.Body, Saved: saved, SupersededBy: m.SupersededBy, Stale: m.Stale, Author: m.Author}
}

// Recalled is what Recall chose for a query.
type Recalled struct {
	Candidates []recall.Candidate // every ranked memory, with its decision
	Text       string             // the rendering to inject, "" when none was kept
	Index      *recall.Index      // the first part's, for explaining its scores
	Snapshot   *recall.Snapshot   // the first part's
	// Parts are the folders ranked, in order; Merged ranks them as one
	// (a candidate's Doc is its merged number: Merged.Locate finds its
	// part), for explaining any candidate's scores.
	Parts  []Part
	Merged *recall.Merged
}

// Part is one memory folder recall ranks with the others: its store, the
// snapshot of it to rank, and how its memories are named and marked
// among the others' (Prefix before each file, "team/" for the project's
// team folder; Scope in each candidate). The private folder comes first,
// with no prefix; a further folder (a global one of the user's, one day)
// is one more Part.
type Part struct {
	Store  *memdir.Store
	Snap   *recall.Snapshot
	Prefix string
	Scope  string
	// Forgotten are files of the part (no prefix) never to inject: a team
	// memory that came back despite its tombstone (a stale branch merged)
	// until a person resolves it.
	Forgotten map[string]bool
	// NoRefs: the part's memories' refs are not looked up in the project
	// (the user's global folder belongs to no project).
	NoRefs bool
	// Reads, when set, keeps what recalls read of the part's files for the
	// next recall in this process; nil reads every time.
	Reads *Reads
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
// that checks freshness on its own schedule, a benchmark). It ranks only
// as many memories as selection needs (recall.SearchSelect): Candidates
// holds those it looked at, not every memory that matched.
func From(s *memdir.Store, snap *recall.Snapshot, projectRoot, query string, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	return FromParts([]Part{{Store: s, Snap: snap}}, projectRoot, query, p, now)
}

// Merge ranks the parts' snapshots as one (recall.Merged: pooled idf;
// one part is its index unchanged).
func Merge(parts []Part) *recall.Merged {
	ixs := make([]*recall.Index, len(parts))
	for i, pt := range parts {
		ixs[i] = pt.Snap.DefaultIndex()
	}
	return recall.Merge(ixs...)
}

// FromParts is From over several folders ranked as one (see Merge and
// recall.Merged) and selected under one policy: k, budget, threshold and
// the session's exclusions hold for them together.
func FromParts(parts []Part, projectRoot, query string, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			rec, problems = Recalled{}, append(problems, faultError(r))
		}
	}()
	mx := Merge(parts)
	terms, groups := recall.Default.Prompt(query)
	var gone bool
	rec, problems = selected(parts, mx, projectRoot, func(src *recallSource) []recall.Candidate {
		cands := recall.SearchSelect(mx, src, terms, groups, p, now)
		gone = src.newGone
		return cands
	})
	if gone {
		// A memory deleted since the snapshot turned up (a race with a
		// writer; a deletion moves the folder's time, which the next
		// check sees): select again from the whole ranking without it.
		return RankedParts(parts, projectRoot, mx.SearchGroups(terms, groups), p, now)
	}
	return rec, problems
}

// Ranked selects and renders from a ranking made elsewhere (an LLM's
// selection, a fusion with embeddings, the whole lexical ranking an
// explanation shows): the same policy, the same rendering.
func Ranked(s *memdir.Store, snap *recall.Snapshot, projectRoot string, ranked []recall.Scored, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	return RankedParts([]Part{{Store: s, Snap: snap}}, projectRoot, ranked, p, now)
}

// RankedParts is Ranked over several folders; ranked holds merged
// document numbers (Merge's).
func RankedParts(parts []Part, projectRoot string, ranked []recall.Scored, p recall.Policy, now time.Time) (rec Recalled, problems []error) {
	return selected(parts, Merge(parts), projectRoot, func(src *recallSource) []recall.Candidate {
		cands := recall.Select(src, ranked, p, now)
		// A memory deleted since the snapshot (or no longer readable) is
		// never injected: select again without it, as often as another
		// turns up.
		for src.newGone {
			src.newGone = false
			ranked = slices.DeleteFunc(slices.Clone(ranked), func(sc recall.Scored) bool { return src.fresh[sc.Doc].gone })
			cands = recall.Select(src, ranked, p, now)
		}
		return cands
	})
}

// selected runs a selection over the parts' memories, read through a
// recallSource, and renders what it kept.
func selected(parts []Part, mx *recall.Merged, projectRoot string, pick func(*recallSource) []recall.Candidate) (rec Recalled, problems []error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			rec, problems = Recalled{}, append(problems, faultError(r))
		}
	}()
	src := recallSource{parts: parts, mx: mx, root: projectRoot, fresh: map[int]freshMemory{}}
	cands := pick(&src)
	problems = append(problems, src.problems...)
	for i := range cands {
		if cands[i].File == "" {
			// Decided without reading it.
			pt, local := src.locate(cands[i].Doc)
			cands[i].File, cands[i].Scope = pt.Prefix+pt.Snap.File(local), pt.Scope
		}
	}
	src.note()
	return Recalled{Candidates: cands, Text: recall.Render(cands), Index: parts[0].Snap.DefaultIndex(), Snapshot: parts[0].Snap,
		Parts: parts, Merged: mx}, problems
}

// recallSource reads what selection needs: the snapshot's metadata for the
// many decided on their scores alone, and the file as it is now for the few
// that may be injected (Select asks for those only). What is injected is
// always the file's current text and metadata, never the snapshot's.
// Documents are numbered as the parts' Merged ranking numbers them.
type recallSource struct {
	parts    []Part
	mx       *recall.Merged
	root     string
	problems []error
	fresh    map[int]freshMemory
	newGone  bool
}

// locate returns the part of merged document doc and its number there.
func (r *recallSource) locate(doc int) (Part, int) {
	i, local := r.mx.Locate(doc)
	return r.parts[i], local
}

// freshMemory is a memory read from its file during selection.
type freshMemory struct {
	m       recall.Memory
	refs    []string
	gone    bool // deleted or unreadable: not to be injected
	changed bool // the file differs from the snapshot's record of it
	refsOK  bool // MissingRefs checked
}

func (r *recallSource) Memory(doc int, full bool) recall.Memory {
	f, ok := r.fresh[doc]
	if !ok {
		f = r.read(doc)
		r.fresh[doc] = f
	}
	if full && !f.refsOK && !f.gone {
		refs := f.refs
		if part, _ := r.locate(doc); part.NoRefs {
			refs = nil
		}
		for _, ref := range refs {
			if p, ok := RefPath(ref); ok {
				if _, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(p))); errors.Is(err, os.ErrNotExist) {
					f.m.MissingRefs = append(f.m.MissingRefs, ref)
				}
			}
		}
		f.refsOK = true
		r.fresh[doc] = f
	}
	return f.m
}

// read reads memory doc's file, stat'ed first: a size, stamp or inode that
// differs from the snapshot's marks it changed (an in-place edit the
// snapshot has not seen yet), and note puts it in the snapshot. Its File
// carries its part's prefix, and it carries the part's scope.
func (r *recallSource) read(doc int) freshMemory {
	pt, local := r.locate(doc)
	f := r.readIn(pt, local)
	f.m.File, f.m.Scope = pt.Prefix+f.m.File, pt.Scope
	return f
}

func (r *recallSource) readIn(pt Part, doc int) freshMemory {
	m, _, err := pt.Snap.Memory(doc)
	if err != nil {
		r.problems = append(r.problems, err)
		r.newGone = true
		return freshMemory{m: m, gone: true}
	}
	if pt.Forgotten[m.File] {
		// Left out as a deleted one is, but the snapshot keeps it.
		r.newGone = true
		return freshMemory{m: m, gone: true}
	}
	st := statAll(pt.Store.Dir(), []string{m.File})[0]
	size, stamp := pt.Snap.Stat(doc)
	ino := pt.Snap.Ino(doc)
	changed := st.size != size || stamp != 0 && st.stamp != stamp || ino != 0 && st.ino != 0 && st.ino != ino
	if c, ok := pt.Reads.get(m.File, st); ok {
		return freshMemory{m: c.m, refs: c.refs, changed: changed}
	}
	got, err := pt.Store.Read(m.File)
	if err == nil && st.err != nil {
		err = st.err
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.problems = append(r.problems, err)
		}
		r.newGone = true
		return freshMemory{m: m, gone: true, changed: true}
	}
	fm := freshMemory{m: Memory(got), refs: got.Refs, changed: changed}
	pt.Reads.put(m.File, st, fm.m, fm.refs, time.Now())
	return fm
}

// note writes the memories found changed during selection into their
// snapshots' deltas, so the next prompt ranks them by their current text.
// The snapshots' own looks at their folders are unchanged: their headers
// are kept.
func (r *recallSource) note() {
	for i, pt := range r.parts {
		u := update{snap: pt.Snap, start: time.Now(), dead: map[int]bool{}}
		for doc, f := range r.fresh {
			if part, local := r.mx.Locate(doc); part == i && f.changed {
				u.dead[local] = true
				if !f.gone {
					u.reads = append(u.reads, strings.TrimPrefix(f.m.File, pt.Prefix))
				}
			}
		}
		if len(u.dead) == 0 {
			continue
		}
		// Only over the snapshot on disk it was read from: a caller that held
		// its snapshot a while (the MCP server) must not put a newer delta,
		// or a delta over a newer base, back to its own older one. A refused
		// note costs nothing: the next look that injects the memory sees the
		// change again, and the next sweep records it.
		if now := readSnapshot(pt.Store.Path(File), pt.Store.Path(DeltaFile)); now == nil || now.Header() != pt.Snap.Header() {
			continue
		}
		if _, err := u.read(context.Background(), pt.Store); err == nil {
			_, _ = u.write(pt.Store, pt.Snap.Header(), false)
		}
	}
}

// RefPath tells a file reference from a symbol, flag, command, package or
// URL (refs hold all of them) and returns the file's path without a
// leading "./" or a ":12", ":12:3" or "#L12-L20" position; see
// claims.PathOf. Only a path can be missing from the project: a symbol is
// never called missing here ('memdir verify' looks for it).
//
// A path that leads out of the project ("../x") is no ref of it: it is
// never stat'ed, so never called missing (nor found).
func RefPath(ref string) (string, bool) {
	if claims.Classify(ref) != claims.Path {
		return "", false
	}
	p, ok := claims.PathOf(ref)
	if c := path.Clean(p); !ok || c == ".." || strings.HasPrefix(c, "../") || path.IsAbs(c) {
		return "", false
	}
	return p, true
}

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
