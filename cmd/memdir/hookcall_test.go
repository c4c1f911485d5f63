package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestHookCall(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"hook", "UserPromptSubmit"}, true},
		{[]string{"hook"}, true},
		{[]string{"--home", "/h", "hook", "Stop"}, true},
		{[]string{"--home=/h", "--project", "/p", "--json", "hook", "SessionStart"}, true},
		{[]string{"--json=false", "--project=/p", "hook", "--help"}, true},
		{[]string{"--home", "hook", "recall", "x"}, false}, // hook is --home's value
		{[]string{"recall", "hook"}, false},
		{[]string{"help", "hook"}, false},
		{[]string{"-h", "hook"}, false},
		{[]string{"--version", "hook"}, false},
		{[]string{"__complete", "hook", ""}, false},
		{[]string{"--home"}, false},
		{nil, false},
	} {
		if got := hookCall(c.args); got != c.want {
			t.Errorf("hookCall(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

// TestHookRootCmd_SameAsWholeTree: the tree a hook process builds (the
// hook command alone) answers every hook call as the whole tree does: the
// hook's answer, its help, and its flag and argument errors.
func TestHookRootCmd_SameAsWholeTree(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	home := filepath.Join(root, ".claude")
	env := map[string]string{"HOME": root}
	if _, errs, err := runIn(root, project, env, "", "save", "--type", "project", "--name", "Deploy day",
		"--description", "We deploy on Friday afternoons", "--body", "We deploy on Friday afternoons."); err != nil {
		t.Fatal(err, errs)
	}
	event := func(session string) string {
		return `{"session_id":"` + session + `","hook_event_name":"UserPromptSubmit","prompt":"when do we deploy?","cwd":"` + project + `"}`
	}
	for i, args := range [][]string{
		{"--home", home, "hook", "UserPromptSubmit"},
		{"--home", home, "hook", "UserPromptSubmit", "--json"},
		{"--home", home, "hook"},
		{"hook", "--help"},
		{"--json", "hook", "-h"},
		{"--home", home, "hook", "--bogus"},
		{"--home", home, "hook", "Stop", "--project"},
	} {
		var outs [2]string
		for j, tree := range []func(a *app) *cobra.Command{(*app).rootCmd, (*app).hookRootCmd} {
			var out, errb bytes.Buffer
			a := &app{sys: sys{stdin: strings.NewReader(event(fmt.Sprintf("s%d-%d", i, j))), stdout: &out, stderr: &errb,
				getenv: func(k string) string { return env[k] }, cwd: project}, ctx: context.Background()}
			root := tree(a)
			root.SetArgs(args)
			root.SetIn(a.stdin)
			root.SetOut(a.stdout)
			root.SetErr(a.stderr)
			err := root.Execute()
			outs[j] = fmt.Sprintf("stdout:\n%s\nstderr:\n%s\nerror: %v", out.String(), errb.String(), err)
		}
		if outs[0] != outs[1] {
			t.Errorf("memdir %q:\nwhole tree:\n%s\nhook tree:\n%s", args, outs[0], outs[1])
		}
		if i == 0 && !strings.Contains(outs[0], "Deploy day") {
			t.Errorf("memdir %q recalled nothing:\n%s", args, outs[0])
		}
	}
}
