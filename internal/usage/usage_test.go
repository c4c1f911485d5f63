package usage_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/usage"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// at is t0 plus m minutes.
func at(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

// line is a recall log line as the hook writes it (its field order).
func line(tm time.Time, project string, files ...string) string {
	q := make([]string, len(files))
	for i, f := range files {
		q[i] = fmt.Sprintf("%q", f)
	}
	return fmt.Sprintf(`{"time":%q,"session_id":"s1","project":%q,"files":[%s],"tokens":40,"session_budget_left":19960,"ms":3.1}`,
		tm.Format(time.RFC3339Nano), project, strings.Join(q, ","))
}

func TestFold(t *testing.T) {
	log := strings.Join([]string{
		line(at(0), "/p", "a.md"),                    // before folded_until: counted already
		line(at(10), "/p", "a.md", "b.md"),           // counted
		line(at(11), "/other", "a.md"),               // another project
		line(at(12), "/p", "global.md#Tabs", "a.md"), // a learning's ID is no memory
		line(at(13), "/p"),                           // abstained
		line(at(30), "/p", "b.md"),                   // after until: left for later
		`{"time":"` + at(40).Format(time.RFC3339) + `","session_id":"s2","project":"/p","files":["c.m`, // torn
	}, "\n")
	var l usage.Log
	l.ReadLog([]byte(log), "/p", time.Time{})
	if l.Bad != 1 {
		t.Errorf("Bad = %d, want 1 (the torn last line)", l.Bad)
	}
	if !l.Oldest.Equal(at(0)) {
		t.Errorf("Oldest = %v, want %v", l.Oldest, at(0))
	}
	f := usage.File{Version: 1, Since: at(-60), FoldedUntil: at(5), Memories: map[string]usage.Record{"a.md": {Injected: 7, FirstInjected: at(-50), LastInjected: at(0)}}}
	got := usage.Fold(f, l, "/p", at(20))
	if r := got.Memories["a.md"]; r.Injected != 9 || !r.FirstInjected.Equal(at(-50)) || !r.LastInjected.Equal(at(12)) {
		t.Errorf("a.md = %+v, want 9 injections, first %v, last %v", r, at(-50), at(12))
	}
	if r := got.Memories["b.md"]; r.Injected != 1 || !r.FirstInjected.Equal(at(10)) || !r.LastInjected.Equal(at(10)) {
		t.Errorf("b.md = %+v, want 1 injection at %v", r, at(10))
	}
	if _, ok := got.Memories["global.md#Tabs"]; ok || len(got.Memories) != 2 {
		t.Errorf("memories = %v, want a.md and b.md only", got.Memories)
	}
	if !got.FoldedUntil.Equal(at(20)) || !got.Since.Equal(at(-60)) {
		t.Errorf("folded_until %v since %v, want %v and %v", got.FoldedUntil, got.Since, at(20), at(-60))
	}
	if f.Memories["a.md"].Injected != 7 {
		t.Error("Fold changed its argument's map")
	}
	// Folding the same log again counts nothing twice; later, the rest.
	again := usage.Fold(got, l, "/p", at(20))
	if again.Memories["a.md"].Injected != 9 || again.Memories["b.md"].Injected != 1 {
		t.Errorf("a second fold counted again: %+v", again.Memories)
	}
	later := usage.Fold(got, l, "/p", at(60))
	if later.Memories["b.md"].Injected != 2 || !later.Memories["b.md"].LastInjected.Equal(at(30)) {
		t.Errorf("the later fold: b.md = %+v", later.Memories["b.md"])
	}
	// A view (until zero) counts every newer line and moves nothing.
	view := usage.Fold(got, l, "/p", time.Time{})
	if view.Memories["b.md"].Injected != 2 || !view.FoldedUntil.Equal(at(20)) {
		t.Errorf("view: b.md %+v, folded_until %v", view.Memories["b.md"], view.FoldedUntil)
	}
	// A first fold: evidence begins with the oldest line the log holds.
	var lo usage.Log
	lo.ReadLog([]byte(log), "/other", time.Time{})
	first := usage.Fold(usage.File{}, lo, "/other", at(20))
	if !first.Since.Equal(at(0)) || first.Memories["a.md"].Injected != 1 {
		t.Errorf("first fold: since %v, %+v", first.Since, first.Memories)
	}
	if empty := usage.Fold(usage.File{}, usage.Log{}, "/p", at(20)); !empty.Since.Equal(at(20)) {
		t.Errorf("first fold of an empty log: since %v, want %v", empty.Since, at(20))
	}
}

func TestReadLog_After(t *testing.T) {
	b := []byte(line(at(0), "/p", "a.md") + "\n\n" + line(at(2), "/p", "b.md") + "\nnot json\n" + `{"project":"/p","time":"` + at(3).Format(time.RFC3339) + `","files":["c.md"]}` + "\n")
	var l usage.Log
	l.ReadLog(b, "/p", at(1))
	if len(l.Lines) != 2 || l.Lines[0].Files[0] != "b.md" || l.Lines[1].Files[0] != "c.md" {
		t.Errorf("lines = %+v, want b.md and c.md (the line of another field order too)", l.Lines)
	}
	if l.Bad != 1 {
		t.Errorf("Bad = %d, want 1", l.Bad)
	}
	// A project whose name another one begins with is not it.
	var m usage.Log
	m.ReadLog([]byte(line(at(5), "/p2", "x.md")), "/p", time.Time{})
	if len(m.Lines) != 0 {
		t.Errorf("lines of /p2 read for /p: %+v", m.Lines)
	}
}

func TestMark(t *testing.T) {
	f, r, err := usage.Mark(usage.File{}, "a.md", usage.Wrong, "  the freeze ended  ", "cli", at(0))
	if err != nil || r.Wrong != 1 || r.Helpful != 0 || len(r.Notes) != 1 || r.Notes[0].Text != "the freeze ended" || r.Notes[0].By != "cli" || !r.LastMarked.Equal(at(0)) {
		t.Fatalf("Mark = %+v, %v", r, err)
	}
	for i := range usage.MaxNotes + 5 {
		f, r, err = usage.Mark(f, "a.md", usage.Helpful, strings.Repeat("é", usage.MaxNoteLen), "mcp", at(i+1))
		if err != nil {
			t.Fatal(err)
		}
	}
	if r.Helpful != usage.MaxNotes+5 || r.Wrong != 1 || len(r.Notes) != usage.MaxNotes || !r.Notes[len(r.Notes)-1].Time.Equal(at(usage.MaxNotes+5)) {
		t.Errorf("after many marks: helpful %d wrong %d, %d notes", r.Helpful, r.Wrong, len(r.Notes))
	}
	if n := r.Notes[0].Text; len(n) > usage.MaxNoteLen || !strings.HasSuffix(n, "é") {
		t.Errorf("a long note is %d bytes, cut mid-character: %q", len(n), n[len(n)-4:])
	}
	if _, _, err := usage.Mark(f, "a.md", "maybe", "", "cli", at(0)); !errors.Is(err, usage.ErrVerdict) {
		t.Errorf("verdict maybe: %v, want ErrVerdict", err)
	}
	if v, err := usage.ParseVerdict(" Helpful "); v != usage.Helpful || err != nil {
		t.Errorf("ParseVerdict = %q, %v", v, err)
	}
}

func TestRenameDrop(t *testing.T) {
	f := usage.File{Memories: map[string]usage.Record{
		"old.md":  {Injected: 3, FirstInjected: at(1), LastInjected: at(50), Wrong: 1, LastMarked: at(40), Notes: []usage.Note{{Time: at(40), Verdict: usage.Wrong}}},
		"kept.md": {Injected: 2, FirstInjected: at(5), LastInjected: at(20), Helpful: 2, LastMarked: at(10), Notes: []usage.Note{{Time: at(10), Verdict: usage.Helpful}}},
	}}
	got := usage.Rename(f, "old.md", "kept.md")
	r := got.Memories["kept.md"]
	if _, ok := got.Memories["old.md"]; ok || r.Injected != 5 || r.Helpful != 2 || r.Wrong != 1 ||
		!r.FirstInjected.Equal(at(1)) || !r.LastInjected.Equal(at(50)) || !r.LastMarked.Equal(at(40)) ||
		len(r.Notes) != 2 || !r.Notes[0].Time.Equal(at(10)) {
		t.Errorf("Rename = %+v", got.Memories)
	}
	if len(f.Memories) != 2 {
		t.Error("Rename changed its argument")
	}
	if moved := usage.Rename(f, "old.md", "new.md"); moved.Memories["new.md"].Injected != 3 {
		t.Errorf("Rename to a memory without evidence: %+v", moved.Memories)
	}
	if d := usage.Drop(got, "kept.md"); len(d.Memories) != 0 {
		t.Errorf("Drop = %+v", d.Memories)
	}
}

func TestParse(t *testing.T) {
	f, err := usage.Parse(nil)
	if err != nil || f.Memories == nil || f.Version != usage.Version {
		t.Fatalf("Parse(nil) = %+v, %v", f, err)
	}
	f, _, _ = usage.Mark(usage.Fold(f, usage.Log{}, "/p", at(0)), "a.md", usage.Helpful, "x", "cli", at(1))
	b, err := usage.Format(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := usage.Parse(b)
	if err != nil || back.Memories["a.md"].Helpful != 1 || !back.Since.Equal(at(0)) || !back.FoldedUntil.Equal(at(0)) {
		t.Errorf("round trip: %+v, %v\n%s", back, err, b)
	}
	for _, bad := range []string{"{", "[]", `{"version":9,"memories":{}}`, `{"version":1,"memories":{"a.md":{"injected":-1}}}`, `{"memories":{}}`} {
		if _, err := usage.Parse([]byte(bad)); !errors.Is(err, usage.ErrCorrupt) {
			t.Errorf("Parse(%s) = %v, want ErrCorrupt", bad, err)
		}
	}
}

func FuzzReadLog(f *testing.F) {
	f.Add([]byte(line(at(0), "/p", "a.md") + "\n" + line(at(1), "/p", "b.md")))
	f.Add([]byte(`{"time":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var l usage.Log
		l.ReadLog(b, "/p", time.Time{})
		for _, ln := range l.Lines {
			if ln.Project != "/p" {
				t.Fatalf("a line of %q", ln.Project)
			}
		}
		_ = usage.Fold(usage.File{}, l, "/p", time.Time{})
	})
}

func TestFold_EveryProject(t *testing.T) {
	var l usage.Log
	l.ReadLog([]byte(line(at(0), "/p", "a.md")+"\n"+line(at(1), "/q", "a.md")+"\n"), "", time.Time{})
	if got := usage.Fold(usage.File{}, l, "", at(5)).Memories["a.md"].Injected; got != 2 {
		t.Errorf("every project: injected %d, want 2", got)
	}
	if got := usage.Fold(usage.File{}, l, "/q", at(5)).Memories["a.md"].Injected; got != 1 {
		t.Errorf("project /q: injected %d, want 1", got)
	}
}
