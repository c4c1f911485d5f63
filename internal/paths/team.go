package paths

import (
	"path/filepath"
	"strings"
)

// TeamFolder is where a project keeps its team memories, relative to the
// project root: committed with the code, so every clone has them. A dot
// folder keeps it out of the way of the project's own files (and of tools
// that walk the tree), and the "team" level leaves room beside it for
// memdir's other committed files without mixing them with memories.
const TeamFolder = ".memdir/team"

// TeamMount is the name of a project's team memories in Claude Code's
// layout (<memory dir>/team/<mount>): the project folder's name with
// every character Claude Code refuses in a mount ([A-Za-z0-9_-]) made a
// '-', or "team" when nothing is left.
func TeamMount(projectRoot string) string {
	base := filepath.Base(projectRoot)
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	m := strings.Trim(b.String(), "-")
	if m == "" {
		return "team"
	}
	return m
}

// WorkTreeRoot is the top of the checkout dir is in: the nearest folder
// at or above it holding a .git entry (a folder, or the file of a linked
// worktree or a submodule), or dir itself outside git. Unlike ProjectRoot
// it does not lead a linked worktree back to the main checkout: a team
// folder is committed, so it is the one of the checkout at hand.
func WorkTreeRoot(dir string) string {
	dir = realpath(filepath.Clean(dir))
	for d := dir; ; d = filepath.Dir(d) {
		if _, ok := gitRoot(d); ok {
			return realpath(d)
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
