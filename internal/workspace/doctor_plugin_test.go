package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDoctor_PluginWithoutMemdirOnPath: with the memdir plugin enabled,
// doctor fails when memdir is not on PATH (the plugin then does nothing)
// and says where it found it otherwise; without the plugin it says nothing.
func TestDoctor_PluginWithoutMemdirOnPath(t *testing.T) {
	env, l := testEnv(t)
	if got := find(Doctor(env, DoctorOptions{}), "claude plugin"); len(got) != 0 {
		t.Errorf("no plugin, yet: %+v", got)
	}
	if err := os.MkdirAll(l.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Home, "settings.json"), []byte(`{"enabledPlugins": {"memdir@memdir": true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	vars := map[string]string{"PATH": t.TempDir() + string(os.PathListSeparator) + bin}
	env.Getenv = func(k string) string { return vars[k] }
	got := find(Doctor(env, DoctorOptions{}), "claude plugin")
	if len(got) != 1 || got[0].Status != CheckFail || got[0].Hint == "" {
		t.Fatalf("memdir not on PATH: %+v", got)
	}
	name := "memdir"
	if filepath.Separator == '\\' {
		name += ".exe"
	}
	if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got = find(Doctor(env, DoctorOptions{}), "claude plugin")
	if len(got) != 1 || got[0].Status != CheckOK {
		t.Errorf("memdir on PATH: %+v", got)
	}
}
