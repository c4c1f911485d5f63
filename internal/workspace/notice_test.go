package workspace_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/workspace"
)

// notices reads a session's notices file as it is; nil when it is absent.
func (h *home) notices(session string) []workspace.Notice {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.home, "memory", workspace.NoticeFile(session)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	var out []workspace.Notice
	for line := range strings.Lines(string(b)) {
		var n workspace.Notice
		if err := json.Unmarshal([]byte(line), &n); err != nil {
			h.t.Fatalf("notice line %q: %v", line, err)
		}
		out = append(out, n)
	}
	return out
}

// A run that saves appends one notice for the transcript's session; a dry
// run and a run that saves nothing append none; taking the notices
// removes them.
func TestExtract_NoticeForTheSession(t *testing.T) {
	h := newHome(t)
	h.transcript("n1", "We always run the linters before pushing, they caught a data race last week.")
	h.extract(workspace.ExtractOptions{DryRun: true})
	if ns := h.notices("n1"); ns != nil {
		t.Fatalf("a dry run wrote notices: %+v", ns)
	}
	res := h.extract(workspace.ExtractOptions{})
	ns := h.notices("n1")
	if len(ns) != 1 || len(ns[0].Saved) != 1 || ns[0].Saved[0] != res.Reports[0].Saved[0] || ns[0].Time.IsZero() {
		t.Fatalf("notices %+v, report %+v", ns, res.Reports)
	}
	h.extract(workspace.ExtractOptions{}) // nothing new
	if ns := h.notices("n1"); len(ns) != 1 {
		t.Fatalf("a run that saved nothing added a notice: %+v", ns)
	}
	h.transcript("n2", "What time is it?")
	h.extract(workspace.ExtractOptions{})
	if ns := h.notices("n2"); ns != nil {
		t.Errorf("a transcript with nothing to save got notices: %+v", ns)
	}

	tr, err := h.env().Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.TakeNotices("n1")
	if err != nil || len(got) != 1 {
		t.Fatalf("take: %+v, %v", got, err)
	}
	if ns := h.notices("n1"); ns != nil {
		t.Errorf("the notices stayed after they were taken: %+v", ns)
	}
	if got, err := tr.TakeNotices("n1"); !errors.Is(err, fs.ErrNotExist) || got != nil {
		t.Errorf("second take: %+v, %v", got, err)
	}
}

// An update by extraction keeps the version it replaced, so the notice's
// 'memdir restore NAME' undoes it.
func TestExtract_UpdateIsUndoable(t *testing.T) {
	h := newHome(t)
	h.transcript("u1", "We always run the linters before pushing, they caught a data race last week.")
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(`{"operations":[` + createLinters + `]}`)}
	h.extract(h.model(fake))
	if err := os.Remove(filepath.Join(h.home, "memory", workspace.ExtractStateFile)); err != nil {
		t.Fatal(err)
	}
	res := h.extract(h.model(fake))
	if len(res.Reports[0].Updated) != 1 {
		t.Fatalf("not an update: %+v", res.Reports[0])
	}
	ws, err := workspace.Open(h.env(), false)
	if err != nil {
		t.Fatal(err)
	}
	if vs, err := ws.Versions(res.Reports[0].Updated[0]); err != nil || len(vs) != 1 {
		t.Errorf("kept versions %+v, %v", vs, err)
	}
	if ns := h.notices("u1"); len(ns) != 2 || len(ns[1].Updated) != 1 {
		t.Errorf("notices %+v", ns)
	}
}

// A torn last line (a crash mid-append) and a line that is not a notice
// are skipped; the rest is given.
func TestTakeNotices_SkipsTornLines(t *testing.T) {
	h := newHome(t)
	p := filepath.Join(h.home, "memory", workspace.NoticeFile("s1"))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("not json\n{\"saved\":[\"a.md\"]}\n{\"saved\":[\"b."), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := h.env().Transcripts()
	if err != nil {
		t.Fatal(err)
	}
	ns, err := tr.TakeNotices("s1")
	if err != nil || len(ns) != 1 || ns[0].Saved[0] != "a.md" {
		t.Fatalf("%+v, %v", ns, err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file stayed: %v", err)
	}
}

func TestNoticeLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		ns   []workspace.Notice
		want string // "" for no line
		not  string
	}{
		{name: "none", ns: nil},
		{name: "empty lists", ns: []workspace.Notice{{Saved: []string{}}}},
		{name: "saved", ns: []workspace.Notice{{Saved: []string{"a.md", "b.md"}}},
			want: "memdir saved memories from this session (new: a.md, b.md); undo with 'memdir forget NAME'"},
		{name: "all three", ns: []workspace.Notice{{Saved: []string{"a.md"}}, {Updated: []string{"c.md"}, Superseded: []string{"d.md → e.md"}}},
			want: "(new: a.md; updated: c.md; superseded: d.md → e.md)"},
		{name: "saved then updated is named once", ns: []workspace.Notice{{Saved: []string{"a.md"}}, {Updated: []string{"a.md"}}},
			want: "(new: a.md)", not: "updated:"},
		{name: "capped", ns: []workspace.Notice{{Saved: []string{"1.md", "2.md", "3.md", "4.md"}, Updated: []string{"5.md", "6.md", "7.md"}, Superseded: []string{"x → y"}}},
			want: "(new: 1.md, 2.md, 3.md, 4.md; updated: 5.md and 2 more; superseded: 1)", not: "6.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := workspace.NoticeLine(tc.ns)
			if tc.want == "" {
				if got != "" {
					t.Fatalf("got %q, want no line", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || strings.Contains(got, "\n") || (tc.not != "" && strings.Contains(got, tc.not)) {
				t.Errorf("got %q, want it to hold %q (and not %q), on one line", got, tc.want, tc.not)
			}
		})
	}
}

// BenchmarkTakeNotices_None is a prompt's cost of notices when there are
// none: one failed lstat.
func BenchmarkTakeNotices_None(b *testing.B) {
	root := b.TempDir()
	env := workspace.Env{Getenv: func(k string) string { return map[string]string{"HOME": root}[k] }, Cwd: root, HomeFlag: filepath.Join(root, ".claude")}
	tr, err := env.Transcripts()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := tr.TakeNotices("no-such-session"); !errors.Is(err, fs.ErrNotExist) {
			b.Fatal(err)
		}
	}
}
