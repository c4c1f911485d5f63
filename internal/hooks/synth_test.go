package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hooks"
)

// What a session sees of synthesis (issue 14): the due line and the
// always-loaded part of global long-term memory at SessionStart, and
// learnings in a prompt's recall.

const globalMemory = `# Global Long-Term Memory

## About Me
- Prefers terse answers and table tests

## Current Projects
- proj: the shop's backend

## Technical Environment
- Linux, Go 1.26, PostgreSQL 17

## Patterns & Preferences
- **Small commits** [global/decision] (2026-11-02): Commits stay small and reviewed
  - Lesson: One logical change per commit

## Pinned
- **PreToolUse hooks for subagent permissions** [global/best-practice] (2026-11-01): Subagents don't inherit permissions
  - Lesson: Use PreToolUse hooks with permissionDecision allow

## Key Learnings

## Error Patterns to Avoid
- **Permission glob syntax** [global/error] (2026-11-20): Used a colon star instead of a slash star
  - Lesson: Use slash for path separators in permission globs

## Best Practices

---
*Last synthesized: 2026-11-20*
`

// writeSynth writes rel in the synthesis folder.
func (h *home) writeSynth(t *testing.T, rel, text string) {
	t.Helper()
	p := filepath.Join(h.agent, "memory", filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeTranscript writes a transcript of the project no state knows:
// pending for synthesis.
func (h *home) writeTranscript(t *testing.T) {
	t.Helper()
	p := filepath.Join(h.agent, "projects", "-proj", "s0.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2026-11-24T10:00:00Z","cwd":"` + filepath.ToSlash(h.project) + `"}` + "\n"
	if err := os.WriteFile(p, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
}

// answerText returns the additionalContext of a hook's stdout ("" for none).
func answerText(t *testing.T, stdout string) string {
	t.Helper()
	if stdout == "" {
		return ""
	}
	var out hooks.Output
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || out.HookSpecificOutput == nil {
		t.Fatalf("stdout is no answer (%v): %s", err, stdout)
	}
	return out.HookSpecificOutput.AdditionalContext
}

func TestRunner_SessionStartSynthesis(t *testing.T) {
	for _, memories := range []bool{false, true} {
		for _, global := range []bool{false, true} {
			for _, due := range []bool{false, true} {
				for _, off := range []bool{false, true} {
					name := map[bool]string{false: "no memories", true: "memories"}[memories] + "," +
						map[bool]string{false: "no global file", true: "global file"}[global] + "," +
						map[bool]string{false: "not due", true: "due"}[due] + "," +
						map[bool]string{false: "auto memory on", true: "auto memory off"}[off]
					t.Run(name, func(t *testing.T) {
						h := newHome(t)
						if memories {
							h.saveTwo(t)
						}
						if global {
							h.writeSynth(t, "global-long-term-memory.md", globalMemory)
						}
						h.writeTranscript(t) // pending either way: the time decides
						if !due {
							h.writeSynth(t, ".last-synthesis", clock.Add(-time.Hour).Format(time.RFC3339Nano))
						}
						if off {
							h.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "1"
						}
						got := answerText(t, h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"}))
						has := func(s string) bool { return strings.Contains(got, s) }
						checks := []struct {
							what      string
							want, got bool
						}{
							{"the primer", memories && !off, has("2 memories for this project")},
							{"MEMORY.md", memories && off, has("MEMORY.md (the user's memory index, kept by memdir)")},
							{"the due line", due, has("memdir: synthesis is due (1 transcript holds conversation not yet summarised; no synthesis has run yet): run `memdir synthesize`")},
							{"the global file's line", global, has(filepath.Join(h.agent, "memory", "global-long-term-memory.md") + " (the user's global long-term memory")},
							{"an auto-pinned section", global, has("Prefers terse answers")},
							{"the Pinned section", global, has("PreToolUse hooks for subagent permissions")},
							{"a decaying section", false, has("Permission glob syntax")},
						}
						for _, c := range checks {
							if c.want != c.got {
								t.Errorf("%s: got %v, want %v, in:\n%s", c.what, c.got, c.want, got)
							}
						}
						if !memories && !global && !due && got != "" {
							t.Errorf("nothing to say, said:\n%s", got)
						}
						h.noFailures(t)
					})
				}
			}
		}
	}
}

// TestRunner_SessionStartMalformedGlobal: a global file that does not
// parse is left out with one line in the hook log; the rest is said.
func TestRunner_SessionStartMalformedGlobal(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	h.writeSynth(t, "global-long-term-memory.md", "# Global\n\n## Pinned\n- **Broken** [global/nonsense] (2026-11-20): an unknown type\n")
	got := answerText(t, h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"}))
	if !strings.Contains(got, "2 memories for this project") || strings.Contains(got, "Broken") {
		t.Errorf("answer:\n%s", got)
	}
	log := h.file(t, hooks.LogFile)
	if strings.Count(log, "\n") != 1 || !strings.Contains(log, `SessionStart session="s1" global-long-term-memory.md left out of the session's start: global-long-term-memory.md:4:`) {
		t.Errorf("hooks.log:\n%s", log)
	}
}

// TestRunner_SessionStartBudgets: the always-loaded part keeps to
// alwaysLoadedTokens, and the whole answer to Claude Code's cap even with
// a MEMORY.md that fills it.
func TestRunner_SessionStartBudgets(t *testing.T) {
	t.Run("alwaysLoadedTokens", func(t *testing.T) {
		h := newHome(t)
		h.writeSynth(t, "global-long-term-memory.md", globalMemory)
		full := answerText(t, h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1"}))
		h.writeSynth(t, "settings.json", `{"synthesis":{"alwaysLoadedTokens":25}}`)
		small := answerText(t, h.event(t, hooks.SessionStart, map[string]string{"session_id": "s2"}))
		_, fullPart, _ := strings.Cut(full, "always loaded):\n\n")
		_, smallPart, _ := strings.Cut(small, "always loaded):\n\n")
		if !strings.Contains(fullPart, "PreToolUse hooks") || strings.Contains(smallPart, "PreToolUse hooks") {
			t.Errorf("full:\n%s\nsmall:\n%s", fullPart, smallPart)
		}
		// 25 tokens are 100 bytes; the line saying what was left out is
		// allowed on top.
		if len(smallPart) > 100+120 {
			t.Errorf("small part is %d bytes:\n%s", len(smallPart), smallPart)
		}
		h.noFailures(t)
	})
	t.Run("a full MEMORY.md", func(t *testing.T) {
		h := newHome(t)
		h.writeSynth(t, "global-long-term-memory.md", globalMemory)
		h.writeTranscript(t)
		h.env["CLAUDE_CODE_DISABLE_AUTO_MEMORY"] = "1"
		h.saveTwo(t)
		index := h.memoryIndex(t)
		b, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for i := range 150 {
			lines = append(lines, "- [Note "+strings.Repeat("x", i%10)+"](note.md) — "+strings.Repeat("a long description of a memory ", 3))
		}
		if err := os.WriteFile(index, append(b, []byte(strings.Join(lines, "\n")+"\n")...), 0o600); err != nil {
			t.Fatal(err)
		}
		got := answerText(t, h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1"}))
		if n := len([]rune(got)); n > hooks.ContextCap {
			t.Errorf("answer of %d characters", n)
		}
		for _, w := range []string{"synthesis is due", "Prefers terse answers", "Contents of ", "cut by memdir to Claude Code's context limit"} {
			if !strings.Contains(got, w) {
				t.Errorf("answer lacks %q", w)
			}
		}
	})
}

// memoryIndex is the project's MEMORY.md.
func (h *home) memoryIndex(t *testing.T) string {
	t.Helper()
	var found string
	filepath.WalkDir(h.root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "MEMORY.md" {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatal("no MEMORY.md")
	}
	return found
}

// TestRunner_PromptLearnings: a project without memories is given a
// learning of its long-term file and one of a daily summary, each once a
// session; an unrelated prompt is given nothing.
func TestRunner_PromptLearnings(t *testing.T) {
	h := newHome(t)
	h.writeSynth(t, "project-memory/proj-long-term-memory.md", "# proj\n\n## Pinned\n\n## Error Patterns to Avoid\n"+
		"- **Migrations lock the orders table** [proj/error] (2026-11-18): Running the schema migration at noon locked the orders table\n"+
		"  - Lesson: Run orders migrations with lock_timeout set, outside business hours\n\n---\n*Last updated: 2026-11-20*\n")
	day := clock.Local().AddDate(0, 0, -1).Format(time.DateOnly)
	h.writeSynth(t, "daily/"+day+".md", "# "+day+"\n\n<!-- projects: proj -->\n\n## Sessions Summary\nRelease work.\n\n## Topics\n- Release\n\n## Key Points\n- Shipped\n\n## Learnings\n"+
		"- **Docker compose healthcheck** [proj/best-practice] ("+day+"): The api container started before postgres accepted connections\n"+
		"  - Lesson: Add a healthcheck to the postgres service\n")
	prompt := func(session, text string) string {
		return answerText(t, h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": session, "prompt": text}))
	}
	if got := prompt("s1", "the orders migration locked the table again; how should we run it?"); !strings.Contains(got, "**Migrations lock the orders table** [proj/error] (2026-11-18, project-memory/proj-long-term-memory.md)") {
		t.Errorf("project learning:\n%s", got)
	}
	if got := prompt("s1", "the api container starts before postgres accepts connections"); !strings.Contains(got, "[proj/best-practice] ("+day+", daily/"+day+".md)") {
		t.Errorf("daily learning:\n%s", got)
	}
	if got := prompt("s1", "the orders migration locked the table again; how should we run it?"); got != "" {
		t.Errorf("given twice in a session:\n%s", got)
	}
	if got := prompt("s1", "write a haiku about autumn leaves on a quiet pond"); got != "" {
		t.Errorf("unrelated prompt:\n%s", got)
	}
	lines := recallLines(t, h)
	if len(lines) != 4 || len(lines[0].Files) != 1 || lines[0].Files[0] != "project-memory/proj-long-term-memory.md#Migrations lock the orders table" || !lines[3].Abstained {
		t.Errorf("recall log: %+v", lines)
	}
	h.noFailures(t)
}
