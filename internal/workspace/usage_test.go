package workspace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/usage"
)

var ut0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func uat(m int) time.Time { return ut0.Add(time.Duration(m) * time.Minute) }

// recallLine is a recall log line as the hook writes it (the fields of
// hooks.RecallLine, in its order).
func recallLine(tm time.Time, project string, files ...string) string {
	b, _ := json.Marshal(struct {
		Time      time.Time `json:"time"`
		SessionID string    `json:"session_id"`
		Project   string    `json:"project"`
		Files     []string  `json:"files"`
		Tokens    int       `json:"tokens"`
	}{tm, "s", project, append([]string{}, files...), 10})
	return string(b)
}

// usageWorkspace is a workspace with memories alpha.md, beta.md and
// gamma.md.
func usageWorkspace(t *testing.T) *Workspace {
	t.Helper()
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Alpha", "Beta", "Gamma"} {
		save(t, ws, n)
	}
	return ws
}

// writeRecallLog writes ws's recall log: current, and old as its rotated
// generation unless nil; it returns the current file's path.
func writeRecallLog(t *testing.T, ws *Workspace, old, current []string) string {
	t.Helper()
	p := filepath.Join(ws.Layout.SynthesisDir, filepath.FromSlash(RecallLog))
	os.MkdirAll(filepath.Dir(p), 0o700)
	if old != nil {
		os.WriteFile(p+".1", []byte(strings.Join(old, "\n")+"\n"), 0o600)
	}
	os.WriteFile(p, []byte(strings.Join(current, "\n")), 0o600)
	return p
}

func TestUsage_Fold(t *testing.T) {
	ws := usageWorkspace(t)
	me, other := ws.Layout.ProjectRoot, "/somewhere/else"
	p := writeRecallLog(t, ws,
		[]string{recallLine(uat(0), me, "alpha.md"), recallLine(uat(1), other, "alpha.md")},
		[]string{
			recallLine(uat(2), me, "alpha.md", "beta.md"),
			recallLine(uat(3), other, "beta.md", "gamma.md"),
			recallLine(uat(4), me, "global.md#Tabs"),
			recallLine(uat(30), me, "gamma.md"), // within UsageSettle of the fold: later
			`{"time":"` + uat(31).Format(time.RFC3339) + `","session_id":"s","project":` + fmt.Sprintf("%q", me) + `,"files":["beta`, // torn
		})

	// Before any fold: the view counts every line, and writes nothing.
	f, err := ws.Usage(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(f); got != "alpha.md=2 beta.md=1 gamma.md=1" {
		t.Errorf("Usage before a fold: %s", got)
	}
	if !f.Since.Equal(uat(0)) {
		t.Errorf("since %v, want the oldest line %v", f.Since, uat(0))
	}
	if _, err := os.Stat(ws.Store.Path(memdir.UsageFile)); err == nil {
		t.Fatal("Usage wrote the usage file")
	}

	res, err := ws.FoldUsage(t.Context(), uat(30).Add(UsageSettle/2))
	if err != nil || res.Lines != 3 || res.Aside != "" {
		t.Fatalf("FoldUsage = %+v, %v; want 3 lines", res, err)
	}
	stored := readUsage(t, ws)
	if got := counts(stored); got != "alpha.md=2 beta.md=1" {
		t.Errorf("folded: %s (the line within UsageSettle waits)", got)
	}
	if r := stored.Memories["alpha.md"]; !r.FirstInjected.Equal(uat(0)) || !r.LastInjected.Equal(uat(2)) {
		t.Errorf("alpha.md %+v", r)
	}
	// The view adds the line not folded yet, once.
	if f, _ := ws.Usage(t.Context()); counts(f) != "alpha.md=2 beta.md=1 gamma.md=1" {
		t.Errorf("Usage after a fold: %s", counts(f))
	}
	// A later fold counts only what is new.
	if res, err := ws.FoldUsage(t.Context(), uat(60)); err != nil || res.Lines != 1 {
		t.Fatalf("second FoldUsage = %+v, %v", res, err)
	}
	if got := counts(readUsage(t, ws)); got != "alpha.md=2 beta.md=1 gamma.md=1" {
		t.Errorf("after the second fold: %s", got)
	}
	// Nothing new: the file is not rewritten.
	before, _ := os.Stat(ws.Store.Path(memdir.UsageFile))
	if res, err := ws.FoldUsage(t.Context(), uat(90)); err != nil || res.Lines != 0 {
		t.Fatalf("third FoldUsage = %+v, %v", res, err)
	}
	if after, _ := os.Stat(ws.Store.Path(memdir.UsageFile)); !os.SameFile(before, after) {
		t.Error("a fold with nothing new rewrote the file")
	}
	// Unless FoldedUntil lags a day behind: it moves, so that later folds
	// read less of the log.
	if _, err := ws.FoldUsage(t.Context(), uat(90).Add(usageRewrite)); err != nil {
		t.Fatal(err)
	}
	if got := readUsage(t, ws).FoldedUntil; !got.Equal(uat(90).Add(usageRewrite - UsageSettle)) {
		t.Errorf("folded_until %v after a day without lines", got)
	}
	// Rotation moves the log aside; what was folded stays counted once.
	os.Rename(p, p+".1")
	os.WriteFile(p, []byte(recallLine(uat(100).Add(usageRewrite), me, "beta.md")+"\n"), 0o600)
	ws.FoldUsage(t.Context(), uat(120).Add(usageRewrite))
	if got := counts(readUsage(t, ws)); got != "alpha.md=2 beta.md=2 gamma.md=1" {
		t.Errorf("after a rotation: %s", got)
	}
}

func counts(f usage.File) string {
	var out []string
	for _, n := range []string{"alpha.md", "beta.md", "gamma.md", "global.md#Tabs"} {
		if r, ok := f.Memories[n]; ok {
			out = append(out, fmt.Sprintf("%s=%d", n, r.Injected))
		}
	}
	return strings.Join(out, " ")
}

func readUsage(t *testing.T, ws *Workspace) usage.File {
	t.Helper()
	b, err := ws.Store.ReadSide(memdir.UsageFile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := usage.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestWorkspace_Mark(t *testing.T) {
	ws := usageWorkspace(t)
	m, err := ws.Mark(t.Context(), "Beta", usage.Wrong, "the key is sk-ant-api03-"+strings.Repeat("a", 90), "cli")
	if err != nil {
		t.Fatal(err)
	}
	if m.File != "beta.md" || m.Name != "Beta" || m.Record.Wrong != 1 || len(m.Record.Notes) != 1 || strings.Contains(m.Record.Notes[0].Text, "aaaa") {
		t.Errorf("Mark = %+v", m)
	}
	if r := readUsage(t, ws).Memories["beta.md"]; r.Wrong != 1 || r.Notes[0].By != "cli" {
		t.Errorf("stored: %+v", r)
	}
	if m, _ := ws.Mark(t.Context(), "beta.md", usage.Helpful, "", "mcp"); m.Record.Wrong != 1 || m.Record.Helpful != 1 {
		t.Errorf("second mark: %+v", m.Record)
	}

	_, err = ws.Mark(t.Context(), "No such memory", usage.Helpful, "", "cli")
	if !errors.Is(err, memdir.ErrNotFound) || !strings.Contains(HintFor(err), "memdir list") {
		t.Errorf("unknown name: %v (hint %q)", err, HintFor(err))
	}
	if _, err := ws.Store.Forget(t.Context(), "Gamma", false); err != nil {
		t.Fatal(err)
	}
	_, err = ws.Mark(t.Context(), "Gamma", usage.Helpful, "", "cli")
	if !errors.Is(err, memdir.ErrNotFound) || !strings.Contains(HintFor(err), "memdir restore Gamma") {
		t.Errorf("forgotten name: %v (hint %q)", err, HintFor(err))
	}
	_, err = ws.Mark(t.Context(), "Beta", Verdict(true, true), "", "cli")
	if !errors.Is(err, usage.ErrVerdict) || hint.Of(err) == "" {
		t.Errorf("both verdicts: %v", err)
	}
}

func TestUsage_Corrupt(t *testing.T) {
	ws := usageWorkspace(t)
	writeRecallLog(t, ws, nil, []string{recallLine(uat(0), ws.Layout.ProjectRoot, "alpha.md")})
	os.WriteFile(ws.Store.Path(memdir.UsageFile), []byte(`{"version":1,"memories":{"alpha.md":{"injected":"many"}}}`), 0o600)
	if _, err := ws.Usage(t.Context()); !errors.Is(err, usage.ErrCorrupt) || !strings.Contains(err.Error(), memdir.UsageFile) || hint.Of(err) == "" {
		t.Errorf("Usage of a corrupt file: %v", err)
	}
	res, err := ws.FoldUsage(t.Context(), uat(60))
	if err != nil || !strings.Contains(res.Aside, memdir.UsageFile+".corrupt-") {
		t.Fatalf("FoldUsage = %+v, %v; want the file kept aside", res, err)
	}
	if b, _ := os.ReadFile(res.Aside); !strings.Contains(string(b), "many") {
		t.Errorf("kept aside: %q", b)
	}
	if _, err := ws.Usage(t.Context()); err != nil {
		t.Errorf("Usage after a fresh start: %v", err)
	}
	os.WriteFile(ws.Store.Path(memdir.UsageFile), []byte("\x00\x01"), 0o600)
	m, err := ws.Mark(t.Context(), "Alpha", usage.Helpful, "", "cli")
	if err != nil || m.Aside == "" || m.Record.Helpful != 1 {
		t.Errorf("Mark over a corrupt file = %+v, %v", m, err)
	}
	var out, warn bytes.Buffer
	m.Write(&out, &warn, false)
	if !strings.Contains(warn.String(), "kept as") || !strings.Contains(out.String(), "marked alpha.md helpful: helpful 1, wrong 0") {
		t.Errorf("Write: %q / %q", out.String(), warn.String())
	}
}

func TestListing_Stats(t *testing.T) {
	ws := usageWorkspace(t)
	writeRecallLog(t, ws, nil, []string{recallLine(uat(0), ws.Layout.ProjectRoot, "alpha.md"), recallLine(uat(1), ws.Layout.ProjectRoot, "alpha.md")})
	ws.Mark(t.Context(), "Beta", usage.Wrong, "stale", "cli")
	ls, _, err := List(t.Context(), ws.Store)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	ls.WriteText(&plain, "")
	if strings.Contains(plain.String(), "injected") {
		t.Errorf("stats without --stats:\n%s", plain.String())
	}
	if err := ls.AddStats(t.Context(), ws); err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	ls.WriteText(&text, "")
	for _, want := range []string{"alpha.md  ", "injected   2  last " + uat(1).Local().Format("2006-01-02") + "  helpful 0  wrong 0  Alpha", "injected   0  last never       helpful 0  wrong 1  Beta"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	ls.WriteJSON(&js, ws.Store, "", func(err error) { t.Error(err) })
	var got []MemoryJSON
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	byFile := map[string]*usage.Record{}
	for _, m := range got {
		byFile[m.File] = m.Usage
	}
	if r := byFile["alpha.md"]; r == nil || r.Injected != 2 {
		t.Errorf("alpha.md usage %+v", r)
	}
	if r := byFile["gamma.md"]; r == nil || r.Injected != 0 {
		t.Errorf("gamma.md usage %+v (want a zero record, not none)", r)
	}
	if r := byFile["beta.md"]; r == nil || r.Wrong != 1 || r.Notes[0].Text != "stale" {
		t.Errorf("beta.md usage %+v", r)
	}
}

// BenchmarkFoldUsage folds a full recall log (4 MiB, as rotation leaves
// it at most, plus its older generation) of ten projects: the first fold
// (every line new) and the usual one (one session's lines new).
func BenchmarkFoldUsage(b *testing.B) {
	env, l := testEnv(b)
	ws, err := Init(env, l)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	n := 0
	for buf.Len() < 4<<20 {
		project := fmt.Sprintf("/home/someone/src/project-%d", n%10)
		if n%10 == 0 {
			project = l.ProjectRoot
		}
		fmt.Fprintf(&buf, `{"time":%q,"session_id":"0b9f1c7e-3c55-4d0e-9d59-%012d","prompt_id":"p%d","project":%q,"files":["deploy-freeze.md","integration-tests-hit-a-real-database.md"],"tokens":412,"session_budget_left":18000,"ms":21.5}`+"\n",
			uat(n).Format(time.RFC3339Nano), n, n, project)
		n++
	}
	p := filepath.Join(l.SynthesisDir, filepath.FromSlash(RecallLog))
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, buf.Bytes(), 0o600)
	os.WriteFile(p+".1", buf.Bytes(), 0o600)
	end := uat(n + 60)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			os.Remove(ws.Store.Path(memdir.UsageFile))
			if _, err := ws.FoldUsage(b.Context(), end); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n), "lines")
	})
	b.Run("steady", func(b *testing.B) {
		f := readUsageB(b, ws)
		f.FoldedUntil = uat(n - 20)
		for b.Loop() {
			b.StopTimer()
			out, _ := usage.Format(f)
			ws.Store.UpdateSide(b.Context(), memdir.UsageFile, func([]byte) ([]byte, error) { return out, nil })
			b.StartTimer()
			if _, err := ws.FoldUsage(b.Context(), end); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func readUsageB(b *testing.B, ws *Workspace) usage.File {
	raw, _ := ws.Store.ReadSide(memdir.UsageFile)
	f, err := usage.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// TestUsage_ReadsTheTail: a fold after the first reads the log from its
// end back to a line settled before FoldedUntil, and counts what a reading
// of the whole log would: a line stamped after FoldedUntil but appended
// before lines stamped up to 8 s earlier (a hook slow to answer) included,
// wherever the pieces read end.
func TestUsage_ReadsTheTail(t *testing.T) {
	defer func(c int64) { tailChunk = c }(tailChunk)
	tailChunk = 300 // two or three lines
	ws := usageWorkspace(t)
	me := ws.Layout.ProjectRoot
	sec := func(i int) time.Time { return ut0.Add(time.Duration(i) * time.Second) }
	const n = 400
	for _, k := range []int{399, 390, 350, 300, 200, 57, 10, 6} {
		lines := make([]string, 0, n+1)
		for i := range n {
			if i == k-6 {
				lines = append(lines, recallLine(sec(k).Add(time.Second/2), me, "beta.md"))
			}
			lines = append(lines, recallLine(sec(i), me, "alpha.md"))
		}
		writeRecallLog(t, ws, nil, lines)
		f, _ := usage.Format(usage.File{Version: 1, Since: ut0, FoldedUntil: sec(k), Memories: map[string]usage.Record{"alpha.md": {Injected: k + 1}}})
		ws.Store.UpdateSide(t.Context(), memdir.UsageFile, func([]byte) ([]byte, error) { return f, nil })
		res, err := ws.FoldUsage(t.Context(), sec(n+60))
		if err != nil || res.Lines != n-k {
			t.Errorf("FoldedUntil at line %d: FoldUsage = %+v, %v; want %d lines", k, res, err, n-k)
		}
		if got, want := counts(readUsage(t, ws)), fmt.Sprintf("alpha.md=%d beta.md=1", n); got != want {
			t.Errorf("FoldedUntil at line %d: counts %s, want %s", k, got, want)
		}
	}
}

// TestUsage_SharedFolder: a memory folder that autoMemoryDirectory gives
// every project counts every project's lines; the default folder of a
// project counts its own.
func TestUsage_SharedFolder(t *testing.T) {
	env, l := testEnv(t)
	shared := filepath.Join(filepath.Dir(l.ProjectRoot), "shared-memory")
	os.MkdirAll(l.Home, 0o700)
	os.WriteFile(filepath.Join(l.Home, "settings.json"), []byte(`{"autoMemoryDirectory": "`+shared+`"}`), 0o600)
	l, err := env.Layout()
	if err != nil || l.MemorySource != "user-settings" {
		t.Fatalf("layout: %+v, %v", l, err)
	}
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	save(t, ws, "Alpha")
	writeRecallLog(t, ws, nil, []string{recallLine(uat(0), l.ProjectRoot, "alpha.md"), recallLine(uat(1), "/another/project", "alpha.md")})
	if _, err := ws.FoldUsage(t.Context(), uat(60)); err != nil {
		t.Fatal(err)
	}
	if got := counts(readUsage(t, ws)); got != "alpha.md=2" {
		t.Errorf("shared folder: %s, want both projects' lines", got)
	}
}
