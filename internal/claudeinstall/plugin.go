package claudeinstall

// NotOnPath is the line the plugin's hooks write when the memdir binary
// is not on PATH.
const NotOnPath = "memdir: the memdir binary is not on PATH, so the memdir plugin does nothing. " +
	"go install puts it in $(go env GOPATH)/bin, usually ~/go/bin: add that folder to PATH. See Install in the memdir README."

// PluginCommand is the command of the plugin's hook for event. The plugin
// cannot know where memdir is installed, so it calls memdir from PATH;
// when it is not there the hook fails quietly: one line on stderr (Claude
// Code keeps it in its debug log) and exit 0, not "not found" and exit 127
// on every event. SessionStart also says it once to the user, as a
// systemMessage. A hook never exits 2: that would block the agent.
func PluginCommand(event string) string {
	cmd := "if command -v memdir >/dev/null 2>&1; then exec memdir hook " + event + "; fi; echo '" + NotOnPath + "' >&2"
	if event == "SessionStart" {
		cmd += `; echo '{"systemMessage": "` + NotOnPath + `"}'`
	}
	return cmd
}

// PluginHooks is the "hooks" object of the plugin's hooks/hooks.json: the
// events, matchers and timeouts of Install, each running PluginCommand.
func PluginHooks() *Object {
	hooks := NewObject()
	for _, h := range Handlers {
		hooks.Set(h.Event, []any{h.group(PluginCommand(h.Event))})
	}
	return hooks
}
