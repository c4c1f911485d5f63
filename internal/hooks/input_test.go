package hooks_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hooks"
)

// A caller that writes its event and never closes stdin no longer keeps
// the hook: past the input wait, a whole JSON object is answered, and a
// partial one fails open with a line in hooks.log.
func TestRunner_StdinNeverClosed(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	in, _ := json.Marshal(map[string]string{"session_id": "s1", "hook_event_name": hooks.SessionStart, "cwd": h.project})
	for _, tc := range []struct {
		name, input, want string
	}{
		{"whole object", string(in), `"hookEventName":"SessionStart"`},
		{"partial object", `{"session_id":"s2","hook_event_`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.Close()
			go pw.Write([]byte(tc.input))
			start := time.Now()
			done := make(chan string, 1)
			go func() { done <- h.hook(t, hooks.Runner{}, []string{hooks.SessionStart}, pr) }()
			var out string
			select {
			case out = <-done:
			case <-time.After(hooks.InputWait + 5*time.Second):
				t.Fatal("the hook still waits for stdin's end")
			}
			if d := time.Since(start); d < hooks.InputWait-100*time.Millisecond {
				t.Errorf("answered after %s, before the input wait", d)
			}
			if tc.want == "" {
				if out != "" {
					t.Errorf("stdout: %q", out)
				}
				if log := h.file(t, hooks.LogFile); !strings.Contains(log, `SessionStart session="" hook input did not end within 2s`) {
					t.Errorf("hooks.log: %q", log)
				}
				return
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("stdout: %q", out)
			}
		})
	}
}
