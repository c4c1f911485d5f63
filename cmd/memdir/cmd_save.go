package main

import (
	"fmt"
	"io"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

type saveOptions struct {
	typ, name, description, scope, body, source, trust string
	refs                                               []string
	pinned                                             bool
}

func (a *app) saveCmd() *cobra.Command {
	var o saveOptions
	cmd := &cobra.Command{
		Use:   "save --type TYPE --name NAME --description TEXT [--body TEXT | < body.md]",
		Short: "Save a memory, or update the one with the same name",
		Long:  longHelp("save"),
		Example: `  memdir save --type feedback --name "Prefer table-driven tests" \
    --description "Write Go tests as tables with t.Run" \
    --body $'Use table-driven tests.\n\n**Why:** the user asked for them in review.\n**How to apply:** every new _test.go file.'

  git log -1 --format=%B | memdir save --type project --name "Release freeze" --description "No merges after Dec 1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("body") && !isTerminal(a.stdin) && a.stdin != nil {
				b, err := io.ReadAll(io.LimitReader(a.stdin, memdir.MaxFileSize+1))
				if err != nil {
					return fmt.Errorf("read body from stdin: %w", err)
				}
				if len(b) > memdir.MaxFileSize {
					return withHint(fmt.Errorf("body on stdin is over %d bytes", memdir.MaxFileSize), "a memory is one fact; keep it under 4 KB")
				}
				o.body = string(b)
			}
			return a.runSave(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.typ, "type", "", "user, feedback, project or reference (required for a new memory)")
	f.StringVar(&o.name, "name", "", "short name; the file name is its slug (required)")
	f.StringVar(&o.description, "description", "", "one line saying what the memory is for; recall matches on it (required for a new memory)")
	f.StringVar(&o.scope, "scope", "", "private (default) or team: the project's .memdir/team, committed and shared with every collaborator (never a user memory, never a secret)")
	f.StringVar(&o.body, "body", "", "the memory itself, in markdown (default: standard input)")
	f.StringSliceVar(&o.refs, "refs", nil, "paths or symbols the memory names, comma-separated (checked for staleness)")
	f.StringVar(&o.source, "source", "", "where the memory came from (default manual; an update keeps the stored one)")
	f.StringVar(&o.trust, "trust", "", "user, agent or tool-output (default user; an update keeps the stored one)")
	f.BoolVar(&o.pinned, "pinned", false, "never let consolidation drop this memory")
	cmd.MarkFlagRequired("name")
	return cmd
}

func (a *app) runSave(o saveOptions) error {
	req := workspace.SaveRequest{
		Type: o.typ, Name: o.name, Description: o.description, Scope: o.scope, Body: o.body,
		Source: o.source, Trust: o.trust, Refs: o.refs, Pinned: o.pinned, Revive: true, // a person saving a forgotten team memory again means it
		Defaults: memdir.Memory{Source: "manual", Trust: memdir.TrustUser},
	}
	if req.Type == "" || req.Description == "" {
		// An update names the memory; what it leaves out is kept.
		if ws, err := a.workspace(false); err != nil || !ws.FillFromStored(&req) {
			return withHint(fmt.Errorf("--type and --description are needed for a new memory"), "see 'memdir save --help'")
		}
	}
	if err := req.Check(); err != nil {
		return err // before the folder is made
	}
	ws, err := a.workspace(true)
	if err != nil {
		return err
	}
	res, err := ws.Save(a.ctx, req)
	if err != nil {
		// A refused secret is said once: the error names its kinds,
		// the hint what to do.
		return err
	}
	if ws.SavedTo(res) == memdir.ScopeTeam {
		return a.reportTeamSave(res)
	}
	return a.reportSave(res)
}

// reportTeamSave tells what a save into the team folder did: where it
// went, by whom, and that it travels by a commit.
func (a *app) reportTeamSave(res memdir.SaveResult) error {
	for _, w := range res.Warnings {
		a.warnf("%s", w)
	}
	if a.json {
		return a.printJSON(struct {
			memdir.SaveResult
			Scope  string `json:"scope"`
			Author string `json:"author,omitempty"`
		}{res, memdir.ScopeTeam, res.Memory.Author})
	}
	return workspace.WriteTeamSave(a.stdout, res)
}

// reportSave tells what a save did: redactions and warnings on stderr, then
// the file and its index line (or the result as JSON) on stdout.
func (a *app) reportSave(res memdir.SaveResult) error {
	for _, r := range res.Redactions {
		a.warnf("redacted %d %s from %s", r.Count, r.Kind, res.File)
	}
	for _, w := range res.Warnings {
		a.warnf("%s", w)
	}
	if a.json {
		return a.printJSON(res)
	}
	verb := "updated"
	if res.Created {
		verb = "saved"
	}
	if res.NotIndexed {
		// Saved all the same: MEMORY.md lists only the most useful
		// memories, and recall and list find every one.
		a.printf("%s %s\n  (no line in MEMORY.md; 'memdir list' and recall find it)\n", verb, res.Path)
		return nil
	}
	a.printf("%s %s\n  %s\n", verb, res.Path, res.IndexLine)
	for _, f := range res.Unlisted {
		a.printf("  (in MEMORY.md in place of %s, which stays a file)\n", f)
	}
	return nil
}
