// Package usage keeps the evidence of how a memory folder's memories are
// used — how often recall injected each one and when last, and what people
// and agents marked helpful or wrong — beside the folder, never in the
// memory files.
//
// The evidence is one JSON file in the memory folder (memdir.UsageFile, a
// dot file that no *.md scan picks up), a File. Injections come from the
// recall log the UserPromptSubmit hook appends to (one line per prompt, in
// the synthesis folder, rotated with one older generation kept): a fold
// (Fold) adds the lines of one project newer than the file's FoldedUntil.
// Marks (Mark) come from people (memdir mark) and agents (MCP
// memory_feedback). Everything here is pure: bytes and values in, values
// out, the clock passed in.
package usage

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Version is the file format's version.
const Version = 1

// Bounds of what a record keeps.
const (
	// MaxNotes is how many notes a memory keeps; older ones are dropped.
	MaxNotes = 20
	// MaxNoteLen bounds a note's text, in bytes.
	MaxNoteLen = 1000
)

var (
	// ErrCorrupt is the error of a usage file that cannot be read as one.
	ErrCorrupt = errors.New("usage file is corrupt")
	// ErrVerdict is the error of a verdict other than helpful or wrong.
	ErrVerdict = errors.New("a memory is marked helpful or wrong")
)

// Verdict is what a mark says of a memory.
type Verdict string

// The verdicts.
const (
	Helpful Verdict = "helpful"
	Wrong   Verdict = "wrong"
)

// ParseVerdict reads a verdict; anything but "helpful" or "wrong" (case
// aside) is ErrVerdict.
func ParseVerdict(s string) (Verdict, error) {
	switch v := Verdict(strings.ToLower(strings.TrimSpace(s))); v {
	case Helpful, Wrong:
		return v, nil
	}
	if s == "" {
		return "", fmt.Errorf("no verdict: %w", ErrVerdict)
	}
	return "", fmt.Errorf("verdict %q: %w", s, ErrVerdict)
}

// Record is one memory's evidence.
type Record struct {
	Injected      int       `json:"injected"`
	FirstInjected time.Time `json:"first_injected,omitzero"`
	LastInjected  time.Time `json:"last_injected,omitzero"`
	Helpful       int       `json:"helpful,omitempty"`
	Wrong         int       `json:"wrong,omitempty"`
	LastMarked    time.Time `json:"last_marked,omitzero"`
	Notes         []Note    `json:"notes,omitempty"` // oldest first, at most MaxNotes
}

// Note is one mark of a memory.
type Note struct {
	Time    time.Time `json:"time"`
	Verdict Verdict   `json:"verdict"`
	Text    string    `json:"text,omitempty"`
	By      string    `json:"by,omitempty"` // the front end that marked it: cli, mcp
}

// File is the usage file of a memory folder.
type File struct {
	Version int `json:"version"`
	// Since is when evidence began to be kept for the folder: a memory
	// without injections since then was not injected since then.
	Since time.Time `json:"since,omitzero"`
	// FoldedUntil is the time up to which the recall log was folded in:
	// its lines of that time or older are counted.
	FoldedUntil time.Time `json:"folded_until,omitzero"`
	// Memories is the evidence by memory file.
	Memories map[string]Record `json:"memories"`
}

// Parse reads a usage file; nil or empty bytes (no file yet) are an empty
// File. A file that is not one is ErrCorrupt, saying why.
func Parse(b []byte) (File, error) {
	if len(b) == 0 {
		return File{Version: Version, Memories: map[string]Record{}}, nil
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return File{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if f.Version < 1 || f.Version > Version {
		return File{}, fmt.Errorf("%w: version %d (this memdir reads %d)", ErrCorrupt, f.Version, Version)
	}
	if f.Memories == nil {
		f.Memories = map[string]Record{}
	}
	for file, r := range f.Memories {
		if file == "" || r.Injected < 0 || r.Helpful < 0 || r.Wrong < 0 {
			return File{}, fmt.Errorf("%w: the record of %q", ErrCorrupt, file)
		}
	}
	return f, nil
}

// Format is f as its file holds it: indented JSON, memories by file.
func Format(f File) ([]byte, error) {
	f.Version = Version
	if f.Memories == nil {
		f.Memories = map[string]Record{}
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// clone is f with a map of its own, so that no function here changes the
// caller's File.
func clone(f File) File {
	f.Memories = maps.Clone(f.Memories)
	if f.Memories == nil {
		f.Memories = map[string]Record{}
	}
	f.Version = Version
	return f
}

// Fold adds to f the injections of project's lines ("": every project's,
// for a folder all projects share) in log newer than
// f.FoldedUntil and no newer than until, and moves FoldedUntil to until.
// A zero until folds every newer line and leaves FoldedUntil as it is (a
// view of the evidence, not to be written). The first fold sets Since: the
// oldest line the log still holds (of any project: the log was kept from
// then), else until. Only memory files count: a learning's ID
// ("source#title") is no memory of the folder.
func Fold(f File, log Log, project string, until time.Time) File {
	f = clone(f)
	if f.Since.IsZero() {
		f.Since = until
		if !log.Oldest.IsZero() && (f.Since.IsZero() || log.Oldest.Before(f.Since)) {
			f.Since = log.Oldest
		}
	}
	for _, l := range log.Lines {
		if (project != "" && l.Project != project) || !l.Time.After(f.FoldedUntil) || (!until.IsZero() && l.Time.After(until)) {
			continue
		}
		for _, file := range l.Files {
			if !MemoryFile(file) {
				continue
			}
			r := f.Memories[file]
			r.Injected++
			if r.FirstInjected.IsZero() || l.Time.Before(r.FirstInjected) {
				r.FirstInjected = l.Time
			}
			if l.Time.After(r.LastInjected) {
				r.LastInjected = l.Time
			}
			f.Memories[file] = r
		}
	}
	if until.After(f.FoldedUntil) {
		f.FoldedUntil = until
	}
	return f
}

// MemoryFile reports whether a recall line's entry names a memory file of
// the folder (not a learning, not a path).
func MemoryFile(name string) bool {
	return strings.HasSuffix(name, ".md") && !strings.ContainsAny(name, "#/\\\x00") && !strings.HasPrefix(name, ".")
}

// Mark adds a mark of memFile with verdict v and note text (cut to
// MaxNoteLen) by a front end, at now, to f; it returns the new file and
// the memory's record.
func Mark(f File, memFile string, v Verdict, text, by string, now time.Time) (File, Record, error) {
	if _, err := ParseVerdict(string(v)); err != nil {
		return f, Record{}, err
	}
	f = clone(f)
	r := f.Memories[memFile]
	switch v {
	case Helpful:
		r.Helpful++
	case Wrong:
		r.Wrong++
	}
	r.LastMarked = now
	r.Notes = append(slices.Clone(r.Notes), Note{Time: now, Verdict: v, Text: cut(strings.TrimSpace(text), MaxNoteLen), By: by})
	r.Notes = r.Notes[max(0, len(r.Notes)-MaxNotes):]
	f.Memories[memFile] = r
	return f, r, nil
}

// cut is s in at most n bytes, never splitting a character.
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Rename moves from's evidence to to, as a merge keeps one memory of two:
// counts add up, the first and last times span both, notes join in time
// order (the newest MaxNotes kept). Without evidence for from, f is
// returned as it is.
func Rename(f File, from, to string) File {
	a, ok := f.Memories[from]
	if !ok || from == to {
		return f
	}
	f = clone(f)
	b := f.Memories[to]
	b.Injected += a.Injected
	b.Helpful += a.Helpful
	b.Wrong += a.Wrong
	if !a.FirstInjected.IsZero() && (b.FirstInjected.IsZero() || a.FirstInjected.Before(b.FirstInjected)) {
		b.FirstInjected = a.FirstInjected
	}
	if a.LastInjected.After(b.LastInjected) {
		b.LastInjected = a.LastInjected
	}
	if a.LastMarked.After(b.LastMarked) {
		b.LastMarked = a.LastMarked
	}
	b.Notes = append(slices.Clone(b.Notes), a.Notes...)
	slices.SortStableFunc(b.Notes, func(x, y Note) int { return x.Time.Compare(y.Time) })
	b.Notes = b.Notes[max(0, len(b.Notes)-MaxNotes):]
	f.Memories[to] = b
	delete(f.Memories, from)
	return f
}

// Drop removes file's evidence, as for a memory pruned for good.
func Drop(f File, file string) File {
	if _, ok := f.Memories[file]; !ok {
		return f
	}
	f = clone(f)
	delete(f.Memories, file)
	return f
}
