package workspace

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/sessions"
)

// team checks the project's team memory folder, when it has one: what
// 'memdir team check' finds (secrets, conflicts, files that do not parse,
// user memories, memories back despite a tombstone, stray files), the
// link into Claude Code's layout and the pre-commit hook. Its MEMORY.md
// is derived and local (never committed): missing or stale after a git
// pull is no problem, so it is not checked.
func (c *checker) team(env Env, l paths.Layout) {
	const name = "team"
	if err := TeamDirProblem(l); err != nil {
		c.add(name, CheckFail, hint.Of(err), "%v", err)
		return
	}
	if fi, err := os.Stat(l.TeamDir); err != nil || !fi.IsDir() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := TeamStatusOf(ctx, env, l)
	if err != nil {
		c.add(name, CheckFail, "", "%v", err)
		return
	}
	if len(s.Problems) == 0 {
		c.add(name, CheckOK, "", "%s: %s, %s, nothing to fix", s.Dir, MemoriesN(s.Memories), sessions.Plural(s.Tombstones, "tombstone"))
	}
	for _, f := range s.Problems {
		c.add(name, CheckFail, "fix: "+f.Fix, "%s: %s", paths.TeamFolder+"/"+f.File, f.Detail)
	}
	switch s.Link.State {
	case "ok":
		c.add(name, CheckOK, "", "linked into Claude Code's layout: %s", s.Link.Line())
	case "blocked":
		c.add(name, CheckWarn, "move it away, then run 'memdir team link'", "%s", s.Link.Line())
	default:
		c.add(name, CheckWarn, "run 'memdir team link'", "%s", s.Link.Line())
	}
	switch {
	case !s.Git:
		c.add(name, CheckWarn, "run 'git init', then commit "+paths.TeamFolder, "%s is not in a git repository: the team memories are shared with no one", l.WorkTree)
	case s.Hook == nil || !s.Hook.Installed:
		c.add(name, CheckInfo, "'memdir team install-hook' checks every commit of team memories for secrets", "no pre-commit hook")
	case s.Hook.Missing:
		c.add(name, CheckWarn, "run 'memdir team install-hook' again", "the pre-commit hook calls %s, which is gone (it falls back to memdir on PATH)", s.Hook.Binary)
	default:
		c.add(name, CheckOK, "", "pre-commit hook installed (%s)", strings.TrimSpace(s.Hook.Path))
	}
}
