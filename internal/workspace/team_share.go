package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// SharePlan is a memory on its way between the private and the team
// folder (Share, Unshare), checked, and shown as it will be written.
type SharePlan struct {
	From    string        `json:"from"` // memdir.ScopePrivate or memdir.ScopeTeam
	To      string        `json:"to"`
	File    string        `json:"file"`
	Preview string        `json:"preview"` // the file exactly as it will be written (and, to the team, committed)
	Memory  memdir.Memory `json:"-"`
}

// ShareResult is what Share and Unshare did.
type ShareResult struct {
	SharePlan
	Path      string   `json:"path"`                   // the new copy
	MovedTo   string   `json:"forgotten_to,omitempty"` // where the old copy went, in its folder's .forgotten
	Tombstone string   `json:"tombstone,omitempty"`    // unshare: the team folder's record of it
	Revived   bool     `json:"revived,omitempty"`      // share: a forgotten team memory came back
	Warnings  []string `json:"warnings,omitempty"`
}

// private is w's private folder, refusing a team workspace.
func (w *Workspace) private() error {
	if w.isTeam {
		return errors.New("share and unshare work from the project's private folder")
	}
	return nil
}

// ShareableName refuses, before any folder is opened, a name that share
// and unshare never take: one of the user's global memories.
func ShareableName(name string) error {
	if !strings.HasPrefix(strings.TrimSpace(name), GlobalPrefix) {
		return nil
	}
	return hint.With(fmt.Errorf("%s is one of your global memories: they are about you, follow you into every project and stay private", name),
		"to give a project's team the same fact, save it in the project ('memdir save --scope team …'), written as a project convention")
}

// PlanShare checks that the private memory name may become a team memory
// and shows it as it will be committed: never a user memory (about one
// person, always private), never one that holds a potential secret, never
// over a team memory of the same name.
func (w *Workspace) PlanShare(name string) (SharePlan, error) {
	if err := w.private(); err != nil {
		return SharePlan{}, err
	}
	if strings.HasPrefix(name, "team/") {
		return SharePlan{}, hint.With(fmt.Errorf("%s is a team memory already", name), "memdir unshare %s makes it private", shq(name))
	}
	m, err := w.Store.Get(name)
	if err != nil {
		return SharePlan{}, hint.With(err, "'memdir list' shows the private memories")
	}
	if err := checkTeamType(m.Type); err != nil {
		return SharePlan{}, err
	}
	raw, _, err := w.Store.Raw(m.File)
	if err != nil {
		return SharePlan{}, err
	}
	if labels := teamSecrets(m, raw); len(labels) > 0 {
		return SharePlan{}, hint.With(&memdir.SecretError{File: m.File, Labels: labels},
			"rewrite it without the secret with memdir edit %s (say where the secret lives instead), then share it", shq(stem(m.File)))
	}
	if w.HasTeam() {
		t, err := w.Team(false)
		if err != nil {
			return SharePlan{}, err
		}
		if err := taken(t.Store, m, "team/"); err != nil {
			tn := shq(teamName(m.File))
			return SharePlan{}, hint.With(err, "compare with memdir show %s, then merge the two with memdir edit %s and memdir forget %s", tn, tn, shq(stem(m.File)))
		}
	}
	pm := m
	pm.Scope = memdir.ScopeTeam
	if pm.Author == "" {
		pm.Author = TeamAuthor(w.Env, w.Layout.WorkTree)
	}
	p := plan(memdir.ScopePrivate, memdir.ScopeTeam, pm)
	if labels := rawSecrets([]byte(p.Preview)); len(labels) > 0 {
		return SharePlan{}, hint.With(&memdir.SecretError{File: m.File, Labels: labels}, "rewrite it without the secret with memdir edit %s, then share it", shq(stem(m.File)))
	}
	return p, nil
}

// taken reports, as an error, a memory of st with m's file or name.
func taken(st *memdir.Store, m memdir.Memory, prefix string) error {
	if exists(st.Path(m.File)) {
		return fmt.Errorf("%s%s exists already", prefix, m.File)
	}
	if f, err := st.Resolve(m.Name); err == nil && f != "" {
		return fmt.Errorf("%s%s has the name %q already", prefix, f, m.Name)
	}
	return nil
}

// plan is the SharePlan of writing m, as prepared, to.
func plan(from, to string, m memdir.Memory) SharePlan {
	if m.Created.IsZero() {
		m.Created = m.Updated
	}
	return SharePlan{From: from, To: to, File: m.File, Preview: string(memdir.Format(m)), Memory: m}
}

// Share makes a private memory a team memory, as p shows it: the team
// copy is written first (the team folder is created and linked when
// needed), then the private one is forgotten (kept in .forgotten, where
// 'memdir restore' finds it). A crash in between leaves both, never
// neither.
func (w *Workspace) Share(ctx context.Context, p SharePlan) (ShareResult, error) {
	res := ShareResult{SharePlan: p}
	t, err := w.Team(true)
	if err != nil {
		return res, err
	}
	if err := taken(t.Store, p.Memory, "team/"); err != nil {
		return res, hint.With(err, "run memdir share %s again to see the two", shq(stem(p.File)))
	}
	sr, err := t.Store.Save(ctx, p.Memory, memdir.SaveOptions{KeepUpdated: true, Revive: true})
	if err != nil {
		return res, TeamSecretHint(err)
	}
	res.File, res.Path, res.Revived = sr.File, sr.Path, sr.Revived
	res.Warnings = append(res.Warnings, sr.Warnings...)
	if err := w.LinkTeam(); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	fr, err := w.Store.Forget(ctx, p.Memory.File, false)
	if err != nil {
		return res, hint.With(fmt.Errorf("shared as team/%s, but the private copy stays: %w", sr.File, err), "run memdir forget %s to remove it", shq(stem(p.Memory.File)))
	}
	res.MovedTo = fr.MovedTo
	return res, nil
}

// PlanUnshare checks that the team memory name may become private, and
// shows it as it will be written in the private folder.
func (w *Workspace) PlanUnshare(name string) (SharePlan, error) {
	if err := w.private(); err != nil {
		return SharePlan{}, err
	}
	t, err := w.Team(false)
	if err != nil {
		return SharePlan{}, err
	}
	file, err := teamFile(t.Store, name)
	if err != nil {
		return SharePlan{}, hint.With(err, "'memdir list --scope team' shows the team memories")
	}
	m, err := t.Store.Read(file)
	if errors.Is(err, memdir.ErrConflictMarkers) {
		return SharePlan{}, hint.With(err, "settle it first with memdir team resolve %s", shq(stem(file)))
	}
	if err != nil {
		return SharePlan{}, hint.With(err, "fix it with memdir edit %s first", shq(teamName(file)))
	}
	if err := taken(w.Store, m, ""); err != nil {
		return SharePlan{}, hint.With(err, "compare with memdir show %s, then merge the two and forget one (memdir forget %s)", shq(stem(m.File)), shq(teamName(file)))
	}
	pm := m
	pm.Scope = memdir.ScopePrivate
	return plan(memdir.ScopeTeam, memdir.ScopePrivate, pm), nil
}

// Unshare makes a team memory private, as p shows it: the private copy is
// written first, then the team one is deleted (purged: a copy kept in the
// team folder's .forgotten would stay in the repository's working tree,
// where a private memory has no place), leaving a tombstone (so a branch
// that still has it does not bring it back silently).
func (w *Workspace) Unshare(ctx context.Context, p SharePlan) (ShareResult, error) {
	res := ShareResult{SharePlan: p}
	t, err := w.Team(false)
	if err != nil {
		return res, err
	}
	if err := taken(w.Store, p.Memory, ""); err != nil {
		return res, hint.With(err, "run memdir unshare %s again to see the two", shq(teamName(p.File)))
	}
	if err := os.MkdirAll(w.Layout.MemoryDir, memdir.DirPerm); err != nil {
		return res, err
	}
	sr, err := w.Store.Save(ctx, p.Memory, memdir.SaveOptions{KeepUpdated: true})
	if err != nil {
		return res, err
	}
	res.File, res.Path = sr.File, sr.Path
	res.Warnings = append(res.Warnings, sr.Warnings...)
	fr, err := t.Store.Forget(ctx, p.Memory.File, true)
	if err != nil {
		return res, hint.With(fmt.Errorf("made private as %s, but the team copy stays: %w", sr.File, err), "run memdir forget %s --purge to remove it", shq(teamName(p.Memory.File)))
	}
	res.MovedTo, res.Tombstone = fr.MovedTo, fr.Tombstone
	return res, nil
}

// TeamLinkState is the state of the team folder's link into Claude Code's
// layout (<memory dir>/team/<mount>).
type TeamLinkState struct {
	Path   string `json:"path"`
	Target string `json:"target,omitempty"`
	State  string `json:"state"` // ok, missing, elsewhere or blocked (a file or folder is there)
}

// TeamLink reports the link's state.
func TeamLink(l paths.Layout) TeamLinkState {
	p := l.MemoryDir + string(os.PathSeparator) + memdir.TeamLinkDir + string(os.PathSeparator) + l.TeamMount
	s := TeamLinkState{Path: p}
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		s.State = "missing"
	case fi.Mode()&os.ModeSymlink == 0:
		s.State = "blocked"
	default:
		s.Target, _ = os.Readlink(p)
		s.State = "elsewhere"
		if s.Target == l.TeamDir {
			s.State = "ok"
		}
	}
	return s
}

// Line says the link's state in words.
func (s TeamLinkState) Line() string {
	switch s.State {
	case "ok":
		return s.Path + " → " + s.Target
	case "elsewhere":
		return s.Path + " leads to " + s.Target + ", not to this checkout's team folder ('memdir team link' moves it here)"
	case "blocked":
		return s.Path + " is a file or folder, not memdir's link (move it away, then 'memdir team link')"
	}
	return s.Path + " is missing ('memdir team link' makes it)"
}

// TeamStatus is the state of the project's team memory.
type TeamStatus struct {
	Dir        string         `json:"dir"`
	Exists     bool           `json:"exists"`
	Git        bool           `json:"git"` // the project is a git repository
	Memories   int            `json:"memories"`
	Tombstones int            `json:"tombstones"`
	Author     string         `json:"author"` // who memdir records as adding team memories here
	Link       TeamLinkState  `json:"link"`
	Hook       *TeamHookState `json:"hook,omitempty"`
	Problems   []TeamFinding  `json:"problems"`
}

// TeamStatusOf reports the project's team memory: its folder, memories
// and tombstones, who adds them, the link, the pre-commit hook and the
// problems 'memdir team check' finds.
func TeamStatusOf(ctx context.Context, env Env, l paths.Layout) (TeamStatus, error) {
	s := TeamStatus{Dir: l.TeamDir, Author: TeamAuthor(env, l.WorkTree), Link: TeamLink(l), Problems: []TeamFinding{}}
	s.Git = inGit(ctx, env, l.WorkTree)
	if s.Git {
		if h, err := TeamHook(ctx, env, l); err == nil {
			s.Hook = &h
		}
	}
	if err := TeamDirProblem(l); err != nil {
		return s, err
	}
	fi, err := os.Stat(l.TeamDir)
	if err != nil || !fi.IsDir() {
		return s, nil
	}
	s.Exists = true
	t, err := OpenTeam(env, l, false)
	if err != nil {
		return s, err
	}
	files, err := t.Store.Files()
	if err != nil {
		return s, err
	}
	s.Memories = len(files)
	tombs, _, err := t.Store.Tombstones()
	if err != nil {
		return s, err
	}
	s.Tombstones = len(tombs)
	if s.Problems, err = checkTeamDir(ctx, env, l, t.Store); err != nil {
		return s, err
	}
	if s.Problems == nil {
		s.Problems = []TeamFinding{}
	}
	return s, nil
}

// TeamInitResult is what TeamInit did.
type TeamInitResult struct {
	Dir     string         `json:"dir"`
	Created bool           `json:"created"`
	Link    TeamLinkState  `json:"link"`
	Git     bool           `json:"git"`
	Hook    *TeamHookState `json:"hook,omitempty"`
}

// TeamInit creates the team folder (with its .gitignore) and links it into
// Claude Code's layout; with bin set, it installs the pre-commit hook that
// runs bin. Running it again changes nothing. A project that is not a git
// repository gets its folder all the same (Git says so).
func TeamInit(ctx context.Context, env Env, l paths.Layout, bin string) (TeamInitResult, error) {
	res := TeamInitResult{Dir: l.TeamDir}
	if err := TeamDirProblem(l); err != nil {
		return res, err
	}
	_, err := os.Stat(l.TeamDir)
	res.Created = errors.Is(err, os.ErrNotExist)
	t, err := OpenTeam(env, l, true)
	if err != nil {
		return res, err
	}
	if err := t.RelinkTeam(); err != nil {
		return res, err
	}
	res.Link = TeamLink(l)
	res.Git = inGit(ctx, env, l.WorkTree)
	if bin != "" && res.Git {
		h, err := InstallTeamHook(ctx, env, l, bin)
		if err != nil {
			return res, err
		}
		res.Hook = &h
	}
	return res, nil
}

// MemoriesN is "1 memory" or "n memories".
func MemoriesN(n int) string {
	if n == 1 {
		return "1 memory"
	}
	return fmt.Sprintf("%d memories", n)
}
