package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) listCmd() *cobra.Command {
	var typ, scope string
	var stats bool
	cmd := &cobra.Command{
		Use:   "list [--type TYPE] [--scope private|team|all] [--stats]",
		Short: "List the project's memories",
		Long:  longHelp("list"),
		Example: `  memdir list
  memdir list --type feedback
  memdir list --type untyped --json
  memdir list --stats
  memdir list --scope team`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if typ != "" && typ != workspace.Untyped {
				if _, err := memdir.ParseType(typ); err != nil {
					return withHint(err, "or use --type untyped for files without a type")
				}
			}
			if err := workspace.CheckScope(scope, true); err != nil {
				return err
			}
			l, err := a.layout()
			if err == nil {
				err = a.env().CheckProject()
			}
			if err != nil {
				return err
			}
			parts, problems, err := workspace.ListScoped(a.ctx, a.env(), l, scope, stats, func(err error) {
				a.warnf("%v", err)
				if h := hint.Of(err); h != "" {
					fmt.Fprintf(a.stderr, "memdir: hint: %s\n", h)
				}
			})
			if err != nil {
				return err
			}
			if len(parts) == 0 {
				if a.json {
					return a.printJSON([]workspace.MemoryJSON{})
				}
				if a.global {
					a.printf("no global memories yet (%s)\n", l.UserDir)
					return nil
				}
				a.printf("no memories yet for %s\n", l.ProjectRoot)
				return nil
			}
			for _, p := range problems {
				a.warnf("%v", p)
			}
			var unread int
			if a.json {
				a.printedJSON = true
				unread, err = workspace.WriteListJSON(a.stdout, typ, func(err error) { a.warnf("%v", err) }, parts...)
			} else {
				var n int
				if n, err = workspace.WriteListText(a.stdout, typ, parts...); err == nil && n == 0 {
					a.printf("no memories match\n")
				}
			}
			if err != nil {
				return err
			}
			if n := len(problems) + unread; n > 0 {
				a.warnf("%s could not be read (named above); run 'memdir doctor' for details", sessions.Plural(n, "memory file"))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&typ, "type", "", "only this type: user, feedback, project, reference or untyped")
	cmd.Flags().StringVar(&scope, "scope", workspace.ScopeAll, "private, team (the project's .memdir/team) or all: the private memories, then the team's")
	cmd.Flags().BoolVar(&stats, "stats", false, "add each memory's usage: times injected, last injected, marked helpful and wrong")
	return cmd
}

func (a *app) showCmd() *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use:   "show NAME [--scope private|team]",
		Short: "Print one memory",
		Long: `Show prints a memory file as it is on disk. NAME is the memory's name, its
slug, or its file name; the words of an unquoted NAME are joined. A team
memory (the project's .memdir/team folder) is shown with --scope team, or
named team/<file> as 'memdir list' shows it.`,
		Example: `  memdir show prefer-tabs
  memdir show "Prefer tabs" --json
  memdir show team/deploy-flow.md
  memdir show --scope team "Deploy flow"`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ws, scope, name, err := a.named(scope, strings.Join(args, " "), "show")
			if err != nil {
				if ws = a.bareTeam(scope, name, err); ws == nil {
					return err
				}
			}
			err = a.show(ws, scope, name)
			if t := a.bareTeam(scope, name, err); t != nil {
				// A read is harmless: a bare name that is only a team
				// memory is shown, and said to be the team's.
				err = a.show(t, memdir.ScopeTeam, name)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&scope, "scope", "", "private (default) or team")
	return cmd
}

// show prints memory name of ws, as it is on disk (as JSON with --json).
func (a *app) show(ws *workspace.Workspace, scope, name string) error {
	st := ws.Store
	if a.json {
		m, err := st.Get(name)
		if err != nil {
			return a.notPrivate(scope, "show", name, err)
		}
		return a.printJSON(ws.JSON(m, true))
	}
	b, file, err := st.Raw(name)
	if err != nil {
		return a.notPrivate(scope, "show", name, err)
	}
	if _, err := a.stdout.Write(b); err != nil {
		return err
	}
	if _, perr := memdir.Parse(file, b); perr != nil {
		// Shown as it is, and an error as with --json: the file is broken.
		return withHint(perr, "fix it with 'memdir edit %s'", ws.ShownName(strings.TrimSuffix(file, ".md")))
	}
	return nil
}

// bareTeam is the project's team folder when err says that name, given
// without a scope, is none of the private memories but a team memory
// (workspace.TeamMemoryError); it says so on stderr. nil otherwise.
func (a *app) bareTeam(scope, name string, err error) *workspace.Workspace {
	var te *workspace.TeamMemoryError
	if scope != "" || !errors.As(err, &te) {
		return nil
	}
	l, lerr := a.layout()
	if lerr != nil {
		return nil
	}
	t, terr := workspace.OpenTeam(a.env(), l, false)
	if terr != nil {
		return nil
	}
	fmt.Fprintf(a.stderr, "memdir: %s%s, the team's memory\n", workspace.TeamPrefix, te.File)
	return t
}
