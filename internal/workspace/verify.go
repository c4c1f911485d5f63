package workspace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/claims"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
)

// VerifyOptions say what Verify may change.
type VerifyOptions struct {
	DryRun bool      // report only: write no stale mark and apply no fix
	Fix    bool      // edit renamed paths to their new path (unless DryRun)
	Now    time.Time // the date of the stale marks; zero is the clock
}

// Statuses of a verified memory.
const (
	VerifyFresh     = "fresh"     // every claim checked holds
	VerifyStale     = "stale"     // a claim no longer holds
	VerifyRenamed   = "renamed"   // a path it names moved; nothing else failed
	VerifyUnchecked = "unchecked" // it names nothing that could be checked
)

// VerifyReport is what Verify found and did.
type VerifyReport struct {
	Root     string           `json:"root"`
	Git      bool             `json:"git"`
	DryRun   bool             `json:"dry_run"`
	Fix      bool             `json:"fix"`
	Memories []VerifiedMemory `json:"memories"`
	Counts   map[string]int   `json:"counts"` // memories per status
	Problems []string         `json:"problems,omitempty"`
}

// VerifiedMemory is one memory's claims and what became of its mark.
type VerifiedMemory struct {
	File   string        `json:"file"`
	Name   string        `json:"name"`
	Status string        `json:"status"`
	Claims []ClaimResult `json:"claims,omitempty"`
	Was    string        `json:"was,omitempty"`   // its stale mark before
	Stale  string        `json:"stale,omitempty"` // its stale mark now (or, in a dry run, to be)
	// Action is what was written: "marked", "cleared", "fixed", or with
	// DryRun what would be ("would mark"…); "" when nothing changes.
	Action string       `json:"action,omitempty"`
	Edits  []VerifyEdit `json:"edits,omitempty"` // the fix plan: renamed paths
	Error  string       `json:"error,omitempty"` // why its change was not written
}

// VerifyEdit replaces a renamed path in one field of a memory.
type VerifyEdit struct {
	Field string `json:"field"` // description, body or refs
	Old   string `json:"old"`
	New   string `json:"new"`
}

// Verify checks every memory of the folder against the project as it is
// now (Layout.ProjectRoot): the paths, symbols, flags, commands and
// packages it names, from its refs and its text (see package claims).
// Unless DryRun, a memory with a claim that no longer holds gets the mark
// "stale: <reasons> (<date>)" through the store (its previous version is
// kept for 'memdir restore'), and a mark that no longer holds is cleared.
// With Fix, renamed paths are replaced by their new path, and the edit
// clears the mark they caused. Verify runs no shell; each check has a
// timeout. A memory that cannot be written is reported, not fatal.
func (w *Workspace) Verify(ctx context.Context, opt VerifyOptions) (VerifyReport, error) {
	if w.isGlobal {
		return VerifyReport{}, hint.With(errors.New("verify checks a project's memories against the project: your global memories belong to no project"),
			"run 'memdir verify' without --global, in a project")
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	mems, problems, err := w.Store.List()
	if err != nil {
		return VerifyReport{}, err
	}
	c := newClaimChecker(ctx, w.Layout.ProjectRoot, w.Layout.MemoryDir, w.Env.getenv)
	rep := VerifyReport{Root: w.Layout.ProjectRoot, Git: c.git, DryRun: opt.DryRun, Fix: opt.Fix, Counts: map[string]int{}, Memories: []VerifiedMemory{}}
	for _, p := range problems {
		rep.Problems = append(rep.Problems, p.Error())
	}
	slices.SortFunc(mems, func(a, b memdir.Memory) int { return strings.Compare(a.File, b.File) })
	var all []claims.Claim
	for _, m := range mems {
		if m.SupersededBy == "" {
			all = append(all, MemoryClaims(m)...)
		}
	}
	c.prefetch(ctx, all) // one search per kind for all memories, not one per claim
	for _, m := range mems {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if m.SupersededBy != "" {
			continue // history, never recalled
		}
		v := verifyOne(ctx, c, m, opt, now)
		if v.Action != "" && !opt.DryRun {
			if err := w.writeVerified(ctx, m, &v, opt.Fix); err != nil {
				if ctx.Err() != nil {
					return rep, ctx.Err()
				}
				v.Error, v.Action = err.Error(), ""
			}
		}
		rep.Counts[v.Status]++
		rep.Memories = append(rep.Memories, v)
	}
	return rep, nil
}

// MemoryClaims are what m names: its refs, then what its description and
// body name, each once.
func MemoryClaims(m memdir.Memory) []claims.Claim {
	var out []claims.Claim
	seen := map[claims.Claim]bool{}
	add := func(cl claims.Claim) {
		k := claims.Claim{Kind: cl.Kind, Text: cl.Text}
		if !seen[k] {
			seen[k] = true
			out = append(out, cl)
		}
	}
	all := m.Description + "\n" + m.Body
	found := claims.Find(all)
	named := map[string]bool{} // by the text; true when negated
	for _, cl := range found {
		named[cl.Text] = named[cl.Text] || cl.Negated
	}
	for _, r := range m.Refs {
		if _, ok := named[strings.TrimSuffix(r, "()")]; !ok && containsWord([]byte(all), r, true) {
			continue // filled in from the text by an older memdir, which read "web/mobile" as a path
		}
		k := claims.Classify(r)
		text := strings.TrimSpace(r)
		if k == claims.Path {
			text, _ = claims.PathOf(text)
		}
		if k == claims.Symbol {
			text = strings.TrimSuffix(text, "()")
		}
		// A ref the text names as something not to use (filled in from
		// the text) is not checked either.
		add(claims.Claim{Kind: k, Text: text, Negated: named[text]})
	}
	for _, cl := range found {
		add(cl)
	}
	return out
}

// verifyOne checks m's claims and decides its mark and its fix.
func verifyOne(ctx context.Context, c *claimChecker, m memdir.Memory, opt VerifyOptions, now time.Time) VerifiedMemory {
	v := VerifiedMemory{File: m.File, Name: m.Title(), Was: m.Stale}
	var missing, renamed, unfixed []string
	checked := 0
	for _, cl := range MemoryClaims(m) {
		r := c.check(ctx, cl)
		v.Claims = append(v.Claims, r)
		switch r.Status {
		case ClaimMissing:
			missing = append(missing, r.Reason)
		case ClaimRenamed:
			renamed = append(renamed, r.Reason)
			edits := renameEdits(m, r.Text, r.To)
			if len(edits) == 0 {
				unfixed = append(unfixed, r.Reason) // named in a way no edit finds
			}
			v.Edits = append(v.Edits, edits...)
		}
		if r.Status != ClaimUnchecked {
			checked++
		}
	}
	switch {
	case len(missing) > 0:
		v.Status = VerifyStale
	case len(renamed) > 0:
		v.Status = VerifyRenamed
	case checked == 0:
		v.Status = VerifyUnchecked
	default:
		v.Status = VerifyFresh
	}
	reasons := append(slices.Clone(missing), renamed...)
	if opt.Fix && len(v.Edits) > 0 {
		reasons = append(slices.Clone(missing), unfixed...) // the fix makes the others right
	}
	v.Stale = staleMark(m.Stale, reasons, now)
	switch {
	case opt.Fix && len(v.Edits) > 0:
		v.Action = "fixed"
	case v.Stale != "" && v.Stale != m.Stale:
		v.Action = "marked"
	case v.Stale == "" && m.Stale != "" && v.Status != VerifyUnchecked:
		v.Action = "cleared"
	case v.Stale == "" && m.Stale != "":
		v.Stale = m.Stale // nothing checked: the old mark stands
	}
	if opt.DryRun && v.Action != "" {
		v.Action = map[string]string{"marked": "would mark", "cleared": "would clear", "fixed": "would fix"}[v.Action]
	}
	return v
}

// staleMark is the mark for reasons found at now (at most three named):
// the old mark when it says the same (its date stays that of the first
// finding), "" when none.
func staleMark(old string, reasons []string, now time.Time) string {
	if len(reasons) == 0 {
		return ""
	}
	why := strings.Join(reasons[:min(len(reasons), 3)], "; ")
	if len(reasons) > 3 {
		why += fmt.Sprintf("; and %d more", len(reasons)-3)
	}
	if i := strings.LastIndex(old, " ("); i > 0 && old[:i] == why {
		return old
	}
	return fmt.Sprintf("%s (%s)", why, now.Format(time.DateOnly))
}

// renameEdits are the replacements of old by new in m's fields.
func renameEdits(m memdir.Memory, old, new string) []VerifyEdit {
	if !strings.Contains(old, "/") {
		new = new[strings.LastIndexByte(new, '/')+1:]
	}
	var out []VerifyEdit
	if replacePath(m.Description, old, new) != m.Description {
		out = append(out, VerifyEdit{Field: "description", Old: old, New: new})
	}
	if replacePath(m.Body, old, new) != m.Body {
		out = append(out, VerifyEdit{Field: "body", Old: old, New: new})
	}
	for _, r := range m.Refs {
		if replacePath(r, old, new) != r {
			out = append(out, VerifyEdit{Field: "refs", Old: old, New: new})
			break
		}
	}
	return out
}

// replacePath replaces each whole occurrence of the path old in s (not
// "lib/src/app.go" or "src/app.go.bak" for src/app.go).
func replacePath(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		before := i == 0 || !isPathByte(s[i-1]) || s[i-1] == '/' && i >= 2 && s[i-2] == '.' && (i == 2 || !isPathByte(s[i-3]))
		after := end == len(s) || !isPathByte(s[end]) || s[end] == '.' && (end+1 == len(s) || !isPathByte(s[end+1]))
		b.WriteString(s[:i])
		if before && after {
			b.WriteString(new)
		} else {
			b.WriteString(old)
		}
		s = s[end:]
	}
}

func isPathByte(c byte) bool { return isWordByte(c) || c == '/' || c == '.' || c == '-' }

// writeVerified writes v's mark, and with fix its edits, into m's file:
// read again, and written only over what was read (a memory changed
// meanwhile is left as it is, and says so).
func (w *Workspace) writeVerified(ctx context.Context, m memdir.Memory, v *VerifiedMemory, fix bool) error {
	raw, file, err := w.Store.Raw(m.File)
	if err != nil {
		return err
	}
	cur, err := memdir.Parse(file, raw)
	if err != nil {
		return err
	}
	if cur.Stale != v.Was {
		return errors.New("the memory changed while it was verified; run 'memdir verify' again")
	}
	edits := v.Edits
	if !fix {
		edits = nil
	}
	for _, e := range edits {
		switch e.Field {
		case "description":
			cur.Description = replacePath(cur.Description, e.Old, e.New)
		case "body":
			cur.Body = replacePath(cur.Body, e.Old, e.New)
		case "refs":
			cur.Refs = slices.Clone(cur.Refs)
			for i := range cur.Refs {
				cur.Refs[i] = replacePath(cur.Refs[i], e.Old, e.New)
			}
		}
	}
	cur.Stale = v.Stale
	_, err = w.Store.Save(ctx, cur, memdir.SaveOptions{IfMatch: raw, MustExist: true, KeepPrevious: true, KeepUpdated: len(edits) == 0})
	return err
}
