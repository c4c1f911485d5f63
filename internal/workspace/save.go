package workspace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/snapshot"
)

// SaveRequest is a memory as a front end received it, not yet checked.
type SaveRequest struct {
	Type, Name, Description, Scope, Body, Source, Trust string
	Refs                                                []string
	Pinned                                              bool
	// Defaults fill Source and Trust of a new memory (an update keeps the
	// stored ones).
	Defaults memdir.Memory
	// RequireDescription refuses an empty description (MCP clients must
	// give one; the CLI lets an update keep the stored one).
	RequireDescription bool
	// Revive brings back a team memory that was forgotten (a person
	// saving it again on purpose); without it such a save fails with
	// memdir.ErrTombstoned.
	Revive bool
}

// Check refuses a request that no save could accept. Front ends call it
// before they open (and so create) the memory folder.
func (r SaveRequest) Check() error {
	_, err := r.memory()
	return err
}

// memory checks r and returns the memory to save.
func (r SaveRequest) memory() (memdir.Memory, error) {
	typ, err := memdir.ParseType(r.Type)
	if err != nil {
		return memdir.Memory{}, hint.With(err, "see 'memdir save --help' for what each type is for")
	}
	if strings.TrimSpace(r.Name) == "" {
		return memdir.Memory{}, hint.With(errors.New("the name is empty"), "give the memory a short name, e.g. --name \"Prefer tabs\"")
	}
	if r.RequireDescription && strings.TrimSpace(r.Description) == "" {
		return memdir.Memory{}, hint.With(errors.New("the description is empty"), "give one line saying what the memory is for: recall matches on it")
	}
	if r.Scope != "" && r.Scope != memdir.ScopePrivate && r.Scope != memdir.ScopeTeam {
		return memdir.Memory{}, hint.With(fmt.Errorf("invalid scope %q", r.Scope), "use --scope private or --scope team")
	}
	switch r.Trust {
	case "", memdir.TrustUser, memdir.TrustAgent, memdir.TrustToolOutput:
	default:
		return memdir.Memory{}, hint.With(fmt.Errorf("invalid trust %q", r.Trust), "use --trust user, agent or tool-output")
	}
	m := memdir.Memory{Name: r.Name, Description: r.Description, Type: typ, Scope: r.Scope,
		Source: r.Source, Trust: r.Trust, Refs: r.Refs, Pinned: r.Pinned, Body: withNewline(r.Body)}
	if r.Scope == memdir.ScopeTeam {
		// Refused here, so Check refuses them before any folder is made.
		if err := refuseForTeam(m); err != nil {
			return memdir.Memory{}, err
		}
	}
	return m, nil
}

// refuseForTeam refuses what a team folder never holds: a user memory,
// and a memory with a potential secret (its kinds listed).
func refuseForTeam(m memdir.Memory) error {
	if err := checkTeamType(m.Type); err != nil {
		return err
	}
	if labels := memdir.SecretsIn(m); len(labels) > 0 {
		return TeamSecretHint(&memdir.SecretError{File: m.Name, Labels: labels})
	}
	return nil
}

// Save checks r and saves it: a new memory, or an update of the memory of
// that name. The result's warnings include refs that are not in the
// project today (recall will mark the memory possibly stale).
//
// Scope team saves into the project's team folder (made on first use); a
// user memory is never a team memory, and a team memory that holds a
// potential secret is refused (memdir.SecretError), listing what was
// found. A memory saved in a team folder is scope team whatever r says.
func (w *Workspace) Save(ctx context.Context, r SaveRequest) (memdir.SaveResult, error) {
	m, err := r.memory()
	if err != nil {
		return memdir.SaveResult{}, err
	}
	if r.Scope == memdir.ScopeTeam || w.isTeam {
		if err := refuseForTeam(m); err != nil {
			return memdir.SaveResult{}, err
		}
		if !w.isTeam {
			t, err := w.Team(true)
			if err != nil {
				return memdir.SaveResult{}, err
			}
			res, err := t.Save(ctx, r)
			if err == nil {
				if lerr := w.LinkTeam(); lerr != nil {
					res.Warnings = append(res.Warnings, lerr.Error())
				}
			}
			return res, err
		}
	}
	res, err := w.Store.Save(ctx, m, memdir.SaveOptions{Defaults: r.Defaults, Refs: refsRule(r.Refs), Revive: r.Revive})
	if err != nil {
		return res, TeamSecretHint(err)
	}
	res.Warnings = append(res.Warnings, w.missingRefs(res.Memory.Refs)...)
	return res, nil
}

// UpdateRequest changes an existing memory; empty fields keep their value.
type UpdateRequest struct {
	Name                    string // the memory's name or file
	Type, Description, Body string
}

// Update changes the memory r names. A memory forgotten meanwhile is not
// brought back.
func (w *Workspace) Update(ctx context.Context, r UpdateRequest) (memdir.SaveResult, error) {
	if r.Description == "" && r.Body == "" && r.Type == "" {
		return memdir.SaveResult{}, errors.New("nothing to change: give a description, body or type")
	}
	var typ memdir.Type
	if r.Type != "" {
		t, err := memdir.ParseType(r.Type)
		if err != nil {
			return memdir.SaveResult{}, err
		}
		typ = t
		if w.isTeam {
			if err := checkTeamType(typ); err != nil {
				return memdir.SaveResult{}, err
			}
		}
	}
	file, err := w.Store.Resolve(r.Name)
	if err != nil {
		return memdir.SaveResult{}, err
	}
	m := memdir.Memory{File: file, Description: r.Description, Body: withNewline(r.Body), Type: typ}
	// MustExist: a memory forgotten since Resolve is not brought back.
	res, err := w.Store.Save(ctx, m, memdir.SaveOptions{MustExist: true, Refs: refsRule(nil)})
	return res, TeamSecretHint(err) // a team folder refuses a secret
}

// maxAutoRefs bounds the refs a save finds in a memory's text.
const maxAutoRefs = 12

// refsRule is the rule for a saved memory's refs, given by hand (given)
// or filled in from its text: a new memory gets given ∪ found(text); an
// update gets (stored refs − those its old text named) ∪ given ∪
// found(new text). So refs given by hand outlive a re-save, and refs
// filled in follow the text. A stored ref the old text named is one it
// filled in: found by claims.Find, or written in it word for word (refs
// filled in by an older memdir).
func refsRule(given []string) func(stored, m memdir.Memory) []string {
	return func(stored, m memdir.Memory) []string {
		desc, body := cmp.Or(m.Description, stored.Description), cmp.Or(m.Body, stored.Body)
		var out []string
		if len(stored.Refs) > 0 {
			oldText := stored.Description + "\n" + stored.Body
			old := autoRefs(nil, oldText)
			for _, r := range stored.Refs {
				if !slices.Contains(old, r) && !containsWord([]byte(oldText), r, true) && !slices.Contains(out, r) {
					out = append(out, r)
				}
			}
		}
		for _, r := range given {
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return autoRefs(out, desc, body)
	}
}

// autoRefs are the refs given, then the paths, symbols, flags and commands
// the texts name (claims.Find), each once, at most maxAutoRefs found ones.
// What the texts name as something not to use is no ref.
// A bare file name ("store.go") is left out: it names a file anywhere, and
// a ref is looked up at the project's root.
func autoRefs(given []string, texts ...string) []string {
	out := slices.Clone(given)
	found := 0
	for _, c := range claims.Find(strings.Join(texts, "\n")) {
		switch {
		case found >= maxAutoRefs:
			return out
		case c.Negated:
		case c.Kind == claims.Path && !strings.Contains(c.Text, "/"):
		case c.Kind == claims.Command && claims.Classify(c.Text) != claims.Command:
			// A command that would read back as something else (a bare
			// "server" as a symbol) is no ref: verify reads it from the text.
		case c.Kind == claims.Path, c.Kind == claims.Symbol, c.Kind == claims.Flag && c.Command == "", c.Kind == claims.Command:
			if !slices.Contains(out, c.Text) {
				out = append(out, c.Text)
				found++
			}
		}
	}
	return out
}

// missingRefs warns about each ref that names a file missing from the
// project.
func (w *Workspace) missingRefs(refs []string) []string {
	var out []string
	for _, r := range refs {
		if p, ok := snapshot.RefPath(r); ok {
			if _, err := os.Stat(filepath.Join(w.Layout.ProjectRoot, filepath.FromSlash(p))); errors.Is(err, os.ErrNotExist) {
				out = append(out, fmt.Sprintf("ref %s is not in %s: recall will mark the memory possibly stale", r, w.Layout.ProjectRoot))
			}
		}
	}
	return out
}

func withNewline(body string) string {
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return body
}

// FillFromStored gives r the type and description of the memory it names
// when it leaves them out: an update keeps what it does not change. It
// reports whether r names a stored memory (in the team folder for scope
// team) by its exact name; a file found by its stem ("tabs" is tabs.md,
// titled "Prefer tabs") is not that memory, and a save by the name would
// make another.
func (w *Workspace) FillFromStored(r *SaveRequest) bool {
	ws := w
	if r.Scope == memdir.ScopeTeam {
		t, err := w.Team(false)
		if err != nil {
			return false
		}
		ws = t
	}
	m, err := ws.Store.Get(r.Name)
	if err != nil || !strings.EqualFold(strings.TrimSpace(m.Title()), strings.TrimSpace(r.Name)) {
		return false
	}
	r.Type = cmp.Or(r.Type, string(m.Type))
	r.Description = cmp.Or(r.Description, m.Description)
	return true
}
