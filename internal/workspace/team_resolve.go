package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/safefile"
)

// Choices of TeamResolve.
const (
	ResolveOurs   = "ours"   // the side of the branch merged into (HEAD)
	ResolveTheirs = "theirs" // the side of the branch merged in
	ResolveBoth   = "both"   // the newer frontmatter, the union of the bodies' lines
	ResolveKeep   = "keep"   // a memory back despite its tombstone stays: the tombstone goes
	ResolveDrop   = "drop"   // it is forgotten again
)

// TeamSide is one side of a conflicted team memory.
type TeamSide struct {
	Label       string    `json:"label"` // what git named it: HEAD, a branch, a commit
	Name        string    `json:"name,omitempty"`
	Description string    `json:"description,omitempty"`
	Type        string    `json:"type,omitempty"`
	Author      string    `json:"author,omitempty"`     // who added the memory (its author field)
	ChangedBy   string    `json:"changed_by,omitempty"` // who last committed a change to it on this side
	Updated     time.Time `json:"updated,omitzero"`
	Deleted     bool      `json:"deleted,omitempty"` // this side deleted the file (git's modify/delete)
	Body        string    `json:"body"`
	Error       string    `json:"error,omitempty"` // the side does not parse
	raw         []byte
	mem         memdir.Memory
}

// TeamResolution is what TeamResolve found, and did when given a choice.
type TeamResolution struct {
	File      string            `json:"file"`
	Ours      *TeamSide         `json:"ours,omitempty"`   // set for a conflict
	Theirs    *TeamSide         `json:"theirs,omitempty"` // set for a conflict
	Tombstone *memdir.Tombstone `json:"tombstone,omitempty"`
	Choices   []string          `json:"choices"`
	Choice    string            `json:"choice,omitempty"` // "" when only shown
	Staged    bool              `json:"staged"`           // the result was added to git's index
	Warnings  []string          `json:"warnings,omitempty"`
}

// splitConflict splits content with git conflict markers into the two
// versions it merges (a diff3 base section is left out), and the labels
// git gave them.
func splitConflict(b []byte) (ours, theirs []byte, oursLabel, theirsLabel string) {
	const (
		common = iota
		inOurs
		inBase
		inTheirs
	)
	state := common
	for line := range bytes.Lines(b) {
		switch {
		case state == common && bytes.HasPrefix(line, []byte("<<<<<<<")):
			state = inOurs
			if oursLabel == "" {
				oursLabel = strings.TrimSpace(string(line[7:]))
			}
			continue
		case (state == inOurs || state == inBase) && bytes.HasPrefix(line, []byte("|||||||")):
			state = inBase
			continue
		case (state == inOurs || state == inBase) && bytes.HasPrefix(line, []byte("=======")):
			state = inTheirs
			continue
		case state == inTheirs && bytes.HasPrefix(line, []byte(">>>>>>>")):
			state = common
			if theirsLabel == "" {
				theirsLabel = strings.TrimSpace(string(line[7:]))
			}
			continue
		}
		switch state {
		case common:
			ours = append(ours, line...)
			theirs = append(theirs, line...)
		case inOurs:
			ours = append(ours, line...)
		case inTheirs:
			theirs = append(theirs, line...)
		}
	}
	return ours, theirs, oursLabel, theirsLabel
}

// gitSides reads the two sides of file (relative to the team folder) as
// git's index holds them while it is unmerged: stage 2 (ours, HEAD) and
// stage 3 (theirs, the commit merged in), each the whole file as that
// side had it, like 'git checkout --ours'. A stage git lacks is a side
// that deleted the file (modify/delete). unmerged is false outside a
// merge (or git).
func (w *Workspace) gitSides(ctx context.Context, file string) (ours, theirs *TeamSide, unmerged bool) {
	l := w.Layout
	prefix, err := teamPrefix(ctx, w.Env, l)
	if err != nil {
		return nil, nil, false
	}
	gp := prefix + file
	out, err := gitIn(ctx, w.Env, l.WorkTree, "ls-files", "-u", "-z", "--", ":(top,literal)"+gp)
	if err != nil || len(out) == 0 {
		return nil, nil, false
	}
	stages := map[string]bool{}
	for _, e := range splitZ(out) {
		meta, _, _ := strings.Cut(e, "\t")
		if f := strings.Fields(meta); len(f) == 3 {
			stages[f[2]] = true
		}
	}
	theirsRef := "MERGE_HEAD"
	for _, r := range []string{"MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD"} {
		if _, err := gitIn(ctx, w.Env, l.WorkTree, "rev-parse", "-q", "--verify", r); err == nil {
			theirsRef = r
			break
		}
	}
	read := func(stage, ref string) *TeamSide {
		var s *TeamSide
		if stages[stage] {
			b, err := gitIn(ctx, w.Env, l.WorkTree, "show", ":"+stage+":"+gp)
			if err != nil {
				return nil
			}
			s = side(file, b, ref)
		} else {
			s = &TeamSide{Label: ref, Deleted: true}
		}
		if by, err := gitIn(ctx, w.Env, l.WorkTree, "log", "-1", "--format=%an", ref, "--", ":(top,literal)"+gp); err == nil {
			s.ChangedBy = strings.TrimSpace(string(by))
		}
		return s
	}
	ours, theirs = read("2", "HEAD"), read("3", theirsRef)
	if ours == nil || theirs == nil {
		return nil, nil, false
	}
	return ours, theirs, true
}

// side parses one side of a conflict.
func side(file string, raw []byte, label string) *TeamSide {
	s := &TeamSide{Label: label, raw: raw}
	m, err := memdir.Parse(file, raw)
	if err != nil {
		s.Error = err.Error()
		s.Body = string(raw)
		return s
	}
	s.mem = m
	s.Name, s.Description, s.Type, s.Author, s.Updated, s.Body = m.Name, m.Description, string(m.Type), m.Author, m.Updated, m.Body
	return s
}

// unionLines is a's lines with b's lines that a lacks put in, each after
// the line it follows in b, so the order of both is kept and no line is
// there twice. Blank lines of b come in only between two lines that are
// not blank.
func unionLines(a, b string) string {
	split := func(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }
	out := split(a)
	if strings.TrimSpace(a) == "" {
		out = nil
	}
	pos := -1 // where b's last line is in out
	for _, l := range split(b) {
		if l == "" {
			continue
		}
		if i := slices.Index(out[pos+1:], l); i >= 0 {
			pos += 1 + i
			continue
		}
		if i := slices.Index(out, l); i >= 0 {
			pos = i
			continue
		}
		out = slices.Insert(out, pos+1, l)
		pos++
	}
	s := strings.Join(out, "\n")
	if strings.HasSuffix(a, "\n") || strings.HasSuffix(b, "\n") {
		s += "\n"
	}
	return s
}

// teamFile is the file in the team folder that name means: "team/x.md",
// "x.md", "x" or a memory's name. A conflicted file does not parse, so
// its file name is tried first.
func teamFile(st *memdir.Store, name string) (string, error) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "team/")
	for _, f := range []string{name, name + ".md", memdir.Slug(name) + ".md"} {
		if strings.HasSuffix(f, ".md") && !strings.Contains(f, "/") && !memdir.IsIndexName(f) && exists(st.Path(f)) {
			return f, nil
		}
	}
	return st.Resolve(name)
}

// TeamResolve settles a team memory: one whose file holds a git conflict
// (choice ours, theirs or both), or one that is back although it has a
// tombstone (keep or drop). Without a choice it only reports the sides
// and the choices. The result is written through the store (a potential
// secret in the chosen content is refused) and added to git's index when
// the project is a git repository.
func (w *Workspace) TeamResolve(ctx context.Context, name, choice string) (TeamResolution, error) {
	t, err := w.Team(false)
	if err != nil {
		return TeamResolution{}, err
	}
	st := t.Store
	file, err := teamFile(st, name)
	if err != nil {
		return TeamResolution{}, hint.With(err, "'memdir team check' lists what needs resolving")
	}
	res := TeamResolution{File: file, Choice: choice}
	b, err := safefile.ReadFile(st.Path(file), memdir.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return res, hint.With(fmt.Errorf("%s: %w", file, memdir.ErrNotFound), "'memdir team check' lists what needs resolving")
	}
	if err != nil {
		return res, err
	}
	tombs, _, err := st.Tombstones()
	if err != nil {
		return res, err
	}
	for i := range tombs {
		if tombs[i].File == file {
			res.Tombstone = &tombs[i]
		}
	}
	again := "memdir team resolve " + shq(stem(file))
	ours, theirs, unmerged := w.gitSides(ctx, file)
	if unmerged || memdir.HasConflictMarkers(b) {
		if unmerged {
			// The labels git wrote in the file name the sides better
			// than HEAD and MERGE_HEAD.
			if _, _, ol, tl := splitConflict(b); ol != "" && tl != "" {
				ours.Label, theirs.Label = ol, tl
			}
			res.Ours, res.Theirs = ours, theirs
		} else {
			o, th, ol, tl := splitConflict(b)
			res.Ours, res.Theirs = side(file, o, ol), side(file, th, tl)
		}
		// --both joins two versions: not when a side deleted the file.
		res.Choices = []string{ResolveOurs, ResolveTheirs}
		if !res.Ours.Deleted && !res.Theirs.Deleted {
			res.Choices = append(res.Choices, ResolveBoth)
		}
		choices := "run " + conflictFix(file, !res.Ours.Deleted, !res.Theirs.Deleted)
		var m memdir.Memory
		keepUpdated := true
		switch choice {
		case "":
			return res, nil
		case ResolveOurs, ResolveTheirs:
			s := res.Ours
			if choice == ResolveTheirs {
				s = res.Theirs
			}
			if s.Deleted {
				// That side deleted it: so does the resolution.
				if _, err := st.Forget(ctx, file, false); err != nil {
					return res, err
				}
				return res, w.stageResolved(ctx, &res, file)
			}
			if s.Error != "" {
				return res, hint.With(fmt.Errorf("the %s side of %s does not parse: %s", choice, file, s.Error), "edit %s by hand (remove the conflict lines), then git add it", shq(st.Path(file)))
			}
			m = s.mem
		case ResolveBoth:
			if res.Ours.Deleted || res.Theirs.Deleted {
				return res, hint.With(fmt.Errorf("one side deleted %s: there are not two versions to join", file), "run %s --ours or %s --theirs", again, again)
			}
			if res.Ours.Error != "" || res.Theirs.Error != "" {
				// Only a side that parses can be chosen.
				var ok []string
				for _, c := range []struct {
					flag string
					s    *TeamSide
				}{{"--ours", res.Ours}, {"--theirs", res.Theirs}} {
					if c.s.Error == "" {
						ok = append(ok, "run "+again+" "+c.flag+", or ")
					}
				}
				return res, hint.With(fmt.Errorf("a side of %s does not parse", file), "%sedit %s by hand (remove the conflict lines), then git add it", strings.Join(ok, ""), shq(st.Path(file)))
			}
			newer := res.Ours
			if res.Theirs.Updated.After(newer.Updated) {
				newer = res.Theirs
			}
			m = newer.mem
			m.Body = unionLines(res.Ours.Body, res.Theirs.Body)
			keepUpdated = false // a new version, of now
		default:
			return res, hint.With(fmt.Errorf("%s holds a git conflict: --%s does not settle it", file, choice), "%s", choices)
		}
		if labels := teamSecrets(m, memdir.Format(m)); len(labels) > 0 {
			return res, TeamSecretHint(&memdir.SecretError{File: file, Labels: labels})
		}
		if m.Type == memdir.TypeUser {
			res.Warnings = append(res.Warnings, "a user memory always stays private: run memdir unshare "+shq(teamName(file)))
		}
		// Choosing a side is a person's decision: it brings back a memory
		// the other side forgot.
		sr, err := st.Save(ctx, m, memdir.SaveOptions{IfMatch: b, KeepUpdated: keepUpdated, Revive: true})
		if err != nil {
			return res, TeamSecretHint(err)
		}
		res.Warnings = append(res.Warnings, sr.Warnings...)
		return res, w.stageResolved(ctx, &res, file)
	}
	if res.Tombstone == nil {
		return res, hint.With(fmt.Errorf("%s has no git conflict and no tombstone: nothing to resolve", file), "'memdir team check' lists what needs resolving")
	}
	res.Choices = []string{ResolveKeep, ResolveDrop}
	switch choice {
	case "":
		return res, nil
	case ResolveKeep:
		m, err := memdir.Parse(file, b)
		if err != nil {
			return res, hint.With(err, "fix it with memdir edit %s first", shq(teamName(file)))
		}
		if labels := teamSecrets(m, b); len(labels) > 0 {
			return res, TeamSecretHint(&memdir.SecretError{File: file, Labels: labels})
		}
		// A save on purpose removes the tombstone.
		sr, err := st.Save(ctx, m, memdir.SaveOptions{IfMatch: b, KeepUpdated: true, Revive: true})
		if err != nil {
			return res, TeamSecretHint(err)
		}
		res.Warnings = append(res.Warnings, sr.Warnings...)
	case ResolveDrop:
		if _, err := st.Forget(ctx, file, false); err != nil {
			return res, err
		}
	default:
		return res, hint.With(fmt.Errorf("%s came back after it was forgotten: --%s does not settle it", file, choice), "run %s --keep (it stays) or --drop (forget it again)", again)
	}
	return res, w.stageResolved(ctx, &res, file)
}

// stageResolved adds the resolved file and its tombstone to git's index,
// when the project is a git repository.
func (w *Workspace) stageResolved(ctx context.Context, res *TeamResolution, file string) error {
	if !inGit(ctx, w.Env, w.Layout.WorkTree) {
		return nil
	}
	if err := gitAdd(ctx, w.Env, w.Layout, file, memdir.TombstoneFile(file)); err != nil {
		return hint.With(fmt.Errorf("resolved %s, but: %w", file, err), "stage it yourself: git add -A %s", shq(w.Layout.TeamDir))
	}
	res.Staged = true
	return nil
}
