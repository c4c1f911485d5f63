package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/workspace"
)

const diaryDescription = `Write the task diary of the task you just finished: once, at its end, never for a trivial one-step task (a lookup, a rename, "make this button pink"). Write one after a task that took several steps, hit an error, needed a retry or taught you something about this codebase, or when the user asks for one.

Each section is a list of one-line items:
- attempted: the approaches you tried, in order, and why each (including those that failed);
- worked: what finally worked, and why it did;
- mistakes: what you got wrong and what it cost, so it is not repeated;
- errors: the exact error lines you hit, quoted verbatim (copy the line: "panic: assignment to entry in nil map", "TS2345: Argument of type ..."), not a paraphrase;
- edge_cases: inputs or situations that broke or nearly broke the code;
- patterns: lessons that might hold beyond this task ("run the migration before the tests", "the config loader ignores unknown keys").

Diaries are read by 'memdir patterns', which finds what recurs in 3 or more distinct tasks and proposes it as a rule for CLAUDE.md, a slash command, a test or a memory. Write lessons in plain words another task could recognise (name the tool, command, file or concept, not "it" or "this"), keep one idea per item, and leave out the task's one-off specifics. The entry must have a task, at least one item, a known outcome if given, and at most 16 KB; a bad entry is refused with every problem listed at once. Secrets are redacted before writing.`

// DiaryIn is diary_write's input.
type DiaryIn struct {
	Common
	Task      string   `json:"task" jsonschema:"what the task was, in one line, in the user's words"`
	Outcome   string   `json:"outcome,omitempty" jsonschema:"success, partial, failed or abandoned"`
	Tags      []string `json:"tags,omitempty" jsonschema:"a few short topic words (go, tests, migrations)"`
	Attempted []string `json:"attempted,omitempty" jsonschema:"approaches tried, in order, each with why; one line each"`
	Worked    []string `json:"worked,omitempty" jsonschema:"what finally worked and why; one line each"`
	Mistakes  []string `json:"mistakes,omitempty" jsonschema:"what went wrong and what it cost; one line each"`
	Errors    []string `json:"errors,omitempty" jsonschema:"the exact error lines hit, verbatim; one line each"`
	EdgeCases []string `json:"edge_cases,omitempty" jsonschema:"inputs or situations that broke or nearly broke the code; one line each"`
	Patterns  []string `json:"patterns,omitempty" jsonschema:"lessons that might hold beyond this task, in words another task could recognise; one line each"`
	Session   string   `json:"session,omitempty" jsonschema:"the agent session's id, when known"`
	Date      string   `json:"date,omitempty" jsonschema:"the task's day as YYYY-MM-DD; default: today"`
}

// DiaryOut is diary_write's result.
type DiaryOut struct {
	Stem string `json:"stem"` // the diary's name: its file name without .md
	Path string `json:"path"`
	// Redacted are the kinds of secret replaced before writing.
	Redacted []string `json:"redacted"`
}

// entry is the diary entry in describes, its sections in diary.Sections
// order.
func (in DiaryIn) entry() diary.Entry {
	e := diary.Entry{Task: strings.TrimSpace(in.Task), Outcome: strings.ToLower(strings.TrimSpace(in.Outcome)),
		Tags: in.Tags, Session: in.Session, Date: strings.TrimSpace(in.Date)}
	for _, s := range []struct {
		kind  diary.Kind
		items []string
	}{
		{diary.Attempted, in.Attempted}, {diary.Worked, in.Worked}, {diary.Mistakes, in.Mistakes},
		{diary.Errors, in.Errors}, {diary.EdgeCases, in.EdgeCases}, {diary.Patterns, in.Patterns},
	} {
		if len(s.items) > 0 {
			e.Add(s.kind, s.items...)
		}
	}
	return e
}

// diaryWrite is diary_write: workspace.Diaries.Write by the agent.
func (h *handlers) diaryWrite(ctx context.Context, _ *mcp.CallToolRequest, in DiaryIn) (*mcp.CallToolResult, DiaryOut, error) {
	env, _, err := h.p.layout(in.Project)
	if err != nil {
		return nil, DiaryOut{}, err
	}
	d, err := workspace.OpenDiaries(env)
	if err != nil {
		return nil, DiaryOut{}, err
	}
	now := time.Now()
	w, err := d.Write(ctx, in.entry(), diary.SourceAgent, now)
	var ve *diary.ValidationError
	if errors.As(err, &ve) {
		return nil, DiaryOut{}, refused(ve.Problems)
	}
	if err != nil {
		return nil, DiaryOut{}, err
	}
	out := DiaryOut{Stem: w.Stem, Path: w.Path, Redacted: []string{}}
	msg := fmt.Sprintf("wrote diary %s (%s)", w.Stem, w.Path)
	var counts []string
	for _, f := range w.Redacted {
		out.Redacted = append(out.Redacted, f.Kind)
		counts = append(counts, fmt.Sprintf("%d %s", f.Count, f.Kind))
	}
	if len(counts) > 0 {
		msg += "\nredacted before writing: " + strings.Join(counts, ", ")
	}
	return text("%s", msg), out, nil
}

// refused is a diary_write error listing every problem, one a line, and
// what to do next (a tool caller does not see a hint line).
func refused(ps []diary.Problem) error {
	var b strings.Builder
	fmt.Fprintf(&b, "the diary entry was not written: %d problem(s)", len(ps))
	for _, p := range ps {
		fmt.Fprintf(&b, "\n- %s %s", p.Field, p.Issue)
	}
	b.WriteString("\nFix every problem listed and call diary_write again.")
	return errors.New(b.String())
}
