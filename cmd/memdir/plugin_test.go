package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/claudeinstall"
	"github.com/memdir/memdir/internal/testenv"
)

// TestPlugin_Validate: the plugin and its marketplace pass the real
// claude's 'plugin validate --strict'.
func TestPlugin_Validate(t *testing.T) {
	claude := testenv.Claude(t)
	home := t.TempDir()
	for _, dir := range []string{"../../plugin/memdir", "../.."} {
		abs, _ := filepath.Abs(dir)
		cmd := exec.Command(claude, "plugin", "validate", "--strict", abs)
		cmd.Env = testenv.ClaudeEnv(home)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Validation passed") {
			t.Errorf("claude plugin validate --strict %s: %v\n%s", dir, err, out)
		}
	}
}

// TestPlugin_InstallFromMarketplace: the README's two commands install
// the plugin from the repository root with the real claude.
func TestPlugin_InstallFromMarketplace(t *testing.T) {
	claude := testenv.Claude(t)
	home := t.TempDir()
	root, _ := filepath.Abs("../..")
	for _, args := range [][]string{{"plugin", "marketplace", "add", root}, {"plugin", "install", "memdir@memdir"}, {"plugin", "list"}} {
		cmd := exec.Command(claude, args...)
		cmd.Env = testenv.ClaudeEnv(home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[1] == "list" && (!strings.Contains(string(out), "memdir@memdir") || !strings.Contains(string(out), "enabled")) {
			t.Errorf("claude plugin list:\n%s", out)
		}
	}
}

// TestPlugin_HooksMatchInstall: the plugin registers the same events,
// matchers and timeouts as 'memdir install claude'.
func TestPlugin_HooksMatchInstall(t *testing.T) {
	b, err := os.ReadFile("../../plugin/memdir/hooks/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	plugin, err := claudeinstall.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want := claudeinstall.NewObject()
	if _, err := claudeinstall.Install(want, "memdir"); err != nil {
		t.Fatal(err)
	}
	got, _ := plugin.Get("hooks")
	wantHooks, _ := want.Get("hooks")
	if g, w := string(claudeinstall.Encode(got.(*claudeinstall.Object))), string(claudeinstall.Encode(wantHooks.(*claudeinstall.Object))); g != w {
		t.Errorf("plugin hooks differ from install's:\n%s", claudeinstall.Diff(w, g, 2))
	}
}
