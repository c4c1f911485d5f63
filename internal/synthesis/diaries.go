package synthesis

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/safefile"
)

// Task diaries (issue 15) live in DiariesDir, one markdown file per task;
// what `memdir patterns` keeps of its patterns (support, last seen, what
// was applied) lives in PatternsFile, and copies of project files taken
// before a pattern was applied to them in BackupsDir.
const (
	DiariesDir   = "diaries"
	PatternsFile = "patterns.json"
	BackupsDir   = "backups"
)

// maxDiaryRead bounds a diary file read: entries are written under 16 KB;
// a file edited by hand may grow, but a diary of a megabyte is not one.
const maxDiaryRead = 1 << 20

// DiaryFile is one file of the diaries folder as read.
type DiaryFile struct {
	Stem    string // the file's name without .md
	Data    []byte
	ModTime time.Time
	Err     error // the file could not be read; Data is nil
}

// Diaries reads every .md file directly in DiariesDir, sorted by name
// (which starts with the date). A missing folder is no diary; a file that
// cannot be read is listed with its error rather than failing the rest.
func (f *Folder) Diaries() ([]DiaryFile, error) {
	dir, err := f.Path(DiariesDir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []DiaryFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		d := DiaryFile{Stem: strings.TrimSuffix(name, ".md")}
		if fi, err := e.Info(); err == nil {
			d.ModTime = fi.ModTime()
		}
		d.Data, d.Err = safefile.ReadFile(filepath.Join(dir, name), maxDiaryRead)
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b DiaryFile) int { return strings.Compare(a.Stem, b.Stem) })
	return out, nil
}

// DiaryPath is the path of the diary stem; stem must be a plain name.
func (f *Folder) DiaryPath(stem string) (string, error) {
	if stem == "" || strings.ContainsAny(stem, `/\`) || strings.HasPrefix(stem, ".") {
		return "", errors.New("a diary's name is a plain file name")
	}
	return f.Path(DiariesDir + "/" + stem + ".md")
}

// ReadDiary reads the diary stem; a missing one is fs.ErrNotExist.
func (f *Folder) ReadDiary(stem string) ([]byte, error) {
	p, err := f.DiaryPath(stem)
	if err != nil {
		return nil, err
	}
	return safefile.ReadFile(p, maxDiaryRead)
}

// WriteDiary writes the diary stem atomically. The caller holds the
// folder's lock when it chose stem by looking at what exists.
func (f *Folder) WriteDiary(stem string, data []byte) error {
	if _, err := f.DiaryPath(stem); err != nil {
		return err
	}
	return f.WriteFile(DiariesDir+"/"+stem+".md", data)
}

// HasDiary reports whether the diary stem exists.
func (f *Folder) HasDiary(stem string) bool {
	p, err := f.DiaryPath(stem)
	if err != nil {
		return false
	}
	_, err = os.Lstat(p)
	return err == nil
}

// RemoveDiary removes the diary stem; a missing one is no error.
func (f *Folder) RemoveDiary(stem string) error {
	if _, err := f.DiaryPath(stem); err != nil {
		return err
	}
	return f.Remove(DiariesDir + "/" + stem + ".md")
}
