package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/synthesis"
)

// dueClock is the time the due tests run at (UTC, as their zone).
var dueClock = time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)

// dueHome is a temp agent home whose days are counted in UTC.
func dueHome(t testing.TB) Transcripts {
	t.Helper()
	env, l := testEnv(t)
	tr, err := env.TranscriptsAt(l)
	if err != nil {
		t.Fatal(err)
	}
	tr.Loc, tr.Zone = time.UTC, "UTC"
	return tr
}

// writeTranscript writes a Claude Code transcript of size bytes (at least
// one line) and returns its path.
func writeTranscript(t testing.TB, tr Transcripts, folder, id string, size int) string {
	t.Helper()
	p := filepath.Join(tr.Layout.Home, "projects", folder, id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","message":{"role":"user","content":"hello"}}` + "\n"
	if err := os.WriteFile(p, []byte(strings.Repeat(line, max(1, size/len(line)))), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// setCursors writes a processing state with the cursors given by path.
func setCursors(t testing.TB, tr Transcripts, cursors map[string]int64) {
	t.Helper()
	st := sessions.NewState("UTC")
	for p, off := range cursors {
		// As a real state holds them: marks with hashes, a summary.
		m := sessions.Mark{Offset: off, Line: 40, Head: strings.Repeat("a", 64), Tail: strings.Repeat("b", 64), LastUUID: "0b8e2c9a-3f1d-4c55-9d0e-6a1f2b3c4d5e"}
		st.Transcripts[p] = &sessions.Entry{Dialect: "claude-code", SessionID: filepath.Base(p), CWD: "/home/u/src/proj", Branch: "main", Cursor: m,
			Summary: &sessions.Summary{Scanned: m, SessionID: filepath.Base(p), CWD: "/home/u/src/proj", Branch: "main",
				Start: dueClock.Add(-48 * time.Hour), End: dueClock.Add(-47 * time.Hour), Days: []string{"2026-11-23"}, Messages: 40}}
	}
	if err := tr.Folder.WriteJSON(sessions.StateFile, st); err != nil {
		t.Fatal(err)
	}
}

func size(t testing.TB, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestSynthesisDue(t *testing.T) {
	for _, tc := range []struct {
		name     string
		last     string // .last-synthesis; "-" for none
		settings string // settings.json, "" for none
		files    int    // transcripts written
		done     int    // of which the state's cursor is at the end
		grown    bool   // the last done one grew past its cursor
		want     string // a substring of the line; "" for none
	}{
		{name: "no transcripts, never synthesised", last: "-"},
		{name: "pending, never synthesised", last: "-", files: 2, want: "2 transcripts hold conversation not yet summarised; no synthesis has run yet"},
		{name: "all processed, never synthesised", last: "-", files: 2, done: 2},
		{name: "one unknown to the state", last: "-", files: 3, done: 2, want: "1 transcript holds conversation"},
		{name: "one grew past its cursor", last: "2026-11-24T20:00:00+00:00", files: 2, done: 2, grown: true, want: "1 transcript holds"},
		{name: "synthesised today, within the interval", last: "2026-11-25T09:00:00.123456+00:00", files: 2},
		{name: "synthesised yesterday", last: "2026-11-24T23:59:00Z", files: 2, want: "last synthesis 2026-11-24"},
		{name: "today but over the interval", last: "2026-11-25T01:00:00+00:00", settings: `{"synthesis":{"intervalHours":12}}`, files: 1, want: "1 transcript holds"},
		{name: "python isoformat without zone", last: "2026-11-25T13:00:00.5", files: 1},
		{name: "unreadable time: due", last: "last tuesday", files: 1, want: "no synthesis has run yet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := dueHome(t)
			cursors := map[string]int64{}
			for i := range tc.files {
				p := writeTranscript(t, tr, "-proj", fmt.Sprintf("s%d", i), 500)
				if i < tc.done {
					cursors[p] = size(t, p)
					if tc.grown && i == tc.done-1 {
						cursors[p] -= 60
					}
				}
			}
			if len(cursors) > 0 {
				setCursors(t, tr, cursors)
			}
			if tc.last != "-" {
				if err := tr.Folder.WriteFile(synthesis.LastSynthesis, []byte(tc.last)); err != nil {
					t.Fatal(err)
				}
			}
			if tc.settings != "" {
				if err := tr.Folder.WriteFile("settings.json", []byte(tc.settings)); err != nil {
					t.Fatal(err)
				}
			}
			line, err := SynthesisDue(tr, dueClock)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" && line != "" || tc.want != "" && !strings.Contains(line, tc.want) {
				t.Errorf("SynthesisDue()=%q, want one with %q", line, tc.want)
			}
			if line != "" && (!strings.Contains(line, "`memdir synthesize`") || strings.Contains(line, "\n")) {
				t.Errorf("the line names no command or is not one line: %q", line)
			}
		})
	}
}

func TestSynthesisDue_CorruptState(t *testing.T) {
	tr := dueHome(t)
	writeTranscript(t, tr, "-proj", "s0", 100)
	if err := tr.Folder.WriteFile(sessions.StateFile, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	line, err := SynthesisDue(tr, dueClock)
	if err == nil || line != "" {
		t.Errorf("SynthesisDue()=%q, %v; want an error and no line", line, err)
	}
	c := tr.StartContext(dueClock, 0)
	if len(c.Problems) != 1 || c.Due != "" || c.Global != "" {
		t.Errorf("StartContext()=%+v, want one problem and nothing else", c)
	}
}

// BenchmarkSynthesisDue is the SessionStart hook's due check on a home of
// 500 transcripts (in 20 project folders), all processed but the last:
// the listing and the state's read, never a transcript's content.
func BenchmarkSynthesisDue(b *testing.B) {
	tr := dueHome(b)
	cursors := map[string]int64{}
	for i := range 500 {
		p := writeTranscript(b, tr, fmt.Sprintf("-proj%d", i%20), fmt.Sprintf("%08d-aaaa-bbbb-cccc-%012d", i, i), 2000)
		if i < 499 {
			cursors[p] = size(b, p)
		}
	}
	setCursors(b, tr, cursors)
	if err := tr.Folder.WriteFile(synthesis.LastSynthesis, []byte("2026-11-24T10:00:00Z")); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		line, err := SynthesisDue(tr, dueClock)
		if err != nil || !strings.Contains(line, "1 transcript holds") {
			b.Fatalf("SynthesisDue()=%q, %v", line, err)
		}
	}
}

// TestStartContext_HugeGlobalFile: a global file far past what synthesis
// writes (pruned to ~40 KB) is named as a problem, not parsed on every
// session start.
func TestStartContext_HugeGlobalFile(t *testing.T) {
	tr := dueHome(t)
	big := "# Global Long-Term Memory\n\n## About Me\n" + strings.Repeat("- I write Go every day and like it.\n", synthesis.MaxHookRead/30)
	if err := tr.Folder.WriteFile("global-long-term-memory.md", []byte(big)); err != nil {
		t.Fatal(err)
	}
	c := tr.StartContext(dueClock, 4000)
	if c.Global != "" || len(c.Problems) != 1 || !strings.Contains(c.Problems[0].Error(), "larger than") {
		t.Fatalf("global %d bytes, problems %v", len(c.Global), c.Problems)
	}
	small := "# Global Long-Term Memory\n\n## About Me\n- I write Go every day and like it.\n"
	if err := tr.Folder.WriteFile("global-long-term-memory.md", []byte(small)); err != nil {
		t.Fatal(err)
	}
	if c := tr.StartContext(dueClock, 4000); !strings.Contains(c.Global, "I write Go") || len(c.Problems) != 0 {
		t.Fatalf("a small file: %q %v", c.Global, c.Problems)
	}
}
