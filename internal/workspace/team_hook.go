package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/safefile"
)

// The pre-commit hook is a marked block of shell in the repository's
// pre-commit file: added to a shell hook that is there already (after its
// first line), or in a file of its own that runs a hook of another kind
// afterwards (kept beside it as pre-commit.memdir-chained). Uninstalling
// removes exactly what was added.
const (
	hookBegin   = "# >>> memdir team check >>>"
	hookEnd     = "# <<< memdir team check <<<"
	hookChained = ".memdir-chained"
	hookShebang = "#!/bin/sh"
	maxHookSize = 1 << 20
)

// TeamHookState is the pre-commit hook's state in a repository.
type TeamHookState struct {
	Path      string `json:"path"`                  // the pre-commit file
	Installed bool   `json:"installed"`             // it holds memdir's block
	Binary    string `json:"binary,omitempty"`      // the memdir it calls first
	Chained   string `json:"chained,omitempty"`     // the earlier hook it runs after its check
	Changed   bool   `json:"changed"`               // this call changed the file
	Missing   bool   `json:"bin_missing,omitempty"` // Binary does not exist (it falls back to memdir on PATH)
}

// teamHookPath is the repository's pre-commit file, where git looks for it
// (core.hooksPath honoured).
func teamHookPath(ctx context.Context, env Env, l paths.Layout) (string, error) {
	out, err := gitIn(ctx, env, l.WorkTree, "rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", hint.With(fmt.Errorf("%s: %w", l.WorkTree, ErrNotGit), "the pre-commit hook needs a git repository: run 'git init' first")
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(l.WorkTree, dir)
	}
	return filepath.Join(dir, "pre-commit"), nil
}

// sharedHooksDir says why the hooks folder dir (core.hooksPath) is not
// this repository's own to write in, or "" when it is: a folder outside
// git's common folder is a global one, run by every repository of this
// machine (the check would name this project in all of them), or a folder
// tracked in the repository (.husky, say), where the hook would commit
// this machine's path to memdir.
func sharedHooksDir(ctx context.Context, env Env, l paths.Layout, dir string) string {
	out, err := gitIn(ctx, env, l.WorkTree, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return ""
	}
	common := strings.TrimSpace(string(out))
	if ok, err := paths.Within(common, dir); err == nil && ok {
		return ""
	}
	top, err := gitIn(ctx, env, l.WorkTree, "rev-parse", "--show-toplevel")
	if err == nil {
		if ok, err := paths.Within(strings.TrimSpace(string(top)), dir); err == nil && ok {
			return "is inside the repository: the hook would be committed, with this machine's path to memdir in it"
		}
	}
	return "is outside this repository: a hook there runs for every repository of this machine"
}

// hookBlock is the shell that checks the staged team memories: git's own
// quick test first, so a commit that touches no team file pays nothing
// more; then bin (or memdir on PATH) with --staged.
func hookBlock(bin, projectPrefix string) string {
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	project := `"$(git rev-parse --show-toplevel)"`
	if projectPrefix != "" {
		project = `"$(git rev-parse --show-toplevel)"/` + q(strings.TrimSuffix(projectPrefix, "/"))
	}
	return hookBegin + `
# Refuses a commit whose team memories (` + paths.TeamFolder + `) hold a potential
# secret, a git conflict or a user memory. Added by 'memdir team install-hook';
# 'memdir team install-hook --uninstall' removes it.
if ! git diff --cached --quiet -- ` + q(":(top,literal)"+projectPrefix+paths.TeamFolder+"/") + ` 2>/dev/null; then
	memdir_bin=` + q(bin) + `
	if [ ! -x "$memdir_bin" ]; then
		memdir_bin=$(command -v memdir) || {
			echo "memdir: error: memdir is not installed, so the team memories cannot be checked" >&2
			echo "memdir: hint: install memdir, then run 'memdir team install-hook' again (or commit with --no-verify)" >&2
			exit 1
		}
	fi
	"$memdir_bin" team check --staged --project ` + project + ` || exit 1
fi
` + hookEnd + "\n"
}

// cutBlock removes memdir's block from a hook's text; found says whether
// there was one.
func cutBlock(s string) (rest string, found bool) {
	i := strings.Index(s, hookBegin)
	if i < 0 {
		return s, false
	}
	j := strings.Index(s[i:], hookEnd)
	if j < 0 {
		return s, false
	}
	end := i + j + len(hookEnd)
	if end < len(s) && s[end] == '\n' {
		end++
	}
	return s[:i] + s[end:], true
}

// blockBinary is the memdir a block calls first.
func blockBinary(s string) string {
	const p = "\tmemdir_bin='"
	i := strings.Index(s, p)
	if i < 0 {
		return ""
	}
	rest := s[i+len(p):]
	j := strings.Index(rest, "'\n")
	if j < 0 {
		return ""
	}
	return strings.ReplaceAll(rest[:j], `'\''`, "'")
}

// isShellHook reports whether a hook's text is a shell script that a block
// can be added to: a #! line naming sh, bash, dash, ksh or zsh.
func isShellHook(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	if !strings.HasPrefix(line, "#!") {
		return false
	}
	f := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(f) == 0 {
		return false
	}
	prog := filepath.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = f[1]
	}
	switch prog {
	case "sh", "bash", "dash", "ksh", "zsh":
		return true
	}
	return false
}

// TeamHook reports the pre-commit hook's state.
func TeamHook(ctx context.Context, env Env, l paths.Layout) (TeamHookState, error) {
	st, b, err := readTeamHook(ctx, env, l)
	if err != nil || b == nil {
		return st, err
	}
	p := st.Path
	_, st.Installed = cutBlock(string(b))
	if st.Installed {
		st.Binary = blockBinary(string(b))
		st.Missing = st.Binary != "" && !exists(st.Binary)
		if exists(p + hookChained) {
			st.Chained = p + hookChained
		}
	}
	return st, nil
}

// InstallTeamHook installs the pre-commit hook that runs 'memdir team
// check --staged' with bin, the running memdir's absolute path. A hook
// already there is kept: a shell hook gets memdir's block after its first
// line (before anything that could exit early), any other is moved to
// pre-commit.memdir-chained and run after the check. Installing again
// replaces the block (bin may have moved); Changed says whether anything
// was written.
func InstallTeamHook(ctx context.Context, env Env, l paths.Layout, bin string) (TeamHookState, error) {
	p, err := teamHookPath(ctx, env, l)
	if err != nil {
		return TeamHookState{}, err
	}
	prefix, err := teamPrefix(ctx, env, l)
	if err != nil {
		return TeamHookState{}, err
	}
	block := hookBlock(bin, strings.TrimSuffix(prefix, paths.TeamFolder+"/"))
	st := TeamHookState{Path: p, Installed: true, Binary: bin}
	if why := sharedHooksDir(ctx, env, l, filepath.Dir(p)); why != "" {
		return TeamHookState{Path: p}, hint.With(fmt.Errorf("git's hooks folder %s (core.hooksPath) %s: memdir does not write its check there", filepath.Dir(p), why),
			"add these lines to %s yourself, after its first line:\n%s", p, block)
	}
	b, err := safefile.ReadFile(p, maxHookSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return st, fmt.Errorf("read %s: %w", p, err)
	}
	old := string(b)
	var text string
	switch rest, found := cutBlock(old); {
	case found:
		first, after, _ := strings.Cut(rest, "\n")
		text = first + "\n" + block + after
	case b == nil:
		text = hookShebang + "\n" + block
	case isShellHook(old):
		first, after, _ := strings.Cut(old, "\n")
		text = first + "\n" + block + after
	default:
		// Another kind of program: it runs after the check, as it was.
		if exists(p + hookChained) {
			return st, hint.With(fmt.Errorf("%s is not a shell script and %s exists already", p, p+hookChained),
				"move one of them away, then run 'memdir team install-hook' again")
		}
		if err := os.Rename(p, p+hookChained); err != nil {
			return st, fmt.Errorf("keep the existing hook: %w", err)
		}
		st.Chained = p + hookChained
		text = hookShebang + "\n" + block + `exec "$(dirname "$0")/pre-commit` + hookChained + `" "$@"` + "\n"
	}
	if exists(p + hookChained) {
		st.Chained = p + hookChained
	}
	if text == old {
		return st, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return st, err
	}
	if err := atomicfile.WriteFile(p, []byte(text), 0o755); err != nil {
		return st, fmt.Errorf("write %s: %w", p, err)
	}
	st.Changed = true
	return st, nil
}

// readTeamHook reads the pre-commit hook: nil bytes when there is none.
func readTeamHook(ctx context.Context, env Env, l paths.Layout) (TeamHookState, []byte, error) {
	p, err := teamHookPath(ctx, env, l)
	if err != nil {
		return TeamHookState{}, nil, err
	}
	st := TeamHookState{Path: p}
	b, err := safefile.ReadFile(p, maxHookSize)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil, nil
	}
	if err != nil {
		return st, nil, fmt.Errorf("read %s: %w", p, err)
	}
	return st, b, nil
}

// UninstallTeamHook removes what InstallTeamHook added: the block, the
// file when nothing else is left in it, and puts a chained hook back.
func UninstallTeamHook(ctx context.Context, env Env, l paths.Layout) (TeamHookState, error) {
	st, b, err := readTeamHook(ctx, env, l)
	if err != nil || b == nil {
		return st, err
	}
	p := st.Path
	rest, found := cutBlock(string(b))
	if !found {
		return st, nil
	}
	st.Changed = true
	chained := p + hookChained
	if rest == hookShebang+"\n"+`exec "$(dirname "$0")/pre-commit`+hookChained+`" "$@"`+"\n" && exists(chained) {
		return st, os.Rename(chained, p)
	}
	if strings.TrimSpace(rest) == hookShebang {
		return st, os.Remove(p)
	}
	mode := os.FileMode(0o755)
	if fi, err := os.Stat(p); err == nil {
		mode = fi.Mode().Perm()
	}
	return st, atomicfile.WriteFile(p, []byte(rest), mode)
}
