package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// Forgotten is the copies in the store's ForgottenDir of the memory name
// (a name or a file name, as Forget takes), newest last; their paths are
// relative to the memory folder.
func Forgotten(st *memdir.Store, name string) []string {
	name = strings.TrimSpace(name)
	files := []string{memdir.Slug(name) + ".md"}
	if strings.HasSuffix(name, ".md") {
		files = append(files, name)
	} else {
		files = append(files, name+".md")
	}
	entries, err := os.ReadDir(st.Path(memdir.ForgottenDir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(e.Name(), f+".") }) {
			out = append(out, filepath.Join(memdir.ForgottenDir, e.Name()))
		}
	}
	slices.Sort(out) // the stamps sort by time
	return out
}

// ForgetNotFound turns the ErrNotFound of forgetting name into one that
// says where the memory went, when it was forgotten before.
func ForgetNotFound(st *memdir.Store, name string, err error) error {
	if !errors.Is(err, memdir.ErrNotFound) {
		return err
	}
	copies := Forgotten(st, name)
	if len(copies) == 0 {
		return err
	}
	last := copies[len(copies)-1]
	return hint.With(fmt.Errorf("%q: %w (already forgotten: it is in %s)", name, memdir.ErrNotFound, last),
		"bring it back with 'memdir restore %s' (or move %s back to %s)", name, st.Path(last), st.Dir())
}
