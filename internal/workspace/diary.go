package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// Diaries is the task diaries of the synthesis folder (issue 15), seen
// from one project: what `memdir diary`, the MCP tool diary_write, the
// session-end hook's draft and `memdir patterns` work on.
type Diaries struct {
	Layout paths.Layout
	Folder *synthesis.Folder
	Env    Env
	// Models makes the patterns' model engines' clients; the zero value
	// reads the environment (tests put fakes here).
	Models Models
}

// OpenDiariesOf is OpenDiaries where --project may also name a project as
// diaries record it (its folder's name) rather than a folder: it returns
// that name, "" when --project is a folder or not given.
func OpenDiariesOf(env Env) (*Diaries, string, error) {
	name := ""
	if env.ProjectFlag != "" {
		if fi, err := os.Stat(env.ProjectFlag); err != nil || !fi.IsDir() {
			name, env.ProjectFlag = env.ProjectFlag, ""
		}
	}
	if env.ProjectFlag != "" {
		if err := env.CheckProject(); err != nil {
			return nil, "", err
		}
	}
	d, err := OpenDiaries(env)
	return d, name, err
}

// OpenDiaries resolves the layout and the synthesis folder for env.
// Opening creates nothing.
func OpenDiaries(env Env) (*Diaries, error) {
	l, err := env.Layout()
	if err != nil {
		return nil, err
	}
	timeout, err := env.LockTimeout()
	if err != nil {
		return nil, err
	}
	return &Diaries{Layout: l, Env: env,
		Folder: synthesis.Open(l.SynthesisDir, lockfile.Options{Timeout: timeout, Holder: env.Holder})}, nil
}

// Project is the name diaries give the current project: its root's
// folder name.
func (d *Diaries) Project() string { return diaryProject(d.Layout.ProjectRoot) }

// diaryProject is the name diaries file a project under: its folder's
// name ("root" for a project at the file system's root).
func diaryProject(root string) string {
	name := filepath.Base(root)
	if name == "/" || name == "." || name == `\` || name == "" || strings.HasSuffix(name, ":") {
		return "root"
	}
	return name
}

// DiaryWritten is what a diary write did.
type DiaryWritten struct {
	Stem     string           `json:"stem,omitempty"`
	Path     string           `json:"path,omitempty"`
	Redacted []redact.Finding `json:"redacted,omitempty"`
	Draft    bool             `json:"draft"`
	// DryRun: nothing was written; Stem and Path are where it would go.
	DryRun bool `json:"dry_run,omitempty"`
	// Nothing says why no entry was written (a draft with nothing in it).
	Nothing string `json:"nothing,omitempty"`
	// FromTranscript: Draft wrote it from a session's transcript (not a
	// person nor the agent, nor an edit).
	FromTranscript bool `json:"from_transcript,omitempty"`
	// Project is the project the entry is filed under; OtherProject says
	// it is not the current one (a session that ran in another folder),
	// so 'memdir diary list' without --all does not show it.
	Project      string `json:"project,omitempty"`
	OtherProject bool   `json:"other_project,omitempty"`
}

// Write checks and saves one diary entry: Project (the current project's
// name), Date (now, in the local zone) and Source (when source is not
// empty) are filled when e leaves them empty; credentials are redacted
// (Redacted lists them); an invalid entry is a *diary.ValidationError,
// listing every problem, with a hint. The file's name is diary.Stem,
// with -2, -3 … when taken, chosen under the folder's lock.
func (d *Diaries) Write(ctx context.Context, e diary.Entry, source string, now time.Time) (DiaryWritten, error) {
	e, found, err := d.prepare(e, source, now)
	if err != nil {
		return DiaryWritten{}, err
	}
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return DiaryWritten{}, err
	}
	defer unlock()
	stem := d.freeStem(diary.Stem(e))
	if err := d.Folder.WriteDiary(stem, diary.Format(e)); err != nil {
		return DiaryWritten{}, err
	}
	p, _ := d.Folder.DiaryPath(stem)
	return d.written(stem, p, found, e), nil
}

// written is what writing e as stem at p did.
func (d *Diaries) written(stem, p string, found []redact.Finding, e diary.Entry) DiaryWritten {
	return DiaryWritten{Stem: stem, Path: p, Redacted: found, Draft: e.Draft(), Project: e.Project, OtherProject: e.Project != d.Project()}
}

// prepare fills, redacts and validates e.
func (d *Diaries) prepare(e diary.Entry, source string, now time.Time) (diary.Entry, []redact.Finding, error) {
	if e.Project == "" {
		e.Project = d.Project()
	}
	if e.Date == "" {
		e.Date = now.In(time.Local).Format(time.DateOnly)
	}
	if source != "" {
		e.Source = source
	}
	e, found := diary.Redact(e)
	if err := withFuture(diary.Validate(e), e.Date, now); err != nil {
		return e, found, validationHint(err)
	}
	return e, found, nil
}

// withFuture adds to err's problems a date more than a day after now's
// (a day of slack for clocks and zones apart): a task is dated when it
// ran, and a future date would sort it ahead of every real one.
func withFuture(err error, date string, now time.Time) error {
	latest := now.In(time.Local).AddDate(0, 0, 1).Format(time.DateOnly)
	if _, perr := time.Parse(time.DateOnly, date); perr != nil || date <= latest {
		return err
	}
	p := diary.Problem{Field: "date", Issue: fmt.Sprintf("%s is in the future (today is %s): give the day the task ran, or leave it out for today",
		date, now.In(time.Local).Format(time.DateOnly))}
	var ve *diary.ValidationError
	if errors.As(err, &ve) {
		ve.Problems = append(ve.Problems, p)
		return err
	}
	if err != nil {
		return err
	}
	return &diary.ValidationError{Problems: []diary.Problem{p}}
}

// validationHint adds the next step to a validation error; errors.As
// still finds the *diary.ValidationError.
func validationHint(err error) error {
	var ve *diary.ValidationError
	if errors.As(err, &ve) {
		return hint.With(err, "fix every problem listed, then write it again ('memdir diary --help' shows the format)")
	}
	return err
}

// freeStem is stem, or stem-2, -3 … when a diary has it. The caller holds
// the lock.
func (d *Diaries) freeStem(stem string) string {
	if !d.Folder.HasDiary(stem) {
		return stem
	}
	for i := 2; ; i++ {
		s := stem + "-" + strconv.Itoa(i)
		if !d.Folder.HasDiary(s) {
			return s
		}
	}
}

// DiaryFilter chooses diaries to list.
type DiaryFilter struct {
	Project string // default: the current project
	All     bool   // every project
	Since   string // YYYY-MM-DD (or today, yesterday): entries dated on or after it
	Drafts  bool   // drafts only
}

// DiaryInfo is one diary as listed.
type DiaryInfo struct {
	Stem  string      `json:"stem"`
	Path  string      `json:"path"`
	Entry diary.Entry `json:"entry"`
}

// BadDiary is a diary file that could not be read or parsed: listed, never
// dropped silently.
type BadDiary struct {
	Stem  string `json:"stem"`
	Path  string `json:"path"`
	Error string `json:"error"`
}

// List reads the diaries f chooses, oldest first. A file that does not
// parse is in the second list with its error, whatever the filter.
func (d *Diaries) List(f DiaryFilter, now time.Time) ([]DiaryInfo, []BadDiary, error) {
	since := ""
	if f.Since != "" {
		s, err := parseSince(f.Since, now)
		if err != nil {
			return nil, nil, err
		}
		since = s
	}
	project := f.Project
	if project == "" {
		project = d.Project()
	}
	files, err := d.Folder.Diaries()
	if err != nil {
		return nil, nil, err
	}
	var out []DiaryInfo
	var bad []BadDiary
	for _, df := range files {
		p, _ := d.Folder.DiaryPath(df.Stem)
		if df.Err != nil {
			bad = append(bad, BadDiary{Stem: df.Stem, Path: p, Error: df.Err.Error()})
			continue
		}
		e, err := diary.Parse(df.Stem, df.Data)
		if err != nil {
			bad = append(bad, BadDiary{Stem: df.Stem, Path: p, Error: err.Error()})
			continue
		}
		switch {
		case !f.All && e.Project != project:
		case since != "" && e.Date < since:
		case f.Drafts && !e.Draft():
		default:
			out = append(out, DiaryInfo{Stem: df.Stem, Path: p, Entry: e})
		}
	}
	return out, bad, nil
}

// parseSince reads a day (YYYY-MM-DD, today, yesterday) or a number of
// days back (30d).
func parseSince(s string, now time.Time) (string, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n >= 0 {
			return now.In(time.Local).AddDate(0, 0, -n).Format(time.DateOnly), nil
		}
	}
	day, err := sessions.ParseDay(s, time.Local, now)
	if err != nil {
		return "", hint.With(err, "give --since as YYYY-MM-DD, today, yesterday or a number of days (30d)")
	}
	return day, nil
}

// Show reads the diary stem.
func (d *Diaries) Show(stem string) (DiaryInfo, error) {
	raw, p, err := d.Raw(stem)
	if err != nil {
		return DiaryInfo{}, err
	}
	e, err := diary.Parse(stem, raw)
	if err != nil {
		return DiaryInfo{}, hint.With(err, "fix the file by hand (%s) or with 'memdir diary edit %s'", p, stem)
	}
	return DiaryInfo{Stem: stem, Path: p, Entry: e}, nil
}

// Raw reads the diary stem's bytes and path; a missing diary is an error
// with a hint to list them.
func (d *Diaries) Raw(stem string) ([]byte, string, error) {
	if !diary.ValidStem(stem) {
		return nil, "", hint.With(fmt.Errorf("%q is not a diary's name", stem), "a diary's name is its file name without .md, like 2026-03-02-fix-the-login-test; 'memdir diary list' shows them")
	}
	p, err := d.Folder.DiaryPath(stem)
	if err != nil {
		return nil, "", err
	}
	raw, err := d.Folder.ReadDiary(stem)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, p, hint.With(fmt.Errorf("no diary %s", stem), "'memdir diary list --all' shows the diaries")
	}
	return raw, p, err
}

// Accept marks drafts accepted, so patterns reads them. An entry already
// accepted is left as it is; accepted lists the stems changed. A stem
// that cannot be accepted (no such diary, a file that does not parse, an
// entry not valid) does not stop the others: err is then a
// *DiaryStemsError naming each one and why, with a hint.
func (d *Diaries) Accept(ctx context.Context, stems []string) (accepted []string, err error) {
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	se := &DiaryStemsError{Verb: "accepted"}
	for _, stem := range stems {
		changed, err := d.accept(stem)
		if err != nil {
			se.Failed = append(se.Failed, StemError{Stem: stem, Err: err})
		} else if changed {
			accepted = append(accepted, stem)
		}
	}
	return accepted, se.orNil()
}

// accept accepts the draft stem; the caller holds the lock.
func (d *Diaries) accept(stem string) (bool, error) {
	info, err := d.Show(stem)
	if err != nil || !info.Entry.Draft() {
		return false, err
	}
	info.Entry.Status = diary.StatusAccepted
	if err := diary.Validate(info.Entry); err != nil {
		return false, hint.With(err, "fix it with 'memdir diary edit %s' (an accepted diary must be valid), then accept it", stem)
	}
	return true, d.Folder.WriteDiary(stem, diary.Format(info.Entry))
}

// Remove deletes diaries (a draft a person rejects). A stem that cannot
// be removed does not stop the others: err is then a *DiaryStemsError.
func (d *Diaries) Remove(ctx context.Context, stems []string) (removed []string, err error) {
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	se := &DiaryStemsError{Verb: "removed"}
	for _, stem := range stems {
		_, _, err := d.Raw(stem)
		if err == nil {
			err = d.Folder.RemoveDiary(stem)
		}
		if err != nil {
			se.Failed = append(se.Failed, StemError{Stem: stem, Err: err})
			continue
		}
		removed = append(removed, stem)
	}
	return removed, se.orNil()
}

// StemError is one diary an Accept or Remove could not act on, and why.
type StemError struct {
	Stem string `json:"stem"`
	Err  error  `json:"-"`
}

// MarshalJSON writes the error as its text.
func (s StemError) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Stem  string `json:"stem"`
		Error string `json:"error"`
	}{s.Stem, s.Err.Error()})
}

// DiaryStemsError lists the diaries an Accept or Remove left as they
// were; the others were done.
type DiaryStemsError struct {
	Verb   string // accepted, removed
	Failed []StemError
}

func (e *DiaryStemsError) Error() string {
	var b strings.Builder
	n := len(e.Failed)
	if n == 1 {
		fmt.Fprintf(&b, "1 diary not %s: ", e.Verb)
	} else {
		fmt.Fprintf(&b, "%d diaries not %s: ", n, e.Verb)
	}
	for i, f := range e.Failed {
		if i > 0 {
			b.WriteString("; ")
		}
		msg := f.Err.Error()
		if !strings.Contains(msg, f.Stem) {
			msg = f.Stem + ": " + msg
		}
		b.WriteString(msg)
	}
	return b.String()
}

// orNil is e with the failures' hints, or nil when nothing failed.
func (e *DiaryStemsError) orNil() error {
	if len(e.Failed) == 0 {
		return nil
	}
	var hints []string
	for _, f := range e.Failed {
		if h := hint.Of(f.Err); h != "" && !slices.Contains(hints, h) {
			hints = append(hints, h)
		}
	}
	if len(hints) == 0 {
		return e
	}
	return hint.With(e, "%s", strings.Join(hints, "; "))
}
