package main

import (
	"os"
	"text/tabwriter"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

type whereJSON struct {
	Home         string `json:"home"`
	HomeSource   string `json:"home_source"`
	ProjectRoot  string `json:"project_root"`
	ProjectVia   string `json:"project_via"`
	ProjectKey   string `json:"project_key"`
	MemoryDir    string `json:"memory_dir"`
	MemorySource string `json:"memory_source"`
	MemoryExists bool   `json:"memory_dir_exists"`
	SynthesisDir string `json:"synthesis_dir"`
	Disabled     bool   `json:"auto_memory_disabled"`
	DisabledWhy  string `json:"disabled_by,omitempty"`
	OffSwitch    string `json:"off_switch,omitempty"` // what the switch set turns off
}

func (a *app) whereCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "where",
		Short: "Print where memdir reads and writes for this project",
		Long:  longHelp("where"),
		Example: `  memdir where
  memdir where --json --project ~/src/api`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, err := a.layout()
			if err != nil {
				return err
			}
			_, statErr := os.Stat(l.MemoryDir)
			w := whereJSON{
				Home: l.Home, HomeSource: l.HomeSource, ProjectRoot: l.ProjectRoot, ProjectVia: l.ProjectVia,
				ProjectKey: l.ProjectKey, MemoryDir: l.MemoryDir, MemorySource: l.MemorySource,
				MemoryExists: statErr == nil, SynthesisDir: l.SynthesisDir, Disabled: l.Disabled, DisabledWhy: l.DisabledWhy, OffSwitch: workspace.OffSwitch(l),
			}
			if a.json {
				return a.printJSON(w)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			a.row(tw, "home", w.Home, "from "+w.HomeSource)
			a.row(tw, "project", w.ProjectRoot, "from "+w.ProjectVia)
			exists := "exists"
			if !w.MemoryExists {
				exists = "not created yet"
			}
			a.row(tw, "memory", w.MemoryDir, "from "+w.MemorySource+", "+exists)
			a.row(tw, "index", l.MemoryDir+string(os.PathSeparator)+memdir.IndexFile, "")
			a.row(tw, "synthesis", w.SynthesisDir, "")
			a.row(tw, "auto memory", map[bool]string{true: "off", false: "on"}[w.Disabled], w.OffSwitch)
			return tw.Flush()
		},
	}
}

func (a *app) row(tw *tabwriter.Writer, k, v, note string) {
	if note != "" {
		note = "(" + note + ")"
	}
	tw.Write([]byte(k + "\t" + v + "\t" + note + "\n"))
}
