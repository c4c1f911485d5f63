package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v4"

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
// matchers and timeouts as 'memdir install claude', each calling memdir
// from PATH through claudeinstall.PluginCommand, and the same MCP server.
func TestPlugin_HooksMatchInstall(t *testing.T) {
	plugin := parseFile(t, "../../plugin/memdir/hooks/hooks.json")
	got, _ := plugin.Get("hooks")
	if g, w := string(claudeinstall.Encode(got.(*claudeinstall.Object))), string(claudeinstall.Encode(claudeinstall.PluginHooks())); g != w {
		t.Errorf("plugin hooks differ from claudeinstall.PluginHooks:\n%s", claudeinstall.Diff(w, g, 2))
	}
	installed := claudeinstall.NewObject()
	if _, err := claudeinstall.Install(installed, "memdir"); err != nil {
		t.Fatal(err)
	}
	events := claudeinstall.Installed(installed)
	if keys := got.(*claudeinstall.Object).Keys; !slices.Equal(keys, events) {
		t.Errorf("plugin events %v, install's %v", keys, events)
	}

	mcp := parseFile(t, "../../plugin/memdir/.mcp.json")
	want := claudeinstall.NewObject()
	if _, err := claudeinstall.InstallMCP(want, nil, "memdir"); err != nil {
		t.Fatal(err)
	}
	gotServers, _ := mcp.Get("mcpServers")
	wantServers, _ := want.Get("mcpServers")
	if g, w := string(claudeinstall.Encode(gotServers.(*claudeinstall.Object))), string(claudeinstall.Encode(wantServers.(*claudeinstall.Object))); g != w {
		t.Errorf("plugin .mcp.json differs from install's registration:\n%s", claudeinstall.Diff(w, g, 2))
	}
}

// TestPlugin_HookWithoutMemdirOnPath: without memdir on PATH every hook
// of the plugin exits 0 with one line on stderr (SessionStart also tells
// the user once, as a systemMessage), never 127 nor 2; with memdir on
// PATH it runs 'memdir hook <Event>' and passes its status on.
func TestPlugin_HookWithoutMemdirOnPath(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	plugin := parseFile(t, "../../plugin/memdir/hooks/hooks.json")
	hooks, _ := plugin.Get("hooks")
	empty, fake := t.TempDir(), t.TempDir()
	script := "#!/bin/sh\necho \"ran $*\"\nexit 1\n"
	if err := os.WriteFile(filepath.Join(fake, "memdir"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, event := range hooks.(*claudeinstall.Object).Keys {
		groups, _ := hooks.(*claudeinstall.Object).Get(event)
		handler := groups.([]any)[0].(*claudeinstall.Object).Vals["hooks"].([]any)[0].(*claudeinstall.Object)
		command, _ := handler.Get("command")
		run := func(path string) (string, string, int) {
			cmd := exec.Command(sh, "-c", command.(string))
			cmd.Env = []string{"PATH=" + path}
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return stdout.String(), stderr.String(), code
		}
		stdout, stderr, code := run(empty)
		if code != 0 || stderr != claudeinstall.NotOnPath+"\n" {
			t.Errorf("%s without memdir: exit %d, stderr %q", event, code, stderr)
		}
		var msg struct{ SystemMessage string }
		switch {
		case event == "SessionStart":
			if err := json.Unmarshal([]byte(stdout), &msg); err != nil || msg.SystemMessage != claudeinstall.NotOnPath {
				t.Errorf("SessionStart without memdir: stdout %q (%v)", stdout, err)
			}
		case stdout != "":
			t.Errorf("%s without memdir: stdout %q", event, stdout)
		}
		stdout, stderr, code = run(fake)
		if stdout != "ran hook "+event+"\n" || stderr != "" || code != 1 {
			t.Errorf("%s with memdir on PATH: stdout %q, stderr %q, exit %d", event, stdout, stderr, code)
		}
	}
}

func parseFile(t *testing.T, path string) *claudeinstall.Object {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := claudeinstall.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestPlugin_Skills: the plugin's skills are the five the README names,
// each with its frontmatter (name, description, allowed-tools); every
// memdir command a skill runs exists with the flags it gives, its
// allowed-tools let it run them, and the MCP tools it allows are tools
// memdir's server has.
func TestPlugin_Skills(t *testing.T) {
	dirs, err := os.ReadDir("../../plugin/memdir/skills")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		names = append(names, d.Name())
	}
	if want := []string{"diary", "dream", "patterns", "recall", "synthesize"}; !slices.Equal(names, want) {
		t.Errorf("skills %v, want %v", names, want)
	}
	readme, err := os.ReadFile("../../plugin/memdir/README.md")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := testApp(t)
	root := a.rootCmd()
	cs, ctx := inMemoryClient(t, a)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, tool := range tools.Tools {
		served[tool.Name] = true
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(string(readme), "/memdir:"+name) || !strings.Contains(string(readme), "Skill `"+name+"`") {
				t.Errorf("the plugin's README does not name /memdir:%s and Skill `%s`", name, name)
			}
			fm, body := skillFile(t, name)
			if fm.Name != name || len(fm.Description) < 80 || fm.AllowedTools == "" {
				t.Errorf("frontmatter: %+v", fm)
			}
			allowed := strings.Split(fm.AllowedTools, ", ")
			for _, tool := range allowed {
				if strings.HasPrefix(tool, "mcp__") {
					parts := strings.Split(tool, "__")
					if len(parts) != 3 || !served[parts[2]] || (parts[1] != "memdir" && parts[1] != "plugin_memdir_memdir") {
						t.Errorf("allowed tool %s is not one of memdir's MCP tools", tool)
					}
				}
			}
			for _, m := range skillCommandRe.FindAllStringSubmatch(body, -1) {
				checkSkillCommand(t, root, m[1], allowed)
			}
		})
	}
}

// skillCommandRe finds the memdir commands a skill runs: `memdir …` (a
// command for the user to run is quoted 'memdir …').
var skillCommandRe = regexp.MustCompile("`(memdir [^`]+)`")

type skillFrontmatter struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	AllowedTools string `yaml:"allowed-tools"`
}

// skillFile reads skills/name/SKILL.md: its frontmatter and its body.
func skillFile(t *testing.T, name string) (skillFrontmatter, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../plugin/memdir/skills", name, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(string(b), "---\n")
	head, body, ok2 := strings.Cut(rest, "\n---\n")
	if !ok || !ok2 {
		t.Fatalf("%s: no frontmatter", name)
	}
	var fm skillFrontmatter
	if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return fm, body
}

// checkSkillCommand checks that line (memdir and its arguments) names a
// command of root with the flags it gives, and that allowed lets a skill
// run it.
func checkSkillCommand(t *testing.T, root *cobra.Command, line string, allowed []string) {
	t.Helper()
	args := strings.Fields(line)[1:]
	cmd, _, err := root.Find(args)
	if err != nil || cmd == root {
		t.Errorf("%q: no such command (%v)", line, err)
		return
	}
	path := strings.TrimPrefix(cmd.CommandPath(), "memdir ")
	if !slices.ContainsFunc(allowed, func(a string) bool {
		p, ok := strings.CutPrefix(a, "Bash(memdir ")
		return ok && strings.HasPrefix(path+" ", strings.TrimSuffix(p, ":*)")+" ")
	}) {
		t.Errorf("%q: allowed-tools do not let the skill run memdir %s", line, path)
	}
	for _, arg := range args {
		flag, ok := strings.CutPrefix(arg, "--")
		if !ok {
			continue
		}
		flag, _, _ = strings.Cut(flag, "=")
		if cmd.Flag(flag) == nil {
			t.Errorf("%q: memdir %s has no --%s", line, path, flag)
		}
	}
}
