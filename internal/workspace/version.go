package workspace

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
)

// Version is memdir's release; MCP clients see it too.
const Version = "0.1.0"

// BuildInfo is the release with the commit and Go it was built from, when
// the build recorded them.
type BuildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go,omitempty"`
}

// Build reads the running binary's build information.
func Build() BuildInfo {
	b := BuildInfo{Version: Version}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Line is "0.1.0 (commit 0123456789ab, go1.26)", shortened to what is known.
func (b BuildInfo) Line() string {
	rev, modified := b.Commit, ""
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if b.Modified {
		modified = ", modified"
	}
	switch {
	case b.Go == "":
		return b.Version
	case rev == "":
		return fmt.Sprintf("%s (%s)", b.Version, b.Go)
	}
	return fmt.Sprintf("%s (commit %s%s, %s)", b.Version, rev, modified, b.Go)
}

// JSON is b as one line of JSON: {"version":…,"commit":…,"go":…}.
func (b BuildInfo) JSON() string {
	j, _ := json.Marshal(b)
	return string(j)
}
