package claudeinstall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/paths"
)

const bin = "/opt/tools/memdir"

// testLayout is a home and a project under a temporary folder.
func testLayout(t *testing.T) paths.Layout {
	t.Helper()
	dir := t.TempDir()
	l := paths.Layout{Home: filepath.Join(dir, "home"), ProjectRoot: filepath.Join(dir, "proj")}
	l.ProjectKey = paths.Sanitize(l.ProjectRoot)
	l.SynthesisDir = filepath.Join(l.Home, "memory")
	for _, d := range []string{l.Home, l.ProjectRoot} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

const userSettings = `{
  "model": "opus",
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}
}
`

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o640); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON differs:\n%s\nwant\n%s", got, want)
	}
}

func TestPlan_WritesNothing(t *testing.T) {
	l := testLayout(t)
	settings := filepath.Join(l.Home, "settings.json")
	write(t, settings, userSettings)
	res, err := Plan(Options{Layout: l, Scope: "user", Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	if !res.DryRun || !res.Changed || res.Backup != "" || !strings.Contains(res.Diff, `"command": "/opt/tools/memdir hook UserPromptSubmit",`) {
		t.Fatalf("plan: %+v", res)
	}
	if res.MCP == nil || !res.MCP.Changed || res.MCP.File != filepath.Join(l.Home, ".claude.json") {
		t.Fatalf("plan's MCP edit: %+v", res.MCP)
	}
	if got := read(t, settings); got != userSettings {
		t.Errorf("the plan changed settings.json:\n%s", got)
	}
	if _, err := os.Stat(res.MCP.File); !os.IsNotExist(err) {
		t.Errorf("the plan made %s: %v", res.MCP.File, err)
	}
}

func TestApply_InstallTwiceThenUninstall(t *testing.T) {
	l := testLayout(t)
	settings := filepath.Join(l.Home, "settings.json")
	write(t, settings, userSettings)
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	res, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.Binary != bin || len(res.Hooks) != len(Handlers) {
		t.Fatalf("install: %+v", res)
	}
	if want := settings + ".memdir-backup-20261124T100000Z"; res.Backup != want || read(t, want) != userSettings {
		t.Errorf("backup %q, want %q holding the original", res.Backup, want)
	}
	if fi, err := os.Stat(settings); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("settings.json's mode changed: %v %v", fi.Mode(), err)
	}
	doc, err := Parse([]byte(read(t, settings)))
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := doc.Get("model"); m != "opus" || len(Installed(doc)) != len(Handlers) {
		t.Errorf("installed settings: %s", read(t, settings))
	}
	mcp, err := Parse([]byte(read(t, res.MCP.File)))
	if err != nil || !MCPInstalled(mcp, nil) {
		t.Errorf("MCP server not registered in %s: %v", res.MCP.File, err)
	}

	again, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Now: now.Add(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || again.MCP.Changed || again.Backup != "" {
		t.Errorf("a second install changed something: %+v %+v", again, again.MCP)
	}

	un, err := Apply(Options{Layout: l, Scope: "user", Uninstall: true, Now: now.Add(2 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !un.Changed || len(un.Hooks) != len(Handlers) || !un.MCP.Removed {
		t.Errorf("uninstall: %+v %+v", un, un.MCP)
	}
	sameJSON(t, read(t, settings), userSettings)
	if _, err := os.Stat(res.MCP.File); !os.IsNotExist(err) {
		t.Errorf("%s, made by the install, is left: %v", res.MCP.File, err)
	}
}

func TestApply_ProjectScopeBacksUpOutOfTheTree(t *testing.T) {
	l := testLayout(t)
	settings := filepath.Join(l.ProjectRoot, ".claude", "settings.json")
	write(t, settings, `{"permissions": {"allow": ["Bash(go test:*)"]}}`)
	res, err := Apply(Options{Layout: l, Scope: "project", Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	if res.File != settings || filepath.Dir(res.Backup) != filepath.Join(l.SynthesisDir, "backups", l.ProjectKey) {
		t.Errorf("file %s, backup %s", res.File, res.Backup)
	}
	if res.MCP.File != filepath.Join(l.ProjectRoot, ".mcp.json") {
		t.Errorf("MCP file %s", res.MCP.File)
	}
	entries, _ := os.ReadDir(filepath.Dir(settings))
	if len(entries) != 1 {
		t.Errorf("the project's .claude holds %d files, want settings.json alone", len(entries))
	}
}

func TestApply_KeepsFiveBackups(t *testing.T) {
	l := testLayout(t)
	settings := filepath.Join(l.Home, "settings.json")
	write(t, settings, userSettings)
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	for i := range 8 {
		if _, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Uninstall: i%2 == 1, NoMCP: true, Now: now.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	backups, _ := filepath.Glob(settings + ".memdir-backup-*")
	if len(backups) != KeepBackups {
		t.Fatalf("%d backups, want %d: %v", len(backups), KeepBackups, backups)
	}
	if want := settings + ".memdir-backup-20261124T100300Z"; backups[0] != want {
		t.Errorf("oldest backup kept %s, want %s", backups[0], want)
	}
}

func TestApply_Refusals(t *testing.T) {
	l := testLayout(t)
	settings := filepath.Join(l.Home, "settings.json")
	for name, tc := range map[string]struct {
		setup func()
		o     Options
		err   string
		hint  string
	}{
		"plugin": {
			setup: func() { write(t, settings, `{"enabledPlugins": {"memdir@memdir": true}}`) },
			o:     Options{Scope: "user", Binary: bin},
			err:   "the memdir plugin is enabled (memdir@memdir in user settings)",
			hint:  "--force installs anyway",
		},
		"scope": {
			o:    Options{Scope: "team", Binary: bin},
			err:  `--scope "team" is not user, project or local`,
			hint: "see 'memdir install --help'",
		},
		"go run": {
			o:    Options{Scope: "user", Binary: filepath.Join(os.TempDir(), "go-build123", "b001", "exe", "memdir")},
			err:  "'go run'",
			hint: "go install ./cmd/memdir",
		},
		"not JSON": {
			setup: func() { write(t, settings, `{"a": 1,}`) },
			o:     Options{Scope: "user", Binary: bin},
			err:   settings + ":",
			hint:  "fix the file",
		},
		"read-only": {
			setup: func() { write(t, settings, userSettings); os.Chmod(settings, 0o444) },
			o:     Options{Scope: "user", Binary: bin},
			err:   "is read-only: nothing changed",
			hint:  "chmod u+w",
		},
	} {
		t.Run(name, func(t *testing.T) {
			os.Remove(settings)
			if tc.setup != nil {
				tc.setup()
			}
			tc.o.Layout = l
			_, err := Apply(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(hint.Of(err), tc.hint) {
				t.Fatalf("err %v (hint %q), want %q with a hint of %q", err, hint.Of(err), tc.err, tc.hint)
			}
		})
	}
	// --force installs beside the plugin.
	os.Remove(settings)
	write(t, settings, `{"enabledPlugins": {"memdir@memdir": true}}`)
	if _, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Force: true, NoMCP: true}); err != nil {
		t.Fatal(err)
	}
}

func TestApply_EditsALinkedFileWhereItLives(t *testing.T) {
	l := testLayout(t)
	real := filepath.Join(t.TempDir(), "dotfiles", "settings.json")
	write(t, real, userSettings)
	link := filepath.Join(l.Home, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	res, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, NoMCP: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.File != real {
		t.Errorf("edited %s, want the link's target %s", res.File, real)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}
