package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/examples"
)

// TestQuickstart runs the whole quickstart in a sandbox: what it returns,
// what it says, and the daily summaries it leaves.
func TestQuickstart(t *testing.T) {
	sb, err := examples.NewSandbox(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	var warned []string
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.Local)
	out, err := Quickstart(t.Context(), sb, QuickstartOptions{
		Now:    now,
		Report: Report{Warn: func(msg string) { warned = append(warned, msg) }},
		Say:    func(format string, args ...any) { fmt.Fprintf(&said, format, args...) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) > 0 {
		t.Errorf("warnings: %q", warned)
	}
	if len(out.Saved) != 7 || out.Index.Lines != 7 {
		t.Errorf("saved %d memories, index %d lines; want 7 and 7", len(out.Saved), out.Index.Lines)
	}
	if len(out.Transcripts) != 2 || len(out.Pending) != 2 || out.Pending[0].Date != "2026-11-23" || out.Pending[1].Date != "2026-11-24" {
		t.Errorf("transcripts %q, pending %+v; want 2 transcripts pending on 2026-11-23 and 2026-11-24", out.Transcripts, out.Pending)
	}
	if out.Extracted != "2026-11-24" {
		t.Errorf("extracted day %q, want 2026-11-24", out.Extracted)
	}
	if len(out.Recalls) != 3 || !strings.Contains(out.Recalls[0].Injected, "integration-tests-hit-a-real-database.md") ||
		out.Recalls[1].Injected != "" || !strings.Contains(out.Recalls[2].Injected, "every-cache-call-takes-a-context.md") {
		t.Errorf("recalls %+v: want the database memory, nothing, then the extracted memory", out.Recalls)
	}
	if want := []string{"every-cache-call-takes-a-context.md", "release-notes-go-in-changelog-md.md"}; fmt.Sprint(out.ExtractedMemories) != fmt.Sprint(want) {
		t.Errorf("extracted %q, want %q", out.ExtractedMemories, want)
	}
	daily := filepath.Join(sb.Home, "memory", "daily")
	want := []string{filepath.Join(daily, "2026-11-23.md"), filepath.Join(daily, "2026-11-24.md")}
	if fmt.Sprint(out.Synthesis.DailyFiles) != fmt.Sprint(want) {
		t.Errorf("daily files %q, want %q", out.Synthesis.DailyFiles, want)
	}
	if !strings.HasPrefix(out.Synthesis.Line, "Processed 2 transcripts into daily summaries for [2026-11-23, 2026-11-24].") {
		t.Errorf("line %q", out.Synthesis.Line)
	}
	for _, f := range want {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The narrative shows each daily file's path, then its text indented.
		if !strings.Contains(said.String(), "   "+f+":\n\n     "+strings.SplitN(string(b), "\n", 2)[0]+"\n") {
			t.Errorf("the narrative does not show %s with its text:\n%s", f, said.String())
		}
	}
	for _, step := range []string{"1. Saving", "4. memdir transcripts list-pending", "9. memdir recall", "10. memdir synthesize", "   " + out.Synthesis.Line + "\n", "11. memdir dream", "12. memdir diary draft", "   memdir patterns — "} {
		if !strings.Contains(said.String(), step) {
			t.Errorf("the narrative lacks %q", step)
		}
	}
	if len(out.Dream.Planned) != 2 || out.Dream.Batch == "" {
		t.Errorf("dream: planned %q, batch %q; want the merge and the date, applied", out.Dream.Planned, out.Dream.Batch)
	}
	checkQuickstartDiaries(t, sb, out, said.String())
	t.Run("Silent", func(t *testing.T) {
		sb, err := examples.NewSandbox(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		out2, err := Quickstart(t.Context(), sb, QuickstartOptions{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if len(out2.Synthesis.DailyFiles) != 2 || out2.Synthesis.Line != out.Synthesis.Line {
			t.Errorf("without Say: synthesis %+v, want %+v", out2.Synthesis, out.Synthesis)
		}
	})
}

func TestWritePending(t *testing.T) {
	for _, tc := range []struct {
		name   string
		days   []PendingDay
		indent string
		want   string
	}{
		{"None", nil, "  ", "  No pending transcripts.\n"},
		{"Days", []PendingDay{
			{Date: "2026-11-23", Sessions: 1, Messages: 3, Projects: []string{"api"}},
			{Date: "2026-11-24", Sessions: 2, Messages: 1, Projects: []string{}},
		}, "", "Pending transcript days:\n  2026-11-23  1 session, 3 messages  (api)\n  2026-11-24  2 sessions, 1 message\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WritePending(&b, tc.days, tc.indent); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// checkQuickstartDiaries checks step 12: the draft accepted, the example
// diaries, the one pattern (not the one-off), applied and reverted with
// CLAUDE.md back as it was.
func checkQuickstartDiaries(t *testing.T, sb examples.Sandbox, out QuickstartResult, said string) {
	t.Helper()
	if !strings.HasPrefix(out.Diary.Drafted, "2026-11-25-add-a-revoke-method") || len(out.Diary.Examples) != 4 {
		t.Errorf("diary %+v: want the drafted session and 4 example diaries", out.Diary)
	}
	d, err := OpenDiaries(Env{Getenv: sb.Getenv, Cwd: sb.Project, HomeFlag: sb.Home, ProjectFlag: sb.Project})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := d.Show(out.Diary.Drafted); err != nil || info.Entry.Draft() || !slices.Contains(info.Entry.Items(diary.Errors), `ERROR: relation "api_keys" does not exist (SQLSTATE 42P01)`) {
		t.Errorf("drafted diary: %+v, %v; want accepted, with the missing table's error", info.Entry, err)
	}
	p := out.Patterns
	if len(p.Found) != 1 || p.Tasks != 4 || !p.Restored || len(p.Applied) != 2 ||
		!strings.HasPrefix(p.Applied[0], "rule: "+filepath.Join(sb.Project, "CLAUDE.md")) || !strings.HasPrefix(p.Applied[1], "memory: ") {
		t.Errorf("patterns %+v: want one pattern of 4 tasks, its rule and memory applied, CLAUDE.md restored", p)
	}
	for _, s := range []string{"   " + p.Found[0] + "  4 tasks  project", "Run `make migrate` before the integration tests", "CLAUDE.md is back byte for byte"} {
		if !strings.Contains(said, s) {
			t.Errorf("the narrative lacks %q", s)
		}
	}
	for line := range strings.Lines(said) {
		if strings.Contains(line, "brand-pink:") || strings.Contains(line, "seen in") && strings.Contains(line, "pink") {
			t.Errorf("the one-off is in a pattern or a candidate: %s", line)
		}
	}
	claude, err := os.ReadFile(filepath.Join(sb.Project, "CLAUDE.md"))
	if err != nil {
		t.Fatal(err)
	}
	backups, err := filepath.Glob(filepath.Join(sb.Home, "memory", "backups", "*-CLAUDE.md"))
	if err != nil || len(backups) != 1 {
		t.Fatalf("backups %q, %v: want the one --apply made", backups, err)
	}
	if before, err := os.ReadFile(backups[0]); err != nil || !bytes.Equal(before, claude) || bytes.Contains(claude, []byte("memdir")) {
		t.Errorf("CLAUDE.md after --revert:\n%s\nwant it as before --apply:\n%s", claude, before)
	}
}
