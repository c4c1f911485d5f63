package memdir

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/safefile"
)

// CacheDir holds what memdir derives from a memory folder (the recall
// snapshot, cached embeddings). Everything in it can be deleted: it is
// rebuilt from the memory files.
const CacheDir = ".memdir-cache"

// Read reads the memory file file (a file name, not a name to resolve).
func (s *Store) Read(file string) (Memory, error) {
	m, _, err := s.read(file)
	return m, err
}

// MakeCacheDir makes the cache folder if it is missing. Making it moves
// the memory folder's mtime, so a caller that compares that mtime makes it
// first. A folder that cannot be written (a read-only mount) is no error:
// derived data then lives in memory only.
func (s *Store) MakeCacheDir() {
	_ = os.Mkdir(s.Path(CacheDir), 0o700)
}

// WriteCache replaces the derived file name (a path under CacheDir)
// atomically, after sweeping the temp files killed writers left there
// (snapshots are megabytes). It does not fsync: derived data is rebuilt
// from the memory files whenever it is missing, stale or corrupt (the
// snapshot checks its layout and checksum), so a machine crash that brings
// back an older or an empty file costs a rebuild, never a memory — and a
// sync is most of the time a prompt that follows a change pays.
func (s *Store) WriteCache(name string, data []byte) error {
	clean := path.Clean(name)
	if !strings.HasPrefix(clean, CacheDir+"/") || strings.Contains(strings.TrimPrefix(clean, CacheDir+"/"), "/") {
		return &os.PathError{Op: "write cache", Path: name, Err: os.ErrInvalid}
	}
	s.MakeCacheDir()
	_, _ = atomicfile.Sweep(s.Path(CacheDir), time.Minute, time.Now())
	return atomicfile.WriteFileNoSync(s.Path(clean), data, 0o600)
}

// NamedFile is a memory's file and its name (its title).
type NamedFile struct {
	File, Name string
}

// Names lists every memory's file and name, as fresh as the files. A
// store is given one by its opener (the recall snapshot keeps the names of
// 10,000 memories without reading them); without it, the store reads
// every file.
type Names func(ctx context.Context, s *Store) ([]NamedFile, error)

// allNames lists every memory's name, through opt.Names when set.
func (s *Store) allNames(ctx context.Context) ([]NamedFile, error) {
	if s.opt.Names != nil {
		return s.opt.Names(ctx, s)
	}
	files, err := s.Files()
	if err != nil {
		return nil, err
	}
	out := make([]NamedFile, 0, len(files))
	for _, f := range files {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if m, _, err := s.read(f); err == nil {
			out = append(out, NamedFile{File: f, Name: m.Title()})
		}
	}
	return out, nil
}

// WrittenLog names the memory files the store wrote, one per line, for
// readers of derived data that otherwise trust a file by its inode when
// the folder changes (the recall snapshot): a file replaced twice between
// two looks can get its old inode back, as ext4 hands a freed inode out
// again at once. The log is a hint, never the truth: appended to without
// a sync, rotated to WrittenLog+".1" past writtenLogMax (under the
// folder's lock, which every writer of memory files holds), so a reader
// that looks once in a few hundred writes misses none.
const WrittenLog = CacheDir + "/written"

// writtenLogMax bounds each generation of the written log (about 600
// names, or 400 holds of the lock).
var writtenLogMax int64 = 16 << 10 // a variable for tests

// noteWritten adds file to the written log, before the file changes. A
// name the log cannot carry, or that could not be appended, makes the
// hold's link say that the log cannot tell (see noteLink).
func (s *Store) noteWritten(file string) {
	s.noted.Add(1)
	if !validLogName(file) || !s.appendWritten(file+"\n") {
		s.lost.Add(1)
	}
}

// noteLink ends a hold of the folder's lock in the written log: the
// folder's mtime when the hold began and when it ended, in nanoseconds
// ("@before after"). The files the hold wrote are the names logged since
// the link before it. A hold that lost a name logs "@before !" instead,
// which no chain passes; when even that fails, the log goes, and every
// chain with it.
func (s *Store) noteLink(before, after int64, lost bool) {
	line := "@" + strconv.FormatInt(before, 10) + " " + strconv.FormatInt(after, 10) + "\n"
	if lost {
		line = "@" + strconv.FormatInt(before, 10) + " !\n"
	}
	if !s.appendWritten(line) && lost {
		_ = os.Remove(s.Path(WrittenLog))
		_ = os.Remove(s.Path(WrittenLog + ".1"))
	}
}

// appendWritten appends line to the written log in one write, rotating it
// first when it is past writtenLogMax, and reports whether it did.
func (s *Store) appendWritten(line string) bool {
	s.MakeCacheDir()
	// Never through a link a clone committed in the cache's place.
	if fi, err := os.Lstat(s.Path(CacheDir)); err != nil || !fi.IsDir() {
		return false
	}
	p := s.Path(WrittenLog)
	if fi, err := os.Lstat(p); err == nil && fi.Size() > writtenLogMax {
		_ = os.Rename(p, p+".1")
	}
	f, err := safefile.OpenAppend(p, 0o600)
	if err != nil {
		return false
	}
	_, err = f.WriteString(line)
	return errors.Join(err, f.Close()) == nil
}

// dirMtime is the folder's modification time in nanoseconds.
func (s *Store) dirMtime() (int64, error) {
	fi, err := os.Stat(s.dir)
	if err != nil {
		return 0, err
	}
	return fi.ModTime().UnixNano(), nil
}

// WrittenSince returns the memory files memdir wrote while the folder's
// mtime went from from to to, when its written log can tell: every change
// of the folder's mtime in between was made by a hold of the folder's
// lock, whose link (see noteLink) starts where the one before it ended.
// A copy of the folder taken when its mtime was from is then brought to
// to by reading those files alone. ok is false when the log cannot tell:
// no link starts at from, a link's start is not where the one before it
// ended (something else changed the folder in between), the log was
// rotated while it was read, or to was never reached. Links after to
// (writes since the caller's stat) add their files, which does no harm.
//
// What the log cannot see: another program adding, removing or renaming
// a file during a hold, between its two stats (or, on a file system whose
// times are coarser than the kernel's fine-grained ones, in the same clock
// tick right after it). A full check of the folder catches that.
func (s *Store) WrittenSince(from, to int64) (files []string, ok bool) {
	if from == 0 || to == 0 {
		return nil, false
	}
	// On a folder that folds case, the log's spelling of a name need not
	// be the listing's: the log cannot tell which file it means.
	if _, err := os.Lstat(s.Path(strings.ToUpper(lockfile.Name))); err == nil {
		return nil, false
	}
	if from == to && lastLinkEndsAt(s.Path(WrittenLog), to) {
		// The prompt after a prompt: the last hold ended where the caller
		// is, and no name was logged since (a hold logs its names before
		// it changes a file). The log's tail says so without a parse.
		return nil, true
	}
	old, oldInfo, err := readLog(s.Path(WrittenLog + ".1"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	cur, _, err := readLog(s.Path(WrittenLog))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	// A rotation between the two reads would hide a generation.
	if now, err := os.Lstat(s.Path(WrittenLog + ".1")); (err == nil) != (oldInfo != nil) || (err == nil && !os.SameFile(now, oldInfo)) {
		return nil, false
	}
	links := parseLinks(append(old, cur...))
	start := slices.IndexFunc(links, func(l link) bool { return l.before == from })
	if start < 0 {
		return nil, from == to // nothing written since from
	}
	if start == 0 {
		// No link before it: its first names may be in a generation
		// rotated away.
		return nil, false
	}
	at, reached := from, from == to
	seen := map[string]bool{}
	for _, l := range links[start:] {
		if l.before != at {
			break // something else moved the folder's time in between
		}
		if l.unsure {
			return nil, false
		}
		for _, f := range l.files {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		at = l.after
		reached = reached || at == to
	}
	if !reached {
		return nil, false
	}
	return files, true
}

// link is one hold of the lock in the written log: the folder's mtime
// before and after it, and the memory files it wrote. An unsure link
// lost a name: the hold said so ("@before !"), or a line before it is no
// name the log carries.
type link struct {
	before, after int64
	files         []string
	unsure        bool
}

// parseLinks reads the written log's links, each with the names logged
// since the link before it. Names after the last link (a hold still going
// on, or one killed) belong to no link yet. A malformed link line ends a
// chain: it is read as a link no other starts where it ends.
func parseLinks(b []byte) []link {
	var out []link
	var pending []string
	unsure := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if line == "" {
			continue
		}
		if line[0] != '@' {
			if validLogName(line) {
				pending = append(pending, line)
			} else {
				unsure = true
			}
			continue
		}
		l := link{files: pending, unsure: unsure}
		pending, unsure = nil, false
		before, after, found := strings.Cut(line[1:], " ")
		var err1, err2 error
		l.before, err1 = strconv.ParseInt(before, 10, 64)
		l.after, err2 = strconv.ParseInt(after, 10, 64)
		switch {
		case found && err1 == nil && after == "!":
			l.unsure = true
		case !found || err1 != nil || err2 != nil:
			l.before, l.after = -1, -1
		}
		out = append(out, l)
	}
	return out
}

// validLogName reports whether a line of the written log is a plain
// memory file name: the log is in a folder others can write, and its
// names are joined to the folder's path.
func validLogName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\\\x00\n\r") && !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".md") && !IsIndexName(name)
}

// lastLinkEndsAt reports whether the written log at p ends with a link
// whose after time is t.
func lastLinkEndsAt(p string, t int64) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < 2 {
		return false
	}
	var buf [128]byte
	off := max(0, fi.Size()-int64(len(buf)))
	n, _ := f.ReadAt(buf[:fi.Size()-off], off)
	tail := string(buf[:n])
	if !strings.HasSuffix(tail, "\n") {
		return false
	}
	tail = tail[:len(tail)-1]
	line := tail[strings.LastIndexByte(tail, '\n')+1:]
	if !strings.HasPrefix(line, "@") {
		return false
	}
	_, after, ok := strings.Cut(line[1:], " ")
	return ok && after == strconv.FormatInt(t, 10)
}

// readLog reads a generation of the written log.
func readLog(p string) ([]byte, fs.FileInfo, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > 4*writtenLogMax {
		return nil, nil, fs.ErrInvalid
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, fi, nil
}

// Written returns the memory files the written log names (both
// generations), each once: the files written lately, to be checked by
// stat rather than trusted by inode.
func (s *Store) Written() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range []string{s.Path(WrittenLog + ".1"), s.Path(WrittenLog)} {
		b, err := safefile.ReadFile(p, 4*writtenLogMax)
		if err != nil {
			continue
		}
		for _, name := range strings.Split(string(b), "\n") {
			if seen[name] || !validLogName(name) {
				continue
			}
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
