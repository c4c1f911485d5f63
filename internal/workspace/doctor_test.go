package workspace

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// testEnv is an environment with a home and a project of their own under
// a temporary folder, and nothing else set.
func testEnv(t testing.TB) (Env, paths.Layout) {
	t.Helper()
	dir := t.TempDir()
	project := filepath.Join(dir, "proj")
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"HOME": dir, "CODEX_HOME": filepath.Join(dir, "codex")}
	env := Env{Getenv: func(k string) string { return vars[k] }, Cwd: project, HomeFlag: filepath.Join(dir, "home"), ProjectFlag: project, Holder: "test"}
	l, err := env.Layout()
	if err != nil {
		t.Fatal(err)
	}
	return env, l
}

// find returns the checks named name.
func find(checks []Check, name string) []Check {
	var out []Check
	for _, c := range checks {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

func save(t *testing.T, ws *Workspace, name string) memdir.SaveResult {
	t.Helper()
	res, err := ws.Store.Save(context.Background(), memdir.Memory{Name: name, Description: "a test memory", Type: memdir.Type("user"), Body: "Body of " + name + ".\n"}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDoctor_NothingYet(t *testing.T) {
	env, l := testEnv(t)
	checks := Doctor(env, DoctorOptions{})
	if n := Failed(checks); n != 0 {
		t.Fatalf("%d failed: %+v", n, checks)
	}
	mem := find(checks, "memory")
	if len(mem) != 1 || mem[0].Status != CheckInfo || mem[0].Hint != "'memdir save' or 'memdir init' creates it" {
		t.Fatalf("memory: %+v", mem)
	}
	if got, want := mem[0].Line(), l.MemoryDir+" does not exist yet; 'memdir save' or 'memdir init' creates it"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	if h := find(checks, "home"); len(h) != 1 || h[0].Status != CheckInfo {
		t.Errorf("home: %+v", h)
	}
	if c := find(checks, "claude hooks"); len(c) != 1 || c[0].Status != CheckInfo || !strings.HasPrefix(c[0].Detail, "not installed") {
		t.Errorf("claude hooks: %+v", c)
	}
}

func TestDoctor_HealthyFolder(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(l.SynthesisDir); err != nil || !fi.IsDir() {
		t.Fatalf("Init made no synthesis folder: %v", err)
	}
	save(t, ws, "Prefers tabs")
	save(t, ws, "Works in Go")
	checks := Doctor(env, DoctorOptions{})
	if n := Failed(checks); n != 0 {
		t.Fatalf("%d failed: %+v", n, checks)
	}
	for name, detail := range map[string]string{
		"memory": l.MemoryDir,
		"files":  "2 memories parse (0 without a type)",
		"index":  "every memory has exactly one line",
	} {
		if c := find(checks, name); len(c) != 1 || c[0].Status != CheckOK || c[0].Detail != detail {
			t.Errorf("%s: %+v, want ok %q", name, c, detail)
		}
	}
}

func TestDoctor_FailsWithTheirHints(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	res := save(t, ws, "Prefers tabs")
	if err := os.Chmod(l.MemoryDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ws.Store.Path(res.File), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(l.MemoryDir, memdir.IndexFile)); err != nil {
		t.Fatal(err)
	}
	// Hooks installed with a binary that is gone since.
	settings := filepath.Join(l.Home, "settings.json")
	doc := claudeinstall.NewObject()
	if _, err := claudeinstall.Install(doc, filepath.Join(t.TempDir(), "gone", "memdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, claudeinstall.Encode(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	checks := Doctor(env, DoctorOptions{})
	want := map[string]string{
		"memory":       "run chmod 700 " + l.MemoryDir,
		"files":        "run chmod 600 " + l.MemoryDir + "/*.md",
		"index":        "run 'memdir index --rebuild'",
		"claude hooks": "run 'memdir install claude --scope user' again",
	}
	for name, hint := range want {
		i := slices.IndexFunc(checks, func(c Check) bool { return c.Name == name && c.Status == CheckFail })
		if i < 0 {
			t.Errorf("no failed %s check in %+v", name, checks)
			continue
		}
		if checks[i].Hint != hint {
			t.Errorf("%s: hint %q, want %q", name, checks[i].Hint, hint)
		}
	}
	if n := Failed(checks); n != len(want) {
		t.Errorf("Failed = %d, want %d: %+v", n, len(want), checks)
	}
	// JSON keeps one detail, the hint after it.
	b, err := json.Marshal(find(checks, "index")[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"name":"index","status":"fail","detail":"MEMORY.md is missing; run 'memdir index --rebuild'"}` {
		t.Errorf("JSON: %s", got)
	}
}

func TestDoctor_OldUnprocessedTranscript(t *testing.T) {
	env, l := testEnv(t)
	dir := filepath.Join(l.Home, "projects", l.ProjectKey)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","uuid":"u1","sessionId":"s1","cwd":"` + l.ProjectRoot + `","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"hello there"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := find(Doctor(env, DoctorOptions{}), "transcripts")
	if len(fresh) != 1 || fresh[0].Status != CheckOK || fresh[0].Detail != "1 transcript found; with content not yet extracted into memories: 1 ('memdir extract'); not yet summarised by day: 1 ('memdir transcripts list-pending')" {
		t.Fatalf("transcripts: %+v", fresh)
	}
	later := find(Doctor(env, DoctorOptions{Now: time.Now().Add(RetentionWarnAge + time.Hour)}), "transcripts")
	if len(later) != 2 || later[1].Status != CheckWarn || later[1].Hint != "run 'memdir extract' and 'memdir synthesize', or raise cleanupPeriodDays" {
		t.Fatalf("transcripts, 25 days on: %+v", later)
	}

	// Once extraction (the hooks' pipeline) has read it, it is not "not
	// yet processed": only the summaries' count stays, and no warning.
	ts, err := env.TranscriptsAt(l)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s1.jsonl")
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	xs := ExtractState{Version: 1, Transcripts: map[string]*ExtractEntry{path: {}}}
	xs.Transcripts[path].Cursor.Offset = int64(len(line))
	if err := ts.Folder.WriteJSON(ExtractStateFile, xs); err != nil {
		t.Fatal(err)
	}
	extracted := find(Doctor(env, DoctorOptions{Now: time.Now().Add(RetentionWarnAge + time.Hour)}), "transcripts")
	if len(extracted) != 1 || !strings.Contains(extracted[0].Detail, "not yet extracted into memories: 0") || !strings.Contains(extracted[0].Detail, "not yet summarised by day: 1") {
		t.Fatalf("transcripts, extracted: %+v", extracted)
	}
}

func TestDoctor_HooksLog(t *testing.T) {
	env, l := testEnv(t)
	if err := os.MkdirAll(filepath.Join(l.SynthesisDir, "logs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.SynthesisDir, "logs", "hooks.log"), []byte("first\nlast one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := find(Doctor(env, DoctorOptions{HooksLog: "logs/hooks.log"}), "claude hooks")
	if len(c) != 2 || c[1].Status != CheckWarn || !strings.HasSuffix(c[1].Detail, "; the last: last one") || !strings.HasPrefix(c[1].Detail, "2 hook failures") {
		t.Fatalf("claude hooks: %+v", c)
	}
}
