package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/safefile"
	"github.com/memdir/memdir/internal/usage"
)

// RecallLog is the synthesis folder's log of what each prompt was given,
// one JSON line per prompt, appended by the UserPromptSubmit hook;
// RecallLog+".1" is its older generation (rotated at a SessionEnd).
const RecallLog = "logs/recall.jsonl"

// UsageSettle is how old a recall line must be before a fold counts it.
// A hook stamps its line when the prompt comes and appends it when it has
// answered, within its deadline (8 s): a line stamped earlier than one
// already in the log may still come, and is counted by the next fold
// rather than lost behind FoldedUntil.
const UsageSettle = 10 * time.Second

// tailChunk is the first piece of a recall log a fold reads from its end.
var tailChunk int64 = 64 << 10

// maxRecallRead bounds what is read of each generation of the recall log
// (rotated past 4 MiB, unless rotation failed): its tail past that.
const maxRecallRead = 32 << 20

// Usage is the folder's evidence of use as of now: the usage file, plus
// the recall log's lines for this project that no fold has counted yet. It
// writes nothing. A usage file that cannot be read is an error wrapping
// usage.ErrCorrupt.
func (w *Workspace) Usage(ctx context.Context) (usage.File, error) {
	b, err := w.Store.ReadSide(memdir.UsageFile)
	if err != nil {
		return usage.File{}, err
	}
	f, err := usage.Parse(b)
	if err != nil {
		return usage.File{}, hint.With(fmt.Errorf("%s: %w", w.Store.Path(memdir.UsageFile), err),
			"the next 'memdir mark' or session end keeps it aside and starts afresh; move it away to start now")
	}
	log, err := w.recallLog(f.FoldedUntil)
	if err != nil {
		return usage.File{}, err
	}
	return usage.Fold(f, log, w.usageProject(), time.Time{}), nil
}

// Folded is what FoldUsage did.
type Folded struct {
	// Lines is how many of the project's recall lines were counted.
	Lines int
	// Aside is where a corrupt usage file was kept before a fresh one was
	// started ("" when none was).
	Aside string
}

// FoldUsage counts in the usage file the project's recall lines up to
// now minus UsageSettle, under the folder's lock. The SessionEnd hook
// calls it before the recall log is rotated. A usage file that cannot be
// read is kept aside (Folded.Aside) and a fresh one started.
func (w *Workspace) FoldUsage(ctx context.Context, now time.Time) (Folded, error) {
	var res Folded
	aside, err := w.Store.UpdateSide(ctx, memdir.UsageFile, func(old []byte) ([]byte, error) {
		prev, f, n, err := w.fold(old, now)
		if err != nil || (n == 0 && old != nil && f.FoldedUntil.Sub(prev) < usageRewrite) {
			return nil, err // nothing new: the file stays as it is
		}
		res.Lines = n
		return usage.Format(f)
	})
	if aside != "" {
		res.Aside = w.Store.Path(aside)
	}
	return res, err
}

// usageRewrite is how far FoldedUntil may lag before a fold that counted
// nothing moves it anyway: a fold reads the log back to FoldedUntil.
const usageRewrite = 24 * time.Hour

// fold is the usage file of old bytes with the project's recall lines up
// to now minus UsageSettle, how many lines it counted, and the file's
// FoldedUntil before.
func (w *Workspace) fold(old []byte, now time.Time) (prev time.Time, _ usage.File, _ int, _ error) {
	f, err := usage.Parse(old)
	if err != nil {
		return prev, f, 0, fmt.Errorf("%w: %w", memdir.ErrSideCorrupt, err)
	}
	prev = f.FoldedUntil
	log, err := w.recallLog(f.FoldedUntil)
	if err != nil {
		return prev, f, 0, err
	}
	until := now.Add(-UsageSettle)
	n := 0
	for _, l := range log.Lines {
		if !l.Time.After(until) {
			n++
		}
	}
	return prev, usage.Fold(f, log, w.usageProject(), until), n, nil
}

// Verdict is the verdict of a front end's two switches (--helpful,
// --wrong): "" when neither or both are set, which Mark refuses.
func Verdict(helpful, wrong bool) usage.Verdict {
	switch {
	case helpful && !wrong:
		return usage.Helpful
	case wrong && !helpful:
		return usage.Wrong
	}
	return ""
}

// usageProject is the project whose recall lines count for the folder:
// the project's root, as the hook records it; "" (every project) for a
// folder that autoMemoryDirectory in the user's settings gives every
// project. A folder given by MEMDIR_MEMORY_DIR (a process's environment,
// which the log does not record) counts its own project's lines only.
func (w *Workspace) usageProject() string {
	if w.isGlobal || w.Layout.MemorySource == "user-settings" {
		return ""
	}
	return w.Layout.ProjectRoot
}

// Marked is what Mark did.
type Marked struct {
	File   string       `json:"file"`
	Name   string       `json:"name"`
	Record usage.Record `json:"usage"`
	// Aside is where a corrupt usage file was kept ("" when none was).
	Aside string `json:"set_aside,omitempty"`
}

// Mark records that the memory name (as show and forget take it) is
// helpful or wrong, with a note (credentials redacted), by a front end
// ("cli", "mcp"), folding the recall log in as FoldUsage does. An unknown
// name is memdir.ErrNotFound, with a hint.
func (w *Workspace) Mark(ctx context.Context, name string, v usage.Verdict, note, by string) (Marked, error) {
	if _, err := usage.ParseVerdict(string(v)); err != nil {
		return Marked{}, hint.With(err, "mark it --helpful or --wrong (MCP: verdict \"helpful\" or \"wrong\")")
	}
	file, err := w.Store.Resolve(name)
	if err != nil {
		return Marked{}, ForgetNotFound(w.Store, name, err)
	}
	m, err := w.Store.Read(file)
	res := Marked{File: w.ShownName(file), Name: m.Title()}
	if err != nil {
		res.Name = res.File // a file that does not parse is still the memory meant
	}
	note, _ = redact.String(note)
	now := time.Now()
	aside, err := w.Store.UpdateSide(ctx, memdir.UsageFile, func(old []byte) ([]byte, error) {
		_, f, _, err := w.fold(old, now)
		if err != nil {
			return nil, err
		}
		f, res.Record, err = usage.Mark(f, file, v, note, by, now.UTC())
		if err != nil {
			return nil, err
		}
		return usage.Format(f)
	})
	if aside != "" {
		res.Aside = w.Store.Path(aside)
	}
	return res, err
}

// recallLog reads the project's lines newer than after from both
// generations of the recall log. The current file is opened first: a
// rotation between the two opens then shows the same file twice, read
// once, rather than a line in neither.
func (w *Workspace) recallLog(after time.Time) (usage.Log, error) {
	var log usage.Log
	if w.Layout.SynthesisDir == "" {
		return log, nil
	}
	p := filepath.Join(w.Layout.SynthesisDir, filepath.FromSlash(RecallLog))
	cur, err := openLog(p)
	if err != nil {
		return log, err
	}
	old, err := openLog(p + ".1")
	if err != nil {
		closeLog(cur)
		return log, err
	}
	defer closeLog(cur)
	defer closeLog(old)
	files := []*os.File{old, cur}
	if cur != nil && old != nil {
		a, aerr := cur.Stat()
		b, berr := old.Stat()
		if aerr == nil && berr == nil && os.SameFile(a, b) {
			files = files[1:]
		}
	}
	for _, fh := range files {
		if fh == nil {
			continue
		}
		b, err := readTail(fh, maxRecallRead, after)
		if err != nil {
			return log, fmt.Errorf("read %s: %w", fh.Name(), err)
		}
		log.ReadLog(b, w.usageProject(), after)
	}
	return w.ownLines(log), nil
}

// ownLines keeps of log's lines the files of w's folder, as its usage
// file names them: a private folder's bare file names (usage.Fold skips
// the rest), a team folder's team/<file> names without the prefix, the
// global folder's global/<file> names likewise, from every project. A
// team memory's evidence of use lives in the team folder's usage file
// (git-ignored: what one person's sessions injected is theirs).
func (w *Workspace) ownLines(log usage.Log) usage.Log {
	prefix := TeamPrefix
	switch {
	case w.isGlobal:
		prefix = GlobalPrefix // every project's lines: usageProject
	case !w.isTeam:
		return log
	}
	lines := make([]usage.Line, 0, len(log.Lines))
	for _, l := range log.Lines {
		var files []string
		for _, f := range l.Files {
			if rest, ok := strings.CutPrefix(f, prefix); ok {
				files = append(files, rest)
			}
		}
		// A line with none of the team's files is kept, empty: it still
		// counts as read for the fold.
		l.Files = files
		lines = append(lines, l)
	}
	log.Lines = lines
	return log
}

// openLog opens a recall log for reading (a regular file only); nil when
// it does not exist.
func openLog(p string) (*os.File, error) {
	fh, err := safefile.OpenRegular(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return fh, err
}

func closeLog(fh *os.File) {
	if fh != nil {
		fh.Close()
	}
}

// readTail reads what fh holds of the lines stamped after after: its tail
// from a line whose time is older than after by UsageSettle at least (a
// line is appended within a hook's deadline of its time, so none before it
// is newer than after), read in growing pieces from the end; all of fh
// for a zero after. It reads at most limit bytes, from the start of a
// line. A file that grows meanwhile is read up to its size at the start
// (a line appended since is the next fold's).
func readTail(fh *os.File, limit int64, after time.Time) ([]byte, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	n := min(size, limit)
	if !after.IsZero() {
		n = min(n, tailChunk)
	}
	for {
		off := size - n
		b := make([]byte, n)
		m, err := fh.ReadAt(b, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		b = b[:m]
		if off > 0 {
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				b = b[i+1:]
			} else {
				b = nil
			}
		}
		if off == 0 || n >= limit || settledBefore(b, after) {
			return b, nil
		}
		n = min(2*n, size, limit)
	}
}

// settledBefore reports whether the first line of b that bears a time is
// older than after by UsageSettle at least.
func settledBefore(b []byte, after time.Time) bool {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if t, ok := usage.LineTime(line); ok {
			return !t.Add(UsageSettle).After(after)
		}
	}
	return false
}
