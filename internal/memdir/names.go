package memdir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/memdir/memdir/internal/paths"
)

// maxTitleLen caps the name memdir gives a memory, in bytes. A lookup
// takes names up to maxLookupLen: another tool may have written longer.
const (
	maxTitleLen  = 200
	maxLookupLen = 4096
)

// Resolve maps what a user typed to the file of an existing memory: a
// memory's name as list shows it ("Prefer tabs", "CI/CD secrets", "API
// ключи"; case and runs of spaces aside), else a file name "x.md" or one
// without its ".md" — names first, as a save by name does, so show, edit
// and forget act on the memory a save would update. A name that two
// memories share is ErrAmbiguous; an unknown one ErrNotFound. Only a plain
// file name is ever looked up as a path: "../x" can be a title, never a
// file, and MEMORY.md (in any case) is never a memory.
func (s *Store) Resolve(name string) (string, error) {
	name = strings.TrimSpace(name)
	if err := validTitle(name, maxLookupLen); err != nil {
		return "", err
	}
	plain := paths.ValidateName(name) == nil
	if plain && strings.HasSuffix(name, ".md") {
		// A file name, exactly: the name of a memory rarely ends in .md,
		// and when one does it is looked up below.
		if f, ok := s.fileOnDisk(name); ok {
			return f, nil
		}
	}
	file, err := s.fileNamed(context.Background(), name, true)
	var fe *FrontmatterError
	if plain && errors.As(err, &fe) && (fe.File == name || fe.File == name+".md") {
		// The file typed by its stem does not parse: it is still the file
		// meant (edit is how it gets fixed, forget how it goes).
		return fe.File, nil
	}
	if err != nil || file != "" {
		return file, err
	}
	if plain && !strings.HasSuffix(name, ".md") {
		if f, ok := s.fileOnDisk(name + ".md"); ok {
			return f, nil
		}
	}
	return "", fmt.Errorf("%q: %w", name, ErrNotFound)
}

// fileOnDisk reports whether file is a memory file in the folder, and its
// name as the folder spells it (on a case-insensitive file system "X.md"
// finds "x.md"; MEMORY.md is never a memory).
func (s *Store) fileOnDisk(file string) (string, bool) {
	if IsIndexName(file) {
		return "", false
	}
	fi, err := os.Lstat(s.Path(file))
	if err != nil {
		return "", false
	}
	// Only a file system that ignores case finds the name in another
	// case too; only then is the folder listed for the true spelling.
	alt := swapCase(file)
	if alt == file {
		return file, true
	}
	if fj, err := os.Lstat(s.Path(alt)); err != nil || !os.SameFile(fi, fj) {
		return file, true
	}
	files, err := s.Files()
	if err != nil || slices.Contains(files, file) {
		return file, true
	}
	for _, f := range files {
		if strings.EqualFold(f, file) {
			return f, true
		}
	}
	return file, true
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// IsIndexName reports whether a file name is MEMORY.md's, in any case: on
// the case-insensitive file systems of macOS and Windows "memory.md" is
// MEMORY.md.
func IsIndexName(file string) bool { return strings.EqualFold(file, IndexFile) }

// fileNamed finds the memory whose name is name: first the file its slug
// names, then every memory (through Options.Names: the recall snapshot,
// kept fresh from the files, when a workspace opened the store). Without
// everywhere, a folder of more than scanAllFiles
// memories is searched only through the files MEMORY.md lists under that
// title: rebuilding a large snapshot after every save would cost a save
// 150 ms at 10,000 memories. It returns "" when none is.
func (s *Store) fileNamed(ctx context.Context, name string, everywhere bool) (string, error) {
	slug := Slug(name) + ".md"
	m, _, err := s.read(slug)
	if IsIndexName(slug) {
		err = ErrNotFound // never MEMORY.md, whatever the case
	}
	switch {
	case err == nil && SameName(m.Title(), name):
		return slug, nil
	case err != nil && !errors.Is(err, ErrNotFound):
		// The file the name points at is a link out, or does not parse:
		// say so rather than look past it.
		return "", err
	}
	var found []string
	if !everywhere {
		if everywhere, err = s.atMostFiles(scanAllFiles); err != nil {
			return "", err
		}
	}
	if everywhere {
		all, err := s.allNames(ctx)
		if err != nil {
			return "", err
		}
		for _, nf := range all {
			if SameName(nf.Name, name) {
				found = append(found, nf.File)
			}
		}
	} else {
		// MEMORY.md lists at most a budget's worth of memories; one too
		// large to edit is not read (the save says to rebuild it).
		b, err := s.readIndexUpTo(maxEditIndexSize)
		if IsIndexTooBig(err) {
			b, err = nil, nil
		}
		if err != nil {
			return "", err
		}
		for _, l := range ParseIndex(b).Lines {
			if l.File == "" || l.File == slug || paths.ValidateName(l.File) != nil || IsIndexName(l.File) || slices.Contains(found, l.File) || !SameName(entryTitle(l.Text), name) {
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

// atMostFiles reports whether the folder holds at most n memory files. It
// reads the folder in batches, unsorted, and stops once it has seen more:
// a save into a folder of 100,000 memories reads a thousand names, not
// all of them.
func (s *Store) atMostFiles(n int) (bool, error) {
	f, err := os.Open(s.dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	count := 0
	for {
		entries, err := f.ReadDir(256)
		for _, e := range entries {
			if isMemoryEntry(e) {
				if count++; count > n {
					return false, nil
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

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
		if IsIndexName(file) { // a memory called "Memory" is memory-2.md
			file = fmt.Sprintf("%s-%d.md", base, i)
			continue
		}
		if _, err := os.Lstat(s.Path(file)); errors.Is(err, fs.ErrNotExist) {
			return file, nil
		} else if err != nil {
			return "", err
		}
		file = fmt.Sprintf("%s-%d.md", base, i)
	}
}

// SameName reports whether two memory names are the same name: equal when
// case and runs of white space are set aside, or when one is Claude Code's
// slug form of the other ("prefer-tabs" for "Prefer tabs": Claude Code
// writes names that way) and the other loses nothing to its slug.
func SameName(a, b string) bool {
	if strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")) {
		return true
	}
	return slugOf(a, b) || slugOf(b, a)
}

// slugOf reports whether a is in Claude Code's name form and is the slug of
// b, where b is plain words (letters, digits, spaces, '-' and '_').
func slugOf(a, b string) bool {
	if a == "" || strings.Trim(a, "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
		return false
	}
	for _, r := range b {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '-' || r == '_') {
			return false
		}
	}
	return fullSlug(a) != "" && fullSlug(a) == fullSlug(b)
}

// validTitle accepts what a memory may be called: a title of any script
// with punctuation ("CI/CD", ".env files", "Wait... why"), but no control
// characters, no invalid UTF-8 and not too long. The file name is the
// slug, so a title never becomes a path.
func validTitle(name string, maxLen int) error {
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s", paths.ErrInvalidName, name, why)
	}
	switch {
	case strings.TrimSpace(name) == "":
		return bad("empty")
	case len(name) > maxLen:
		return bad(fmt.Sprintf("longer than %d bytes", maxLen))
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return bad("contains a control character or invalid UTF-8")
		}
	}
	return nil
}
