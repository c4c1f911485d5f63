package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestDoctor_Dream: doctor names a batch that could not be finished (a
// failure: every later write would stop on it), counts the memories marked
// stale, and says when the memories were last consolidated.
func TestDoctor_Dream(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws, "Prefers tabs")
	if _, err := ws.Store.Save(context.Background(), memdir.Memory{Name: "Build script", Description: "Run scripts/build.sh", Type: "reference", Body: "Run scripts/build.sh.\n",
		Stale: "scripts/build.sh no longer exists (2026-11-25)"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	checks := Doctor(env, DoctorOptions{})
	if c := find(checks, "stale"); len(c) != 1 || c[0].Status != CheckInfo || !strings.HasPrefix(c[0].Detail, "1 memory is marked stale") {
		t.Errorf("stale: %+v", c)
	}
	if c := find(checks, "consolidation"); len(c) != 1 || c[0].Detail != "never consolidated" {
		t.Errorf("consolidation: %+v", c)
	}
	if c := find(checks, "batches"); len(c) != 0 {
		t.Errorf("batches with none pending: %+v", c)
	}
	// The last automatic run of this project held 2 operations for a person
	// (another project's line says nothing of this one).
	log := filepath.Join(l.SynthesisDir, filepath.FromSlash(DreamLog))
	if err := os.MkdirAll(filepath.Dir(log), 0o700); err != nil {
		t.Fatal(err)
	}
	lines := `{"time":"2026-11-20T10:00:00Z","project":"` + l.ProjectRoot + `","ran":true,"planned":3,"held":2}` + "\n" +
		`{"time":"2026-11-21T10:00:00Z","project":"/elsewhere","ran":true,"planned":9,"held":9}` + "\n"
	if err := os.WriteFile(log, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	held := false
	for _, c := range find(Doctor(env, DoctorOptions{}), "consolidation") {
		held = held || strings.Contains(c.Detail, "left 2 operations for you to confirm")
	}
	if !held {
		t.Errorf("doctor does not say what the last automatic run left: %+v", find(Doctor(env, DoctorOptions{}), "consolidation"))
	}
	// A pending journal the store cannot finish now: another process holds
	// the folder's lock, so opening it leaves the journal as it is.
	unlock, err := ws.Store.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(l.MemoryDir, memdir.BatchDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pending"), []byte("20261125T000000.000Z-bad\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	checks = Doctor(env, DoctorOptions{})
	unlock()
	if c := find(checks, "batches"); len(c) != 1 || c[0].Status != CheckFail || !strings.Contains(c[0].Hint, "pending") {
		t.Errorf("batches with one cut short: %+v", c)
	}
}
