package memdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/memdir/memdir/internal/paths"
)

// maxTitleLen caps a memory's name in bytes.
const maxTitleLen = 200

// Resolve maps what a user typed to the file of an existing memory: a file
// name "x.md", a file name without its ".md", or a memory's name as list
// shows it ("Prefer tabs", "CI/CD secrets", "API ключи"), compared with
// case and runs of spaces aside. A name that two memories share is
// ErrAmbiguous; an unknown one ErrNotFound. Only a plain file name is ever
// looked up as a path: "../x" can be a title, never a file.
func (s *Store) Resolve(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := validTitle(name); err != nil {
		return "", err
	}
	if paths.ValidateName(name) == nil {
		cands := []string{name}
		if !strings.HasSuffix(name, ".md") {
			cands = []string{name + ".md"}
		}
		for _, c := range cands {
			if c == IndexFile {
				continue
			}
			if _, err := os.Lstat(s.Path(c)); err == nil {
				return c, nil
			}
		}
	}
	file, err := s.fileNamed(context.Background(), name, true)
	if err != nil {
		return "", err
	}
	if file == "" {
		return "", fmt.Errorf("%q: %w", name, ErrNotFound)
	}
	return file, nil
}

// fileNamed finds the memory whose name is name: first the file its slug
// names, then every memory, through the recall snapshot (kept fresh from
// the files). Without everywhere, a folder of more than scanAllFiles
// memories is searched only through the files MEMORY.md lists under that
// title: rebuilding a large snapshot after every save would cost a save
// 150 ms at 10,000 memories. It returns "" when none is.
func (s *Store) fileNamed(ctx context.Context, name string, everywhere bool) (string, error) {
	slug := Slug(name) + ".md"
	switch m, _, err := s.read(slug); {
	case err == nil && SameName(m.Title(), name):
		return slug, nil
	case err != nil && !errors.Is(err, ErrNotFound):
		// The file the name points at is a link out, or does not parse:
		// say so rather than look past it.
		return "", err
	}
	var found []string
	if !everywhere {
		files, err := s.Files()
		if err != nil {
			return "", err
		}
		everywhere = len(files) <= scanAllFiles
	}
	if everywhere {
		snap, _, err := s.RecallIndex(ctx)
		if err != nil {
			return "", err
		}
		for i := range snap.Len() {
			if m, _, err := snap.Memory(i); err == nil && SameName(m.Name, name) {
				found = append(found, snap.File(i))
			}
		}
	} else {
		b, err := s.readIndex()
		if err != nil {
			return "", err
		}
		for _, l := range ParseIndex(b).Lines {
			if l.File == "" || l.File == slug || slices.Contains(found, l.File) || !SameName(entryTitle(l.Text), name) {
				continue
			}
			if m, _, err := s.read(l.File); err == nil && SameName(m.Title(), name) {
				found = append(found, l.File)
			}
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%q is the name of %s: %w; give the file name", name, strings.Join(found, ", "), ErrAmbiguous)
}

// scanAllFiles is the folder size up to which a save looks for its name
// in every memory.
const scanAllFiles = 1000

// fileForName is where a memory saved by name goes: the file of the memory
// already called name, or else a file no memory uses — the name's slug,
// or slug-2.md, slug-3.md… when another memory merely shares the slug.
func (s *Store) fileForName(ctx context.Context, name string) (string, error) {
	file, err := s.fileNamed(ctx, name, false)
	if err != nil || file != "" {
		return file, err
	}
	base := Slug(name)
	file = base + ".md"
	for i := 2; ; i++ {
		if _, err := os.Lstat(s.Path(file)); errors.Is(err, fs.ErrNotExist) {
			return file, nil
		} else if err != nil {
			return "", err
		}
		file = fmt.Sprintf("%s-%d.md", base, i)
	}
}

// SameName reports whether two memory names are the same name: equal when
// case and runs of white space are set aside.
func SameName(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// validTitle accepts what a memory may be called: a title of any script
// with punctuation ("CI/CD", ".env files", "Wait... why"), but no control
// characters, no invalid UTF-8 and not too long. The file name is the
// slug, so a title never becomes a path.
func validTitle(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s", paths.ErrInvalidName, name, why)
	}
	switch {
	case strings.TrimSpace(name) == "":
		return bad("empty")
	case len(name) > maxTitleLen:
		return bad(fmt.Sprintf("longer than %d bytes", maxTitleLen))
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return bad("contains a control character or invalid UTF-8")
		}
	}
	return nil
}
