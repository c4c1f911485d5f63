package hooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/workspace"
)

// clock is the fixed time the tests' hooks run at.
var clock = time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)

// home is a real agent home in a temp folder, with one project.
type home struct {
	root, project, agent string
	env                  map[string]string
}

func newHome(t *testing.T) *home {
	t.Helper()
	root := t.TempDir()
	h := &home{root: root, project: filepath.Join(root, "proj"), agent: filepath.Join(root, ".claude"), env: map[string]string{"HOME": root}}
	if err := os.MkdirAll(h.project, 0o700); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *home) wsEnv() workspace.Env {
	return workspace.Env{Getenv: func(k string) string { return h.env[k] }, Cwd: h.project, HomeFlag: h.agent, Holder: "memdir hook"}
}

// save saves a memory in the project's real store.
func (h *home) save(t *testing.T, typ memdir.Type, name, description, body string) {
	t.Helper()
	ws, err := workspace.Open(h.wsEnv(), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Store.Save(context.Background(), memdir.Memory{Type: typ, Name: name, Description: description, Body: body}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
}

// hook runs one event with stdin and returns stdout.
func (h *home) hook(t *testing.T, r hooks.Runner, args []string, stdin io.Reader) string {
	t.Helper()
	var out bytes.Buffer
	r.Env, r.Stdin, r.Stdout = h.wsEnv(), stdin, &out
	if r.Now == nil {
		r.Now = func() time.Time { return clock }
	}
	r.Run(context.Background(), args)
	return out.String()
}

// event runs the hook for the event with in as its JSON.
func (h *home) event(t *testing.T, event string, in map[string]string) string {
	t.Helper()
	return h.eventWith(t, hooks.Runner{}, event, in)
}

func (h *home) eventWith(t *testing.T, r hooks.Runner, event string, in map[string]string) string {
	t.Helper()
	in["hook_event_name"] = event
	if _, ok := in["cwd"]; !ok {
		in["cwd"] = h.project
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return h.hook(t, r, []string{event}, bytes.NewReader(b))
}

// file reads rel in the synthesis folder; "" when it does not exist.
func (h *home) file(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.agent, "memory", filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (h *home) noFailures(t *testing.T) {
	t.Helper()
	if log := h.file(t, hooks.LogFile); log != "" {
		t.Errorf("hooks.log:\n%s", log)
	}
}

func (h *home) saveTwo(t *testing.T) {
	t.Helper()
	h.save(t, memdir.TypeFeedback, "Integration tests hit a real database", "Never mock PostgreSQL in integration tests", "Use docker compose up db.")
	h.save(t, memdir.TypeProject, "Deploy freeze", "No deploys on Fridays", "Ask the release manager.")
}

func TestRunner_SessionStart(t *testing.T) {
	for _, tc := range []struct {
		name     string
		memories bool
		env      map[string]string
		want     string // stdout, exactly; "" for nothing
		contains []string
	}{
		{name: "no memories, nothing said"},
		{name: "no memories, auto memory off", env: map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}},
		{name: "memories, a primer", memories: true,
			want: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"memdir: 2 memories for this project; the ones relevant to each prompt arrive with it. ` + "`memdir recall \\\"<topic>\\\"`" + ` searches them."}}` + "\n"},
		{name: "memories, auto memory off: MEMORY.md", memories: true, env: map[string]string{"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"},
			contains: []string{`"hookEventName":"SessionStart"`, `Contents of `, `MEMORY.md (the user's memory index, kept by memdir)`, `Integration tests hit a real database`, `Deploy freeze`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			if tc.memories {
				h.saveTwo(t)
			}
			for k, v := range tc.env {
				h.env[k] = v
			}
			got := h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"})
			if tc.contains == nil && got != tc.want {
				t.Errorf("stdout:\n got %q\nwant %q", got, tc.want)
			}
			for _, w := range tc.contains {
				if !strings.Contains(got, w) {
					t.Errorf("stdout lacks %q:\n%s", w, got)
				}
			}
			h.noFailures(t)
		})
	}
}

func recallLines(t *testing.T, h *home) []hooks.RecallLine {
	t.Helper()
	var out []hooks.RecallLine
	for l := range strings.Lines(h.file(t, hooks.RecallLog)) {
		var line hooks.RecallLine
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, line)
	}
	return out
}

func session(t *testing.T, h *home, id string) hooks.Session {
	t.Helper()
	var s hooks.Session
	if err := json.Unmarshal([]byte(h.file(t, "sessions/"+hooks.SessionFile(id))), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunner_PromptNeverRepeats: a memory is given once a session, and
// again in another session; each prompt is logged.
func TestRunner_PromptNeverRepeats(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	const db = "integration-tests-hit-a-real-database.md"
	prompt := func(session, id, text string) string {
		return h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": session, "prompt_id": id, "prompt": text})
	}
	first := prompt("s1", "p1", "should the integration tests mock PostgreSQL?")
	for _, want := range []string{`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"<memdir-recall>`, db, "verify the files, functions and flags"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first prompt's answer lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "deploy-freeze.md") {
		t.Errorf("an unrelated memory was given:\n%s", first)
	}
	if again := prompt("s1", "p2", "should the integration tests mock PostgreSQL?"); again != "" {
		t.Errorf("the same session was given it again:\n%s", again)
	}
	if other := prompt("s2", "p1", "should the integration tests mock PostgreSQL?"); !strings.Contains(other, db) {
		t.Errorf("another session was not given it:\n%s", other)
	}
	if blank := prompt("s1", "p3", "   "); blank != "" {
		t.Errorf("a blank prompt was answered:\n%s", blank)
	}

	s := session(t, h, "s1")
	if len(s.Injected) != 1 || s.Injected[0] != db || s.Turns != 3 || s.Tokens <= 0 {
		t.Errorf("session s1: %+v", s)
	}
	lines := recallLines(t, h)
	if len(lines) != 4 {
		t.Fatalf("%d recall.jsonl lines, want 4", len(lines))
	}
	first1 := lines[0]
	if first1.SessionID != "s1" || first1.PromptID != "p1" || first1.Project != h.project || len(first1.Files) != 1 || first1.Files[0] != db ||
		first1.Tokens <= 0 || first1.Abstained || first1.Budget != hooks.SessionBudget-first1.Tokens || !first1.Time.Equal(clock) {
		t.Errorf("the first line: %+v", first1)
	}
	if l := lines[1]; !l.Abstained || len(l.Files) != 0 || l.Tokens != 0 || l.Budget != first1.Budget {
		t.Errorf("the repeated prompt's line: %+v", l)
	}
	if raw := h.file(t, hooks.RecallLog); !strings.Contains(raw, `"files":[],"tokens":0,"abstained":true`) {
		t.Errorf("an abstention is not logged with an empty list of files:\n%s", raw)
	}
	h.noFailures(t)
}

// TestRunner_ConcurrentPrompts: hooks wired twice (the plugin and an
// install) run on one prompt at once; the sessions lock gives the memory
// once.
func TestRunner_ConcurrentPrompts(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	const n = 4
	outs := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			in, _ := json.Marshal(map[string]string{"session_id": "s1", "hook_event_name": hooks.UserPromptSubmit, "prompt": "can we deploy on friday?", "cwd": h.project})
			var out bytes.Buffer
			hooks.Runner{Env: h.wsEnv(), Stdin: bytes.NewReader(in), Stdout: &out}.Run(context.Background(), []string{hooks.UserPromptSubmit})
			outs <- out.String()
		})
	}
	wg.Wait()
	close(outs)
	given := 0
	for out := range outs {
		if strings.Contains(out, "deploy-freeze.md") {
			given++
		}
	}
	if s := session(t, h, "s1"); given != 1 || s.Turns != n || len(s.Injected) != 1 {
		t.Errorf("given %d times in %d hooks; session %+v", given, n, s)
	}
	h.noFailures(t)
}

// TestRunner_PromptBudget: a session is given memories only while its
// token budget can hold them.
func TestRunner_PromptBudget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spent int
		given bool
	}{
		{"fresh session", 0, true},
		{"budget nearly spent, room for one", hooks.SessionBudget - 1000, true},
		{"budget below one memory", hooks.SessionBudget - recall.MinBudget() + 1, false},
		{"budget spent", hooks.SessionBudget, false},
		{"budget overspent", hooks.SessionBudget + 500, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			h.saveTwo(t)
			state, _ := json.Marshal(hooks.Session{Tokens: tc.spent, Turns: 7})
			os.MkdirAll(filepath.Join(h.agent, "memory", "sessions"), 0o700)
			if err := os.WriteFile(filepath.Join(h.agent, "memory", "sessions", "s1.json"), state, 0o600); err != nil {
				t.Fatal(err)
			}
			got := h.event(t, hooks.UserPromptSubmit, map[string]string{"session_id": "s1", "prompt": "can we deploy on friday?"})
			if given := strings.Contains(got, "deploy-freeze.md"); given != tc.given {
				t.Errorf("given=%v, want %v:\n%s", given, tc.given, got)
			}
			s := session(t, h, "s1")
			line := recallLines(t, h)[0]
			if s.Turns != 8 || s.Tokens != tc.spent+line.Tokens || line.Budget != max(0, hooks.SessionBudget-s.Tokens) {
				t.Errorf("session %+v, log line %+v", s, line)
			}
			if tc.given && line.Tokens > min(recall.DefaultPolicy.Budget, hooks.SessionBudget-tc.spent) {
				t.Errorf("%d tokens given, over the %d left", line.Tokens, hooks.SessionBudget-tc.spent)
			}
			h.noFailures(t)
		})
	}
}

// extractor writes a script that records its arguments in a file, and
// returns both paths.
func extractor(t *testing.T) (exe, args string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake extractor is a shell script")
	}
	dir := t.TempDir()
	exe, args = filepath.Join(dir, "memdir"), filepath.Join(dir, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + args + ".tmp && mv " + args + ".tmp " + args + "\n"
	if err := os.WriteFile(exe, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return exe, args
}

func waitFile(t *testing.T, path string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
	}
	t.Fatalf("%s never appeared: the extractor did not run", path)
	return ""
}

func TestRunner_Queue(t *testing.T) {
	exe, argsFile := extractor(t)
	const transcript = "/tmp/t/sess-1.jsonl"
	for _, tc := range []struct {
		name       string
		event      string
		transcript string
		off        bool
		wantArgs   string // the extractor's arguments; "" when it must not start
	}{
		{name: "Stop starts the extractor, which sweeps the snapshot", event: hooks.Stop, transcript: transcript,
			wantArgs: "--home\nAGENT\nextract\n--transcript\n" + transcript + "\n--sweep\nMEMORY\n"},
		{name: "SessionEnd extracts the trailing turns, then consolidates if due", event: hooks.SessionEnd, transcript: transcript,
			wantArgs: "--home\nAGENT\nextract\n--transcript\n" + transcript + "\n--trailing\n--then-dream\nsess-1\n--sweep\nMEMORY\n"},
		{name: "MEMDIR_EXTRACT=off only queues", event: hooks.Stop, transcript: transcript, off: true},
		{name: "a relative transcript is only queued", event: hooks.PreCompact, transcript: "t/sess-1.jsonl"},
		{name: "no transcript is only queued", event: hooks.SubagentStop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			r := hooks.Runner{Exe: exe}
			if tc.wantArgs == "" {
				// Were it started, a missing binary would be a logged failure.
				r.Exe = filepath.Join(t.TempDir(), "no-such-memdir")
			}
			if tc.off {
				h.env[hooks.ExtractSwitch] = "OFF"
			}
			in := map[string]string{"session_id": "sess-1", "transcript_path": tc.transcript}
			if out := h.eventWith(t, r, tc.event, in); out != "" {
				t.Errorf("a queue event wrote on stdout: %q", out)
			}
			want, _ := json.Marshal(hooks.QueueLine{Time: clock, Event: tc.event, SessionID: "sess-1", TranscriptPath: tc.transcript, CWD: h.project})
			if got := h.file(t, hooks.ExtractQueue); got != string(want)+"\n" {
				t.Errorf("queue:\n got %q\nwant %q", got, want)
			}
			h.noFailures(t)
			if tc.wantArgs != "" {
				l, err := h.wsEnv().Layout()
				if err != nil {
					t.Fatal(err)
				}
				want := strings.NewReplacer("AGENT", h.agent, "MEMORY", l.MemoryDir).Replace(tc.wantArgs)
				if got := waitFile(t, argsFile); got != want {
					t.Errorf("extractor's arguments:\n got %q\nwant %q", got, want)
				}
				os.Remove(argsFile)
			}
		})
	}
}

// TestRunner_QueueRotates: past QueueLimit the queue is moved aside and a
// new one started.
func TestRunner_QueueRotates(t *testing.T) {
	h := newHome(t)
	h.env[hooks.ExtractSwitch] = "off"
	old := strings.Repeat("x", hooks.QueueLimit) + "\n"
	os.MkdirAll(filepath.Join(h.agent, "memory"), 0o700)
	if err := os.WriteFile(filepath.Join(h.agent, "memory", hooks.ExtractQueue), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	h.event(t, hooks.Stop, map[string]string{"session_id": "s1", "transcript_path": "/tmp/t/s1.jsonl"})
	if got := h.file(t, hooks.ExtractQueue+".1"); got != old {
		t.Errorf("the old queue was not kept aside (%d bytes)", len(got))
	}
	if got := h.file(t, hooks.ExtractQueue); strings.Count(got, "\n") != 1 || !strings.Contains(got, `"session_id":"s1"`) {
		t.Errorf("the new queue: %q", got)
	}
	h.event(t, hooks.Stop, map[string]string{"session_id": "s2"})
	if got := h.file(t, hooks.ExtractQueue); strings.Count(got, "\n") != 2 {
		t.Errorf("a small queue was rotated: %q", got)
	}
	h.noFailures(t)
}

// TestRunner_FailsOpen: any failure leaves stdout empty and one line in
// hooks.log; MEMDIR_DISABLE leaves no trace at all.
func TestRunner_FailsOpen(t *testing.T) {
	big := `{"session_id":"big","prompt":"` + strings.Repeat("x", hooks.MaxInput) + `"}`
	for _, tc := range []struct {
		name    string
		args    []string
		stdin   io.Reader
		env     map[string]string
		wantLog string // the line's text after the time; "" for no line
	}{
		{name: "not JSON", args: []string{hooks.UserPromptSubmit}, stdin: strings.NewReader("this is not json"),
			wantLog: "UserPromptSubmit session=\"\" hook input is not JSON: invalid character 'h' in literal true (expecting 'r')"},
		{name: "no session id", args: []string{hooks.UserPromptSubmit}, stdin: strings.NewReader(`{"prompt":"x"}`),
			wantLog: "UserPromptSubmit session=\"\" hook input has no session_id"},
		{name: "event mismatch", args: []string{"Notification"}, stdin: strings.NewReader(`{"session_id":"s1","hook_event_name":"SessionStart"}`),
			wantLog: "Notification session=\"s1\" hook input is for SessionStart, not Notification"},
		{name: "unhandled event", args: []string{"Notification"}, stdin: strings.NewReader(`{"session_id":"s1"}`),
			wantLog: "Notification session=\"s1\" memdir does not handle the Notification event"},
		{name: "two events", args: []string{"Stop", "Stop"}, stdin: strings.NewReader(`{"session_id":"s1"}`),
			wantLog: "Stop Stop session=\"\" memdir hook takes one EVENT"},
		{name: "input over the cap", args: []string{hooks.UserPromptSubmit}, stdin: strings.NewReader(big),
			wantLog: "UserPromptSubmit session=\"\" hook input over 8388608 bytes"},
		{name: "bad lock timeout", args: []string{hooks.Stop}, stdin: strings.NewReader(`{"session_id":"s1"}`), env: map[string]string{"MEMDIR_LOCK_TIMEOUT": "soon"},
			wantLog: `Stop session="s1" MEMDIR_LOCK_TIMEOUT="soon" is not a duration`},
		{name: "a panic (no stdin)", args: []string{hooks.Stop},
			wantLog: "Stop session=\"\" panic: runtime error: invalid memory address or nil pointer dereference | goroutine "},
		{name: "MEMDIR_DISABLE", args: []string{hooks.UserPromptSubmit}, stdin: strings.NewReader("this is not json"), env: map[string]string{"MEMDIR_DISABLE": "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			for k, v := range tc.env {
				h.env[k] = v
			}
			if out := h.hook(t, hooks.Runner{}, tc.args, tc.stdin); out != "" {
				t.Errorf("stdout: %q", out)
			}
			log := h.file(t, hooks.LogFile)
			if tc.wantLog == "" {
				if log != "" {
					t.Errorf("hooks.log: %q", log)
				}
				return
			}
			prefix := "2026-11-25T14:00:00Z " + tc.wantLog
			if strings.Count(log, "\n") != 1 || !strings.HasPrefix(log, prefix) {
				t.Errorf("hooks.log:\n got %q\nwant one line starting %q", log, prefix)
			}
		})
	}
}

// TestRunner_StdoutFails: an answer that cannot be written is logged.
func TestRunner_StdoutFails(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	in, _ := json.Marshal(map[string]string{"session_id": "s1", "hook_event_name": hooks.SessionStart, "cwd": h.project})
	hooks.Runner{Env: h.wsEnv(), Stdin: bytes.NewReader(in), Stdout: failWriter{}, Now: func() time.Time { return clock }}.Run(context.Background(), []string{hooks.SessionStart})
	if log := h.file(t, hooks.LogFile); log != "2026-11-25T14:00:00Z SessionStart session=\"s1\" stdout is closed\n" {
		t.Errorf("hooks.log: %q", log)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("stdout is closed") }

// TestRunner_SessionEndKeepsThingsBounded: at a SessionEnd the recall log
// is rotated past its limit and sessions' bookkeeping older than
// SessionKeep is removed (both grew without bound); a recent session's
// file and a small log stay.
func TestRunner_SessionEndKeepsThingsBounded(t *testing.T) {
	h := newHome(t)
	h.env[hooks.ExtractSwitch] = "off"
	mem := filepath.Join(h.agent, "memory")
	os.MkdirAll(filepath.Join(mem, hooks.SessionsDir), 0o700)
	os.MkdirAll(filepath.Join(mem, "logs"), 0o700)
	bigLog := strings.Repeat("y", hooks.RecallLogLimit) + "\n"
	os.WriteFile(filepath.Join(mem, hooks.RecallLog), []byte(bigLog), 0o600)
	oldSess, newSess := filepath.Join(mem, hooks.SessionsDir, "old.json"), filepath.Join(mem, hooks.SessionsDir, "new.json")
	oldNotice := filepath.Join(mem, filepath.FromSlash(workspace.NoticeFile("old")))
	os.WriteFile(oldSess, []byte("{}"), 0o600)
	os.WriteFile(newSess, []byte("{}"), 0o600)
	os.WriteFile(oldNotice, []byte("{}\n"), 0o600)
	long, recent := clock.Add(-hooks.SessionKeep-time.Hour), clock.Add(-time.Hour)
	os.Chtimes(oldSess, long, long)
	os.Chtimes(oldNotice, long, long)
	os.Chtimes(newSess, recent, recent)

	h.event(t, hooks.Stop, map[string]string{"session_id": "s1"})
	if _, err := os.Stat(oldSess); err != nil {
		t.Errorf("a Stop pruned the sessions: %v", err)
	}
	h.event(t, hooks.SessionEnd, map[string]string{"session_id": "s1"})
	if _, err := os.Stat(oldSess); !os.IsNotExist(err) {
		t.Errorf("an old session's file stayed: %v", err)
	}
	if _, err := os.Stat(oldNotice); !os.IsNotExist(err) {
		t.Errorf("an old session's notices (never given) stayed: %v", err)
	}
	if _, err := os.Stat(newSess); err != nil {
		t.Errorf("a recent session's file went: %v", err)
	}
	if got := h.file(t, hooks.RecallLog+".1"); got != bigLog {
		t.Errorf("the big recall log was not rotated (%d bytes aside)", len(got))
	}
	h.noFailures(t)
}

// TestRunner_SessionStartDreamHeld: a session starts with a line saying
// the project's last automatic consolidation left operations for the
// user, until a dream runs since.
func TestRunner_SessionStartDreamHeld(t *testing.T) {
	h := newHome(t)
	h.saveTwo(t)
	ws, err := workspace.Open(h.wsEnv(), false)
	if err != nil {
		t.Fatal(err)
	}
	ran := clock.Add(-48 * time.Hour)
	line, _ := json.Marshal(workspace.DreamAutoResult{Time: ran, Project: ws.Layout.ProjectRoot, Ran: true, Held: 2})
	log := filepath.Join(h.agent, "memory", filepath.FromSlash(workspace.DreamLog))
	if err := os.MkdirAll(filepath.Dir(log), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, append(line, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	lock := ws.Store.Path(memdir.ConsolidateLock)
	if err := os.WriteFile(lock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(lock, ran, ran) // the automatic run's own
	got := h.event(t, hooks.SessionStart, map[string]string{"session_id": "s1", "source": "startup"})
	if !strings.Contains(got, "left 2 operations for the user to confirm") || !strings.Contains(got, "`memdir dream`") {
		t.Errorf("no line about the held operations:\n%s", got)
	}
	later := ran.Add(time.Hour) // a dream applied by hand since
	os.Chtimes(lock, later, later)
	if got := h.event(t, hooks.SessionStart, map[string]string{"session_id": "s2", "source": "startup"}); strings.Contains(got, "operations for the user") {
		t.Errorf("the line stays after a dream ran since:\n%s", got)
	}
	h.noFailures(t)
}
