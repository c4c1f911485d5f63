package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hint"
)

func TestTeamHook_InstallUninstall(t *testing.T) {
	const bin = "/opt/memdir's/bin/memdir"
	for _, c := range []struct {
		name, existing string
		chained        bool
	}{
		{name: "none"},
		{name: "shell", existing: "#!/bin/bash\nset -e\nmake lint\nexit 0\n"},
		{name: "python", existing: "#!/usr/bin/env python3\nprint('hi')\n", chained: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := t.Context()
			env, l, _ := teamEnv(t, true)
			p := filepath.Join(l.WorkTree, ".git", "hooks", "pre-commit")
			if c.existing != "" {
				if err := os.WriteFile(p, []byte(c.existing), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if st, err := TeamHook(ctx, env, l); err != nil || st.Installed {
				t.Fatalf("TeamHook(before)=%+v, %v", st, err)
			}
			st, err := InstallTeamHook(ctx, env, l, bin)
			if err != nil || !st.Changed || st.Path != p {
				t.Fatalf("InstallTeamHook()=%+v, %v", st, err)
			}
			b, _ := os.ReadFile(p)
			text := string(b)
			if !strings.Contains(text, `memdir_bin='/opt/memdir'\''s/bin/memdir'`) || !strings.Contains(text, "team check --staged") {
				t.Fatalf("hook=%q, want the quoted binary and the check", text)
			}
			if c.existing != "" && !c.chained {
				// The check comes before anything that may exit.
				if !strings.HasPrefix(text, "#!/bin/bash\n"+hookBegin) || !strings.HasSuffix(text, "make lint\nexit 0\n") {
					t.Fatalf("hook=%q, want the block after the first line and the rest kept", text)
				}
			}
			if c.chained {
				if old, _ := os.ReadFile(p + hookChained); string(old) != c.existing || st.Chained == "" {
					t.Fatalf("chained hook=%q (%q), want the old one", old, st.Chained)
				}
			}
			if got, _ := TeamHook(ctx, env, l); !got.Installed || got.Binary != bin {
				t.Fatalf("TeamHook(after)=%+v", got)
			}
			again, err := InstallTeamHook(ctx, env, l, bin)
			if b2, _ := os.ReadFile(p); err != nil || again.Changed || string(b2) != text {
				t.Fatalf("InstallTeamHook(again) changed=%v err=%v", again.Changed, err)
			}
			if _, err := UninstallTeamHook(ctx, env, l); err != nil {
				t.Fatal(err)
			}
			after, err := os.ReadFile(p)
			switch {
			case c.existing == "" && !os.IsNotExist(err):
				t.Fatalf("uninstall left %q (%v), want no hook", after, err)
			case c.existing != "" && string(after) != c.existing:
				t.Fatalf("uninstall left %q, want %q", after, c.existing)
			}
			if _, err := os.Stat(p + hookChained); !os.IsNotExist(err) {
				t.Fatalf("uninstall left the chained hook: %v", err)
			}
		})
	}
}

func TestTeamHook_HooksPath(t *testing.T) {
	env, l, _ := teamEnv(t, true)
	// Inside git's own folder: this repository's, written.
	teamGit(t, l.WorkTree, "config", "core.hooksPath", ".git/myhooks")
	st, err := InstallTeamHook(t.Context(), env, l, "/usr/bin/memdir")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(l.WorkTree, ".git", "myhooks", "pre-commit"); st.Path != want {
		t.Fatalf("hook path=%s, want %s", st.Path, want)
	}
	if fi, err := os.Stat(st.Path); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Fatalf("hook %s not executable: %v", st.Path, err)
	}
}

// A hooks folder shared beyond this repository's git folder is never
// written: a global one runs in every repository, one in the working tree
// (.husky) is committed with this machine's path in it. The hint holds
// the block to add by hand.
func TestTeamHook_SharedHooksPath(t *testing.T) {
	env, l, _ := teamEnv(t, true)
	global := filepath.Join(t.TempDir(), "global-hooks")
	for _, c := range []struct{ dir, why string }{
		{".husky", "inside the repository"},
		{global, "every repository"},
	} {
		teamGit(t, l.WorkTree, "config", "core.hooksPath", c.dir)
		_, err := InstallTeamHook(t.Context(), env, l, "/usr/bin/memdir")
		if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(hint.Of(err), hookBegin) {
			t.Fatalf("InstallTeamHook(core.hooksPath=%s)=%v (hint %q), want a refusal with the block", c.dir, err, hint.Of(err))
		}
	}
	for _, p := range []string{filepath.Join(l.WorkTree, ".husky"), global} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s was written (%v)", p, err)
		}
	}
}
