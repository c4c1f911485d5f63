package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/memdir/memdir/internal/paths"
)

// pluginOnPath checks that the memdir plugin, when enabled, can find the
// binary it calls: its hooks run 'memdir' from PATH and, without it, do
// nothing (quietly, by design). path is the PATH to search.
func (c *checker) pluginOnPath(l paths.Layout, path string) {
	plugins := claudeinstall.EnabledPlugins(l)
	if len(plugins) == 0 {
		return
	}
	if bin := lookPath(path, "memdir"); bin != "" {
		c.add("claude plugin", CheckOK, "", "the plugin calls memdir from PATH: %s", bin)
		return
	}
	c.add("claude plugin", CheckFail,
		`add the folder memdir is in to PATH (go install puts it in $(go env GOPATH)/bin, usually ~/go/bin: export PATH="$PATH:$(go env GOPATH)/bin" in your shell's rc file), then start Claude Code again`,
		"%s is enabled but memdir is not on PATH: the plugin's hooks and MCP server do nothing", strings.Join(plugins, ", "))
}

// lookPath finds an executable file name in the folders of path, as a
// shell would (name.exe on Windows); "" when there is none.
func lookPath(path, name string) string {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		fi, err := os.Stat(p)
		if err == nil && fi.Mode().IsRegular() && (runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0) {
			return p
		}
	}
	return ""
}
