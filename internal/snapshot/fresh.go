package snapshot

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"time"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// DeltaFile holds the memories changed since File, the base, was written
// (see recall's segments): one change rewrites this small file, not the
// base.
const DeltaFile = memdir.CacheDir + "/recall.delta"

// SweepEvery is how old the last full check may grow before the hooks
// that run between prompts (Stop, PreCompact, SessionEnd) make another:
// the longest an in-place edit of a memory that is not injected stays
// unseen within a session. SessionStart always makes one.
const SweepEvery = time.Minute

// The delta is merged into a new base once it holds more than
// mergeAt(n) documents and tombstones: by a sweep, off the prompt's
// path, or by any refresh past four times that. With the base written
// every m changes and the delta rewritten on each, a change costs about
// m + n/m document encodings, least at m ≈ √n; a little above it, as
// rewriting the delta is cheaper per document than a merge.
func mergeAt(n int) int { return max(64, 2*isqrt(n)) }

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// dirEntry is a listed memory file and its inode (0: unknown).
type dirEntry struct {
	name string
	ino  uint64
}

// memoryName reports whether a folder entry's name is a memory file's
// (Store.Files' rule: *.md, not a dot file, not MEMORY.md).
func memoryName(name []byte) bool {
	return len(name) > 0 && name[0] != '.' && bytes.HasSuffix(name, []byte(".md")) && !memdir.IsIndexName(string(name))
}

// fileStat is what tells a file changed: its size and its stamp, the
// later of its modification and change times where the system keeps both
// (a copy that keeps the mtime — cp -p, rsync -a, touch -r — still moves
// the change time), and its inode.
type fileStat struct {
	size, stamp int64
	ino         uint64
	err         error
}

var errNotRegular = errors.New("not a regular file")

// testOnlyBeforeWrite, when set by a test, runs just before a snapshot
// file is written.
var testOnlyBeforeWrite func(file string)

// Fresh returns the folder's recall snapshot, up to date with the folder's
// list of files. What it checks, and so what can be stale:
//
//   - The folder's mtime unmoved (and not within racyWindow of the
//     snapshot's look at it): no file was added, removed or renamed, and
//     the snapshot is used as it is, without a stat per file.
//   - The folder's mtime moved, and the store's written log accounts for
//     every move since the snapshot's (memdir.Store.WrittenSince: each
//     hold of the folder's lock logs the folder's time before and after it
//     and the files it wrote): those files alone are stat'ed and read, no
//     listing (fromLog). This is the first prompt after a save.
//   - The folder's mtime moved otherwise: one listing of the folder with
//     each name's inode (getdents64 on Linux). New names and names whose
//     inode changed (replaced by a rename: every memdir write, most
//     editors' saves, cp and rsync's default) are read; vanished names are
//     dropped; the rest are trusted without a stat. Where the listing
//     gives no inodes (not Linux), every listed file is stat'ed.
//   - A file added, removed or renamed by another program while memdir
//     held the folder's lock (between the hold's two looks at the folder's
//     time) is taken for memdir's and not seen here; the next Sweep finds
//     it. Where the kernel keeps coarse file times (Linux before 6.13 has
//     no fine-grained ones: a clock tick is 1–10 ms), so is a change in
//     the same tick right after a hold.
//   - A file rewritten in place (same inode, the folder's mtime unmoved)
//     is not seen here: Recall reads every memory it is about to inject
//     from the file and uses the file as it is now, and Sweep, run by the
//     hooks at SessionStart and between prompts once SweepEvery has
//     passed, stats every file and reads the changed ones.
//
// The changes go into the delta beside the base (DeltaFile), written
// atomically through the store; a delta grown past four times mergeAt is
// merged into a new base here. Files that cannot be parsed are left out
// and reported in problems; while there are any, the folder is listed on
// every call, so a file fixed in place is seen. A folder that cannot be
// written still gets its snapshot, in memory.
func Fresh(ctx context.Context, s *memdir.Store) (snap *recall.Snapshot, problems []error, err error) {
	return refresh(ctx, s, false)
}

// Sweep is the full check Fresh leaves out: it stats every memory file,
// reads those whose size, change stamp or inode moved (in-place edits by
// another program included), records the time of the check, and merges a
// delta grown past mergeAt into a new base. Its cost is linear in the
// folder (one stat per file, in parallel, and the delta written again),
// so it runs off the prompt's path.
func Sweep(ctx context.Context, s *memdir.Store) (problems []error, err error) {
	_, problems, err = refresh(ctx, s, true)
	return problems, err
}

// Swept is Sweep returning the snapshot, for a caller that holds it (the
// MCP server, after its watcher saw a file change in place).
func Swept(ctx context.Context, s *memdir.Store) (snap *recall.Snapshot, problems []error, err error) {
	return refresh(ctx, s, true)
}

// SweepIfDue sweeps when the last full check is older than every, and
// otherwise does nothing but read the snapshot's header.
func SweepIfDue(ctx context.Context, s *memdir.Store, every time.Duration) (problems []error, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			problems, err = nil, faultError(r)
		}
	}()
	if snap := readSnapshot(s.Path(File), s.Path(DeltaFile)); snap != nil && time.Since(time.Unix(0, snap.Swept())) < every {
		return nil, nil
	}
	return Sweep(ctx, s)
}

func refresh(ctx context.Context, s *memdir.Store, full bool) (snap *recall.Snapshot, problems []error, err error) {
	// The mapped snapshot is read here too: a file cut short in place
	// under it is an error, not a fault that kills the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			snap, problems, err = nil, nil, faultError(r)
		}
	}()
	// The snapshot is dated when its look at the folder began, not when it
	// was written: a change in the same clock tick as that look must stay
	// racy however long the build takes.
	start := time.Now()
	// The cache folder first: making it moves the folder's mtime.
	s.MakeCacheDir()
	dirInfo, err := os.Stat(s.Dir())
	if err != nil {
		return nil, nil, err
	}
	dirMtime := dirInfo.ModTime().UnixNano()
	snap = readSnapshot(s.Path(File), s.Path(DeltaFile))
	var hdr recall.Header
	if snap != nil {
		hdr = snap.Header()
	}
	// A time within racyWindow of the snapshot's own may hide a change made
	// in the same timestamp tick (coarse file systems): such a folder is
	// not trusted, as git treats its racily clean index entries.
	racy := func(t int64) bool { d := t - hdr.Built; return d > -racyWindow && d < racyWindow }
	chained := hdr.Built == 0 // brought up to date from the store's log, not by a look
	if snap != nil && !full && hdr.DirMtime == dirMtime && !racy(dirMtime) && !chained {
		return snap, nil, nil
	}
	if snap != nil && !full && (chained || !racy(hdr.DirMtime)) {
		if next, ok, err := fromLog(ctx, s, snap, dirMtime, start); ok || err != nil {
			return next, nil, err
		}
	}
	listed, err := listDir(s.Dir())
	if err != nil {
		return nil, nil, err
	}
	u := update{snap: snap, start: start}
	if snap != nil {
		// The files the store wrote lately are stat'ed, not trusted by
		// their inode: one replaced twice since the last look can have
		// its old inode back.
		written := map[string]bool{}
		if !full {
			for _, f := range s.Written() {
				written[f] = true
			}
		}
		u.plan(s.Dir(), listed, full, written)
	} else {
		for _, e := range listed {
			u.reads = append(u.reads, e.name)
		}
	}
	if problems, err = u.read(ctx, s); err != nil {
		return nil, nil, err
	}
	h := recall.Header{DirMtime: dirMtime, Built: start.UnixNano(), Swept: hdr.Swept}
	if len(problems) > 0 {
		// Files left out are not in the snapshot's list: never trust the
		// list, so a file fixed in place is read again.
		h.DirMtime = 0
	}
	if full || snap == nil {
		h.Swept = start.UnixNano()
	}
	if snap != nil && len(u.entries) == 0 && len(u.dead) == 0 && !full {
		// Nothing changed. The header is written again only when the
		// folder's time moved, or was racy and is now safely past (so
		// later calls trust it without listing); until then every call
		// lists it.
		// (A list never trusted, for files that do not parse, is not
		// written again either: nothing would change.)
		settled := h.DirMtime != 0 && racy(dirMtime) && start.UnixNano()-dirMtime >= racyWindow
		if hdr.DirMtime == h.DirMtime && !settled {
			return snap, problems, nil
		}
	}
	next, err := u.write(s, h, full)
	return next, problems, err
}

// fromLog brings snap up to the folder's mtime dirMtime without listing
// the folder, when the store's written log accounts for every move of
// that time since snap's (memdir.Store.WrittenSince): the files memdir
// wrote meanwhile are stat'ed and read, the rest are trusted. This is what
// keeps the first prompt after a save from listing the whole folder. The
// snapshot written says so (Built 0): while the folder's time stays where
// it is, later calls look at the log again instead of trusting the time
// alone, so a write in the same clock tick is still seen. What the log
// cannot see (another program's change to the folder during memdir's own
// write) waits for the next sweep. ok is false when the log cannot tell,
// on a file system that keeps whole seconds (two writes in a second would
// share a time), or when a file it names does not parse: the caller lists.
func fromLog(ctx context.Context, s *memdir.Store, snap *recall.Snapshot, dirMtime int64, start time.Time) (next *recall.Snapshot, ok bool, err error) {
	hdr := snap.Header()
	if dirMtime%int64(time.Second) == 0 || hdr.DirMtime%int64(time.Second) == 0 {
		return nil, false, nil
	}
	files, ok := s.WrittenSince(hdr.DirMtime, dirMtime)
	if !ok {
		return nil, false, nil
	}
	if len(files) == 0 && hdr.DirMtime == dirMtime && hdr.Built == 0 {
		return snap, true, nil
	}
	u := update{snap: snap, start: start}
	u.planFiles(s.Dir(), files)
	problems, err := u.read(ctx, s)
	if err != nil {
		return nil, false, err
	}
	if len(problems) > 0 {
		return nil, false, nil
	}
	if len(u.entries) == 0 && len(u.dead) == 0 && hdr.DirMtime == dirMtime && hdr.Built == 0 {
		return snap, true, nil
	}
	next, err = u.write(s, recall.Header{DirMtime: dirMtime, Swept: hdr.Swept}, false)
	return next, true, err
}

// planFiles plans the update of files alone (the names the store's log
// gave): each is stat'ed, read again when it is new or its size, stamp or
// inode moved, and dropped when it is gone.
func (u *update) planFiles(dir string, files []string) {
	snap := u.snap
	u.dead = map[int]bool{}
	if len(files) == 0 {
		return // a hold that wrote no memory (a side file, the index): no pass over the snapshot
	}
	doc := make(map[string]int, len(files))
	for _, f := range files {
		doc[f] = -1
	}
	for i := range snap.Len() {
		if _, ok := doc[string(snap.FileBytes(i))]; ok {
			doc[string(snap.FileBytes(i))] = i
		}
	}
	for j, st := range statAll(dir, files) {
		i := doc[files[j]]
		if i >= 0 {
			size, stamp := snap.Stat(i)
			if st.err == nil && st.size == size && stamp != 0 && st.stamp == stamp && (st.ino == 0 || st.ino == snap.Ino(i)) {
				continue
			}
			u.dead[i] = true
		}
		if st.err == nil || !errors.Is(st.err, fs.ErrNotExist) {
			u.reads = append(u.reads, files[j])
		}
	}
}

// update is one refresh's change to a snapshot: the documents that are
// gone or replaced, and the files to read in their place.
type update struct {
	snap    *recall.Snapshot // nil: build from scratch
	start   time.Time
	dead    map[int]bool   // documents of snap gone or replaced
	reads   []string       // files to read
	entries []recall.Entry // what the reads gave
}

// plan compares the snapshot with the folder's listing: a name is read
// again when it is new or its inode moved. In a full check, for the names
// in written (the store's log of what it wrote lately), or where the
// listing or the snapshot does not know a name's inode, the file is
// stat'ed too, and read again when its size or stamp moved or its stamp
// was recorded as unknown.
func (u *update) plan(dir string, listed []dirEntry, full bool, written map[string]bool) {
	snap := u.snap
	u.dead = map[int]bool{}
	at := make(map[string]int, len(listed)) // name → its place in listed
	for i, e := range listed {
		at[e.name] = i
	}
	var check []string // trusted by the listing, stat'ed in a full check
	var checkDoc []int
	seen := make([]bool, len(listed))
	for i := range snap.Len() {
		j, ok := at[string(snap.FileBytes(i))]
		switch {
		case !ok || seen[j]:
			u.dead[i] = true
			continue
		case listed[j].ino != 0 && snap.Ino(i) != 0 && listed[j].ino != snap.Ino(i):
			u.dead[i] = true // replaced by a rename
			continue
		}
		seen[j] = true
		if full || listed[j].ino == 0 || snap.Ino(i) == 0 || written[listed[j].name] {
			check = append(check, listed[j].name)
			checkDoc = append(checkDoc, i)
		}
	}
	for j, e := range listed {
		if !seen[j] {
			u.reads = append(u.reads, e.name)
		}
	}
	stats := statAll(dir, check)
	for j, st := range stats {
		i := checkDoc[j]
		size, stamp := snap.Stat(i)
		if st.err == nil && st.size == size && stamp != 0 && st.stamp == stamp && (st.ino == 0 || st.ino == snap.Ino(i)) {
			continue
		}
		u.dead[i] = true
		u.reads = append(u.reads, check[j])
	}
}

// read reads the planned files into entries. A file is stat'ed before it
// is read: a change after the stat shows next time. A stamp within
// racyWindow of now is recorded as unknown (0), so the next full check
// reads the file again: an edit in the same clock tick as the read keeps
// the stamp.
func (u *update) read(ctx context.Context, s *memdir.Store) (problems []error, err error) {
	stats := statAll(s.Dir(), u.reads)
	now := time.Now().UnixNano()
	for i, f := range u.reads {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if stats[i].err != nil {
			if !errors.Is(stats[i].err, fs.ErrNotExist) {
				problems = append(problems, stats[i].err)
			}
			continue
		}
		m, err := s.Read(f)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, err)
			}
			continue
		}
		e := recall.NewEntry(Memory(m), m.Refs, stats[i].size, stats[i].stamp)
		e.Ino = stats[i].ino
		if d := now - e.ModTime; d < racyWindow && d > -racyWindow {
			e.ModTime = 0
		}
		u.entries = append(u.entries, e)
	}
	return problems, nil
}

// write writes the update: a delta over the snapshot's base, or a new base
// when there is none or the delta has grown past its bound (mergeAt in a
// sweep, four times that otherwise). A snapshot that fails to write is
// still returned; the next call retries.
func (u *update) write(s *memdir.Store, h recall.Header, sweep bool) (*recall.Snapshot, error) {
	snap := u.snap
	if snap != nil {
		tomb := snap.Tombstones()
		var entries []recall.Entry // the delta's survivors, then the new
		for i := range snap.Len() {
			b, inBase := snap.BaseDoc(i)
			switch {
			case u.dead[i] && inBase:
				tomb = append(tomb, b)
			case !u.dead[i] && !inBase:
				e, err := snap.Entry(i)
				if err != nil {
					return u.rebuild(s, h)
				}
				entries = append(entries, e)
			}
		}
		entries = append(entries, u.entries...)
		limit := 4 * mergeAt(snap.BaseLen())
		if sweep {
			limit = mergeAt(snap.BaseLen())
		}
		if len(entries)+len(tomb) <= limit {
			data := recall.EncodeDelta(snap.Header(), h, tomb, entries)
			writeCache(s, DeltaFile, data)
			return snap.WithDelta(data)
		}
	}
	// A new base: every live document, the snapshot's in its order, then
	// the new ones.
	var all []recall.Entry
	if snap != nil {
		all = make([]recall.Entry, 0, snap.Len()+len(u.entries))
		for i := range snap.Len() {
			if u.dead[i] {
				continue
			}
			e, err := snap.Entry(i)
			if err != nil {
				return u.rebuild(s, h)
			}
			all = append(all, e)
		}
	}
	all = append(all, u.entries...)
	h.ID = rand.Uint64() | 1 // never 0, the id of no base
	data := recall.EncodeBase(all, h)
	writeCache(s, File, data)
	// And an empty delta over it: the old delta names the old base and
	// would be passed over, but one that is corrupt (which is why a
	// rebuild may be here) would make every call rebuild.
	writeCache(s, DeltaFile, recall.EncodeDelta(h, h, nil, nil))
	return recall.Open(data)
}

// rebuild reads every file again: the snapshot did not decode.
func (u *update) rebuild(s *memdir.Store, h recall.Header) (*recall.Snapshot, error) {
	files, err := s.Files()
	if err != nil {
		return nil, err
	}
	v := update{start: u.start, reads: files}
	if _, err := v.read(context.Background(), s); err != nil {
		return nil, err
	}
	h.Swept = u.start.UnixNano()
	return v.write(s, h, true)
}

// writeCache writes a snapshot file through the store; a failure (a
// read-only folder) leaves the snapshot in memory only.
func writeCache(s *memdir.Store, file string, data []byte) {
	if testOnlyBeforeWrite != nil {
		testOnlyBeforeWrite(file)
	}
	_ = s.WriteCache(file, data)
}

// Changed reports whether any of snap's documents docs differs on disk
// (in dir, the memory folder) from what snap recorded of it: its size,
// change stamp or inode moved, it is gone, or its stamp was recorded as
// unknown. For a caller that holds a snapshot between looks (the MCP
// server) and must not answer from a file changed before the call.
func Changed(dir string, snap *recall.Snapshot, docs []int) bool {
	files := make([]string, len(docs))
	for i, d := range docs {
		files[i] = snap.File(d)
	}
	for i, st := range statAll(dir, files) {
		size, stamp := snap.Stat(docs[i])
		if st.err != nil || st.size != size || stamp == 0 || st.stamp != stamp || st.ino != 0 && snap.Ino(docs[i]) != 0 && st.ino != snap.Ino(docs[i]) {
			return true
		}
	}
	return false
}
