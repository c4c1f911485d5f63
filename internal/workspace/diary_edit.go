package workspace

import (
	"bytes"
	"context"
	"fmt"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hint"
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
	return DiaryWritten{Stem: stem, Path: p, Redacted: found, Draft: e.Draft()}, true, nil
}
