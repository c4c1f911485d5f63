package examples

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/memdir"
)

func TestSandboxMemoriesAndTranscripts(t *testing.T) {
	sb, err := NewSandbox(filepath.Join(t.TempDir(), "try"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(sb.Project); err != nil || !fi.IsDir() {
		t.Fatalf("no project folder: %v", err)
	}
	if sb.Getenv("HOME") != sb.Dir || sb.Getenv("CODEX_HOME") != sb.CodexHome || sb.Getenv("MEMDIR_MEMORY_DIR") != "" {
		t.Errorf("Getenv leaks or misses: %+v", sb)
	}
	st, err := memdir.Open(filepath.Join(sb.Home, "memory-test"), memdir.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	saved, err := SaveMemories(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	types := map[memdir.Type]bool{}
	for _, s := range saved {
		types[s.Type] = true
	}
	if len(saved) < 4 || len(types) != len(memdir.Types) {
		t.Errorf("saved %d memories of %d types: %+v", len(saved), len(types), saved)
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	written, err := WriteTranscripts(Placement{Home: sb.Home, ProjectKey: "-proj", CodexHome: sb.CodexHome}, sb.Project, at)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(sb.Home, "projects", "-proj", "5f0c4a52-9d1e-4f7a-b3c8-2e6d1a9b7c40.jsonl"),
		filepath.Join(sb.CodexHome, "sessions", "2026", "11", "19", "rollout-2026-11-19T14-00-00-0199c0de-7a11-7b22-8c33-d44e55f66a77.jsonl"),
	}
	if len(written) != 2 || written[0].Path != want[0] || written[1].Path != want[1] {
		t.Fatalf("written %+v, want %v", written, want)
	}
	for _, w := range written {
		if fi, err := os.Stat(w.Path); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() == 0 {
			t.Errorf("%s: %v", w.Path, err)
		}
	}
}

func TestDiariesAndDiaryTranscript(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	es, err := Diaries(now)
	if err != nil {
		t.Fatal(err)
	}
	var dates []string
	for _, e := range es {
		if err := diary.Validate(e); err != nil {
			t.Errorf("%s: %v", e.Task, err)
		}
		dates = append(dates, e.Date)
	}
	if want := "[2026-11-01 2026-11-10 2026-11-14 2026-11-19]"; fmt.Sprint(dates) != want {
		t.Errorf("dates %v, want %s (n days before now, oldest first)", dates, want)
	}
	sb, err := NewSandbox(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w, err := WriteDiaryTranscript(filepath.Join(sb.Dir, "sessions"), `C:\a "b"`, now)
	if err != nil {
		t.Fatal(err)
	}
	if w.Path != filepath.Join(sb.Dir, "sessions", DiarySession+".jsonl") {
		t.Errorf("written to %s", w.Path)
	}
	b, err := os.ReadFile(w.Path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil || bytes.Contains(line, []byte("{{")) {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		if cwd, ok := rec["cwd"]; ok && cwd != `C:\a "b"` {
			t.Errorf("line %d: cwd %v", i+1, cwd)
		}
	}
	claude, err := sb.WriteClaudeMD()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(claude); err != nil || !bytes.Equal(got, claudeMD) || claude != filepath.Join(sb.Project, "CLAUDE.md") {
		t.Errorf("CLAUDE.md at %s: %q, %v", claude, got, err)
	}
}
