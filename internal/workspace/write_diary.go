package workspace

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/redact"
)

// WriteDiaryWritten prints what a diary write or draft did.
func WriteDiaryWritten(w io.Writer, r DiaryWritten, e diary.Entry) error {
	ew := &errWriter{w: w}
	switch {
	case r.Nothing != "":
		ew.printf("%s\n", r.Nothing)
		return ew.err
	case r.DryRun:
		ew.printf("%s", diary.Format(e))
		ew.printf("\nNothing written (--dry-run); it would be the draft %s.\n", r.Stem)
	case r.FromTranscript:
		ew.printf("Drafted diary %s (%s).\n", r.Stem, r.Path)
		ew.printf("Read it ('memdir diary show %s'), fix it ('memdir diary edit %s'), then 'memdir diary accept %s' (or 'memdir diary rm %s').\n", r.Stem, r.Stem, r.Stem, r.Stem)
	default:
		ew.printf("Saved diary %s (%s).\n", r.Stem, r.Path)
		if r.Draft {
			ew.printf("It is still a draft: 'memdir diary accept %s' when it is right (patterns reads accepted diaries only).\n", r.Stem)
		}
	}
	if r.OtherProject {
		ew.printf("Filed under project %s, not the current one: see it with 'memdir diary list --all' or 'memdir diary list --project %s'.\n", r.Project, shq(r.Project))
	}
	writeRedacted(ew, r.Redacted)
	return ew.err
}

func writeRedacted(ew *errWriter, fs []redact.Finding) {
	if len(fs) == 0 {
		return
	}
	var parts []string
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%d %s", f.Count, f.Kind))
	}
	ew.printf("Redacted: %s.\n", strings.Join(parts, ", "))
}

// WriteDiaryList prints diaries one a line, then the unreadable ones.
func WriteDiaryList(w io.Writer, infos []DiaryInfo, bad []BadDiary) error {
	ew := &errWriter{w: w}
	if len(infos) == 0 {
		ew.printf("No diaries (add one with 'memdir diary add', or see every project's with --all).\n")
	}
	for _, in := range infos {
		mark := ""
		if in.Entry.Draft() {
			mark = "  [draft]"
		}
		outcome := in.Entry.Outcome
		if outcome == "" {
			outcome = "-"
		}
		ew.printf("%s  %s  %s  %s%s\n", in.Stem, in.Entry.Project, outcome, cutLine(in.Entry.Task, 80), mark)
	}
	for _, b := range bad {
		ew.printf("unreadable: %s: %s\n", b.Stem, b.Error)
	}
	return ew.err
}

// WriteDiaryShow prints a diary as its file says it: what 'memdir diary
// edit STEM --from -' takes back (the path is the caller's to say, on
// stderr).
func WriteDiaryShow(w io.Writer, in DiaryInfo) error {
	ew := &errWriter{w: w}
	ew.printf("%s", diary.Format(in.Entry))
	return ew.err
}

// DiaryListJSON is 'memdir diary list --json'.
type DiaryListJSON struct {
	Diaries    []DiaryInfo `json:"diaries"`
	Unreadable []BadDiary  `json:"unreadable,omitempty"`
}

// NewDiaryListJSON makes the list's JSON, with [] for no diary.
func NewDiaryListJSON(infos []DiaryInfo, bad []BadDiary) DiaryListJSON {
	return DiaryListJSON{Diaries: orEmpty(infos), Unreadable: bad}
}

// DraftJSON is 'memdir diary draft --json': what was written, and the
// entry unless there was nothing to draft.
type DraftJSON struct {
	DiaryWritten
	Entry *diary.Entry `json:"entry,omitempty"`
}

// NewDraftJSON makes the draft's JSON.
func NewDraftJSON(w DiaryWritten, e diary.Entry) DraftJSON {
	if w.Nothing != "" && e.Task == "" {
		return DraftJSON{DiaryWritten: w}
	}
	return DraftJSON{DiaryWritten: w, Entry: &e}
}

// StemsDone is what accept or rm did to each diary named.
type StemsDone struct {
	Verb    string      `json:"-"` // accepted, removed
	Asked   []string    `json:"-"`
	Done    []string    `json:"done"`
	Failed  []StemError `json:"failed"`
	Already int         `json:"-"` // accept: already accepted
}

// NewStemsDone sorts what accept or rm returned; err is returned as it is
// when nothing was done at all (not a DiaryStemsError).
func NewStemsDone(verb string, asked, done []string, err error) (StemsDone, error) {
	var se *DiaryStemsError
	if err != nil && !errors.As(err, &se) {
		return StemsDone{}, err
	}
	r := StemsDone{Verb: verb, Asked: asked, Done: orEmpty(done), Failed: []StemError{}}
	if se != nil {
		r.Failed = orEmpty(se.Failed)
	}
	if verb == "accepted" {
		r.Already = len(asked) - len(r.Done) - len(r.Failed)
	}
	return r, nil
}

// JSON is the report's JSON: {"accepted"|"removed": [...], "failed": [...]}.
func (r StemsDone) JSON() map[string]any {
	return map[string]any{r.Verb: r.Done, "failed": r.Failed}
}

// WriteStemsDone prints each diary acted on, how many were accepted
// already, and each one that could not be.
func WriteStemsDone(w io.Writer, r StemsDone) error {
	ew := &errWriter{w: w}
	for _, s := range r.Done {
		ew.printf("%s %s\n", r.Verb, s)
	}
	if r.Already > 0 {
		ew.printf("%d already accepted\n", r.Already)
	}
	for _, f := range r.Failed {
		ew.printf("not %s: %s\n", r.Verb, f.Stem)
	}
	return ew.err
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
