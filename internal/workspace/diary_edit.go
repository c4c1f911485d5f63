package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/safefile"
)

// SaveEdit checks edited, a new version of the diary stem whose bytes were
// orig, and saves it: parsed, redacted and validated like a write. An
// invalid edit is refused, and the text stays in draft (a file outside the
// folder the errors' hints name) so nothing typed is lost; an edit made
// while another program changed the diary is refused too. An unchanged
// version is no save: changed is false.
func (d *Diaries) SaveEdit(ctx context.Context, stem string, orig, edited []byte, draft string) (w DiaryWritten, changed bool, err error) {
	if bytes.Equal(orig, edited) {
		return w, false, nil
	}
	again := fmt.Sprintf("memdir diary edit %s --from %s", stem, shq(draft))
	e, err := diary.Parse(stem, edited)
	if err != nil {
		return w, true, hint.With(err, "your edit is kept in %s; fix it there, then run '%s'", draft, again)
	}
	e, found := diary.Redact(e)
	if err := diary.Validate(e); err != nil {
		return w, true, hint.With(err, "your edit is kept in %s; fix every problem listed, then run '%s'", draft, again)
	}
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return w, true, err
	}
	defer unlock()
	now, _, err := d.Raw(stem)
	if err != nil {
		return w, true, hint.With(err, "your edit is kept in %s; 'memdir diary add --from %s' saves it as a new entry", draft, shq(draft))
	}
	if !bytes.Equal(now, orig) {
		return w, true, hint.With(fmt.Errorf("another program changed diary %s while you edited", stem),
			"your version is kept in %s; '%s' applies it over theirs", draft, again)
	}
	if err := d.Folder.WriteDiary(stem, diary.Format(e)); err != nil {
		return w, true, hint.With(err, "your edit is kept in %s; '%s' tries again", draft, again)
	}
	p, _ := d.Folder.DiaryPath(stem)
	return d.written(stem, p, found, e), true, nil
}

// DiaryInput is an entry as `memdir diary add` receives it: a file (or
// stdin) in the diary format, and flags that fill or extend it.
type DiaryInput struct {
	From     []byte // the --from file's bytes, or nil
	FromName string
	Task     string
	Outcome  string
	Session  string
	Date     string
	Tags     []string
	Lines    map[diary.Kind][]string // lines by section, in flag order
}

// Entry builds the entry: the file's, with the flags' task, outcome,
// session, date and tags over it and their lines added to its sections.
func (in DiaryInput) Entry() (diary.Entry, error) {
	var e diary.Entry
	if in.From != nil {
		var err error
		if e, err = diary.Parse(in.FromName, in.From); err != nil {
			return e, hint.With(err, "fix %s ('memdir diary --help' shows the format)", in.FromName)
		}
	}
	for _, f := range []struct {
		to *string
		v  string
	}{{&e.Task, in.Task}, {&e.Outcome, in.Outcome}, {&e.Session, in.Session}, {&e.Date, in.Date}} {
		if f.v != "" {
			*f.to = f.v
		}
	}
	e.Tags = append(e.Tags, in.Tags...)
	for _, s := range diary.Sections {
		if ls := in.Lines[s.Kind]; len(ls) > 0 {
			e.Add(s.Kind, ls...)
		}
	}
	return e, nil
}

// ReadDiaryEdit reads an edited diary (or a --from file; "-" is r),
// refusing one over 4 × diary.MaxSize (Validate reports the size of what
// is under it). A file is opened through safefile: a FIFO, a device or a
// folder is refused at once, never waited on. Every error has a hint.
func ReadDiaryEdit(path string, r io.Reader) ([]byte, error) {
	name := path
	if path == "-" {
		name = "standard input"
	} else {
		f, err := safefile.OpenRegular(path)
		if err != nil {
			return nil, fromHint(path, err)
		}
		defer f.Close()
		r = f
	}
	const limit = 4 * diary.MaxSize
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, hint.With(fmt.Errorf("reading %s: %w", name, err), "give a readable diary file with --from FILE (or - for standard input)")
	}
	if len(b) > limit {
		return nil, hint.With(fmt.Errorf("%s is over %d bytes: not a diary entry", name, limit), "an entry is a page of lessons (at most %d bytes): keep the lessons, drop the detail", diary.MaxSize)
	}
	return b, nil
}

// fromHint says what to do when the --from file cannot be opened.
func fromHint(path string, err error) error {
	var nr *safefile.NotRegularError
	switch {
	case errors.As(err, &nr):
		return hint.With(err, "give --from a regular file in the diary format; to pipe an entry in, use --from - and standard input")
	case errors.Is(err, fs.ErrNotExist):
		return hint.With(err, "check the path (%s); a diary file is in the format 'memdir diary --help' shows", path)
	case errors.Is(err, fs.ErrPermission):
		return hint.With(err, "make %s readable, or give another file", path)
	}
	return hint.With(err, "give the path of a diary file in the format 'memdir diary --help' shows")
}

// Edit takes a new version of the diary stem: from the file from, from r
// when from is "-", or, with from empty, from what edit returns (the path
// of a draft file holding orig, once a person edited it). The new version
// is kept in a draft file until it is saved, so a refused edit is not
// lost; the draft goes once it is saved.
func (d *Diaries) Edit(ctx context.Context, stem, from string, r io.Reader, edit func(orig []byte) (string, error)) (DiaryWritten, bool, error) {
	orig, _, err := d.Raw(stem)
	if err != nil {
		return DiaryWritten{}, false, err
	}
	draft := from
	var edited []byte
	switch from {
	case "-":
		if edited, err = ReadDiaryEdit("-", r); err != nil {
			return DiaryWritten{}, false, err
		}
		if draft, err = Draft(stem+".md", edited); err != nil {
			return DiaryWritten{}, false, err
		}
	case "":
		if draft, err = edit(orig); err != nil {
			return DiaryWritten{}, false, err
		}
	}
	if from != "-" {
		if edited, err = ReadDiaryEdit(draft, r); err != nil {
			return DiaryWritten{}, false, err
		}
	}
	w, changed, err := d.SaveEdit(ctx, stem, orig, edited, draft)
	if err != nil {
		return w, changed, err
	}
	if draft != from {
		os.Remove(draft)
	}
	return w, changed, nil
}
