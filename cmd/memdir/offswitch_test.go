package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOffSwitches pins what the off switches mean (issue 16). memdir's own,
// MEMDIR_DISABLE=1, turns its hooks off: they answer nothing. Claude Code's
// switches (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1, autoMemoryEnabled false) turn
// off Claude Code's own memory, which then loads no MEMORY.md: memdir's
// SessionStart hook gives the index itself, and recall goes on.
func TestOffSwitches(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o700)
	saveForHook(t, root, project)
	hook := func(env map[string]string, event, session, prompt string) string {
		t.Helper()
		in, _ := json.Marshal(map[string]string{"session_id": session, "hook_event_name": event, "prompt": prompt, "source": "startup", "cwd": project})
		out, errs, err := runIn(root, project, env, string(in), "hook", event)
		if err != nil {
			t.Fatalf("hook %s: %v %s", event, err, errs)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
	}{
		{"CLAUDE_CODE_DISABLE_AUTO_MEMORY", map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}},
		{"autoMemoryEnabled false", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			settings := filepath.Join(root, ".claude", "settings.json")
			if tc.env == nil {
				tc.env = map[string]string{}
				os.WriteFile(settings, []byte(`{"autoMemoryEnabled": false}`), 0o600)
				defer os.Remove(settings)
			}
			start := hook(tc.env, "SessionStart", "s-"+tc.name, "")
			if !strings.Contains(start, "MEMORY.md") || !strings.Contains(start, "[Deploy day](deploy-day.md)") {
				t.Errorf("SessionStart did not give the index: %q", start)
			}
			if got := hook(tc.env, "UserPromptSubmit", "s-"+tc.name, "when do we deploy?"); !strings.Contains(got, "deploy-day.md") {
				t.Errorf("UserPromptSubmit recalled nothing: %q", got)
			}
		})
	}
	t.Run("MEMDIR_DISABLE", func(t *testing.T) {
		for _, event := range []string{"SessionStart", "UserPromptSubmit"} {
			if got := hook(map[string]string{"MEMDIR_DISABLE": "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, event, "s-off", "when do we deploy?"); got != "" {
				t.Errorf("%s with MEMDIR_DISABLE=1 answered %q", event, got)
			}
		}
	})
}
