package main

import (
	"errors"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

func (a *app) listCmd() *cobra.Command {
	var typ string
	var stats bool
	cmd := &cobra.Command{
		Use:   "list [--type TYPE] [--stats]",
		Short: "List the project's memories",
		Long:  longHelp("list"),
		Example: `  memdir list
  memdir list --type feedback
  memdir list --type untyped --json
  memdir list --stats`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if typ != "" && typ != workspace.Untyped {
				if _, err := memdir.ParseType(typ); err != nil {
					return withHint(err, "or use --type untyped for files without a type")
				}
			}
			st, l, err := a.store(false)
			if errors.Is(err, memdir.ErrNotFound) {
				if a.json {
					return a.printJSON([]workspace.MemoryJSON{})
				}
				a.printf("no memories yet for %s\n", l.ProjectRoot)
				return nil
			}
			if err != nil {
				return err
			}
			ls, problems, err := workspace.List(a.ctx, st)
			if err == nil && stats {
				err = ls.AddStats(a.ctx, &workspace.Workspace{Env: a.env(), Layout: l, Store: st})
			}
			if err != nil {
				return err
			}
			for _, p := range problems {
				a.warnf("%v", p)
			}
			var unread int
			if a.json {
				a.printedJSON = true
				unread, err = ls.WriteJSON(a.stdout, st, typ, func(err error) { a.warnf("%v", err) })
			} else {
				var n int
				if n, err = ls.WriteText(a.stdout, typ); err == nil && n == 0 {
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
	cmd.Flags().BoolVar(&stats, "stats", false, "add each memory's usage: times injected, last injected, marked helpful and wrong")
	return cmd
}

func (a *app) showCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print one memory",
		Long: `Show prints a memory file as it is on disk. NAME is the memory's name, its
slug, or its file name; the words of an unquoted NAME are joined.`,
		Example: `  memdir show prefer-tabs
  memdir show "Prefer tabs" --json`,
		Args: wordsArgs("a memory NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			args = []string{strings.Join(args, " ")}
			st, _, err := a.store(false)
			if err != nil {
				return err
			}
			if a.json {
				m, err := st.Get(args[0])
				if err != nil {
					return err
				}
				return a.printJSON(workspace.ToJSON(st, m, true))
			}
			b, file, err := st.Raw(args[0])
			if err != nil {
				return err
			}
			if _, err := a.stdout.Write(b); err != nil {
				return err
			}
			if _, perr := memdir.Parse(file, b); perr != nil {
				a.warnf("%v (fix it with 'memdir edit %s')", perr, strings.TrimSuffix(file, ".md"))
			}
			return nil
		},
	}
}
