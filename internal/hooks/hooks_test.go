package hooks_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/memdir/memdir/internal/hooks"
	"github.com/memdir/memdir/internal/recall"
)

func TestParseInput(t *testing.T) {
	for _, tc := range []struct {
		name, in, event string
		wantErr         string
		wantSession     string
	}{
		{name: "event from the command line", in: `{"session_id":"s1"}`, event: "Stop", wantSession: "s1"},
		{name: "event in both", in: `{"session_id":"s1","hook_event_name":"Stop"}`, event: "Stop", wantSession: "s1"},
		{name: "events differ", in: `{"session_id":"s1","hook_event_name":"SessionStart"}`, event: "Stop", wantSession: "s1", wantErr: "hook input is for SessionStart, not Stop"},
		{name: "no session", in: `{"hook_event_name":"Stop"}`, event: "Stop", wantErr: "hook input has no session_id"},
		{name: "not JSON", in: `nope`, event: "Stop", wantErr: "hook input is not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := hooks.ParseInput([]byte(tc.in), tc.event)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
			if in.SessionID != tc.wantSession {
				t.Errorf("session %q, want %q (kept for the log even on an error)", in.SessionID, tc.wantSession)
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	if got := hooks.Answer(hooks.UserPromptSubmit, " \n"); got != nil {
		t.Errorf("blank text answered %q", got)
	}
	if got, want := string(hooks.Answer(hooks.SessionStart, "a <b> & c")), `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a <b> & c"}}`+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	long := strings.Repeat("line of memory 😀\n", 2000)
	capped := hooks.Cap(long, hooks.ContextCap)
	if n := len(utf16.Encode([]rune(capped))); n > hooks.ContextCap || !strings.HasSuffix(capped, "context limit]") {
		t.Errorf("capped to %d units, ending %q", n, capped[len(capped)-40:])
	}
}

func TestSessionPolicy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		sess       hooks.Session
		wantBudget int
	}{
		{"fresh", hooks.Session{}, recall.DefaultPolicy.Budget},
		{"less left than a prompt's budget", hooks.Session{Tokens: hooks.SessionBudget - 700}, 700},
		{"spent", hooks.Session{Tokens: hooks.SessionBudget}, 0},
		{"overspent", hooks.Session{Tokens: hooks.SessionBudget + 10}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.sess.Policy()
			if p.Budget != tc.wantBudget || p.K != recall.DefaultPolicy.K || p.Threshold != recall.DefaultPolicy.Threshold {
				t.Errorf("policy %+v, want budget %d", p, tc.wantBudget)
			}
		})
	}
	s := hooks.Session{Injected: []string{"a.md"}, Tokens: 100, Turns: 1}
	s.Given([]string{"b.md"}, 50)
	s.Given(nil, 0)
	if !slices.Equal(s.Injected, []string{"a.md", "b.md"}) || s.Tokens != 150 || s.Turns != 3 || s.Remaining() != hooks.SessionBudget-150 {
		t.Errorf("after two turns: %+v", s)
	}
	if p := s.Policy(); !slices.Equal(p.Exclude, s.Injected) {
		t.Errorf("the policy excludes %v, want %v", p.Exclude, s.Injected)
	}
}

func TestRecallQuery(t *testing.T) {
	p := recall.DefaultPolicy
	for _, tc := range []struct {
		name    string
		prompt  string
		budget  int
		wantLen int
		wantOK  bool
	}{
		{"a prompt", "deploy on friday?", p.Budget, 17, true},
		{"blank", " \t\n", p.Budget, 3, false},
		{"no budget for one memory", "deploy on friday?", recall.MinBudget() - 1, 17, false},
		{"a pasted megabyte is ranked on its start", strings.Repeat("x", 1<<20), p.Budget, hooks.MaxPrompt, true},
		{"private text is not searched for", "deploy <private>tangerine</private> friday", p.Budget, len("deploy [private] friday"), true},
		{"a private prompt is no query", "<private>tangerine plans</private>", p.Budget, len("[private]"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := p
			q.Budget = tc.budget
			text, ok := hooks.RecallQuery(tc.prompt, q)
			if len(text) != tc.wantLen || ok != tc.wantOK || strings.Contains(text, "tangerine") {
				t.Errorf("len %d ok %v, want %d %v", len(text), ok, tc.wantLen, tc.wantOK)
			}
		})
	}
}

func TestSessionFile(t *testing.T) {
	seen := map[string]string{}
	for _, tc := range []struct {
		id    string
		plain bool // named by the id itself, else by a hash of it
	}{
		{"ee7f724b-a4fa-41b2-b278-99ee29e7bd4a", true},
		{"s_1", true},
		{"../../etc/passwd", false},
		{"", false},
		{"a b", false},
		{strings.Repeat("a", 101), false},
	} {
		got := hooks.SessionFile(tc.id)
		want := tc.id + ".json"
		if !tc.plain {
			want = got
			if name := strings.TrimSuffix(got, ".json"); len(name) != 24 || strings.Trim(name, "0123456789abcdef") != "" {
				t.Errorf("SessionFile(%q) = %q, want 24 hex digits", tc.id, got)
			}
		}
		if got != want || got != hooks.SessionFile(tc.id) {
			t.Errorf("SessionFile(%q) = %q, want %q", tc.id, got, want)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%q and %q share %s", tc.id, other, got)
		}
		seen[got] = tc.id
	}
}

func TestExtraction(t *testing.T) {
	abs := "/tmp/t/s.jsonl"
	for _, tc := range []struct {
		name     string
		in       hooks.Input
		switch_  string
		extracts bool
		args     []string
	}{
		{"Stop", hooks.Input{Event: hooks.Stop, TranscriptPath: abs}, "", true, []string{"--home", "/h", "extract", "--transcript", abs}},
		{"SessionEnd takes the trailing turns, then the dream", hooks.Input{Event: hooks.SessionEnd, SessionID: "s1", TranscriptPath: abs}, "on", true, []string{"--home", "/h", "extract", "--transcript", abs, "--trailing", "--then-dream", "s1"}},
		{"off", hooks.Input{Event: hooks.Stop, TranscriptPath: abs}, "Off", false, nil},
		{"relative path", hooks.Input{Event: hooks.Stop, TranscriptPath: "t/s.jsonl"}, "", false, nil},
		{"no path", hooks.Input{Event: hooks.Stop}, "", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hooks.Extracts(tc.in, tc.switch_); got != tc.extracts {
				t.Errorf("Extracts = %v", got)
			}
			if tc.args != nil && !slices.Equal(hooks.ExtractArgs("/h", tc.in), tc.args) {
				t.Errorf("ExtractArgs = %q, want %q", hooks.ExtractArgs("/h", tc.in), tc.args)
			}
		})
	}
}

func TestLogLine(t *testing.T) {
	at := time.Date(2026, 11, 25, 15, 4, 5, 0, time.FixedZone("CET", 3600))
	got := hooks.LogLine(at, "Stop", "s1", errors.New("one\ntwo"))
	if want := "2026-11-25T14:04:05Z Stop session=\"s1\" one | two"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A session id or an error carrying the caller's text cannot forge a
// hooks.log line.
func TestLogLine_NoInjection(t *testing.T) {
	at := time.Date(2026, 11, 25, 15, 4, 5, 0, time.UTC)
	got := hooks.LogLine(at, "Stop\r", "s1\n2026-11-25T00:00:00Z Stop session=forged ok", errors.New("a\rb\x1bc"))
	want := `2026-11-25T15:04:05Z "Stop\r" session="s1\n2026-11-25T00:00:00Z Stop session=forged ok" a\u000db\u001bc`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
