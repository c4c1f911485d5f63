package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// Draft writes orig, a memory file's content, to a new temporary file for
// an editor to change, and returns its path.
func Draft(file string, orig []byte) (string, error) {
	draft, err := os.CreateTemp("", "memdir-edit-*-"+file)
	if err != nil {
		return "", err
	}
	_, err = draft.Write(orig)
	if cerr := draft.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(draft.Name())
		return "", err
	}
	return draft.Name(), nil
}

// ReadEdit reads an edited memory file from path, refusing one over
// memdir.MaxFileSize.
func ReadEdit(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, memdir.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > memdir.MaxFileSize {
		return nil, fmt.Errorf("%s is over %d bytes: not a memory", filepath.Base(path), memdir.MaxFileSize)
	}
	return b, nil
}

// SaveEdit checks edited, a new version of the memory file whose content
// was orig, and saves it over orig: not when another program changed the
// file meanwhile. draft is where the edit stays when it cannot be saved;
// the errors' hints name it. An unchanged version is no save: changed is
// false.
func (w *Workspace) SaveEdit(ctx context.Context, file string, orig, edited []byte, draft string) (res memdir.SaveResult, changed bool, err error) {
	if bytes.Equal(edited, orig) {
		return res, false, nil
	}
	// A team memory is named team/<file>: the bare name is a private one.
	name := strings.TrimSuffix(file, ".md")
	if w.IsTeam() {
		name = teamName(file)
	}
	again := fmt.Sprintf("memdir edit %s --from %s", shq(name), shq(draft))
	if !memdir.HasFrontmatter(edited) {
		// Parse reads a body alone, and Save would then keep the old
		// fields under the new body: refuse it rather than guess.
		return res, true, hint.With(fmt.Errorf("%s has no frontmatter (the --- block with name, description and type): %w", draft, memdir.ErrInvalid),
			"start from the memory's file ('memdir show %s'), keep its --- block, then run '%s'", shq(name), again)
	}
	m, err := memdir.Parse(file, edited)
	if err != nil {
		return res, true, hint.With(err, "your edit is kept in %s; fix it there, then run '%s'", draft, again)
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"name", m.Name}, {"description", m.Description}, {"type", string(m.Type)}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		// An edit replaces the whole file: a field left out would be
		// lost, or the old one kept under a new body without a word.
		return res, true, hint.With(fmt.Errorf("%s has no %s in its frontmatter: %w", draft, strings.Join(missing, ", "), memdir.ErrInvalid),
			"keep name, description and type in the --- block (see 'memdir show %s'), then run '%s'", shq(name), again)
	}
	// The replaced version is kept: 'memdir restore' brings it back.
	res, err = w.Store.Save(ctx, m, memdir.SaveOptions{IfMatch: orig, KeepPrevious: true})
	switch {
	case errors.Is(err, memdir.ErrNameTaken):
		return res, true, hint.With(err, "give this memory another name in %s, then run '%s' (or forget the other memory first)", draft, again)
	case errors.Is(err, memdir.ErrConflict):
		return res, true, hint.With(err, "another program changed %s while you edited; your version is kept in %s ('%s' applies it over theirs)", file, draft, again)
	case err != nil:
		return res, true, hint.With(err, "your edit is kept in %s; '%s' tries again", draft, again)
	}
	return res, true, nil
}
