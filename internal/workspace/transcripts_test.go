package workspace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/examples"
	"github.com/memdir/memdir/internal/sessions"
)

// exampleTranscripts writes the example Claude Code session (yesterday,
// 10:00 local) and Codex session (the day before) for env's project.
func exampleTranscripts(t *testing.T) (Transcripts, []examples.Written, string) {
	t.Helper()
	env, l := testEnv(t)
	tr, err := env.TranscriptsAt(l)
	if err != nil {
		t.Fatal(err)
	}
	y := time.Now().AddDate(0, 0, -1)
	at := time.Date(y.Year(), y.Month(), y.Day(), 10, 0, 0, 0, time.Local)
	written, err := examples.WriteTranscripts(examples.Placement{Home: l.Home, ProjectKey: l.ProjectKey, CodexHome: tr.Roots.Codex}, l.ProjectRoot, at)
	if err != nil {
		t.Fatal(err)
	}
	return tr, written, at.Format(time.DateOnly)
}

func TestTranscripts_ExtractThenDone(t *testing.T) {
	ctx := context.Background()
	tr, written, day := exampleTranscripts(t)
	var warnings []string
	r := Report{Warn: func(m string) { warnings = append(warnings, m) }}

	pending, err := tr.PendingDays(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 2 || pending[1].Date != day || pending[1].Sessions != 1 || pending[1].Projects[0] != "proj" {
		t.Fatalf("pending: %+v", pending)
	}

	var shown []byte
	found, err := tr.ExtractDays(ctx, ExtractRequest{Days: []string{day}, JSON: true}, r, func(b []byte) error {
		shown = b
		return nil
	})
	if err != nil || !found {
		t.Fatalf("extract: %v, found %v", err, found)
	}
	var byDay map[string][]ExtractedSession
	if err := json.Unmarshal(shown, &byDay); err != nil {
		t.Fatal(err)
	}
	if s := byDay[day]; len(s) != 1 || s[0].Filepath != written[0].Path || s[0].MessageCount == 0 {
		t.Fatalf("extracted: %+v", byDay)
	}

	archive := filepath.Join(t.TempDir(), "archive")
	done, err := tr.MarkDone(ctx, []string{day}, archive, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].Marked != byDay[day][0].MessageCount || done[0].Left != 0 || len(done[0].Archived) != 1 {
		t.Fatalf("done: %+v", done)
	}
	copied := filepath.Join(archive, day, filepath.Base(filepath.Dir(written[0].Path)), filepath.Base(written[0].Path))
	if b, err := os.ReadFile(copied); err != nil || len(b) == 0 {
		t.Errorf("archive copy %s: %v", copied, err)
	}

	pending, err = tr.PendingDays(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 1 || pending[0].Date == day {
		t.Errorf("pending after done: %+v", pending)
	}
	found, err = tr.ExtractDays(ctx, ExtractRequest{Days: []string{day}}, r, func([]byte) error {
		t.Error("out called for a day with nothing pending")
		return nil
	})
	if err != nil || found {
		t.Errorf("extract of a done day: %v, found %v", err, found)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
}

func TestTranscripts_FailedOutputRecordsNothing(t *testing.T) {
	ctx := context.Background()
	tr, _, day := exampleTranscripts(t)
	if _, err := tr.ExtractDays(ctx, ExtractRequest{Days: []string{day}}, Report{}, func([]byte) error { return os.ErrPermission }); err != os.ErrPermission {
		t.Fatalf("err %v", err)
	}
	st, err := tr.LoadState()
	if err != nil {
		t.Fatal(err)
	}
	for path, e := range st.Transcripts {
		if e.Cursor.Offset != 0 {
			t.Errorf("%s: cursor moved to %d", path, e.Cursor.Offset)
		}
	}
	if _, err := os.Stat(filepath.Join(tr.Folder.Dir(), sessions.StateFile)); !os.IsNotExist(err) {
		t.Errorf("state written after a failed output: %v", err)
	}
}

func TestTranscripts_BuildIndexAndContext(t *testing.T) {
	ctx := context.Background()
	tr, _, day := exampleTranscripts(t)
	ix, err := tr.BuildIndex(ctx, Report{})
	if err != nil {
		t.Fatal(err)
	}
	known := KnownProjects(ix)
	if len(known) != 1 || known[0].Name != "proj" || known[0].WorkDays != 2 || known[0].Latest != day {
		t.Fatalf("known projects: %+v", known)
	}
	c, err := tr.Context(ix, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Known == nil || c.Showing != 1 || c.Days[0].Date != day || c.Days[0].Exists || c.MemoryIndex.Exists {
		t.Fatalf("context: %+v", c)
	}
	if md := c.Markdown(); !strings.Contains(md, "**Work Days**: 2 total, showing last 1\n") || !strings.Contains(md, "(No daily summary found)") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestTranscripts_ContextRedacts: what 'memdir context' gives an agent
// (MEMORY.md, the long-term memory, the daily summaries) holds no
// credential, whoever wrote the file.
func TestTranscripts_ContextRedacts(t *testing.T) {
	ctx := context.Background()
	tr, _, day := exampleTranscripts(t)
	ix, err := tr.BuildIndex(ctx, Report{})
	if err != nil {
		t.Fatal(err)
	}
	const key = "AKIAIOSFODNN7EXAMPLE"
	if err := os.MkdirAll(tr.Layout.MemoryDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tr.Layout.MemoryDir, "MEMORY.md"), []byte("- [Deploy key](deploy-key.md) — prod key "+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tr.Folder.Dir(), "daily"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tr.Folder.Dir(), "daily", day+".md"), []byte("# "+day+"\n\nThe key is "+key+".\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := tr.Context(ix, 1)
	if err != nil {
		t.Fatal(err)
	}
	if md := c.Markdown(); strings.Contains(md, key) || !strings.Contains(md, "[REDACTED:aws-access-key]") {
		t.Errorf("context gives a credential:\n%s", md)
	}
}
