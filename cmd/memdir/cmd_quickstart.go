package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/workspace"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/spf13/cobra"
)

type quickstartJSON struct {
	Dir               string                 `json:"dir"`
	Home              string                 `json:"home"`
	Project           string                 `json:"project"`
	MemoryDir         string                 `json:"memory_dir"`
	Saved             []string               `json:"saved"`
	Index             memdir.Loaded          `json:"index"`
	Transcripts       []string               `json:"transcripts"`
	Pending           []workspace.PendingDay `json:"pending"`
	Extracted         string                 `json:"extracted_day"`
	Recalls           []recallJSON           `json:"recalls"`
	ExtractedMemories []string               `json:"extracted_memories"`
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
at the end, which also say how to remove it (rm -rf DIR).`,
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
	sb, err := examples.NewSandbox(dir)
	if err != nil {
		return err
	}
	// The throwaway run ignores the caller's own overrides and settings.
	q := &app{sys: a.sys, ctx: a.ctx, home: sb.Home, project: sb.Project, cmdName: a.cmdName}
	q.getenv = sb.Getenv
	out := quickstartJSON{Dir: sb.Dir, Home: q.home, Project: q.project, ExtractedMemories: []string{}}
	say := func(format string, args ...any) {
		if !a.json {
			a.printf(format, args...)
		}
	}
	// sayLines says text's lines after indent: those naming one of the
	// files in only, or all with a nil only.
	sayLines := func(indent, text string, only []string) {
		for line := range strings.Lines(text) {
			if only == nil || slices.ContainsFunc(only, func(f string) bool { return strings.Contains(line, "("+f+")") }) {
				say("%s%s", indent, line)
			}
		}
	}
	say("memdir quickstart — a throwaway home in %s\n\n", sb.Dir)
	st, l, err := q.store(true)
	if err != nil {
		return err
	}
	out.MemoryDir = l.MemoryDir
	say("1. Saving example memories into %s\n", l.MemoryDir)
	saved, err := examples.SaveMemories(a.ctx, st)
	for _, m := range saved {
		out.Saved = append(out.Saved, m.File)
		say("   %-10s %s\n", m.Type, m.File)
	}
	if err != nil {
		return err
	}
	loaded, err := st.LoadIndex(a.ctx)
	if err != nil {
		return err
	}
	out.Index = loaded
	u := memdir.IndexUsage(loaded.Text)
	say("\n2. MEMORY.md as the agent loads it at session start (%d/%d lines, %d/%d characters):\n\n",
		u.Lines, memdir.MaxIndexLines, u.Chars, memdir.MaxIndexChars)
	sayLines("   ", loaded.Text, nil)

	// Two example sessions, yesterday with Claude Code and the day before
	// with Codex, written where those agents write them.
	env, err := q.transcriptsEnv()
	if err != nil {
		return err
	}
	y := time.Now().AddDate(0, 0, -1)
	claudeAt := time.Date(y.Year(), y.Month(), y.Day(), 10, 0, 0, 0, time.Local)
	say("\n\n3. Two example session transcripts, as the agents write them:\n")
	written, err := examples.WriteTranscripts(examples.Placement{Home: l.Home, ProjectKey: l.ProjectKey, CodexHome: env.Roots.Codex}, q.project, claudeAt)
	if err != nil {
		return err
	}
	for _, w := range written {
		out.Transcripts = append(out.Transcripts, w.Path)
		say("   %-11s %s\n", w.Agent, w.Path)
	}
	if out.Pending, err = env.PendingDays(a.ctx, q.report()); err != nil {
		return err
	}
	say("\n4. memdir transcripts list-pending — days not yet processed:\n\n")
	if !a.json {
		a.printPending(out.Pending, "   ")
	}
	out.Extracted = claudeAt.Format(time.DateOnly)
	say("\n5. memdir transcripts extract %s — that day's conversation, tool calls on one line,\n   the hook's injected context left out:\n\n", out.Extracted)
	found, err := env.ExtractDays(a.ctx, workspace.ExtractRequest{Days: []string{out.Extracted}}, q.report(), func(b []byte) error {
		for line := range strings.Lines(string(b)) {
			say("%s%s", map[bool]string{true: "", false: "   "}[line == "\n"], line)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !found {
		say("   No pending transcript content for %s ('memdir transcripts list-pending' shows the pending days).\n", out.Extracted)
	}
	// Recall for two prompts: one a memory answers, one none does.
	for i, prompt := range []string{"should the integration tests mock PostgreSQL?", "what's a good name for a cat?"} {
		say("\n%d. memdir recall %q — what a hook would inject:\n\n", 6+i, prompt)
		r, err := q.recallFor(prompt, recall.DefaultPolicy)
		if err != nil {
			return err
		}
		out.Recalls = append(out.Recalls, r)
		if r.Injected == "" {
			say("   (nothing: no memory covers enough of this prompt, so nothing is injected)\n")
			continue
		}
		sayLines("   ", r.Injected, nil)
	}
	// Extraction: the example sessions' durable statements become memories.
	say("\n8. memdir extract — the heuristic engine reads what the user said in the example sessions:\n\n")
	reports, _, err := q.extractLocked(env, out.Transcripts, false)
	if err != nil {
		return err
	}
	for _, r := range reports {
		out.ExtractedMemories = append(out.ExtractedMemories, r.Saved...)
	}
	say("   Saved %d memories: %s\n", len(out.ExtractedMemories), strings.Join(out.ExtractedMemories, ", "))
	if idx, err := st.LoadIndex(a.ctx); err == nil {
		say("   Their lines in MEMORY.md:\n")
		sayLines("     ", idx.Text, out.ExtractedMemories)
	}
	prompt := "does the cache loader need a context on every call?"
	r, err := q.recallFor(prompt, recall.DefaultPolicy)
	if err != nil {
		return err
	}
	out.Recalls = append(out.Recalls, r)
	say("\n9. memdir recall %q — the extracted memory comes back:\n\n", prompt)
	sayLines("   ", r.Injected, nil)
	if a.json {
		return a.printJSON(out)
	}
	flags := fmt.Sprintf("--home %s --project %s", q.home, q.project)
	say("\n\nNext, explore the throwaway folder (type 'go run ./cmd/memdir' for 'memdir' if it is not installed):\n")
	say("   memdir %s list\n", flags)
	say("   memdir %s show prefer-table-driven-tests\n", flags)
	say("   memdir %s doctor\n", flags)
	say("   memdir %s recall \"integration tests against the database\" --explain\n", flags)
	say("   CODEX_HOME=%s memdir %s search --transcripts context\n", sb.CodexHome, flags)
	say("   CODEX_HOME=%s memdir %s transcripts done %s\n", sb.CodexHome, flags, out.Extracted)
	say("Then, in your own project:\n")
	say("   memdir init && memdir save --type user --name \"My role\" --description \"...\" --body \"...\"\n")
	say("   memdir install claude    # Claude Code gets recall with every prompt, and its sessions are extracted\n")
	say("The throwaway folder stays for you to explore; when you are done: rm -rf %s\n", sb.Dir)
	return nil
}
