package memdir

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// What MEMORY.md holds past the cap (issue 13).
//
// Claude Code loads the first 200 lines and 25,000 characters of MEMORY.md
// into every session; lines past that cost disk and time and reach no
// agent. So memdir fills the index only to a budget — 70% of each cap, the
// target of Claude Code's own backfill and of the compaction it asks an
// agent for — with the most useful memories: pinned ones, then user and
// feedback, then the rest, newest first within each. The 60 lines left
// keep an agent that writes its own entries under Claude Code's near-cap
// lint (80%). Every other memory is still a file that recall, 'memdir
// list' and the agent itself (the memory folder is its to read) find.
const (
	IndexBudgetLines = MaxIndexLines * 7 / 10 // 140
	IndexBudgetChars = MaxIndexChars * 7 / 10 // 17,500
)

// maxEditIndexSize bounds the MEMORY.md a save reads and rewrites. An
// index within Claude Code's caps is at most 100 KB (25,000 UTF-16 units
// of up to 4 bytes); a larger one was made by an older memdir or by hand,
// and a save leaves it alone rather than rewrite megabytes each time.
const maxEditIndexSize = 256 << 10

// IndexTooBigError is a MEMORY.md too large to edit line by line.
type IndexTooBigError struct {
	Size int64 // bytes, or more: reading stopped past the limit
}

func (e *IndexTooBigError) Error() string {
	return fmt.Sprintf("%s is %s, far past the %d lines Claude Code loads", IndexFile, formatSize(int(e.Size)), MaxIndexLines)
}

// IsIndexTooBig reports whether err is an *IndexTooBigError.
func IsIndexTooBig(err error) bool {
	var e *IndexTooBigError
	return errors.As(err, &e)
}

// Usefulness classes, most useful first: the order in which memories get a
// line in a full index.
const (
	classPinned = iota
	classPerson // user and feedback: who the user is and how to work
	classOther  // project and reference, or no type
	classGone   // a line whose file no longer exists
)

// candidate is a memory as the index cap ranks it.
type candidate struct {
	File  string
	Line  string // its entry line
	Class int
	Stamp time.Time
}

func candidateOf(m Memory) candidate {
	c := candidate{File: m.File, Line: EntryLine(m), Class: classOther, Stamp: m.Stamp()}
	switch {
	case m.Pinned:
		c.Class = classPinned
	case m.Type == TypeUser || m.Type == TypeFeedback:
		c.Class = classPerson
	}
	return c
}

// compareUseful orders candidates most useful first: by class, then newest
// first, then by file name so the order is total.
func compareUseful(a, b candidate) int {
	if c := cmp.Compare(a.Class, b.Class); c != 0 {
		return c
	}
	if c := b.Stamp.Compare(a.Stamp); c != 0 {
		return c
	}
	return strings.Compare(a.File, b.File)
}

// withinBudget reports whether an index fits memdir's budget.
func withinBudget(ix Index) bool {
	u := IndexUsage(string(ix.Bytes()))
	return u.Lines <= IndexBudgetLines && u.Chars <= IndexBudgetChars
}

// overCaps reports whether an index is past what Claude Code loads.
func overCaps(ix Index) bool {
	u := IndexUsage(string(ix.Bytes()))
	return u.Lines > MaxIndexLines || u.Chars > MaxIndexChars
}

// makeRoom places add's line in an index that has no line for add.File:
// appended when the index still fits the budget with it; else in the place
// of the least useful entries among cands (the entries memdir may drop),
// as many as it takes to fit, each less useful than add. It returns the
// files that lost their line, and ok false (ix untouched) when add is not
// useful enough to enter. An index already past Claude Code's caps is the
// caller's to refuse: it costs one read per entry.
func makeRoom(ix *Index, cands []candidate, add candidate) (dropped []string, ok bool) {
	trial := Index{Lines: slices.Clone(ix.Lines)}
	trial.Upsert(add.File, add.Line)
	if withinBudget(trial) {
		*ix = trial
		return nil, true
	}
	cands = slices.Clone(cands)
	slices.SortFunc(cands, compareUseful)
	for i := len(cands) - 1; i >= 0; i-- {
		if compareUseful(cands[i], add) < 0 {
			return nil, false // everything left is more useful than add
		}
		dropped = append(dropped, cands[i].File)
		trial = replaceEntries(*ix, dropped, add)
		if withinBudget(trial) {
			*ix = trial
			return dropped, true
		}
	}
	return nil, false
}

// replaceEntries removes the lines of the dropped files and puts add's line
// where the first of them was.
func replaceEntries(ix Index, dropped []string, add candidate) Index {
	out := make([]IndexLine, 0, len(ix.Lines))
	placed := false
	for _, l := range ix.Lines {
		if l.File == "" || !slices.Contains(dropped, l.File) {
			out = append(out, l)
			continue
		}
		if !placed {
			placed = true
			out = append(out, IndexLine{Text: add.Line, File: add.File})
		}
	}
	return Index{Lines: out}
}

// scanIndex reads MEMORY.md line by line, split as ParseIndex splits it,
// keeping the text of every line but the entries regen says will be
// written afresh: a rebuild of a 10 MB index an older memdir left holds its
// hand-written lines in memory, not its 100,000 entries.
func scanIndex(r io.Reader, regen func(file string) bool) ([]IndexLine, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lines []IndexLine
	for first := true; ; first = false {
		s, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, err
		}
		if first && err == io.EOF && s == "" {
			return nil, nil // an empty file: no lines, as ParseIndex
		}
		text := strings.TrimSuffix(s, "\n")
		l := IndexLine{Text: text, File: entryFile(text)}
		if l.File != "" && regen != nil && regen(l.File) {
			l.Text = ""
		}
		lines = append(lines, l)
		if err == io.EOF {
			return lines, nil
		}
	}
}

// rebuildPlan is the index a rebuild writes, and what changed.
type rebuildPlan struct {
	Index   Index
	Added   []string // memories that got a line
	Removed []string // lines dropped: their file is gone, or listed before
	LeftOut int      // memories without a line: the index is full
}

// planRebuild lays out the rebuilt index from the lines it has (nil when
// there is no index) and every readable memory, ranked most useful first.
// Lines that are not entries, and entries keep says are not memdir's to
// judge (a file that does not parse, one in a subfolder), stay as they are
// and count against the budget first. The most useful memories then get a
// line while the budget lasts: those listed keep their place, with fresh
// text; the others are appended newest first.
func planRebuild(lines []IndexLine, ranked []candidate, keep func(file string) bool) rebuildPlan {
	var p rebuildPlan
	byFile := make(map[string]candidate, len(ranked))
	for _, c := range ranked {
		byFile[c.File] = c
	}
	type slot struct {
		line   IndexLine
		listed bool // an entry of a ranked memory
	}
	var slots []slot
	var fixed Index
	seen := map[string]bool{}
	for _, l := range lines {
		switch {
		case l.File == "":
			slots = append(slots, slot{line: l})
			fixed.Lines = append(fixed.Lines, l)
			continue
		case seen[l.File]:
			p.Removed = append(p.Removed, l.File)
			continue
		}
		_, ok := byFile[l.File]
		switch {
		case ok:
			slots = append(slots, slot{line: l, listed: true})
		case keep != nil && keep(l.File):
			slots = append(slots, slot{line: l})
			fixed.Lines = append(fixed.Lines, l)
		default:
			p.Removed = append(p.Removed, l.File)
			continue
		}
		seen[l.File] = true
	}
	u := IndexUsage(string(fixed.Bytes()))
	lineCount, chars := u.Lines, u.Chars
	chosen := map[string]bool{}
	for _, c := range ranked {
		n := jsLen(c.Line)
		if lineCount > 0 {
			n++ // its newline
		}
		if lineCount+1 > IndexBudgetLines || chars+n > IndexBudgetChars {
			continue // a shorter line further down may still fit
		}
		lineCount, chars = lineCount+1, chars+n
		chosen[c.File] = true
	}
	for _, s := range slots {
		if !s.listed {
			p.Index.Lines = append(p.Index.Lines, s.line)
			continue
		}
		if chosen[s.line.File] {
			c := byFile[s.line.File]
			p.Index.Lines = append(p.Index.Lines, IndexLine{Text: c.Line, File: c.File})
		}
	}
	// Chosen by use, laid out by date: new lines go at the end newest
	// first, as Claude Code's backfill orders them.
	var added []candidate
	for _, c := range ranked {
		if chosen[c.File] && !seen[c.File] {
			added = append(added, c)
		}
	}
	slices.SortStableFunc(added, func(a, b candidate) int {
		if c := b.Stamp.Compare(a.Stamp); c != 0 {
			return c
		}
		return strings.Compare(a.File, b.File)
	})
	for _, c := range added {
		p.Index.Upsert(c.File, c.Line)
		p.Added = append(p.Added, c.File)
	}
	p.LeftOut = len(ranked) - len(chosen)
	return p
}

// rankCache is where a store keeps what it learnt of listed memories'
// ranks (class and date), keyed by file with its size and time: a save
// into a full index then stats its candidates instead of reading and
// parsing a budget's worth of files. It is derived data: lost or stale,
// the files are read again.
const rankCache = CacheDir + "/index-ranks"

type rankEntry struct {
	class       int
	stamp       time.Time
	size, mtime int64
}

func parseRanks(b []byte) map[string]rankEntry {
	out := map[string]rankEntry{}
	for line := range strings.Lines(string(b)) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 5 {
			continue
		}
		class, err1 := strconv.Atoi(f[1])
		stamp, err2 := strconv.ParseInt(f[2], 10, 64)
		size, err3 := strconv.ParseInt(f[3], 10, 64)
		mtime, err4 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			continue
		}
		e := rankEntry{class: class, size: size, mtime: mtime}
		if stamp != 0 {
			e.stamp = time.Unix(0, stamp).UTC()
		}
		out[f[0]] = e
	}
	return out
}

func formatRanks(ranks map[string]rankEntry) []byte {
	files := make([]string, 0, len(ranks))
	for f := range ranks {
		files = append(files, f)
	}
	slices.Sort(files)
	var b strings.Builder
	for _, f := range files {
		e := ranks[f]
		var stamp int64
		if !e.stamp.IsZero() {
			stamp = e.stamp.UnixNano()
		}
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\t%d\n", f, e.class, stamp, e.size, e.mtime)
	}
	return []byte(b.String())
}
