package synthesis

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/learning"
)

// The synthesis folder's files of the synthesize skill.
const (
	DailyDir        = "daily"
	LastSynthesis   = ".last-synthesis"     // UTC ISO time of the last synthesis
	MigrationMarker = ".migration-complete" // the skill's Phase 0 ran
	projectSuffix   = "-long-term-memory.md"
)

// DailyFile is the path of a day's summary relative to the folder.
func DailyFile(date string) string { return filepath.Join(DailyDir, date+".md") }

// ProjectKey is the name a project's long-term file and its learnings'
// scope go by: the file name's stem (see LongTermFile).
func ProjectKey(project string) string {
	return strings.TrimSuffix(LongTermFile(project), projectSuffix)
}

// Memory is the long-term memory files as read: parsed, with the text each
// was parsed from, so that Save writes only what a decision changed.
type Memory struct {
	learning.Memory
	read map[string]string // rel path → text as read; absent: the file did not exist
	// Bad are the files that did not parse: reported, never rewritten.
	Bad []*learning.ParseError
}

// LoadMemory reads and parses the global long-term file, every project
// file and the decay archive. A file that does not parse is left out of
// the result and listed in Bad; a file that cannot be read is an error.
func (f *Folder) LoadMemory() (*Memory, error) {
	m := &Memory{Memory: learning.Memory{Projects: map[string]*learning.File{}}, read: map[string]string{}}
	text, ok, err := f.readText(learning.GlobalFileName)
	if err != nil {
		return nil, err
	}
	m.Global = learning.NewGlobal()
	if ok {
		g, perr := learning.ParseFile(learning.GlobalFile, learning.GlobalFileName, "", text)
		if perr != nil {
			m.bad(perr, learning.GlobalFileName)
			m.Global = nil
		} else {
			m.Global = g
		}
		m.read[learning.GlobalFileName] = text
	}
	dir, err := f.Path(learning.ProjectMemoryDir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), projectSuffix) {
			continue
		}
		rel := filepath.Join(learning.ProjectMemoryDir, e.Name())
		text, _, err := f.readText(rel)
		if err != nil {
			return nil, err
		}
		key := strings.TrimSuffix(e.Name(), projectSuffix)
		m.read[rel] = text
		p, perr := learning.ParseFile(learning.ProjectFile, rel, key, text)
		if perr != nil {
			m.bad(perr, rel)
			m.Projects[key] = nil // known, and not to be written
			continue
		}
		m.Projects[key] = p
	}
	text, ok, err = f.readText(learning.ArchiveFileName)
	if err != nil {
		return nil, err
	}
	if ok {
		m.read[learning.ArchiveFileName] = text
	}
	a, perr := learning.ParseArchive(text)
	if perr != nil {
		m.bad(perr, learning.ArchiveFileName)
		a = nil
	}
	m.Archive = a
	return m, nil
}

func (m *Memory) bad(err error, rel string) {
	var pe *learning.ParseError
	if !errors.As(err, &pe) {
		pe = &learning.ParseError{File: rel, Line: 1, Msg: err.Error()}
	}
	m.Bad = append(m.Bad, pe)
}

// Usable reports whether the files a change touches all parsed: the
// archive, the global file and the files of projects (by key). A change
// that would touch a file that did not parse is not made.
func (m *Memory) Usable(projects ...string) error {
	var errs []error
	if m.Archive == nil {
		errs = append(errs, m.badOf(learning.ArchiveFileName))
	}
	if m.Global == nil {
		errs = append(errs, m.badOf(learning.GlobalFileName))
	}
	for _, p := range projects {
		if f, known := m.Projects[p]; known && f == nil {
			errs = append(errs, m.badOf(filepath.Join(learning.ProjectMemoryDir, p+projectSuffix)))
		}
	}
	return errors.Join(errs...)
}

func (m *Memory) badOf(rel string) error {
	for _, b := range m.Bad {
		if b.File == rel {
			return b
		}
	}
	return fmt.Errorf("%s did not parse", rel)
}

// Changed lists the files whose text differs from what was read (new
// files included), in the order Save writes them.
func (m *Memory) Changed() []string {
	var out []string
	for _, rf := range m.files() {
		if old, ok := m.read[rf.rel]; !ok || old != rf.text {
			if ok || !rf.empty {
				out = append(out, rf.rel)
			}
		}
	}
	return out
}

type relText struct {
	rel, text string
	empty     bool // a template nothing was added to: not written when new
}

// files renders every file in write order: the archive first (a learning
// moved there is never lost by a crash between two writes: at worst it
// is in both), then project files, then the global file.
func (m *Memory) files() []relText {
	var out []relText
	if m.Archive != nil {
		text := m.Archive.Format()
		out = append(out, relText{learning.ArchiveFileName, text, text == ""})
	}
	keys := make([]string, 0, len(m.Projects))
	for k, p := range m.Projects {
		if p != nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := m.Projects[k]
		out = append(out, relText{filepath.Join(learning.ProjectMemoryDir, k+projectSuffix), p.Format(), len(p.Learnings("")) == 0})
	}
	if m.Global != nil {
		out = append(out, relText{learning.GlobalFileName, m.Global.Format(), len(m.Global.Learnings("")) == 0})
	}
	return out
}

// SaveMemory writes the files of m that changed, each atomically; the
// caller holds the folder's lock. It returns the files written.
func (f *Folder) SaveMemory(m *Memory) ([]string, error) {
	changed := m.Changed()
	for _, rf := range m.files() {
		if !slices.Contains(changed, rf.rel) {
			continue
		}
		if err := f.WriteFile(rf.rel, []byte(rf.text)); err != nil {
			return nil, err
		}
		m.read[rf.rel] = rf.text
	}
	return changed, nil
}

// readText reads rel as text; ok is false when it does not exist.
func (f *Folder) readText(rel string) (text string, ok bool, err error) {
	b, err := f.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// ReadText reads rel as text; ok is false when it does not exist.
func (f *Folder) ReadText(rel string) (text string, ok bool, err error) { return f.readText(rel) }

// LastSynthesized reads LastSynthesis; ok is false when it is missing or
// does not hold a time.
func (f *Folder) LastSynthesized() (t time.Time, ok bool) {
	text, found, err := f.readText(LastSynthesis)
	if err != nil || !found {
		return time.Time{}, false
	}
	text = strings.TrimSpace(text)
	if t, err = time.Parse(time.RFC3339Nano, text); err != nil {
		// The skill's Python writes isoformat(), with a zone
		// (2026-11-20T14:03:11.123456+00:00, RFC 3339) or without one:
		// UTC, as the skill's datetime.now(timezone.utc) means.
		t, err = time.ParseInLocation("2006-01-02T15:04:05.999999999", text, time.UTC)
	}
	return t, err == nil
}

// MarkSynthesized writes now, in UTC, to LastSynthesis.
func (f *Folder) MarkSynthesized(now time.Time) error {
	return f.WriteFile(LastSynthesis, []byte(now.UTC().Format(time.RFC3339)))
}

// Migrated reports whether MigrationMarker exists.
func (f *Folder) Migrated() bool {
	_, ok, err := f.readText(MigrationMarker)
	return ok && err == nil
}

// MarkMigrated writes MigrationMarker as the skill does.
func (f *Folder) MarkMigrated(today string) error {
	return f.WriteFile(MigrationMarker, []byte("Migrated on "+today))
}

// Remove removes rel; a missing file is no error.
func (f *Folder) Remove(rel string) error {
	p, err := f.Path(rel)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
