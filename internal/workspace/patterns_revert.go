package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/patterns"
	"github.com/memdir/memdir/internal/safefile"
)

// Reverted is one applied proposal taken back, or left.
type Reverted struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Path string `json:"path"`
	// Done says what was done: "removed from the memdir block",
	// "file removed" (memdir created it), "left: …".
	Done string `json:"done"`
}

// RevertReport is what --revert did.
type RevertReport struct {
	Reverted []Reverted `json:"reverted"`
}

// PatternsRevert takes back what --apply wrote for ids (every applied
// pattern when empty): its rules leave CLAUDE.md's memdir block — the
// file's bytes from before the first apply when nobody edited outside the
// block, the file removed when memdir created it — and its command files
// are removed while they hold what memdir wrote. Memories saved are left
// ('memdir forget' removes them). Records are marked reverted.
func (d *Diaries) PatternsRevert(ctx context.Context, ids []string, all bool, now time.Time) (RevertReport, error) {
	var rep RevertReport
	unlock, err := d.Folder.Lock(ctx)
	if err != nil {
		return rep, err
	}
	defer unlock()
	records, err := d.loadRecords()
	if err != nil {
		return rep, err
	}
	for _, id := range ids {
		if !slices.ContainsFunc(records, func(r patterns.Record) bool { return r.ID == id && len(r.ActiveApplied()) > 0 }) {
			return rep, hint.With(fmt.Errorf("nothing of pattern %s is applied", id), "'memdir patterns' shows what is applied; --revert with no id takes back everything")
		}
	}
	at := now.UTC().Format(time.RFC3339)
	created := map[string]bool{} // CLAUDE.md files memdir created, by path
	for _, r := range records {
		for _, a := range r.ActiveApplied() {
			if a.Kind == patterns.KindRule && a.Created {
				created[a.Path] = true
			}
		}
	}
	for i := range records {
		r := &records[i]
		if len(ids) > 0 && !slices.Contains(ids, r.ID) {
			continue
		}
		for j := range r.Applied {
			a := &r.Applied[j]
			if !a.Active() || len(ids) == 0 && !all && !d.inProject(*r, *a) {
				continue // another project's, left to a revert run there (or --all)
			}
			done, err := d.revertOne(r.ID, *a, created[a.Path])
			if err != nil {
				_ = d.saveRecords(records)
				return rep, err
			}
			a.RevertedAt = at
			it := Reverted{ID: r.ID, Kind: a.Kind, Path: a.Path, Done: done}
			if !slices.ContainsFunc(rep.Reverted, func(o Reverted) bool { return o.ID == it.ID && o.Kind == it.Kind && o.Path == it.Path }) {
				rep.Reverted = append(rep.Reverted, it) // applied twice, said once
			}
		}
	}
	return rep, d.saveRecords(records)
}

func (d *Diaries) revertOne(id string, a patterns.Applied, created bool) (string, error) {
	switch a.Kind {
	case patterns.KindRule:
		return d.revertRule(id, a, created)
	case patterns.KindCommand:
		cur, err := safefile.ReadFile(a.Path, maxClaudeMD)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "already gone", nil
		case err != nil:
			return "", err
		case hashOf(cur) != a.Hash:
			return "left: changed since memdir wrote it (remove it yourself if it can go)", nil
		}
		if err := os.Remove(a.Path); err != nil {
			return "", err
		}
		return "file removed", nil
	case patterns.KindMemory:
		return fmt.Sprintf("left: a memory stays until 'memdir forget %s'", strings.TrimSuffix(filepath.Base(a.Path), ".md")), nil
	}
	return "left: unknown kind", nil
}

// revertRule takes pattern id's rule out of the memdir block.
//
// created: memdir created the file, so a file left empty is removed.
func (d *Diaries) revertRule(id string, a patterns.Applied, created bool) (string, error) {
	cur, err := safefile.ReadFile(a.Path, maxClaudeMD)
	if errors.Is(err, fs.ErrNotExist) {
		return "already gone (no CLAUDE.md)", nil
	}
	if err != nil {
		return "", err
	}
	out, n, err := patterns.RemoveRule(cur, id)
	if err != nil {
		return "", hint.With(err, "nothing more was reverted; fix %s, then run 'memdir patterns --revert' again", a.Path)
	}
	if n == 0 {
		return "already gone from the memdir block", nil
	}
	if len(out) == 0 && created {
		if err := os.Remove(a.Path); err != nil {
			return "", err
		}
		return "file removed (memdir created it)", nil
	}
	if err := d.writeProjectFile(a.Path, out); err != nil {
		return "", err
	}
	return "removed from the memdir block", nil
}

// inProject reports whether an applied proposal wrote into this project:
// a rule or a command under its folder, a memory of a pattern seen in its
// diaries.
func (d *Diaries) inProject(r patterns.Record, a patterns.Applied) bool {
	if a.Kind == patterns.KindMemory {
		if filepath.IsAbs(a.Path) { // where it was saved
			return filepath.Dir(a.Path) == d.Layout.MemoryDir
		}
		return slices.Contains(r.Projects, d.Project()) // a record from before memdir kept the path
	}
	root := d.Layout.WorkTree
	if root == "" {
		root = d.Layout.ProjectRoot
	}
	rel, err := filepath.Rel(root, a.Path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
