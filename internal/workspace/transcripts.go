package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// Transcripts is what the transcript pipelines work on: the agents'
// transcripts, the synthesis folder that records how far they are
// processed, and the zone days are counted in.
type Transcripts struct {
	Layout paths.Layout
	Folder *synthesis.Folder
	Roots  sessions.Roots
	Loc    *time.Location
	Zone   string // Loc's name, as TZ sets it
}

// Transcripts resolves the transcripts and the synthesis folder for env.
func (e Env) Transcripts() (Transcripts, error) {
	l, err := e.Layout()
	if err != nil {
		return Transcripts{}, err
	}
	return e.TranscriptsAt(l)
}

// TranscriptsAt is Transcripts on a layout the caller already resolved.
func (e Env) TranscriptsAt(l paths.Layout) (Transcripts, error) {
	// Codex's home: CODEX_HOME, else ~/.codex, except when --home points
	// at another agent home: then only an explicit CODEX_HOME.
	codex := e.getenv("CODEX_HOME")
	if codex == "" && e.HomeFlag == "" && e.getenv("HOME") != "" {
		codex = filepath.Join(e.getenv("HOME"), ".codex")
	}
	timeout, err := e.LockTimeout()
	if err != nil {
		return Transcripts{}, err
	}
	return Transcripts{
		Layout: l,
		Folder: synthesis.Open(l.SynthesisDir, lockfile.Options{Timeout: timeout, Holder: e.Holder}),
		Roots:  sessions.Roots{Claude: l.Home, Codex: codex},
		Loc:    time.Local,
		Zone:   zoneName(e.getenv("TZ")),
	}, nil
}

// zoneName names the local time zone as TZ would set it: $TZ, else the
// zone /etc/localtime links to, else "Local".
func zoneName(tz string) string {
	if tz = strings.TrimPrefix(tz, ":"); tz != "" {
		return tz
	}
	if p, err := os.Readlink("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(p, "zoneinfo/"); ok {
			return name
		}
	}
	return "Local"
}

// ZoneConflict is the error of a run whose time zone is not the one the
// state's days were counted in: its DATE holds other messages.
func (t Transcripts) ZoneConflict(st *sessions.State) error {
	if st.DaysZone == t.Zone {
		return nil
	}
	return hint.With(fmt.Errorf("the days in %s were counted in the time zone %s, and this run counts them in %s", sessions.StateFile, st.DaysZone, t.Zone),
		"run it with TZ=%s, or run 'memdir transcripts extract' first to count the pending days in %s", st.DaysZone, t.Zone)
}

// LoadState reads the processing state; a missing one is empty. Summaries
// computed in another time zone are dropped. Days marked or extracted in
// another zone are kept: see ZoneConflict.
func (t Transcripts) LoadState() (*sessions.State, error) {
	st := sessions.NewState(t.Zone)
	found, err := t.Folder.ReadJSON(sessions.StateFile, st)
	var ce *synthesis.CorruptError
	if errors.As(err, &ce) {
		return nil, hint.With(err, "move the file aside (mv %s %s.bad); memdir then treats every transcript as unprocessed", ce.Path, ce.Path)
	}
	if err != nil {
		return nil, err
	}
	if found && st.Version > sessions.StateVersion {
		return nil, hint.With(fmt.Errorf("%s has format version %d; this memdir knows %d", sessions.StateFile, st.Version, sessions.StateVersion), "upgrade memdir")
	}
	if st.Zone != t.Zone {
		for _, en := range st.Transcripts {
			en.Summary = nil
		}
		st.Zone = t.Zone
	}
	if st.DaysZone == "" || !st.DayMarks() {
		st.DaysZone = t.Zone
	}
	if st.Transcripts == nil {
		st.Transcripts = map[string]*sessions.Entry{}
	}
	st.Version = sessions.StateVersion
	return st, nil
}

// LockState takes the synthesis folder's lock and loads the processing
// state for a read-modify-write; the caller calls unlock when done.
func (t Transcripts) LockState(ctx context.Context) (st *sessions.State, unlock func(), err error) {
	unlock, err = t.Folder.Lock(ctx)
	if err != nil {
		return nil, nil, err
	}
	if st, err = t.LoadState(); err != nil {
		unlock()
		return nil, nil, err
	}
	return st, unlock, nil
}

// HomeGap says what the agent home lacks for transcripts, or "": the home
// itself (noHome), or its projects folder when there is no Codex sessions
// folder either. A mistyped --home would otherwise read as a home with
// nothing pending.
func (t Transcripts) HomeGap() (msg string, noHome bool) {
	home := t.Layout.Home
	if !exists(home) {
		from := t.Layout.HomeSource
		switch from {
		case "flag":
			from = "--home"
		case "default":
			from = "$HOME/.claude"
		}
		return fmt.Sprintf("the agent home %s (from %s) does not exist: it holds no transcripts", home, from), true
	}
	if !exists(filepath.Join(home, "projects")) && (t.Roots.Codex == "" || !exists(filepath.Join(t.Roots.Codex, "sessions"))) {
		return fmt.Sprintf("%s has no projects folder: it holds no Claude Code transcripts", home), false
	}
	return "", false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
