package paths

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// envOf builds an Env from a map, with a real temporary home and cwd.
func envOf(t *testing.T, vars map[string]string) (Env, string) {
	t.Helper()
	root := realTemp(t)
	home := filepath.Join(root, "home")
	cwd := filepath.Join(root, "work")
	for _, d := range []string{home, cwd} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return Env{Getenv: func(k string) string { return vars[k] }, Cwd: cwd, UserHome: home, PolicySettings: filepath.Join(root, "managed-settings.json")}, root
}

// realTemp is t.TempDir with symlinks resolved (macOS /var → /private/var).
func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestResolve_Home(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		vars   map[string]string
		flag   string
		source string
		want   func(root string) string
	}{
		{"Default", nil, "", "default", func(r string) string { return filepath.Join(r, "home", ".claude") }},
		{"ClaudeConfigDir", map[string]string{"CLAUDE_CONFIG_DIR": "/opt/cc"}, "", "CLAUDE_CONFIG_DIR", func(string) string { return "/opt/cc" }},
		{"MemdirHome", map[string]string{"CLAUDE_CONFIG_DIR": "/opt/cc", "MEMDIR_HOME": "/opt/md"}, "", "MEMDIR_HOME", func(string) string { return "/opt/md" }},
		{"Flag", map[string]string{"MEMDIR_HOME": "/opt/md"}, "rel/home", "flag", func(r string) string { return filepath.Join(r, "work", "rel", "home") }},
		{"Tilde", map[string]string{"MEMDIR_HOME": "~/agents"}, "", "MEMDIR_HOME", func(r string) string { return filepath.Join(r, "home", "agents") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && strings.HasPrefix(tt.want(""), "/") {
				t.Skip("Unix paths")
			}
			env, root := envOf(t, tt.vars)
			env.HomeFlag = tt.flag
			l, err := Resolve(env)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.want(root); l.Home != want || l.HomeSource != tt.source {
				t.Errorf("Home=%q (%s), want %q (%s)", l.Home, l.HomeSource, want, tt.source)
			}
			if l.SynthesisDir != filepath.Join(l.Home, "memory") {
				t.Errorf("SynthesisDir=%q", l.SynthesisDir)
			}
		})
	}
	t.Run("NoHome", func(t *testing.T) {
		env, _ := envOf(t, nil)
		env.UserHome = ""
		if _, err := Resolve(env); err == nil || !strings.Contains(err.Error(), "--home") {
			t.Errorf("Resolve without any home=%v, want an error suggesting --home", err)
		}
	})
}

func TestResolve_MemoryDir(t *testing.T) {
	t.Parallel()
	env, root := envOf(t, nil)
	l, err := Resolve(env)
	if err != nil {
		t.Fatal(err)
	}
	cwd := filepath.Join(root, "work")
	want := filepath.Join(root, "home", ".claude", "projects", Sanitize(cwd), "memory")
	if l.MemoryDir != want || l.MemorySource != "default" || l.ProjectVia != "cwd" || l.ProjectRoot != cwd {
		t.Errorf("Resolve()=%+v, want memory %q from the cwd", l, want)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestProjectRoot_Git(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := realTemp(t)
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, "a", "b"), 0o700)
	git(t, repo, "init", "-q")
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	wt := filepath.Join(root, "wt")
	git(t, repo, "worktree", "add", "-q", wt)

	for _, dir := range []string{repo, filepath.Join(repo, "a", "b"), wt} {
		got, via := ProjectRoot(dir)
		if got != repo || via != "git" {
			t.Errorf("ProjectRoot(%s)=%s (%s), want %s (git)", dir, got, via, repo)
		}
	}
	// Through a symlink, the root is the real path.
	if runtime.GOOS != "windows" {
		link := filepath.Join(root, "link")
		os.Symlink(filepath.Join(repo, "a"), link)
		if got, _ := ProjectRoot(link); got != repo {
			t.Errorf("ProjectRoot(symlink)=%s, want %s", got, repo)
		}
	}
}

func TestProjectRoot_GitFiles(t *testing.T) {
	t.Parallel()
	root := realTemp(t)
	// A submodule: its .git file points into the parent's .git/modules.
	parent := filepath.Join(root, "parent")
	mod := filepath.Join(parent, ".git", "modules", "sub")
	sub := filepath.Join(parent, "sub")
	for _, d := range []string{mod, sub} {
		os.MkdirAll(d, 0o700)
	}
	os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../.git/modules/sub\n"), 0o600)
	if got, via := ProjectRoot(sub); got != sub || via != "git" {
		t.Errorf("submodule root=%s (%s), want %s", got, via, sub)
	}
	if got, _ := ProjectRoot(parent); got != parent {
		t.Errorf("parent root=%s, want %s", got, parent)
	}
	// A linked worktree written by hand: gitdir with a commondir file.
	wtgit := filepath.Join(parent, ".git", "worktrees", "w")
	os.MkdirAll(wtgit, 0o700)
	os.WriteFile(filepath.Join(wtgit, "commondir"), []byte("../..\n"), 0o600)
	w := filepath.Join(root, "w")
	os.MkdirAll(w, 0o700)
	os.WriteFile(filepath.Join(w, ".git"), []byte("gitdir: "+wtgit+"\n"), 0o600)
	if got, _ := ProjectRoot(w); got != parent {
		t.Errorf("worktree root=%s, want %s", got, parent)
	}
	// A .git file that is not a gitdir pointer is ignored.
	odd := filepath.Join(root, "odd")
	os.MkdirAll(odd, 0o700)
	os.WriteFile(filepath.Join(odd, ".git"), []byte("nonsense"), 0o600)
	if got, via := ProjectRoot(odd); got != odd || via != "cwd" {
		t.Errorf("odd root=%s (%s), want %s (cwd)", got, via, odd)
	}
}

func TestResolve_Override(t *testing.T) {
	t.Parallel()
	t.Run("Env", func(t *testing.T) {
		env, root := envOf(t, nil)
		want := filepath.Join(root, "home", "mem")
		env.Getenv = func(k string) string {
			if k == "MEMDIR_MEMORY_DIR" {
				return want + string(filepath.Separator)
			}
			return ""
		}
		l, err := Resolve(env)
		if err != nil || l.MemoryDir != want || l.MemorySource != "MEMDIR_MEMORY_DIR" {
			t.Errorf("Resolve()=%q (%s), %v; want %q", l.MemoryDir, l.MemorySource, err, want)
		}
	})
	t.Run("UserSettings", func(t *testing.T) {
		env, root := envOf(t, nil)
		os.MkdirAll(filepath.Join(root, "home", ".claude"), 0o700)
		os.WriteFile(filepath.Join(root, "home", ".claude", "settings.json"), []byte(`{"autoMemoryDirectory": "~/mymem", "other": 1}`), 0o600)
		l, err := Resolve(env)
		if err != nil || l.MemoryDir != filepath.Join(root, "home", "mymem") || l.MemorySource != "user-settings" {
			t.Errorf("Resolve()=%q (%s), %v", l.MemoryDir, l.MemorySource, err)
		}
	})
	t.Run("ProjectSettingsIgnored", func(t *testing.T) {
		env, root := envOf(t, nil)
		evil := filepath.Join(root, "home", "evil")
		for _, f := range []string{"settings.json", "settings.local.json"} {
			os.MkdirAll(filepath.Join(env.Cwd, ".claude"), 0o700)
			os.WriteFile(filepath.Join(env.Cwd, ".claude", f), []byte(`{"autoMemoryDirectory": "`+evil+`"}`), 0o600)
		}
		l, err := Resolve(env)
		if err != nil || l.MemorySource != "default" || strings.Contains(l.MemoryDir, "evil") {
			t.Errorf("a project settings file redirected memory: %q (%s), %v", l.MemoryDir, l.MemorySource, err)
		}
	})
	t.Run("MalformedUserSettings", func(t *testing.T) {
		env, root := envOf(t, nil)
		os.MkdirAll(filepath.Join(root, "home", ".claude"), 0o700)
		os.WriteFile(filepath.Join(root, "home", ".claude", "settings.json"), []byte(`{"autoMemoryDirectory": `), 0o600)
		if _, err := Resolve(env); !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "settings.json") {
			t.Errorf("Resolve()=%v, want an error naming settings.json", err)
		}
		// A trailing comma: the error says where.
		os.WriteFile(filepath.Join(root, "home", ".claude", "settings.json"), []byte("{\n  \"model\": \"opus\",\n}\n"), 0o600)
		if _, err := Resolve(env); !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "settings.json:3:1: ") {
			t.Errorf("Resolve()=%v, want the place of the bad byte, settings.json:3:1", err)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		env, _ := envOf(t, nil)
		env.Getenv = func(k string) string {
			if k == "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" {
				return "relative/dir"
			}
			return ""
		}
		_, err := Resolve(env)
		if !errors.Is(err, ErrInvalidOverride) || !strings.Contains(err.Error(), "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE") {
			t.Errorf("Resolve()=%v, want ErrInvalidOverride naming its source", err)
		}
	})
}

func TestValidateOverride(t *testing.T) {
	t.Parallel()
	base := realTemp(t)
	allowed := []string{base}
	if runtime.GOOS != "windows" {
		outside := realTemp(t)
		os.Symlink(outside, filepath.Join(base, "escape"))
	}
	tests := map[string]string{
		"":                     "empty",
		"a\x00b":               "NUL",
		"relative/x":           "relative",
		"C:":                   "drive",
		`C:\`:                  "drive",
		`\\server\share\mem`:   "UNC",
		"//server/share/mem":   "UNC",
		"/":                    "root",
		"/etc/memdir":          "outside",
		base + "/../elsewhere": "outside",
		filepath.Join(base, "x", "..", "..", "y"): "outside",
	}
	if runtime.GOOS != "windows" {
		tests[filepath.Join(base, "escape", "mem")] = "outside"
	}
	for in, why := range tests {
		_, err := ValidateOverride(in, allowed)
		if !errors.Is(err, ErrInvalidOverride) || !strings.Contains(err.Error(), why) {
			t.Errorf("ValidateOverride(%q)=%v, want ErrInvalidOverride saying %q", in, err, why)
		}
	}
	got, err := ValidateOverride(filepath.Join(base, "mem")+"/", allowed)
	if err != nil || got != filepath.Join(base, "mem") {
		t.Errorf("ValidateOverride(valid)=%q, %v", got, err)
	}
}

func TestWithin(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	base := realTemp(t)
	outside := realTemp(t)
	os.WriteFile(filepath.Join(outside, "secret.md"), nil, 0o600)
	os.WriteFile(filepath.Join(base, "real.md"), nil, 0o600)
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(base, "out.md"))
	os.Symlink(filepath.Join(base, "real.md"), filepath.Join(base, "in.md"))
	os.Symlink(outside, filepath.Join(base, "dirlink"))
	tests := map[string]bool{
		"real.md":          true,
		"in.md":            true,
		"missing.md":       true,
		"out.md":           false,
		"dirlink/new.md":   false,
		"../x":             false,
		"sub/../../x":      false,
		"sub/deeper/ok.md": true,
	}
	for rel, want := range tests {
		got, err := Within(base, filepath.Join(base, rel))
		if err != nil || got != want {
			t.Errorf("Within(base, %s)=%v, %v; want %v", rel, got, err, want)
		}
	}
}

func TestResolve_Disabled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		vars     map[string]string
		settings string
		want     bool
		why      string
	}{
		{nil, "", false, ""},
		{map[string]string{"MEMDIR_DISABLE": "1"}, "", true, "MEMDIR_DISABLE=1"},
		{map[string]string{"MEMDIR_DISABLE": "0"}, "", false, ""},
		{map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "true"}, "", true, "CLAUDE_CODE_DISABLE_AUTO_MEMORY=true"},
		{map[string]string{"CLAUDE_CODE_SIMPLE": "1"}, "", true, "CLAUDE_CODE_SIMPLE=1"},
		{nil, `{"autoMemoryEnabled": false}`, true, "autoMemoryEnabled=false in {root}/home/.claude/settings.json"},
		{map[string]string{"CLAUDE_CODE_SAFE_MODE": "1"}, "", true, "CLAUDE_CODE_SAFE_MODE=1"},
		{map[string]string{"CLAUDE_CODE_REMOTE": "1"}, "", true, "CLAUDE_CODE_REMOTE without CLAUDE_CODE_REMOTE_MEMORY_DIR"},
		{map[string]string{"CLAUDE_CODE_REMOTE": "1", "CLAUDE_CODE_REMOTE_MEMORY_DIR": "/srv/mem"}, "", false, ""},
		// Claude Code: an explicit falsy disable variable forces memory on.
		{map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}, `{"autoMemoryEnabled": false}`, false, ""},
		// MEMDIR_DISABLE still wins.
		{map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0", "MEMDIR_DISABLE": "yes"}, "", true, "MEMDIR_DISABLE=yes"},
	}
	for _, tt := range tests {
		env, root := envOf(t, tt.vars)
		if tt.settings != "" {
			os.MkdirAll(filepath.Join(root, "home", ".claude"), 0o700)
			os.WriteFile(filepath.Join(root, "home", ".claude", "settings.json"), []byte(tt.settings), 0o600)
		}
		l, err := Resolve(env)
		tt.why = strings.ReplaceAll(tt.why, "{root}", root)
		if err != nil || l.Disabled != tt.want || l.DisabledWhy != tt.why {
			t.Errorf("vars %v settings %q: Disabled=%v (%q), %v; want %v (%q)", tt.vars, tt.settings, l.Disabled, l.DisabledWhy, err, tt.want, tt.why)
		}
	}
}

// TestResolve_AutoMemoryScopes: autoMemoryEnabled is read from every scope
// Claude Code reads it from, the higher scope winning: managed, then the
// project's local file, its shared file, then the user's.
func TestResolve_AutoMemoryScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                         string
		policy, local, project, user string
		want                         bool
		from                         string
	}{
		{"user off", "", "", "", `{"autoMemoryEnabled": false}`, true, "home/.claude/settings.json"},
		{"project on over user off", "", "", `{"autoMemoryEnabled": true}`, `{"autoMemoryEnabled": false}`, false, ""},
		{"local off", "", `{"autoMemoryEnabled": false}`, "", "", true, "work/.claude/settings.local.json"},
		{"local on over project off", "", `{"autoMemoryEnabled": true}`, `{"autoMemoryEnabled": false}`, "", false, ""},
		{"managed off over local on", `{"autoMemoryEnabled": false}`, `{"autoMemoryEnabled": true}`, "", "", true, "managed-settings.json"},
		{"a broken project file is passed over", "", "", `{bad`, `{"autoMemoryEnabled": false}`, true, "home/.claude/settings.json"},
		{"project files never move the folder", "", "", `{"autoMemoryDirectory": "/tmp/evil"}`, "", false, ""},
	}
	for _, tt := range tests {
		env, root := envOf(t, nil)
		write := func(rel, body string) {
			if body == "" {
				return
			}
			os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o700)
			os.WriteFile(filepath.Join(root, rel), []byte(body), 0o600)
		}
		write("managed-settings.json", tt.policy)
		write("work/.claude/settings.local.json", tt.local)
		write("work/.claude/settings.json", tt.project)
		write("home/.claude/settings.json", tt.user)
		l, err := Resolve(env)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		why := ""
		if tt.from != "" {
			why = "autoMemoryEnabled=false in " + filepath.Join(root, tt.from)
		}
		if l.Disabled != tt.want || l.DisabledWhy != why {
			t.Errorf("%s: Disabled=%v (%q), want %v (%q)", tt.name, l.Disabled, l.DisabledWhy, tt.want, why)
		}
		if strings.HasPrefix(l.MemoryDir, "/tmp/evil") {
			t.Errorf("%s: a project file moved the memory folder to %s", tt.name, l.MemoryDir)
		}
	}
}

// TestResolve_RefusesHomesAndLinksOut: an override that is the home itself
// (or the agent home, or a parent of either) is refused, and so is a
// default memory folder that a symlink under the agent home leads out of
// every allowed place.
func TestResolve_RefusesHomesAndLinksOut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		vars func(root string) map[string]string
	}{
		{"Tilde", func(string) map[string]string { return map[string]string{"MEMDIR_MEMORY_DIR": "~"} }},
		{"TildeSlash", func(string) map[string]string { return map[string]string{"MEMDIR_MEMORY_DIR": "~/"} }},
		{"AgentHome", func(string) map[string]string { return map[string]string{"MEMDIR_MEMORY_DIR": "~/.claude"} }},
		{"ParentOfHome", func(root string) map[string]string {
			return map[string]string{"MEMDIR_ALLOWED_ROOTS": filepath.Dir(root), "MEMDIR_MEMORY_DIR": root}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, root := envOf(t, nil)
			vars := tc.vars(root)
			env.Getenv = func(k string) string { return vars[k] }
			if _, err := Resolve(env); !errors.Is(err, ErrInvalidOverride) || !strings.Contains(err.Error(), "parents") {
				t.Errorf("Resolve()=%v, want ErrInvalidOverride refusing a home", err)
			}
		})
	}
	t.Run("SettingsTilde", func(t *testing.T) {
		env, root := envOf(t, nil)
		os.MkdirAll(filepath.Join(root, "home", ".claude"), 0o700)
		os.WriteFile(filepath.Join(root, "home", ".claude", "settings.json"), []byte(`{"autoMemoryDirectory": "~"}`), 0o600)
		if _, err := Resolve(env); !errors.Is(err, ErrInvalidOverride) || !strings.Contains(err.Error(), "autoMemoryDirectory") {
			t.Errorf("Resolve()=%v, want autoMemoryDirectory refused", err)
		}
	})
	if runtime.GOOS == "windows" {
		return
	}
	t.Run("DefaultLinkedOut", func(t *testing.T) {
		env, root := envOf(t, nil)
		outside := realTemp(t)
		l, err := Resolve(env)
		if err != nil {
			t.Fatal(err)
		}
		projects := filepath.Join(root, "home", ".claude", "projects")
		os.MkdirAll(projects, 0o700)
		if err := os.Symlink(outside, filepath.Join(projects, l.ProjectKey)); err != nil {
			t.Fatal(err)
		}
		if _, err := Resolve(env); !errors.Is(err, ErrLinkOut) || !strings.Contains(err.Error(), outside) {
			t.Errorf("Resolve()=%v, want ErrLinkOut naming %s", err, outside)
		}
		// Allowed on purpose: the same rule as for overrides.
		env.Getenv = func(k string) string {
			if k == "MEMDIR_ALLOWED_ROOTS" {
				return outside
			}
			return ""
		}
		if _, err := Resolve(env); err != nil {
			t.Errorf("with MEMDIR_ALLOWED_ROOTS: %v", err)
		}
	})
	t.Run("DefaultLinkedToAHome", func(t *testing.T) {
		for _, target := range []string{"home", "home/.claude"} {
			env, root := envOf(t, nil)
			l, _ := Resolve(env)
			projects := filepath.Join(root, "home", ".claude", "projects")
			os.MkdirAll(filepath.Join(projects, l.ProjectKey), 0o700)
			os.Symlink(filepath.Join(root, target), filepath.Join(projects, l.ProjectKey, "memory"))
			if _, err := Resolve(env); !errors.Is(err, ErrLinkOut) {
				t.Errorf("memory folder linked to %s: %v, want ErrLinkOut", target, err)
			}
		}
	})
	t.Run("DefaultLinkedInside", func(t *testing.T) {
		env, root := envOf(t, nil)
		l, _ := Resolve(env)
		inside := filepath.Join(root, "home", "dotfiles", "mem")
		os.MkdirAll(inside, 0o700)
		projects := filepath.Join(root, "home", ".claude", "projects")
		os.MkdirAll(projects, 0o700)
		os.Symlink(inside, filepath.Join(projects, l.ProjectKey))
		if _, err := Resolve(env); err != nil {
			t.Errorf("a link that stays in the home: %v", err)
		}
	})
}
