package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/spf13/cobra"
)

type quickstartJSON struct {
	Home      string        `json:"home"`
	Project   string        `json:"project"`
	MemoryDir string        `json:"memory_dir"`
	Saved     []string      `json:"saved"`
	Index     memdir.Loaded `json:"index"`
}

func (a *app) quickstartCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "See memdir work end to end in a throwaway folder, offline",
		Long: `Quickstart makes a throwaway agent home and project (in a new temporary folder,
or --dir), saves a handful of realistic example memories of all four types
through the same store every other command uses, and prints MEMORY.md as an
agent loads it at the start of a session. Your real memories are not touched.
The folder is left in place so you can explore it with the commands printed
at the end.`,
		Example: `  memdir quickstart
  memdir quickstart --dir /tmp/try-memdir --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runQuickstart(dir)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "where to make the throwaway home and project (default: a new temporary folder)")
	return cmd
}

func (a *app) runQuickstart(dir string) error {
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "memdir-quickstart-")
	} else {
		dir, err = filepath.Abs(dir)
		if err == nil {
			err = os.MkdirAll(dir, memdir.DirPerm)
		}
	}
	if err != nil {
		return fmt.Errorf("make the throwaway folder: %w", err)
	}
	// The throwaway run ignores the caller's own overrides and settings.
	q := &app{sys: a.sys, ctx: a.ctx, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project"), cmdName: a.cmdName}
	q.getenv = func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}
	if err := os.MkdirAll(q.project, memdir.DirPerm); err != nil {
		return err
	}
	out := quickstartJSON{Home: q.home, Project: q.project}
	say := func(format string, args ...any) {
		if !a.json {
			a.printf(format, args...)
		}
	}
	say("memdir quickstart — a throwaway home in %s\n\n", dir)
	st, l, err := q.store(true)
	if err != nil {
		return err
	}
	out.MemoryDir = l.MemoryDir
	say("1. Saving example memories into %s\n", l.MemoryDir)
	files, err := fs.Glob(examples.Memories, "memories/*.md")
	if err != nil {
		return err
	}
	for _, f := range files {
		b, err := fs.ReadFile(examples.Memories, f)
		if err != nil {
			return err
		}
		ex, err := memdir.Parse(filepath.Base(f), b)
		if err != nil {
			return fmt.Errorf("bundled example: %w", err)
		}
		res, err := st.Save(a.ctx, memdir.Memory{
			Name: ex.Name, Description: ex.Description, Type: ex.Type,
			Source: "quickstart", Trust: memdir.TrustUser, Body: ex.Body,
		}, memdir.SaveOptions{})
		if err != nil {
			return err
		}
		out.Saved = append(out.Saved, res.File)
		say("   %-10s %s\n", ex.Type, res.File)
	}
	loaded, err := st.LoadIndex(a.ctx)
	if err != nil {
		return err
	}
	out.Index = loaded
	if a.json {
		return a.printJSON(out)
	}
	u := memdir.IndexUsage(loaded.Text)
	say("\n2. MEMORY.md as the agent loads it at session start (%d/%d lines, %d/%d characters):\n\n",
		u.Lines, memdir.MaxIndexLines, u.Chars, memdir.MaxIndexChars)
	for line := range strings.Lines(loaded.Text) {
		say("   %s", line)
	}
	flags := fmt.Sprintf("--home %s --project %s", q.home, q.project)
	say("\n\nNext, explore the throwaway folder (type 'go run ./cmd/memdir' for 'memdir' if it is not installed):\n")
	say("   memdir %s list\n", flags)
	say("   memdir %s show prefer-table-driven-tests\n", flags)
	say("   memdir %s doctor\n", flags)
	say("Then, in your own project:\n")
	say("   memdir init && memdir save --type user --name \"My role\" --description \"...\" --body \"...\"\n")
	return nil
}
