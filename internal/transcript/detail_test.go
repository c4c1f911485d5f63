package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// detailRecords is a call that failed (its output long, the error in its
// middle), one that worked, one that exited 0 but printed a failed test at
// its end, and a result holding a \u escape, each as Claude Code writes
// them.
func detailRecords(t testing.TB) []byte {
	t.Helper()
	trace := "Exit code 1\n--- FAIL: TestCount (0.00s)\npanic: assignment to entry in nil map [recovered]\n" +
		strings.Repeat("\t/usr/local/go/src/testing/testing.go:1734 +0x21c\n", 200) + "FAIL\tgithub.com/dev/inventory/store\t0.004s"
	piped := strings.Repeat("=== RUN TestX\n", 400) + "--- FAIL: TestX (0.00s)\nFAIL"
	recs := []any{
		map[string]any{"type": "assistant", "uuid": "a1", "message": map[string]any{"id": "m1", "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": map[string]any{"command": "go test ./..."}},
			map[string]any{"type": "tool_use", "id": "toolu_2", "name": "Bash", "input": map[string]any{"command": "ls"}},
			map[string]any{"type": "tool_use", "id": "toolu_3", "name": "Bash", "input": map[string]any{"command": "go test ./... | tail"}},
		}}},
		map[string]any{"type": "user", "uuid": "u1", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": trace, "is_error": true},
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_2", "content": strings.Repeat("a.go\n", 300)},
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_3", "content": piped},
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_4", "content": []any{map[string]any{"type": "text", "text": "caf\u00e9\npanic: boom"}}},
		}}},
	}
	var b bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Results carry the ID of their call, and a failed one its error lines,
// bounded; a result that worked carries none. Both decoders agree.
func TestParseClaude_ToolIDAndDetail(t *testing.T) {
	data := detailRecords(t)
	s, err := ParseClaude(bytes.NewReader(data), Options{})
	if err != nil || len(s.Messages) != 2 {
		t.Fatalf("err %v, %d messages", err, len(s.Messages))
	}
	calls, results := s.Messages[0].Tools, s.Messages[1].Tools
	for i, want := range []string{"toolu_1", "toolu_2", "toolu_3"} {
		if calls[i].ID != want || results[i].ID != want || calls[i].Detail != "" {
			t.Errorf("call %d: ids %q %q, want %q; a call has no detail (%q)", i, calls[i].ID, results[i].ID, want, calls[i].Detail)
		}
	}
	failed := results[0].Detail
	if !strings.Contains(failed, "panic: assignment to entry in nil map") || !strings.Contains(failed, "--- FAIL: TestCount") ||
		len(failed) > MaxDetail || strings.Contains(failed, "testing.go:1734") {
		t.Errorf("the failed result's detail (%d bytes) should hold its error lines only:\n%s", len(failed), failed)
	}
	if results[1].Detail != "" {
		t.Errorf("a result that worked has detail %q", results[1].Detail)
	}
	if d := results[2].Detail; d != "--- FAIL: TestX (0.00s)\nFAIL" {
		t.Errorf("a test failure printed at the end of a result that exited 0: detail %q", d)
	}
	if d := results[3].Detail; d != "panic: boom" {
		t.Errorf("a result's blocks: detail %q", d)
	}
	lazyOff = true
	strict, _ := ParseClaude(bytes.NewReader(data), Options{})
	lazyOff = false
	if diff := cmp.Diff(strict, s); diff != "" {
		t.Fatalf("lazy and strict decoding differ (-strict +lazy):\n%s", diff)
	}
	// Search's reader drops tool calls: it computes no detail.
	if _, tools := claudeContent(json.RawMessage(`[{"type":"tool_result","content":"Exit code 1\npanic: x","is_error":true}]`), false); tools[0].Detail != "" {
		t.Errorf("detail computed when not asked for: %q", tools[0].Detail)
	}
}

// With no error line, the detail is the last few lines.
func TestErrorDetail_LastLines(t *testing.T) {
	if got := errorDetail("one\ntwo\n\nthree\nfour\nfive\n"); got != "two\nthree\nfour\nfive" {
		t.Fatalf("errorDetail = %q", got)
	}
}

// A Codex result carries its call's call_id, and a non-zero exit code
// marks it failed.
func TestParseCodex_ExitCode(t *testing.T) {
	rollout := `{"timestamp":"2026-11-28T08:00:00.000Z","type":"session_meta","payload":{"id":"c1","cwd":"/r"}}
{"timestamp":"2026-11-28T08:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"go test\"]}","call_id":"call_9"}}
{"timestamp":"2026-11-28T08:00:02.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_9","output":"{\"output\":\"panic: boom\\nFAIL\\n\",\"metadata\":{\"exit_code\":2}}"}}
`
	s, _ := ParseCodex(strings.NewReader(rollout), Options{})
	want := []ToolCall{{Name: "shell", ID: "call_9", Summary: `command: ["bash","-lc","go test"]`},
		{Name: "result", ID: "call_9", Summary: "panic: boom (3 lines)", IsError: true, Detail: "panic: boom\nFAIL"}}
	if len(s.Messages) != 1 {
		t.Fatalf("%d messages", len(s.Messages))
	}
	if diff := cmp.Diff(want, s.Messages[0].Tools); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}
}

// Many error lines are cut at MaxDetail, on a line boundary.
func TestErrorDetail_Bounded(t *testing.T) {
	got := errorDetail(strings.Repeat("error: something broke here\n", 500))
	if len(got) > MaxDetail || len(got) < MaxDetail-40 || !strings.HasSuffix(got, "here") {
		t.Fatalf("detail of %d bytes (at most %d), ends %q", len(got), MaxDetail, got[max(0, len(got)-10):])
	}
}

// isErrLine answers as errLineRe does, on ASCII lines (its word list) and
// on any other (the regexp, with its Unicode case folding: "FAİL" and the
// Kelvin sign's "TIMEOUT" are its business).
func TestIsErrLine_SameAsRegexp(t *testing.T) {
	lines := []string{
		"ok  \tgithub.com/x/y\t0.2s", "--- FAIL: TestX (0.3s)", "Error: cannot find module", "ERR! code E404",
		"context deadline exceeded (Client.Timeout exceeded)", "request TIMED OUT after 30s", "time out", "timedout",
		"ls: /tmp/x: No such file or directory", "permission DENIED", "connection refused", "AssertionError: 1 != 2",
		"undefined: foo", "exit status 2", "Exit Code 1", "Traceback (most recent call last):", "panic: boom",
		"all good", "", "err", "erro r", "timedXout", "exitcode", "\u212aey not found", "caf\u00e9 failed", "s\u017fs",
		"TIMEOUT \u212a", "fa\u0131l", "FA\u0130L", "no such", "NO SUCH", "notfound", "can not",
	}
	for _, w := range errWords {
		lines = append(lines, w, strings.ToUpper(w), "x"+w[:len(w)-1], "pre "+strings.ToUpper(w[:1])+w[1:]+" post")
	}
	for _, l := range lines {
		if got, want := isErrLine(l), errLineRe.MatchString(l); got != want {
			t.Errorf("isErrLine(%q) = %v, the regexp says %v", l, got, want)
		}
	}
}

// FuzzIsErrLine holds isErrLine to the regexp on any line.
func FuzzIsErrLine(f *testing.F) {
	for _, s := range []string{"Error", "timed out", "ERR!", "\u212a", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := isErrLine(l), errLineRe.MatchString(l); got != want {
			t.Errorf("isErrLine(%q) = %v, the regexp says %v", l, got, want)
		}
	})
}
