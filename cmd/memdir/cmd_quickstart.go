package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
	"github.com/memdir/memdir/internal/workspace"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/spf13/cobra"
)

type quickstartJSON struct {
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
	codexHome := filepath.Join(dir, "codex")
	q.getenv = func(k string) string {
		switch k {
		case "HOME":
			return dir
		case "CODEX_HOME":
			return codexHome
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
	u := memdir.IndexUsage(loaded.Text)
	say("\n2. MEMORY.md as the agent loads it at session start (%d/%d lines, %d/%d characters):\n\n",
		u.Lines, memdir.MaxIndexLines, u.Chars, memdir.MaxIndexChars)
	for line := range strings.Lines(loaded.Text) {
		say("   %s", line)
	}

	// Two example sessions, yesterday with Claude Code and the day before
	// with Codex, written where those agents write them.
	env, err := q.transcriptsEnv()
	if err != nil {
		return err
	}
	y := time.Now().AddDate(0, 0, -1)
	claudeAt := time.Date(y.Year(), y.Month(), y.Day(), 10, 0, 0, 0, time.Local)
	say("\n\n3. Two example session transcripts, as the agents write them:\n")
	for _, tr := range examples.Transcripts(q.project, claudeAt, claudeAt.AddDate(0, 0, -1).Add(4*time.Hour)) {
		path := filepath.Join(l.Home, "projects", l.ProjectKey, tr.Session+".jsonl")
		if tr.Agent == "codex" {
			d := claudeAt.AddDate(0, 0, -1)
			path = filepath.Join(env.Roots.Codex, "sessions", d.Format("2006/01/02"), "rollout-"+d.Format("2006-01-02")+"T14-00-00-"+tr.Session+".jsonl")
		}
		if err := os.MkdirAll(filepath.Dir(path), memdir.DirPerm); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, tr.Data, 0o600); err != nil {
			return err
		}
		out.Transcripts = append(out.Transcripts, path)
		say("   %-11s %s\n", tr.Agent, path)
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
	q.stdout = &indentWriter{w: a.stdout, indent: "   ", bol: true}
	if a.json {
		q.stdout = io.Discard
	}
	if err := q.extract(env, []string{out.Extracted}, "", false); err != nil {
		return err
	}

	// Recall for two prompts: one a memory answers, one none does.
	q.stdout = a.stdout
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
		for line := range strings.Lines(r.Injected) {
			say("   %s", line)
		}
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
	if out.ExtractedMemories == nil {
		out.ExtractedMemories = []string{}
	}
	say("   Saved %d memories: %s\n", len(out.ExtractedMemories), strings.Join(out.ExtractedMemories, ", "))
	if idx, err := st.LoadIndex(a.ctx); err == nil {
		say("   Their lines in MEMORY.md:\n")
		for line := range strings.Lines(idx.Text) {
			for _, f := range out.ExtractedMemories {
				if strings.Contains(line, "("+f+")") {
					say("     %s", line)
				}
			}
		}
	}
	prompt := "does the cache loader need a context on every call?"
	r, err := q.recallFor(prompt, recall.DefaultPolicy)
	if err != nil {
		return err
	}
	out.Recalls = append(out.Recalls, r)
	say("\n9. memdir recall %q — the extracted memory comes back:\n\n", prompt)
	for line := range strings.Lines(r.Injected) {
		say("   %s", line)
	}
	if a.json {
		return a.printJSON(out)
	}
	flags := fmt.Sprintf("--home %s --project %s", q.home, q.project)
	say("\n\nNext, explore the throwaway folder (type 'go run ./cmd/memdir' for 'memdir' if it is not installed):\n")
	say("   memdir %s list\n", flags)
	say("   memdir %s show prefer-table-driven-tests\n", flags)
	say("   memdir %s doctor\n", flags)
	say("   memdir %s recall \"integration tests against the database\" --explain\n", flags)
	say("   CODEX_HOME=%s memdir %s search --transcripts context\n", codexHome, flags)
	say("   CODEX_HOME=%s memdir %s transcripts done %s\n", codexHome, flags, out.Extracted)
	say("Then, in your own project:\n")
	say("   memdir init && memdir save --type user --name \"My role\" --description \"...\" --body \"...\"\n")
	say("   memdir install claude    # Claude Code gets recall with every prompt, and its sessions are extracted\n")
	return nil
}

// indentWriter prefixes every line written through it.
type indentWriter struct {
	w      io.Writer
	indent string
	bol    bool // at the beginning of a line
}

func (iw *indentWriter) Write(p []byte) (int, error) {
	var b []byte
	for _, c := range p {
		if iw.bol && c != '\n' {
			b = append(b, iw.indent...)
		}
		b = append(b, c)
		iw.bol = c == '\n'
	}
	if _, err := iw.w.Write(b); err != nil {
		return 0, err
	}
	return len(p), nil
}
